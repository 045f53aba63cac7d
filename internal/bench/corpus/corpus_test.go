package corpus_test

// These tests read the generated files back with a deliberately small,
// independent parser (front matter split + yaml.v3 + regular expressions)
// rather than the project's content loader.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
)

type source struct {
	Title string `yaml:"title"`
	URL   string `yaml:"url"`
}

// organizations are the organizations an original may name: the three
// clouds, and the companies of the SaaS products, which alone may list no
// products (a report on their own service).
var organizations = map[string]bool{"Google Cloud": true, "Amazon Web Services": true, "Microsoft Azure": true}

var saasCompanies = map[string]bool{
	"GitHub": true, "Cloudflare": true, "Fastly": true, "Slack": true, "Heroku": true, "PagerDuty": true,
	"Stripe": true, "Twilio": true, "Okta": true, "Auth0": true,
}

type frontMatter struct {
	Title        string   `yaml:"title"`
	Summary      string   `yaml:"summary"`
	Timezone     string   `yaml:"timezone"`
	Begin        string   `yaml:"begin"`
	End          string   `yaml:"end"`
	Ongoing      bool     `yaml:"ongoing"`
	Organization string   `yaml:"organization"`
	Products     []string `yaml:"products"`
	Regions      []string `yaml:"regions"`
	Causes       []string `yaml:"causes"`
	Severity     string   `yaml:"severity"`
	Related      []string `yaml:"related"`
	Sources      []source `yaml:"sources"`
}

type doc struct {
	lang string
	fm   frontMatter
	body string
	raw  []byte
}

type incident struct {
	id    string
	docs  map[string]*doc
	orig  *doc
	loc   *time.Location
	begin time.Time
	end   time.Time
}

var (
	idRe       = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})-[a-z0-9]+(-[a-z0-9]+)*$`)
	slugRe     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	timelineRe = regexp.MustCompile(`^- (?:(\d{4}-\d{2}-\d{2}) )?(\d{2}:\d{2}) — (\S.*)$`)
	headingRe  = regexp.MustCompile(`(?m)^## (.+) \{#([a-z-]+)\}$`)
)

func parseDoc(t *testing.T, path string) *doc {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("%s: does not start with ---", path)
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		t.Fatalf("%s: unterminated front matter", path)
	}
	d := &doc{lang: strings.TrimSuffix(filepath.Base(path), ".md"), raw: raw, body: s[4+end+5:]}
	dec := yaml.NewDecoder(strings.NewReader(s[4 : 4+end+1]))
	dec.KnownFields(true)
	if err := dec.Decode(&d.fm); err != nil {
		t.Fatalf("%s: front matter: %v", path, err)
	}
	return d
}

func generate(t *testing.T, o corpus.Options) (string, corpus.Stats) {
	t.Helper()
	dir := t.TempDir()
	st, err := corpus.GenerateStats(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st
}

// load reads every incident of dir/content.
func load(t *testing.T, dir string) map[string]*incident {
	t.Helper()
	incs := map[string]*incident{}
	ents, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		inc := &incident{id: e.Name(), docs: map[string]*doc{}}
		files, _ := filepath.Glob(filepath.Join(dir, "content", e.Name(), "*.md"))
		for _, f := range files {
			d := parseDoc(t, f)
			inc.docs[d.lang] = d
			if d.fm.Timezone != "" {
				if inc.orig != nil {
					t.Fatalf("%s: two originals", inc.id)
				}
				inc.orig = d
			}
		}
		if inc.orig == nil {
			t.Fatalf("%s: no original", inc.id)
		}
		loc, err := time.LoadLocation(inc.orig.fm.Timezone)
		if err != nil {
			t.Fatalf("%s: %v", inc.id, err)
		}
		inc.loc = loc
		inc.begin = parseWall(t, inc.orig.fm.Begin, loc)
		switch fm := inc.orig.fm; {
		case fm.Ongoing && fm.End == "":
			// Not over: no end, and no bound on the last event.
		case !fm.Ongoing && fm.End != "":
			inc.end = parseWall(t, fm.End, loc)
		default:
			t.Fatalf("%s: end %q with ongoing %v; want one of them", inc.id, fm.End, fm.Ongoing)
		}
		incs[inc.id] = inc
	}
	return incs
}

func parseWall(t *testing.T, s string, loc *time.Location) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
	if err != nil {
		t.Fatalf("bad local time %q: %v", s, err)
	}
	if !unambiguous(tm) {
		t.Errorf("local time %q in %s is in a DST gap or overlap", s, loc)
	}
	return tm
}

