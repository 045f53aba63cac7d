package searcheval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/search"
)

// The embedded query set parses, judges only hand-written incidents, and
// covers every kind of query in every site language.
func TestQueriesAreJudged(t *testing.T) {
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 60 {
		t.Errorf("%d queries, want at least 60", len(qs))
	}
	perCategory, perLang := map[string]int{}, map[string]int{}
	for _, q := range qs {
		perCategory[q.Category]++
		perLang[q.Lang]++
	}
	for _, c := range Categories {
		if perCategory[c] < 5 {
			t.Errorf("category %s has %d queries, want at least 5", c, perCategory[c])
		}
	}
	for _, l := range []string{"en", "zh-TW", "zh-CN", "ja"} {
		if perLang[l] < 5 {
			t.Errorf("language %s has %d queries, want at least 5", l, perLang[l])
		}
	}
	ids, err := FixtureIDs()
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) < 30 {
		t.Errorf("%d hand-written incidents, want at least 30", len(ids))
	}
	// Every cause a query names is the first cause of some of the
	// floors' generated incidents, so that it judges something there.
	first, err := Site{Distractors: floorDistractors, Seed: 1, VariedLength: true}.firstCauses()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for _, slug := range q.Causes {
			if len(first[slug]) == 0 {
				t.Errorf("%s: %s is no generated incident's first cause", q.ID, slug)
			}
		}
	}
}

