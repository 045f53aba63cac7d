package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	blevequery "github.com/blevesearch/bleve/v2/search/query"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/locate"
	"github.com/postmortem-archive/gen/search/schema"
)

// phraseDocs are documents where the words of the test phrases often
// occur apart, in another order or split by punctuation: candidates that
// the phrase checks must reject.
func phraseDocs() []Document {
	docs := fixtures()
	docs = append(docs, genArchive(120)...)
	r := rand.New(rand.NewPCG(7, 7))
	for i, d := range genArchive(120) {
		if i%3 != 0 {
			continue
		}
		// Shuffle the words of the body and timeline.
		shuffle := func(s string) string {
			w := strings.Fields(s)
			r.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
			return strings.Join(w, " ")
		}
		shuffleRunes := func(s string) string {
			rs := []rune(s)
			for k := 0; k+4 < len(rs); k += 5 {
				rs[k], rs[k+3] = rs[k+3], rs[k]
			}
			return string(rs)
		}
		d.ID = "x-" + d.ID
		d.URL = "/x" + d.URL
		if d.Lang == "zh-TW" {
			d.Body, d.Timeline, d.Title = shuffleRunes(d.Body), shuffleRunes(d.Timeline), shuffleRunes(d.Title)
		} else {
			d.Body, d.Timeline, d.Title = shuffle(d.Body), shuffle(d.Timeline), shuffle(d.Title)
		}
		docs = append(docs, d)
	}
	docs = append(docs,
		doc("2031-01-01-near-miss", "en", "en", "Release rolled back",
			"The release was rolled; back then the release rolled back.", "Rolling back the releases, engineers rolled the release back.",
			"2031-01-01", []string{"Cloud Pub Sub"}, []string{"europe west2"}, []string{"Software bug"}),
		doc("2031-01-02-near-miss", "zh-TW", "zh-TW", "資源與耗盡",
			"資源在稍後耗盡。耗盡資源。", "負載平衡 器。負載 平衡器。負載平衡器！",
			"2031-01-02", []string{"Cloud SQL"}, []string{"asia-east1"}, []string{"Capacity"}),
	)
	return docs
}

var phraseQueries = []string{
	`"overload of the metadata"`, `"metadata overload"`, `"rolled back the release"`, `"the release"`,
	`資源耗盡`, `耗盡資源`, `資源 耗盡`, `Gmail服務中斷`, `"服務中斷"`, `負載平衡器`, `負載平衡器 -逾時`, `控制平面`,
	`Pub/Sub`, `europe-west2`, `"Cloud SQL"`, `"cloud sql" -"connection pool"`, `title:"streaming inserts"`,
	`title:"release rolled"`, `timeline:"tier scaled out"`, `summary:"metadata service"`, `product:"Cloud SQL"`,
	`product:"pub sub"`, `region:"europe west2"`, `-"message delivery" lang:ja`, `配信 -publishers`,
	`"the control plane" -逾時`, `"timed out"`, `"a storage backend" -"rolled back"`, `"rolled back" -"the release"`,
	`在尖峰流量期間`, `"quota system"`, `-資源耗盡`, `overloaded`, `storage latency`,
}

// refIndexes builds, for every language of ix, an in-memory bleve index
// of the same documents with term vectors in every text field: the old
// layout, whose phrase queries are the reference.
func refIndexes(t *testing.T, docs []Document) map[string]bleve.Index {
	t.Helper()
	byLang := map[string][]*Document{}
	for i := range docs {
		d := docs[i]
		if err := schema.Normalize(&d); err != nil {
			t.Fatal(err)
		}
		byLang[d.Lang] = append(byLang[d.Lang], &d)
	}
	out := map[string]bleve.Index{}
	for lang, ds := range byLang {
		m, err := schema.Mapping(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, dm := range m.DefaultMapping.Properties {
			for _, f := range dm.Fields {
				if f.Analyzer != kwAnalyzer {
					f.IncludeTermVectors = true
				}
			}
		}
		idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := idx.NewBatch()
		for _, d := range ds {
			if err := b.Index(d.ID, schema.BleveDoc(d, schema.NewText(d, analysis.KindOf(lang)))); err != nil {
				t.Fatal(err)
			}
		}
		if err := idx.Batch(b); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { idx.Close() })
		out[lang] = idx
	}
	return out
}