// unambiguous: the wall clock round-trips and no instant an hour (or half
// an hour, or two hours) away shows the same wall clock.
func unambiguous(tm time.Time) bool {
	wall := tm.Format("2006-01-02 15:04")
	if back, _ := time.ParseInLocation("2006-01-02 15:04", wall, tm.Location()); !back.Equal(tm) {
		return false
	}
	for _, d := range []time.Duration{30 * time.Minute, time.Hour, 2 * time.Hour} {
		if tm.Add(d).Format("2006-01-02 15:04") == wall || tm.Add(-d).Format("2006-01-02 15:04") == wall {
			return false
		}
	}
	return true
}

type tlItem struct {
	prefix string
	at     time.Time
	text   string
}

// timeline returns the items of the list directly under the {#timeline} heading.
func timeline(t *testing.T, id string, d *doc, loc *time.Location) []tlItem {
	t.Helper()
	i := strings.Index(d.body, "{#timeline}\n\n")
	if i < 0 {
		t.Fatalf("%s/%s: no timeline heading", id, d.lang)
	}
	var items []tlItem
	date := ""
	for _, line := range strings.Split(d.body[i+len("{#timeline}\n\n"):], "\n") {
		if line == "" {
			break
		}
		m := timelineRe.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s/%s: bad timeline item %q", id, d.lang, line)
		}
		if m[1] != "" {
			date = m[1]
		} else if date == "" {
			t.Fatalf("%s/%s: first timeline item has no date: %q", id, d.lang, line)
		}
		at := parseWall(t, date+" "+m[2], loc)
		prefix := m[2]
		if m[1] != "" {
			prefix = m[1] + " " + m[2]
		}
		items = append(items, tlItem{prefix: prefix, at: at, text: m[3]})
	}
	return items
}

func words(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "{#") {
			continue
		}
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

func cjkChars(s string) int {
	n := 0
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			n++
		}
	}
	return n
}