// Mistakes in a query set are reported together, each at its line.
func TestParseQueriesPlacesMistakes(t *testing.T) {
	src := `- {id: a, category: word, lang: en, q: x, relevant: [one]}
- {id: a, category: word, lang: en, q: x, relevant: [one]}
- {id: b, category: wrod, lang: en, q: x, relevant: [one]}
- {id: c, category: word, lang: en, q: x, relevant: [onee]}
- {id: d, category: word, lang: en, q: x, relevnt: [one]}
- {id: e, category: word, lang: en, q: x, relevant: [one], causes: [memory-leak, memory-leek]}
`
	_, err := parseQueries("q.yaml", []byte(src), []string{"one", "two"})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`q.yaml:2:3: query id "a" is empty or repeated`,
		`q.yaml:3:3: query b: unknown category "wrod"`,
		`q.yaml:4:3: query c: relevant incident "onee" is not in the judged site; did you mean "one"?`,
		`q.yaml:5:3: `,
		`relevnt`,
		`q.yaml:6:3: query e: unknown cause "memory-leek"; did you mean "memory-leak"?`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// Recall counts relevant results among the first RecallAt against at most
// RecallAt relevant ones; the reciprocal rank is that of the first
// relevant result within RankDepth.
func TestScore(t *testing.T) {
	qs := []Query{
		{ID: "1", Category: "word", Lang: "en", Relevant: []string{"a", "b"}},
		{ID: "2", Category: "word", Lang: "zh-TW", Relevant: []string{"a"}},
		{ID: "3", Category: "typo", Lang: "zh-CN", Relevant: []string{"a"}},
		{ID: "4", Category: "typo", Lang: "en", Relevant: []string{"a", "b", "c", "d", "e", "f", "g"}},
		{ID: "5", Category: CauseCategory, Lang: "ja", Relevant: []string{"b"}},
	}
	ms := time.Millisecond
	answers := []Answer{
		{IDs: []string{"x", "a", "y", "z", "w", "b"}, Total: 6, Took: 1 * ms},      // recall 1/2, rr 1/2
		{IDs: []string{"a"}, Total: 1, Took: 3 * ms},                               // recall 1, rr 1
		{Total: 0, Took: 2 * ms},                                                   // nothing
		{IDs: []string{"a", "b", "c", "d", "e", "f", "g"}, Total: 7, Took: 4 * ms}, // recall 5/5
		{IDs: []string{"b"}, Total: 1, Took: 1 * ms},                               // recall 1, rr 1
	}
	run := score("test", qs, answers)
	word, _ := run.Score("word")
	if word.Queries != 2 || word.Recall != 0.75 || word.MRR != 0.75 || word.RPrec != 0.75 || word.Zero != 0 {
		t.Errorf("word: %+v, want 2 queries, recall 0.75, MRR 0.75, R-precision 0.75, no zero", word)
	}
	if word.P50 != 1*ms || word.P95 != 3*ms {
		t.Errorf("word latency p50 %v p95 %v, want 1ms and 3ms", word.P50, word.P95)
	}
	typo, _ := run.Score("typo")
	if typo.Recall != 0.5 || typo.MRR != 0.5 || typo.Zero != 1 {
		t.Errorf("typo: %+v, want recall 0.5, MRR 0.5, one zero", typo)
	}
	if _, ok := run.Score("phrase"); ok {
		t.Error("a score for a category without queries")
	}
	if c, ok := run.Score(CauseCategory); !ok || c.Queries != 1 || c.MRR != 1 {
		t.Errorf("%s: %+v, want one query, MRR 1", CauseCategory, c)
	}
	all, _ := run.Score("all")
	if all.Queries != 5 || len(run.Misses()) != 2 {
		t.Errorf("all: %d queries, %d misses; want 5 and 2 (queries 1 and 3)", all.Queries, len(run.Misses()))
	}
	// Chinese readers of either script count together.
	if zh, ok := run.Lang("zh"); !ok || zh.Queries != 2 || zh.Recall != 0.5 || zh.MRR != 0.5 || zh.Zero != 1 {
		t.Errorf("zh: %+v, want 2 queries, recall 0.5, MRR 0.5, one zero", zh)
	}
	if en, ok := run.Lang("en"); !ok || en.Queries != 2 || en.Recall != 0.75 || en.MRR != 0.75 {
		t.Errorf("en: %+v, want 2 queries, recall 0.75, MRR 0.75", en)
	}
	var b strings.Builder
	if err := WriteTable(&b, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| word | 2 | 0.75 | 0.75 | 0 | 1.0 ms | 3.0 ms |") || !strings.Contains(b.String(), "| cause | 1 | 1.00 | 1.00 | 0 |") ||
		!strings.Contains(b.String(), "| language | queries |") || !strings.Contains(b.String(), "| zh | 2 | 0.50 | 0.50 | 1 | 2.0 ms | 3.0 ms |") {
		t.Errorf("table:\n%s", b.String())
	}
}

// A generated incident never silently replaces a hand-written one.
func TestSiteRefusesAnIDClash(t *testing.T) {
	ids, err := FixtureIDs()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "content", ids[0]), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (Site{}).Write(dir); err == nil || !strings.Contains(err.Error(), ids[0]) {
		t.Fatalf("writing over %s: %v, want an error naming it", ids[0], err)
	}
}

// The control queries judge generated incidents alone: each cause's name
// in each language, relevant to the incidents it was the first cause of;
// the control site holds no hand-written incident.
func TestCauseQueries(t *testing.T) {
	site := Site{Distractors: 60, Seed: 7, VariedLength: true, WithoutJudged: true}
	qs, err := site.CauseQueries()
	if err != nil {
		t.Fatal(err)
	}
	incs, err := corpus.Plan(site.corpusOptions())
	if err != nil {
		t.Fatal(err)
	}
	firstCause := map[string]string{}
	for _, inc := range incs {
		firstCause[inc.ID] = inc.Causes[0]
	}
	langs, judged := map[string]int{}, 0
	for _, q := range qs {
		langs[q.Lang]++
		slug := strings.TrimPrefix(q.ID, "cause-"+q.Lang+"-")
		name, _ := corpus.CauseName(slug, q.Lang)
		if q.Category != CauseCategory || q.Q != name || len(q.Relevant) == 0 {
			t.Errorf("%s: %+v, want category %s, the name %q and some relevant incidents", q.ID, q, CauseCategory, name)
		}
		for _, id := range q.Relevant {
			if firstCause[id] != slug {
				t.Errorf("%s: %s is relevant, but its first cause is %s", q.ID, id, firstCause[id])
			}
			judged++
		}
	}
	if langs["en"] == 0 || langs["en"] != langs["zh-TW"] || judged != 2*len(incs) {
		t.Errorf("%v queries by language judging %d incidents; want as many in en and zh-TW, each of the %d incidents judged once in each", langs, judged, len(incs))
	}
	dir := t.TempDir()
	if err := site.Write(dir); err != nil {
		t.Fatal(err)
	}
	ids, err := FixtureIDs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "content", ids[0])); err == nil {
		t.Errorf("the control site holds the hand-written %s", ids[0])
	}
}