// refQuery turns the phraseQuery nodes of q into bleve's phrase queries.
func refQuery(q blevequery.Query) blevequery.Query {
	conv := func(qs []blevequery.Query) []blevequery.Query {
		out := make([]blevequery.Query, len(qs))
		for i, q := range qs {
			out[i] = refQuery(q)
		}
		return out
	}
	switch q := q.(type) {
	case *phraseQuery:
		pq := blevequery.NewMultiPhraseQuery(q.Terms, q.FieldVal)
		pq.SetBoost(q.BoostVal)
		return pq
	case *blevequery.BooleanQuery:
		c := *q
		for _, p := range []*blevequery.Query{&c.Must, &c.Should, &c.MustNot, &c.Filter} {
			if *p != nil {
				*p = refQuery(*p)
			}
		}
		return &c
	case *blevequery.ConjunctionQuery:
		c := blevequery.NewConjunctionQuery(conv(q.Conjuncts))
		c.BoostVal = q.BoostVal
		return c
	case *fieldsQuery:
		fields := conv(q.Fields)
		for i, f := range q.Fields {
			// bleve searches the phrase again at the scale's boost.
			if same, ok := f.(*sameForm); ok {
				fields[i] = scaledQuery(fields[0], same.Scale)
			}
		}
		return &fieldsQuery{Fields: fields, Tie: q.Tie}
	case *blevequery.DisjunctionQuery:
		c := blevequery.NewDisjunctionQuery(conv(q.Disjuncts))
		c.BoostVal, c.Min = q.BoostVal, q.Min
		return c
	}
	return q
}

// scaledQuery is a copy of q, a word's query converted by refQuery,
// with its boosts times scale.
func scaledQuery(q blevequery.Query, scale float64) blevequery.Query {
	switch q := q.(type) {
	case *blevequery.MultiPhraseQuery:
		c := *q
		c.SetBoost(q.BoostVal.Value() * scale)
		return &c
	case *blevequery.TermQuery:
		c := *q
		c.SetBoost(q.BoostVal.Value() * scale)
		return &c
	case *absentQuery:
		return &absentQuery{Weight: q.Weight * scale * scale}
	case *fieldsQuery:
		c := &fieldsQuery{Tie: q.Tie}
		for _, f := range q.Fields {
			c.Fields = append(c.Fields, scaledQuery(f, scale))
		}
		return c
	}
	panic(fmt.Sprintf("scaledQuery: %T", q))
}