func TestDeterministic(t *testing.T) {
	o := corpus.Options{N: 60, Langs: []string{"en", "zh-TW", "ja"}, Seed: 7}
	a, sa := generate(t, o)
	b, sb := generate(t, o)
	if sa != sb {
		t.Fatalf("stats differ: %+v vs %+v", sa, sb)
	}
	fa, fb := readTree(t, a), readTree(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("file counts differ: %d vs %d", len(fa), len(fb))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Fatalf("%s differs between runs", name)
		}
	}
	o.Seed = 8
	c, _ := generate(t, o)
	fc := readTree(t, c)
	same := 0
	for name, data := range fc {
		if bytes.Equal(data, fa[name]) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seed 8 reproduced %d files of seed 7", same)
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCountsAndOriginals(t *testing.T) {
	const n = 300
	dir, st := generate(t, corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 3})
	incs := load(t, dir)
	if len(incs) != n || st.Incidents != n || st.Files != 2*n {
		t.Fatalf("got %d incidents on disk, stats %+v; want %d incidents, %d files", len(incs), st, n, 2*n)
	}
	originals, err := corpus.Originals(corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 3})
	if err != nil || len(originals) != n {
		t.Fatalf("Originals: %d incidents, %v", len(originals), err)
	}
	var size int64
	alt := 0
	for id, inc := range incs {
		if originals[id] != inc.orig.lang {
			t.Errorf("%s: Originals says %q, the file with the facts is %s", id, originals[id], inc.orig.lang)
		}
		if len(inc.docs) != 2 || inc.docs["en"] == nil || inc.docs["zh-TW"] == nil {
			t.Fatalf("%s: languages %v", id, slices.Collect(mapKeys(inc.docs)))
		}
		for _, d := range inc.docs {
			size += int64(len(d.raw))
			if d.fm.Title == "" || d.fm.Summary == "" {
				t.Errorf("%s/%s: empty title or summary", id, d.lang)
			}
			if d != inc.orig && (d.fm.Begin != "" || d.fm.Products != nil || d.fm.Severity != "" || d.fm.Organization != "") {
				t.Errorf("%s/%s: translation carries facts", id, d.lang)
			}
		}
		if inc.orig.lang == "zh-TW" {
			alt++
		}
	}
	if size != st.Bytes {
		t.Errorf("stats bytes %d, files hold %d", st.Bytes, size)
	}
	if alt < n*4/100 || alt > n*18/100 {
		t.Errorf("%d of %d originals are zh-TW, want about 10%%", alt, n)
	}
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestContent(t *testing.T) {
	dir, _ := generate(t, corpus.Options{N: 200, Langs: []string{"en", "zh-TW", "ja"}, Seed: 11})
	incs := load(t, dir)
	severities := map[string]bool{"minor": true, "major": true, "critical": true}
	wantHeadings := []string{"impact", "root-cause", "remediation", "timeline"}
	tables, midnight, leads, items := 0, 0, 0, 0
	for id, inc := range incs {
		fm := inc.orig.fm
		m := idRe.FindStringSubmatch(id)
		if m == nil {
			t.Fatalf("bad id %q", id)
		}
		if m[1] != inc.begin.Format("2006-01-02") {
			t.Errorf("%s: id date differs from local begin %s", id, fm.Begin)
		}
		if y := inc.begin.Year(); y < 2008 || y > 2026 {
			t.Errorf("%s: begin year %d", id, y)
		}
		if d := inc.end.Sub(inc.begin); !inc.end.IsZero() && (d < 5*time.Minute || d > 31*time.Hour) {
			t.Errorf("%s: duration %v", id, d)
		}
		if !inc.end.IsZero() && inc.begin.Format("2006-01-02") != inc.end.Format("2006-01-02") {
			midnight++
		}
		minProducts := 1
		if saasCompanies[fm.Organization] {
			minProducts = 0
		}
		if !organizations[fm.Organization] && !saasCompanies[fm.Organization] ||
			len(fm.Products) < minProducts || len(fm.Products) > 4 || len(fm.Regions) < 1 || len(fm.Regions) > 3 ||
			len(fm.Causes) < 1 || len(fm.Causes) > 3 || fm.Severity != "" && !severities[fm.Severity] || len(fm.Related) > 3 {
			t.Errorf("%s: facts out of range: %+v", id, fm)
		}
		for _, c := range fm.Causes {
			if !slugRe.MatchString(c) {
				t.Errorf("%s: bad cause %q", id, c)
			}
		}
		for _, r := range fm.Related {
			rel, ok := incs[r]
			if !ok {
				t.Errorf("%s: related %s does not exist", id, r)
			} else if !rel.begin.Before(inc.begin) {
				t.Errorf("%s: related %s is not earlier", id, r)
			}
		}

		orig := timeline(t, id, inc.orig, inc.loc)
		if len(orig) < 6 || len(orig) > 12 {
			t.Errorf("%s: %d timeline items", id, len(orig))
		}
		if !orig[0].at.Equal(inc.begin) {
			t.Errorf("%s: first event %v, begin %v", id, orig[0].at, inc.begin)
		}
		for _, it := range orig {
			if leadRe.MatchString(it.text) {
				leads++
			}
		}
		items += len(orig)
		if last := orig[len(orig)-1].at; !inc.end.IsZero() && last.Before(inc.end) {
			t.Errorf("%s: last event %v before end %v", id, last, inc.end)
		}
		for i := 1; i < len(orig); i++ {
			if orig[i].at.Before(orig[i-1].at) {
				t.Errorf("%s: timeline goes backwards at %q", id, orig[i].prefix)
			}
			if orig[i].at.Format("2006-01-02") != orig[i-1].at.Format("2006-01-02") && !strings.Contains(orig[i].prefix, "-") {
				t.Errorf("%s: day changes without a date at %q", id, orig[i].prefix)
			}
		}

		for lang, d := range inc.docs {
			hs := headingRe.FindAllStringSubmatch(d.body, -1)
			var ids []string
			for _, h := range hs {
				ids = append(ids, h[2])
			}
			if !slices.Equal(ids, wantHeadings) {
				t.Errorf("%s/%s: headings %v", id, lang, ids)
			}
			if strings.Contains(d.body, "\n| --- |") {
				tables++
			}
			if d != inc.orig {
				tr := timeline(t, id, d, inc.loc)
				if len(tr) != len(orig) {
					t.Fatalf("%s/%s: %d timeline items, original has %d", id, lang, len(tr), len(orig))
				}
				for i := range tr {
					if tr[i].prefix != orig[i].prefix {
						t.Errorf("%s/%s: timeline prefix %q, original %q", id, lang, tr[i].prefix, orig[i].prefix)
					}
				}
			}
			switch lang {
			case "en":
				if n := words(d.body); n < 800 || n > 1200 {
					t.Errorf("%s/en: %d words", id, n)
				}
			default:
				if n := cjkChars(d.body); n < 1500 || n > 2500 {
					t.Errorf("%s/%s: %d CJK characters", id, lang, n)
				}
				if !utf8.ValidString(d.body) {
					t.Errorf("%s/%s: invalid UTF-8", id, lang)
				}
			}
		}
	}
	if tables < 3*len(incs)*15/100 {
		t.Errorf("only %d of %d files have a table", tables, 3*len(incs))
	}
	if midnight == 0 {
		t.Error("no incident crosses midnight")
	}
	if leads < items*8/100 || leads > items*22/100 {
		t.Errorf("%d of %d timeline items start with formatting; want about 15%%", leads, items)
	}
	if n := overlaps(incs); n < len(incs)/20 {
		t.Errorf("only %d incidents overlap another", n)
	}
}