// A judged query that names causes is relevant to its hand-written
// incidents and to exactly the generated incidents whose first cause is
// one of them; one without causes keeps its hand-written incidents alone.
func TestJudgeAddsFirstCauses(t *testing.T) {
	site := Site{Distractors: 120, Seed: 7, VariedLength: true}
	qs, err := parseQueries("q.yaml", []byte(`- {id: leak, category: cjk-char, lang: zh-TW, q: 洩, relevant: [one], causes: [memory-leak, bgp-route-leak]}
- {id: word, category: word, lang: en, q: x, relevant: [one, two]}
`), []string{"one", "two"})
	if err != nil {
		t.Fatal(err)
	}
	judged, err := site.Judge(qs)
	if err != nil {
		t.Fatal(err)
	}
	incs, err := corpus.Plan(site.corpusOptions())
	if err != nil {
		t.Fatal(err)
	}
	want, later := []string{"one"}, 0
	for _, inc := range incs {
		switch {
		case inc.Causes[0] == "memory-leak" || inc.Causes[0] == "bgp-route-leak":
			want = append(want, inc.ID)
		case slices.Contains(inc.Causes, "memory-leak") || slices.Contains(inc.Causes, "bgp-route-leak"):
			later++
		}
	}
	if len(want) < 3 || later == 0 {
		t.Fatalf("%d incidents with a leak as first cause, %d as a later one; want a site with both", len(want)-1, later)
	}
	got := slices.Clone(judged[0].Relevant)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("relevant to 洩: %v, want %v", got, want)
	}
	if !slices.Equal(judged[1].Relevant, []string{"one", "two"}) {
		t.Errorf("relevant to a query without causes: %v, want [one two]", judged[1].Relevant)
	}
	if len(qs[0].Relevant) != 1 {
		t.Errorf("Judge changed the query it was given: %v", qs[0].Relevant)
	}
	// The ids are those the site writes.
	dir := t.TempDir()
	if err := site.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, id := range got {
		if _, err := os.Stat(filepath.Join(dir, "content", id)); err != nil && id != "one" {
			t.Errorf("relevant %s is not in the site: %v", id, err)
		}
	}
}

// GenEngineDepth answers with as many results as asked, page after
// page, each incident once, and the first page's total.
func TestGenEngineDepth(t *testing.T) {
	ix := builtIndex(t, Site{Distractors: 80, Seed: 3, WithoutJudged: true})
	q := Query{ID: "q", Category: CauseCategory, Lang: "en", Q: "engineers"}
	for _, depth := range []int{10, 70, 500} {
		a, err := GenEngineDepth(ix, depth)(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, id := range a.IDs {
			if seen[id] {
				t.Errorf("depth %d: %s twice", depth, id)
			}
			seen[id] = true
		}
		if want := min(depth, a.Total); len(a.IDs) != want || a.Total < 70 {
			t.Errorf("depth %d: %d results of %d, want %d (and at least 70 in all)", depth, len(a.IDs), a.Total, want)
		}
	}
}

// builtIndex builds site into a temporary folder and opens its index,
// closed when the test ends.
func builtIndex(t *testing.T, site Site) *search.Index {
	t.Helper()
	public, err := site.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndex(public)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