// A name typed whole is also the word of the name it begins (Pub/Sub of
// Cloud Pub/Sub, europe-west2), an alternative at half weight: its
// phrase is searched once in each field, not twice (the alternative is
// a sameForm; TestPhrasesMatchTermVectors compares the scores with
// bleve's phrase queries searching it twice), and highlighted once.
func TestNameTypedWholeSearchedOnce(t *testing.T) {
	t.Parallel()
	ix := mustOpen(t, buildDir(t, phraseDocs()))
	for _, q := range []string{"Pub/Sub", "europe-west2", "pub/sub"} {
		p, err := newPlan(Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.expand(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(p.alternatives[0], func(w string) bool { return strings.EqualFold(w, q) }) {
			t.Fatalf("%q: not its own alternative: %q", q, p.alternatives[0])
		}
		b, err := newLangBuilder("en", ix.subs["en"].Mapping())
		if err != nil {
			t.Fatal(err)
		}
		queries, err := b.build(p.query, filters{}, p.alternatives, p.names, p.parts)
		if err != nil {
			t.Fatal(err)
		}
		fields := map[string]int{}
		for _, n := range queries.matchNodes {
			fields[n.FieldVal]++
		}
		for f, n := range fields {
			if n != 1 {
				t.Errorf("%q: its phrase is searched %d times in %s", q, n, f)
			}
		}
		if len(fields) == 0 {
			t.Errorf("%q: no phrase searched", q)
		}
		// And highlighted once: the word, its alternative and the
		// name's text are one pattern.
		for i, h := range queries.highlights {
			for _, o := range queries.highlights[:i] {
				if samePattern(h.Pattern, o.Pattern) {
					t.Errorf("%q: %q highlighted twice", q, h.Pattern.Terms)
				}
			}
		}
	}
}

// A phrase in a name field (a region, a product…) is checked as its
// candidates are collected, from the names: an incident of europe-west4
// and us-west2 has both words of europe-west2 in its regions but not the
// name, and is no match, even where the search checks nothing (totals
// and facets then count the candidates of the other fields unchecked).
func TestNamePhrasesCheckedWhenCollected(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("2020-01-01-london", "en", "en", "Storage latency in europe-west2", "Writes were slow.", "Disks were slow.",
			"2020-01-01", []string{"Cloud Storage"}, []string{"europe-west2"}, nil),
		doc("2020-01-02-two-regions", "en", "en", "Storage latency", "Writes were slow.", "Disks were slow.",
			"2020-01-02", []string{"Cloud Storage"}, []string{"europe-west4", "us-west2"}, nil),
	}
	dir := buildDir(t, docs)
	for _, split := range []int{1 << 30, 1} { // one search, or two halves at once
		ix, err := Open(dir, WithEagerChecks(0), WithSplitAt(split))
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		for _, q := range []string{"europe-west2", `"europe west2"`, `region:"europe west2"`} {
			resp := search(t, ix, Request{Query: q, PerPage: 1})
			if resp.Total != 1 || facet(resp, FacetRegion, "us-west2") != 0 {
				t.Errorf("split at %d, %q: total %d, us-west2 %d; want 1, 0", split, q, resp.Total, facet(resp, FacetRegion, "us-west2"))
			}
		}
	}
}

// A check without phrases says that nothing is unchecked without taking
// the lock of the documents beyond its table (every hit of a query of
// words asks).
func TestUncheckedWithoutPhrasesTakesNoLock(t *testing.T) {
	t.Parallel()
	c := newPhraseCheck(nil, nil, 10, nil)
	c.sets.extraMu.Lock()
	defer c.sets.extraMu.Unlock()
	done := make(chan nodeSet)
	go func() { done <- c.unchecked(1 << 40) }()
	select {
	case set := <-done:
		if !set.empty() {
			t.Errorf("unchecked nodes %v", set)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("unchecked waits for the lock")
	}
}

// The sketches an Index reads when it opens, one after the other in one
// run of bytes, are each document's, and a document without one has
// none.
func TestSketchTable(t *testing.T) {
	t.Parallel()
	ix := mustOpen(t, buildDir(t, phraseDocs()))
	for lang, ords := range ix.ords {
		with := 0
		for ord, in := range ix.meta.list {
			want, ok := []byte(nil), false
			if in.doc(lang) != nil {
				want, ok = ix.docs[lang].Sketch(in.id)
			}
			got := ords.sketches.of(int32(ord))
			if !slices.Equal(got, want) || (got == nil) != (!ok || want == nil) {
				t.Fatalf("%s %s: sketch of %d bytes (nil %v), want %d (nil %v)", lang, in.id, len(got), got == nil, len(want), want == nil)
			}
			if got != nil {
				with++
			}
		}
		if with == 0 || with == len(ix.meta.list) {
			t.Errorf("%s: %d of %d incidents have a sketch", lang, with, len(ix.meta.list))
		}
	}
}

type idScore struct {
	id    string
	score float64
}

// refSearch answers a query the way Search does, from the reference
// indexes: the matching incidents, best first.
func refSearch(t *testing.T, s Searcher, refs map[string]bleve.Index, q string) []idScore {
	t.Helper()
	ix := engineOf(s)
	// The query with the alternatives Search gives its words (the other
	// side's Chinese words).
	p, err := newPlan(Request{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.expand(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// As Search, a compound held whole first without its parts.
	parts := p.parts
	p.parts = wholeOnly(parts)
	out := refSearchPlan(t, ix, refs, p)
	if len(p.parts) < len(parts) && len(out) < surfaceWindow {
		p.parts = parts
		out = refSearchPlan(t, ix, refs, p)
	}
	return out
}

// refSearchPlan answers an expanded plan from the reference indexes.
func refSearchPlan(t *testing.T, ix *engine, refs map[string]bleve.Index, p *plan) []idScore {
	best := map[string]float64{}
	langs := map[string][]string{} // the languages each incident matches in
	excluded := map[string]bool{}
	for _, lang := range sortedKeys(ix.subs) {
		b, err := newLangBuilder(lang, ix.subs[lang].Mapping())
		if err != nil {
			t.Fatal(err)
		}
		queries, err := b.build(p.query, filters{}, p.alternatives, p.names, p.parts)
		if err != nil {
			t.Fatal(err)
		}
		run := func(q blevequery.Query) map[string]float64 {
			// Scored with the statistics of ix (the same documents).
			res, err := refs[lang].SearchInContext(scoringContext(context.Background(), ix.bm25[lang]),
				bleve.NewSearchRequestOptions(refQuery(q), 100000, 0, false))
			if err != nil {
				t.Fatal(err)
			}
			hits := map[string]float64{}
			for _, h := range res.Hits {
				hits[h.ID] = h.Score
			}
			return hits
		}
		norms := lengthNorms(ix.meta.list, lang, ix.docs[lang]) // as Search weighs each document's length
		if queries.match != nil {
			for id, s := range run(queries.match) {
				langs[id] = append(langs[id], lang)
				s *= float64(norms[ix.meta.incidents[id].ord])
				if old, ok := best[id]; !ok || s > old {
					best[id] = s
				}
			}
		}
		if queries.exclude != nil {
			for id := range run(queries.exclude) {
				excluded[id] = true
			}
		}
	}
	var out []idScore
	for id, s := range best {
		if !excluded[id] {
			out = append(out, idScore{id, s})
		}
	}
	if !p.ranked {
		slices.SortFunc(out, func(a, b idScore) int {
			x, y := ix.meta.incidents[a.id].primary.Begin, ix.meta.incidents[b.id].primary.Begin
			if c := y.Compare(x); c != 0 {
				return c
			}
			return strings.Compare(a.id, b.id)
		})
		for i := range out {
			out[i].score = 0
		}
		return out
	}
	slices.SortFunc(out, func(a, b idScore) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
	// Among the first surfaceWindow, the incidents with the query's
	// Chinese or Japanese as typed come first, then those with its
	// compounds whole in another form, then those with their parts
	// alone (surface.go).
	if forms := surfaces(p.query); len(forms) > 0 {
		compounds := wholes(p)
		tier := func(r idScore) int {
			best := 2
			for _, lang := range langs[r.id] {
				txt, err := ix.docs[lang].Text(r.id)
				if err != nil {
					t.Fatal(err)
				}
				text := ix.meta.incidents[r.id].doc(lang).Title + "\n" + txt.All()
				if containsAll(text, forms) {
					return 0
				}
				if !slices.ContainsFunc(compounds, func(c []string) bool {
					return !slices.ContainsFunc(c, func(f string) bool { return strings.Contains(text, f) })
				}) {
					best = 1
				}
			}
			return best
		}
		window := out[:min(len(out), surfaceWindow)]
		slices.SortStableFunc(window, func(a, b idScore) int { return tier(a) - tier(b) })
	}
	return out
}

// Phrases checked on the text match exactly what bleve's phrase queries
// over term vectors match, with the same scores; with few checks allowed,
// the pages are still the same and totals only higher.
func TestPhrasesMatchTermVectors(t *testing.T) {
	t.Parallel()
	docs := phraseDocs()
	refs := refIndexes(t, docs)
	dir := buildDir(t, docs)
	for _, tc := range []struct {
		name          string
		eager, split  int
		totalsInexact bool
	}{
		{"exact", 1 << 30, 1 << 30, false},
		{"lazy", 0, 1 << 30, true},
		{"split", 5, 40, true},
	} {
		opts := []Option{WithEagerChecks(tc.eager), WithSplitAt(tc.split)}
		disk, err := Open(dir, opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer disk.Close()
		editable := editableOf(t, docs, opts...)
		for name, ix := range map[string]Searcher{"disk": disk, "editable": editable} {
			for _, q := range phraseQueries {
				want := refSearch(t, ix, refs, q)
				var got []idScore
				total := -1
				for page := 1; page <= 6; page++ {
					resp := search(t, ix, Request{Query: q, Page: page, PerPage: 20})
					if total < 0 {
						total = resp.Total
					}
					for _, r := range resp.Results {
						got = append(got, idScore{r.ID, r.Score})
					}
				}
				if tc.totalsInexact && total < len(want) || !tc.totalsInexact && total != len(want) {
					t.Errorf("%s %s %q: total %d, reference %d", tc.name, name, q, total, len(want))
				}
				if len(want) > len(got) {
					want = want[:len(got)]
				}
				if len(got) != len(want) {
					t.Errorf("%s %s %q: %d results, reference %d", tc.name, name, q, len(got), len(want))
					continue
				}
				for i := range got {
					if got[i].id != want[i].id || math.Abs(got[i].score-want[i].score) > 1e-9 {
						t.Errorf("%s %s %q: result %d is %v, reference %v", tc.name, name, q, i, got[i], want[i])
						break
					}
				}
			}
		}
	}
}

// Phrases and runs of CJK characters are highlighted as one mark, only
// where they occur as phrases; fragments are escaped, cut with ellipses
// and in document order.
func TestHighlightPhrases(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Filler words about nothing in particular. ", 20)
	docs := []Document{
		doc("h-1", "en", "en", "Metadata", "The overload of the metadata service stopped writes.",
			"An overload in one shard. Later, metadata was fine. The metadata overload ended.",
			"2020-01-01", nil, nil, nil),
		doc("h-2", "zh-TW", "zh-TW", "配額", "配額系統資源耗盡。",
			"另一個資源在稍後耗盡。負載平衡器故障。", "2020-01-02", nil, nil, nil),
		doc("h-3", "en", "en", "Long", "Short summary.",
			long+"The <b>quota</b> system failed & rolled back the release. "+long+"Then the cache & the quota. "+long+"Finally a zebra.",
			"2020-01-03", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		frags := func(q string) []string {
			t.Helper()
			resp := search(t, ix, Request{Query: q})
			if len(resp.Results) != 1 {
				t.Fatalf("%s %q: %d results", name, q, len(resp.Results))
			}
			return resp.Results[0].Fragments
		}
		if got := frags(`"overload of the metadata"`); !slices.Equal(got, []string{"The <mark>overload of the metadata</mark> service stopped writes."}) {
			t.Errorf("%s: phrase: %q", name, got)
		}
		if got := frags(`"資源耗盡"`); !slices.Equal(got, []string{"配額系統<mark>資源耗盡</mark>。"}) {
			t.Errorf("%s: CJK phrase: %q", name, got)
		}
		// A run is also a compound whose parts it finds apart.
		if got := frags(`資源耗盡`); !slices.Equal(got, []string{"配額系統<mark>資源耗盡</mark>。", "另一個<mark>資源</mark>在稍後<mark>耗盡</mark>。負載平衡器故障。"}) {
			t.Errorf("%s: CJK run: %q", name, got)
		}
		if got := frags(`資源 耗盡`); !slices.Equal(got, []string{"配額系統<mark>資源</mark><mark>耗盡</mark>。", "另一個<mark>資源</mark>在稍後<mark>耗盡</mark>。負載平衡器故障。"}) {
			t.Errorf("%s: CJK words: %q", name, got)
		}
		if got := frags(`負載平衡器 故障`); !slices.Equal(got, []string{"另一個資源在稍後耗盡。<mark>負載平衡器</mark><mark>故障</mark>。"}) {
			t.Errorf("%s: CJK run and word: %q", name, got)
		}
		got := frags(`quota "rolled back the release" zebra`)
		if len(got) != 3 {
			t.Fatalf("%s: long: %d fragments: %q", name, len(got), got)
		}
		for i, want := range []string{"<mark>quota</mark>&lt;/b&gt; system failed &amp; <mark>rolled back the release</mark>.", "the <mark>quota</mark>.", "Finally a <mark>zebra</mark>."} {
			f := got[i]
			if !strings.Contains(f, want) {
				t.Errorf("%s: fragment %d %q lacks %q", name, i, f, want)
			}
			if !strings.HasPrefix(f, "…") || i < 2 && !strings.HasSuffix(f, "…") || i == 2 && strings.HasSuffix(f, "…") {
				t.Errorf("%s: fragment %d %q: ellipses", name, i, f)
			}
			bare := strings.NewReplacer("<mark>", "", "</mark>", "", "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(f)
			if n := utf8.RuneCountInString(bare); n < 120 || n > locate.FragmentRunes+2 {
				t.Errorf("%s: fragment %d has %d characters: %q", name, i, n, f)
			}
			if strings.HasPrefix(strings.TrimPrefix(f, "…"), " ") {
				t.Errorf("%s: fragment %d starts with a space: %q", name, i, f)
			}
		}
	}
}

func mustOpen(t *testing.T, dir string) *Index {
	t.Helper()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestOrderTop(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	ins := make([]incident, 5000)
	for i := range ins {
		ins[i].id = fmt.Sprintf("%05d", i)
	}
	order := func(a, b *match) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.in.id, b.in.id)
	}
	for _, n := range []int{0, 1, 5, 33, 200, 5000} {
		for _, k := range []int{0, 1, 3, 10, 50, 1000, 6000} {
			ms := make([]match, n)
			for i := range ms {
				ms[i] = match{in: &ins[i], score: float64(r.IntN(20))}
			}
			want := slices.Clone(ms)
			slices.SortFunc(want, func(a, b match) int { return order(&a, &b) })
			orderTop(ms, k, order)
			k := min(k, n)
			for i := range k {
				if ms[i].in != want[i].in {
					t.Fatalf("n %d k %d: position %d differs", n, k, i)
				}
			}
			ids := func(ms []match) []string {
				var out []string
				for _, m := range ms {
					out = append(out, m.in.id)
				}
				slices.Sort(out)
				return out
			}
			if !slices.Equal(ids(ms), ids(want)) {
				t.Fatalf("n %d k %d: elements lost", n, k)
			}
		}
	}
}

// Every text field has its phrases checked.
func TestCheckedFields(t *testing.T) {
	t.Parallel()
	m, _ := schema.Mapping("en")
	for name, dm := range m.DefaultMapping.Properties {
		if len(dm.Fields) == 0 {
			continue
		}
		f := dm.Fields[0]
		if f.IncludeTermVectors || f.Store {
			t.Errorf("%s: term vectors or stored", name)
		}
		if f.Analyzer != kwAnalyzer && checkedField(name) < 0 {
			t.Errorf("%s: text field whose phrases are not checked", name)
		}
	}
	var _ mapping.IndexMapping = m
	_ = unicode.IsLetter
	_ = filepath.Join
	_ = context.Background
}