// overlaps counts incidents whose interval overlaps an earlier-starting one.
func overlaps(incs map[string]*incident) int {
	list := slices.Collect(func(yield func(*incident) bool) {
		for _, i := range incs {
			if !yield(i) {
				return
			}
		}
	})
	sort.Slice(list, func(i, j int) bool { return list[i].begin.Before(list[j].begin) })
	n := 0
	var maxEnd time.Time
	for i, inc := range list {
		if i > 0 && inc.begin.Before(maxEnd) {
			n++
		}
		if inc.end.After(maxEnd) {
			maxEnd = inc.end
		}
	}
	return n
}

// leadRe is the formatting a timeline item's text may start with: a name
// in emphasis, bold, a code span, a bare URL.
var leadRe = regexp.MustCompile("^(_[^_]+_ |\\*\\*[^*]+\\*\\* |`[^`]+` |https://\\S+ )")

// Reports vary as real ones do: most state no severity, a few are not
// over, every one names its organization, and only a SaaS company's
// report on its own service lists no products.
func TestReportsVary(t *testing.T) {
	incs, err := corpus.Plan(corpus.Options{N: 4000, Langs: []string{"en"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	severity, ongoing, noProducts, saas := 0, 0, 0, 0
	orgs := map[string]bool{}
	for _, inc := range incs {
		orgs[inc.Organization] = true
		if inc.Severity != "" {
			severity++
		}
		if inc.Ongoing {
			ongoing++
		}
		if saasCompanies[inc.Organization] {
			saas++
			if inc.NoProducts {
				noProducts++
			}
		} else if inc.NoProducts || !organizations[inc.Organization] {
			t.Errorf("%s: organization %q, no products %v", inc.ID, inc.Organization, inc.NoProducts)
		}
	}
	n := len(incs)
	if severity < n*30/100 || severity > n*50/100 {
		t.Errorf("%d of %d state a severity; want about 40%%", severity, n)
	}
	if ongoing < n/200 || ongoing > n*4/100 {
		t.Errorf("%d of %d are ongoing; want about 2%%", ongoing, n)
	}
	if noProducts == 0 || noProducts == saas {
		t.Errorf("%d of %d SaaS reports list no products; want some", noProducts, saas)
	}
	if len(orgs) < 8 {
		t.Errorf("only %d organizations: %v", len(orgs), orgs)
	}
}

func TestVocabulary(t *testing.T) {
	dir, _ := generate(t, corpus.Options{N: 200, Langs: []string{"en"}, Seed: 5})
	incs := load(t, dir)
	distinct := map[string]int{}
	paras := map[string]string{}
	wordRe := regexp.MustCompile(`[a-z]+`)
	for id, inc := range incs {
		body := inc.docs["en"].body
		for _, w := range wordRe.FindAllString(strings.ToLower(body), -1) {
			distinct[w]++
		}
		for _, p := range strings.Split(body, "\n\n") {
			if words(p) < 30 || strings.HasPrefix(p, "- ") || strings.HasPrefix(p, "|") {
				continue
			}
			if other, dup := paras[p]; dup {
				t.Errorf("paragraph repeated in %s and %s: %.80q", id, other, p)
			}
			paras[p] = id
		}
	}
	if len(distinct) <= 2000 {
		t.Errorf("%d distinct English words across 200 incidents, want > 2000", len(distinct))
	}
	// Zipf-like: the most frequent word is much more frequent than the median one.
	counts := slices.Collect(func(yield func(int) bool) {
		for _, c := range distinct {
			if !yield(c) {
				return
			}
		}
	})
	slices.Sort(counts)
	if top, med := counts[len(counts)-1], counts[len(counts)/2]; top < 100*med {
		t.Errorf("flat term distribution: top %d, median %d", top, med)
	}
	t.Logf("%d distinct words, %d paragraphs", len(distinct), len(paras))
}

func TestPlanScale(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 5000
	}
	start := time.Now()
	incs, err := corpus.Plan(corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("planned %d incidents in %v", n, time.Since(start))
	ids := map[string]*corpus.Incident{}
	dst, overlapping := 0, 0
	for i := range incs {
		inc := &incs[i]
		if _, dup := ids[inc.ID]; dup {
			t.Fatalf("duplicate id %s", inc.ID)
		}
		ids[inc.ID] = inc
		m := idRe.FindStringSubmatch(inc.ID)
		if m == nil || m[1] != inc.Begin.Format("2006-01-02") || inc.Begin.Location().String() != inc.Zone {
			t.Fatalf("%s: id/zone inconsistent with begin %v", inc.ID, inc.Begin)
		}
		if !unambiguous(inc.Begin) || !unambiguous(inc.End) {
			t.Errorf("%s: ambiguous begin or end", inc.ID)
		}
		if _, o1 := inc.Begin.Zone(); true {
			if _, o2 := inc.End.Zone(); o1 != o2 {
				dst++
			}
		}
		if inc.Overlaps != "" {
			p := ids[inc.Overlaps]
			if p == nil || !inc.Begin.Before(p.End) || inc.Begin.Before(p.Begin) {
				t.Errorf("%s: does not overlap %s", inc.ID, inc.Overlaps)
			}
			overlapping++
		}
		for _, r := range inc.Related {
			if p := ids[r]; p == nil || !p.Begin.Before(inc.Begin) {
				t.Errorf("%s: related %s missing or not earlier", inc.ID, r)
			}
		}
	}
	if dst < n/100 {
		t.Errorf("only %d of %d incidents cross a DST change", dst, n)
	}
	if overlapping < n/10 {
		t.Errorf("only %d of %d incidents overlap another", overlapping, n)
	}
}

func TestRenderMatchesWriteIncident(t *testing.T) {
	incs, err := corpus.Plan(corpus.Options{N: 20, Langs: []string{"ja", "en"}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inc := &incs[len(incs)-1]
	if err := corpus.WriteIncident(dir, inc); err != nil {
		t.Fatal(err)
	}
	for _, lang := range inc.Langs {
		want, err := corpus.Render(inc, lang)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "content", inc.ID, lang+".md"))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s/%s: written file differs from Render (err %v)", inc.ID, lang, err)
		}
		if d := parseDoc(t, filepath.Join(dir, "content", inc.ID, lang+".md")); (d.fm.Timezone != "") != (lang == inc.Original) {
			t.Errorf("%s/%s: original is %s", inc.ID, lang, inc.Original)
		}
	}
	if _, err := corpus.Render(inc, "zh-TW"); err == nil {
		t.Error("Render of a language not in Langs succeeded")
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []corpus.Options{
		{N: -1},
		{N: 1, Langs: []string{"fr"}},
		{N: 1, Langs: []string{"en", "en"}},
	} {
		if _, err := corpus.Plan(o); err == nil {
			t.Errorf("Plan(%+v) succeeded", o)
		}
	}
	incs, err := corpus.Plan(corpus.Options{N: 3})
	if err != nil || len(incs) != 3 || !slices.Equal(incs[0].Langs, []string{"en"}) {
		t.Errorf("default options: %v %v", incs, err)
	}
}

func BenchmarkGenerate1000(b *testing.B) {
	for b.Loop() {
		if err := corpus.Generate(b.TempDir(), corpus.Options{N: 1000, Langs: []string{"en", "zh-TW"}, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// With VariedLength, reports range from a status page's short note to a
// long postmortem, in about the planned shares; every section of a short
// note still says something, and its timeline is the start, at most two
// events and the mitigation. A Regular report is byte for byte what it is
// without the option, so benchmarks that leave it off are unchanged.
func TestVariedLength(t *testing.T) {
	const n = 300
	o := corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 4}
	plain := readTree(t, func() string { dir, _ := generate(t, o); return dir }())
	o.VariedLength = true
	dir, _ := generate(t, o)
	varied := readTree(t, dir)
	incs := load(t, dir)
	planned, err := corpus.Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	count := map[corpus.Length]int{}
	for _, p := range planned {
		count[p.Length]++
		inc := incs[p.ID]
		for lang, d := range inc.docs {
			name := filepath.Join("content", p.ID, lang+".md")
			if p.Length == corpus.Regular {
				if !bytes.Equal(varied[name], plain[name]) {
					t.Errorf("%s: a regular report differs from the one without VariedLength", name)
				}
				continue
			}
			size := words(d.body)
			lo, hi := 100, 420
			if lang != "en" {
				size, lo, hi = cjkChars(d.body), 200, 850
			}
			if p.Length == corpus.Long {
				lo, hi = 2400, 5100
				if lang != "en" {
					lo, hi = 4700, 9700
				}
			}
			if size < lo || size > hi {
				t.Errorf("%s (length %d): %d words or characters, want %d–%d", name, p.Length, size, lo, hi)
			}
			if p.Length != corpus.Short {
				continue
			}
			sections := headingRe.Split(d.body, -1)[1:]
			for i, s := range sections {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s: section %d is empty", name, i)
				}
			}
			if tl := timeline(t, p.ID, d, inc.loc); len(tl) < 2 || len(tl) > 4 {
				t.Errorf("%s: %d timeline items, want 2–4", name, len(tl))
			}
			if strings.Contains(d.body, "\n| --- |") {
				t.Errorf("%s: a short note has a table", name)
			}
		}
	}
	if s, l := count[corpus.Short], count[corpus.Long]; s < n*25/100 || s > n*45/100 || l < n*8/100 || l > n*22/100 {
		t.Errorf("%d short and %d long of %d; want about 35%% and 15%%", s, l, n)
	}
}

// Every cause has a name in every language, and the titles of the
// incidents whose first cause it is say that name.
func TestCauseName(t *testing.T) {
	for _, slug := range corpus.CauseSlugs() {
		for _, lang := range corpus.SupportedLangs {
			if name, ok := corpus.CauseName(slug, lang); !ok || name == "" {
				t.Errorf("cause %s has no name in %s", slug, lang)
			}
		}
	}
	if _, ok := corpus.CauseName("no-such-cause", "en"); ok {
		t.Error("a name for an unknown cause")
	}
	incs, err := corpus.Plan(corpus.Options{N: 40, Langs: []string{"en", "zh-TW"}, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	said := 0
	for i := range incs {
		inc := &incs[i]
		for _, lang := range inc.Langs {
			b, err := corpus.Render(inc, lang)
			if err != nil {
				t.Fatal(err)
			}
			name, _ := corpus.CauseName(inc.Causes[0], lang)
			head, _, _ := strings.Cut(string(b), "\n---\n")
			if strings.Contains(strings.ToLower(head), strings.ToLower(name)) {
				said++
			}
		}
	}
	if said < 2*len(incs)*9/10 {
		t.Errorf("the titles or summaries of %d of %d files name their first cause", said, 2*len(incs))
	}
}

// zh-CN files are Simplified, in the Mainland's words where the fold has
// them, and drawn apart from the zh-TW ones; a zh-CN original states the
// facts.
func TestSimplifiedChinese(t *testing.T) {
	o := corpus.Options{N: 60, Langs: []string{"zh-CN", "en", "zh-TW"}, Seed: 5}
	incs, err := corpus.Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	traditional := regexp.MustCompile(`[們這個資網體務與發態應據時間軸]`)
	mainland := 0
	for i := range incs {
		inc := &incs[i]
		cn, err := corpus.Render(inc, "zh-CN")
		if err != nil {
			t.Fatal(err)
		}
		text := string(cn) // Render's bytes are reused by the next call
		tw, err := corpus.Render(inc, "zh-TW")
		if err != nil {
			t.Fatal(err)
		}
		if m := traditional.FindString(text); m != "" {
			t.Errorf("%s/zh-CN.md has the Traditional %q", inc.ID, m)
		}
		if strings.Contains(text, "数据") || strings.Contains(text, "服务器") {
			mainland++
		}
		if text == string(tw) || !strings.Contains(text, "## 影响 {#impact}") {
			t.Errorf("%s/zh-CN.md is zh-TW's text, or lacks the Simplified heading 影响", inc.ID)
		}
		if strings.Contains(text, "\ntimezone: ") != (inc.Original == "zh-CN") {
			t.Errorf("%s/zh-CN.md: original is %s, timezone stated %v", inc.ID, inc.Original, strings.Contains(text, "\ntimezone: "))
		}
	}
	if mainland < len(incs)/2 {
		t.Errorf("%d of %d zh-CN files say 数据 or 服务器", mainland, len(incs))
	}
	if name, _ := corpus.CauseName("config-change", "zh-CN"); name != "错误的设置变更" {
		t.Errorf("config-change in zh-CN: %q", name)
	}
}
