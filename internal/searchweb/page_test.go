package searchweb_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/sitetest"
	"github.com/postmortem-archive/gen/search/query"
)

// generated is a built archive of 300 generated incidents, shared by the
// tests of the search page at scale (built once: it takes seconds).
var generated struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if generated.dir != "" {
		os.RemoveAll(generated.dir)
	}
	os.Exit(code)
}

// serveGenerated serves the shared generated archive with search.
func serveGenerated(t *testing.T) *httptest.Server {
	t.Helper()
	generated.once.Do(func() {
		dir, err := os.MkdirTemp("", "gen-searchpage-")
		if err != nil {
			generated.err = err
			return
		}
		generated.dir = dir
		src := filepath.Join(dir, "src")
		if err := corpus.Generate(src, corpus.Options{N: 300, Langs: []string{"en", "zh-TW"}, Seed: 1, VariedLength: true}); err != nil {
			generated.err = err
			return
		}
		if err := os.CopyFS(filepath.Join(src, "i18n"), os.DirFS("../../i18n")); err != nil {
			generated.err = err
			return
		}
		_, generated.err = build.Run(build.Options{Source: src, Dest: filepath.Join(dir, "public"), BaseURL: "http://127.0.0.1:1313/"})
	})
	if generated.err != nil {
		t.Fatal(generated.err)
	}
	srv, _ := serveBuilt(t, filepath.Join(generated.dir, "public"))
	return srv
}

// pageLinks are the pagination's items as read: numbers, "…" for a gap,
// "[n]" for the current page, "←" and "→" for previous and next.
func (p page) pageLinks() []string {
	var out []string
	walk(p.doc, func(n *html.Node) {
		if n.Data != "nav" || attrOf(n, "class") != "pagination" {
			return
		}
		walk(n, func(li *html.Node) {
			if li.Data != "li" {
				return
			}
			text := textOfNode(li)
			switch {
			case strings.HasPrefix(text, "←"):
				text = "←"
			case strings.HasSuffix(text, "→"):
				text = "→"
			}
			walk(li, func(c *html.Node) {
				if c.Data == "span" && attrOf(c, "aria-current") == "page" {
					text = "[" + text + "]"
				}
			})
			out = append(out, text)
		})
	})
	return out
}

// TestResultPagesWindow: a common word's many pages are a window of
// links (first, last, the current ± 2, gaps), and each link leads to the
// page it names; the total is stated once.
func TestResultPagesWindow(t *testing.T) {
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	first := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}})
	total := first.count(t)
	pages := (total + 9) / 10
	if pages < 12 {
		t.Fatalf("latency: %d incidents, the test wants more than 11 pages", total)
	}
	last := strconv.Itoa(pages)
	for _, c := range []struct {
		page int
		want string
	}{
		{1, "[1] 2 3 … " + last + " →"},
		{6, "← 1 … 4 5 [6] 7 8 … " + last + " →"},
		{pages, "← 1 … " + strconv.Itoa(pages-2) + " " + strconv.Itoa(pages-1) + " [" + last + "]"},
	} {
		p := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}, "page": {strconv.Itoa(c.page)}})
		if got := strings.Join(p.pageLinks(), " "); got != c.want {
			t.Errorf("page %d of %d: links %q, want %q", c.page, pages, got, c.want)
		}
		n := 0
		walk(p.doc, func(n2 *html.Node) {
			if n2.Type == html.TextNode && strings.Contains(n2.Data, strconv.Itoa(total)+" incidents") {
				n++
			}
		})
		if n != 1 {
			t.Errorf("page %d: the total is stated %d times", c.page, n)
		}
	}
	// A page's button leads to the page it names.
	var to string
	walk(first.doc, func(n *html.Node) {
		if n.Data == "button" && textOfNode(n) == last {
			to = first.submits(n)
		}
	})
	u, err := url.Parse(to)
	if err != nil || u.Query().Get("page") != last || u.Query().Get("q") != "latency" {
		t.Errorf("the last page's button leads to %q", to)
	}
}

// facetGroup is one facet's section of the page: the values listed, those
// behind "Show all", and the summary's words.
type facetGroup struct {
	shown, more []string // the values' buttons' values
	counts      []int
	summary     string
}

func (p page) facetGroups(t *testing.T) map[string]*facetGroup {
	t.Helper()
	out := map[string]*facetGroup{}
	walk(p.doc, func(n *html.Node) {
		if n.Data != "aside" || attrOf(n, "class") != "facets" {
			return
		}
		walk(n, func(sec *html.Node) {
			if sec.Data != "section" {
				return
			}
			g := &facetGroup{}
			var name string
			walk(sec, func(a *html.Node) {
				if a.Data == "summary" {
					g.summary = textOfNode(a)
				}
				if a.Data != "li" {
					return
				}
				b := a.FirstChild
				if n := attrOf(b, "name"); n != "" {
					name = n
				}
				in := &g.shown
				for up := a.Parent; up != sec; up = up.Parent {
					if up.Data == "details" {
						in = &g.more
					}
				}
				*in = append(*in, attrOf(b, "value"))
				c, _ := strconv.Atoi(textOfNode(b.LastChild))
				g.counts = append(g.counts, c)
			})
			if name != "" {
				out[name] = g
			}
		})
	})
	return out
}

// TestFacetsCapped: each facet lists its ten most frequent values; the
// rest are behind "Show all N" on the same page (no JavaScript needed),
// N being the API's count of values; no value lists an incident count
// of zero; a chip names its facet in the singular.
func TestFacetsCapped(t *testing.T) {
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	res := api(t, srv, url.Values{"q": {"latency"}, "lang": {"en"}})
	p := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}})
	groups := p.facetGroups(t)
	capped := 0
	for param, g := range groups {
		facet := param
		if param == "language" {
			facet = "lang"
		}
		listed := len(res.Facets[facet])
		if len(g.shown) > 10 || len(g.shown) != min(10, listed) {
			t.Errorf("%s: %d values shown of %d listed", param, len(g.shown), listed)
		}
		if listed > 10 {
			capped++
			want := "Show all " + strconv.Itoa(res.FacetTotals[facet])
			if g.summary != want || len(g.shown)+len(g.more) != listed {
				t.Errorf("%s: summary %q, %d+%d values; want %q and %d", param, g.summary, len(g.shown), len(g.more), want, listed)
			}
		} else if g.summary != "" || len(g.more) != 0 {
			t.Errorf("%s: %d values and a disclosure %q", param, listed, g.summary)
		}
		for i, c := range g.counts {
			if c <= 0 {
				t.Errorf("%s: value %d lists %d incidents", param, i, c)
			}
		}
	}
	if capped < 3 {
		t.Errorf("only %d facets capped: %v", capped, groups)
	}
	org := res.Facets["organization"][0].Term
	f := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}, "organization": {org}})
	var chip string
	walk(f.doc, func(n *html.Node) {
		if n.Data == "button" && attrOf(n, "class") == "chip" {
			chip = textOfNode(n)
		}
	})
	if !strings.HasPrefix(chip, "Organization: "+org) {
		t.Errorf("chip %q, want it to start %q", chip, "Organization: "+org)
	}
}

// TestFiltersBehindADisclosure: the filters are a disclosure before the
// results ("Filters (n)", n the active filters), so that a phone shows
// the results first and the filters one tap away; they work as forms
// without JavaScript.
func TestFiltersBehindADisclosure(t *testing.T) {
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	for _, c := range []struct {
		q    url.Values
		want string
	}{
		{url.Values{"q": {"latency"}}, "Filters"},
		{url.Values{"q": {"latency"}, "year": {"2021"}, "severity": {"unknown"}}, "Filters (2)"},
	} {
		p := getPage(t, get, "/en/search/", c.q)
		var order []string
		var summary string
		walk(p.doc, func(n *html.Node) {
			switch {
			case n.Data == "details" && attrOf(n, "class") == "filter-panel":
				order = append(order, "filters")
				summary = textOfNode(n.FirstChild.NextSibling)
				if findID(n, "facets") == nil {
					t.Errorf("%v: the disclosure holds no facets", c.q)
				}
			case n.Data == "ol" && attrOf(n, "class") == "results":
				order = append(order, "results")
			}
		})
		if strings.Join(order, " ") != "filters results" || summary != c.want {
			t.Errorf("%v: %v, summary %q; want the disclosure %q before the results", c.q, order, summary, c.want)
		}
	}
}

// card is a result as the page shows it: its title, its facts line, its
// products line and its number of fragments.
type card struct {
	title, facts, products string
	fragments              int
}

func (p page) cards() []card {
	var out []card
	walk(p.doc, func(n *html.Node) {
		if n.Data != "li" || attrOf(n, "class") != "result" {
			return
		}
		var c card
		walk(n, func(m *html.Node) {
			switch {
			case m.Data == "h2":
				c.title = textOfNode(m)
			case m.Data == "p" && attrOf(m, "class") == "meta":
				c.facts = strings.Join(strings.Fields(textOfNode(m)), " ")
			case m.Data == "p" && attrOf(m, "class") == "meta products":
				c.products = textOfNode(m)
			case m.Data == "p" && attrOf(m, "class") == "fragment":
				c.fragments++
			}
		})
		out = append(out, c)
	})
	return out
}

// TestResultCard: a result says whose incident it was, when it began
// (date, time and zone where it happened), how severe (Unknown
// included) and how long (or that it is ongoing, or its end not stated);
// its products without its own organization beside each; and one
// passage.
func TestResultCard(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	cards := map[string]card{}
	for _, c := range getPage(t, get, "/en/search/", nil).cards() {
		cards[c.title] = c
	}
	for title, want := range map[string][2]string{
		"Name resolution errors for instances in one region":                    {"AWS · December 7, 2021, 07:30 PST · Major · 2 h 10 min", "DNS"},
		"Workflow runs wait in the queue":                                       {"GitHub · July 19, 2022, 17:00 UTC · Unknown · ongoing", "Actions"},
		"Errors listing buckets in the console":                                 {"AWS · January 10, 2023, 11:05 PST · Unknown · end not stated", "Storage"},
		"Cooling failure took storage and compute capacity offline in one zone": {"Google Cloud · July 19, 2022, 15:13 BST, UTC+1 · Unknown · end not stated", "Storage, Compute Engine"},
	} {
		c, ok := cards[title]
		if !ok {
			t.Errorf("no result %q among %v", title, cards)
			continue
		}
		if !strings.HasPrefix(c.facts, want[0]) || c.products != want[1] {
			t.Errorf("%s: facts %q, products %q; want %q…, %q", title, c.facts, c.products, want[0], want[1])
		}
	}
	// Words: one passage per result.
	found := getPage(t, get, "/en/search/", url.Values{"q": {"errors"}}).cards()
	if len(found) == 0 {
		t.Fatal("errors: no results")
	}
	for _, c := range found {
		if c.fragments != 1 {
			t.Errorf("%s: %d passages, want 1", c.title, c.fragments)
		}
	}
}

// TestTypingLetterByLetter: from the first letter, what a reader types
// finds the names that begin with it, or the page says to keep typing,
// never that no incident matches; a word of pieces (europe-west2,
// Pub/Sub, us-east-1) finds at every letter at least what the whole
// word finds.
func TestTypingLetterByLetter(t *testing.T) {
	for _, site := range []struct {
		name string
		srv  func(*testing.T) *httptest.Server
	}{{"bundled", serveSeed}, {"generated", serveGenerated}} {
		t.Run(site.name, func(t *testing.T) {
			srv := site.srv(t)
			get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
			for _, typed := range []string{"b", "bi", "big", "x", "zq", "europe-w", "Pub/S", "us-east-"} {
				res := api(t, srv, url.Values{"q": {typed}, "lang": {"en"}})
				p := getPage(t, get, "/en/search/", url.Values{"q": {typed}})
				keep := findID(p.doc, "keep-typing") != nil
				if res.Total == 0 && !res.KeepTyping && len([]rune(typed)) < 3 {
					t.Errorf("%q: no results and no advice to keep typing", typed)
				}
				if keep != res.KeepTyping || keep && (res.Total != 0 || findID(p.doc, "result-count") != nil) {
					t.Errorf("%q: page says keep typing %v, API %v, total %d", typed, keep, res.KeepTyping, res.Total)
				}
				if strings.Contains(textOfNode(p.doc), "No incident matches") && len([]rune(typed)) < 3 {
					t.Errorf("%q: the page says no incident matches", typed)
				}
			}
			// A name, or a word of the title, that begins with the letters
			// comes first.
			for _, typed := range []string{"b", "bi"} {
				res := api(t, srv, url.Values{"q": {typed}, "lang": {"en"}})
				if res.Total == 0 {
					continue // told to keep typing, checked above
				}
				r := res.Results[0]
				words := strings.Fields(r.Title)
				words = append(append(words, r.Organization), r.Products...)
				if !slices.ContainsFunc(words, func(n string) bool { return strings.HasPrefix(strings.ToLower(n), typed) }) {
					t.Errorf("%q: first %q (%s, %v), no name or word of its title beginning with it", typed, r.Title, r.Organization, r.Products)
				}
			}
			for _, whole := range []string{"europe-west2", "Pub/Sub", "us-east-1"} {
				all := api(t, srv, url.Values{"q": {whole}, "lang": {"en"}}).Total
				for n := strings.IndexAny(whole, "-/") + 2; n < len(whole); n++ {
					typed := whole[:n]
					if got := api(t, srv, url.Values{"q": {typed}, "lang": {"en"}}).Total; got < all || got == 0 && all > 0 {
						t.Errorf("%q finds %d, %q %d", typed, got, whole, all)
					}
				}
			}
		})
	}
}

// TestDateRangeAndOldestFirst: from and to (a year-month or a date, both
// included) bound the dates incidents began, in the API and the page,
// whose form holds them and whose chips remove them; results sort
// oldest first beside newest first.
func TestDateRangeAndOldestFirst(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	dates := func(q url.Values) []string {
		q.Set("lang", "en")
		var out []string
		for _, r := range api(t, srv, q).Results {
			out = append(out, r.Date)
		}
		return out
	}
	for _, c := range []struct {
		q    url.Values
		want string
	}{
		{url.Values{"from": {"2022-07"}, "to": {"2022-07"}}, "2022-07-19 2022-07-19"},
		{url.Values{"to": {"2021-12-07"}}, "2021-12-07 2021-04-01"},
		{url.Values{"from": {"2022-11-03"}}, "2023-01-10 2022-11-03"},
		{url.Values{"from": {"2021-12-08"}, "to": {"2022-07-18"}}, ""},
		{url.Values{"sort": {"oldest"}}, "2021-04-01 2021-12-07 2022-07-19 2022-07-19 2022-11-03 2023-01-10"},
		{url.Values{"sort": {"oldest"}, "from": {"2022-07-19"}, "q": {"storage"}}, "2022-07-19 2023-01-10"},
	} {
		if got := strings.Join(dates(c.q), " "); got != c.want {
			t.Errorf("%v: dates %q, want %q", c.q, got, c.want)
		}
	}
	for _, bad := range []string{"2022", "2022-13", "2022-7", "07/2022", "2022-02-30"} {
		code, body := get("/api/search", url.Values{"from": {bad}})
		if code != http.StatusBadRequest || !strings.Contains(string(body), `"code":"date"`) {
			t.Errorf("from=%s: %d %s", bad, code, body)
		}
	}
	p := getPage(t, get, "/en/search/", url.Values{"from": {"2022-07"}, "sort": {"oldest"}})
	if p.count(t) != 4 {
		t.Errorf("from 2022-07: %d incidents, want 4", p.count(t))
	}
	var from, sorted string
	walk(p.doc, func(n *html.Node) {
		if n.Data == "input" && attrOf(n, "name") == "from" && attrOf(n, "type") != "hidden" {
			from = attrOf(n, "value")
		}
		if n.Data == "span" && attrOf(n, "aria-current") == "true" && n.Parent != nil && attrOf(n.Parent, "class") == "sort" {
			sorted = textOfNode(n)
		}
	})
	if from != "2022-07" || sorted != "Oldest" {
		t.Errorf("the form's from %q, the order %q; want 2022-07 and Oldest", from, sorted)
	}
	remove, ok := p.chips()["from"]
	if u, err := url.Parse(remove); !ok || err != nil || u.Query().Has("from") || u.Query().Get("sort") != "oldest" {
		t.Errorf("the chip of from links to %q", remove)
	}
}

// TestSearchPageSizeBounded: the page stays under 100 KB whatever is
// asked, on an archive of 1,000 incidents: a letter, a common word,
// every value of the largest facet, the last page; and the longest
// queries a reader may send, every facet's values listed in turn, with
// filters, an order and a page: the page writes the query once per
// form, not once per value, order or page it offers.
func TestSearchPageSizeBounded(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 1,000 incidents")
	}
	srv := serveCorpus(t, corpus.Options{N: 1000, Langs: []string{"en", "zh-TW"}, Seed: 1, VariedLength: true})
	const limit = 100 << 10
	largest, at := 0, ""
	// check gets the page, named what (the query's name, or "" for the
	// query itself) and the other parameters.
	check := func(path, what string, q url.Values) page {
		t.Helper()
		code, body := get(t, srv, path, q)
		if what == "" {
			what = strconv.Quote(q.Get("q"))
		}
		params := maps.Clone(q)
		params.Del("q")
		what += " " + params.Encode()
		if code != http.StatusOK || len(body) > limit {
			t.Errorf("%s %s: status %d, %d bytes (limit %d)", path, what, code, len(body), limit)
		}
		t.Logf("%s %s: %d bytes", path, what, len(body))
		if len(body) > largest {
			largest, at = len(body), path+" "+what
		}
		return getPage(t, func(string, url.Values) (int, []byte) { return code, body }, "", nil)
	}
	for _, q := range []url.Values{
		{"q": {"b"}}, {"q": {"e"}}, {"q": {"latency"}}, {}, {"all": {"product"}},
		{"q": {"latency"}, "all": {"product"}, "page": {"20"}}, {"q": {"s"}, "sort": {"oldest"}},
	} {
		check("/en/search/", "", q)
	}
	facets := []string{"", "organization", "product", "region", "cause", "severity", "year", "duration", "lang"}
	for _, c := range longQueries(t) {
		for _, all := range facets {
			q := url.Values{"q": {c.q}}
			if all != "" {
				q.Set("all", all)
			}
			p := check(c.path, c.name, q)
			// What the query finds, with every facet's values: not an
			// error page, nor a short one.
			if n, values := p.count(t), p.facetValues(); n < 50 || values < 100 {
				t.Errorf("%s, all=%s: %d incidents, %d facet values; the test wants a query that finds many", c.name, all, n, values)
			}
		}
		// Filtered, ordered and paged, every value of the largest facet
		// listed: a chip per filter, every form.
		q := url.Values{"q": {c.q}, "severity": {"unknown"}, "duration": {"1-4h"}, "from": {"2010-01"}, "sort": {"oldest"}, "page": {"2"}, "all": {"product"}}
		if p := check(c.path, c.name, q); len(p.chips()) != 3 || len(p.pageLinks()) < 3 {
			t.Errorf("%s filtered: chips %v, page links %v", c.name, p.chips(), p.pageLinks())
		}
	}
	t.Logf("largest page: %d bytes, %s", largest, at)
}

// longQuery is a query of query.MaxQueryRunes runes that finds many
// incidents of the generated archive, on the search page at path.
type longQuery struct{ name, path, q string }

// longQueries are the longest queries a reader may send: 512 Chinese
// characters (a phrase of the generated reports, as many times as a
// query may hold words, apart by ideographic spaces: 9 bytes each in a
// URL); and a word with excluded phrases of ampersands (each 5 bytes in
// HTML, 3 in a URL), which analyse to nothing.
func longQueries(t *testing.T) []longQuery {
	phrase := []rune("錯誤的設定變更是第一次在這種規模下觸發它的事件")
	n := query.MaxClauses
	runes := query.MaxQueryRunes - (n - 1) // the separators
	var zh []string
	for i := range n {
		k := runes / n
		if i < runes%n {
			k++
		}
		zh = append(zh, string(phrase[:k]))
	}
	ascii := "latency"
	runes = query.MaxQueryRunes - len(ascii) - (n-1)*len(` -""`)
	for i := range n - 1 {
		k := runes / (n - 1)
		if i < runes%(n-1) {
			k++
		}
		ascii += ` -"` + strings.Repeat("&", k) + `"`
	}
	out := []longQuery{{"512 Chinese characters", "/zh-TW/search/", strings.Join(zh, "\u3000")}, {"512 ASCII characters", "/en/search/", ascii}}
	for _, c := range out {
		if got := utf8.RuneCountInString(c.q); got != query.MaxQueryRunes {
			t.Fatalf("%s: %d runes, want %d", c.name, got, query.MaxQueryRunes)
		}
	}
	return out
}

// facetValues is how many facet values the page lists.
func (p page) facetValues() int {
	n := 0
	walk(p.doc, func(f *html.Node) {
		if f.Data == "aside" && attrOf(f, "class") == "facets" {
			walk(f, func(li *html.Node) {
				if li.Data == "li" {
					n++
				}
			})
		}
	})
	return n
}

// serveCorpus builds a generated archive with the site's languages and
// serves it with search.
func serveCorpus(t *testing.T, opts corpus.Options) *httptest.Server {
	t.Helper()
	src := t.TempDir()
	if err := corpus.Generate(src, opts); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(src, "i18n"), os.DirFS("../../i18n")); err != nil {
		t.Fatal(err)
	}
	return serveSite(t, src)
}

// checkRedirects asks the English search page each query and checks that
// it answers 303 See Other to the location wanted, or, wanting "", the page.
func checkRedirects(t *testing.T, srv *httptest.Server, wants map[string]string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for query, want := range wants {
		res, err := client.Get(srv.URL + "/en/search/?" + query)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get("Location"); got != want || (want != "") != (res.StatusCode == http.StatusSeeOther) {
			t.Errorf("?%s: status %d, location %q; want %q", query, res.StatusCode, got, want)
		}
	}
}

// TestEmptyFormFieldsLeaveTheAddress: a form sent without JavaScript
// sends its empty date fields; the page answers at the address without
// them, so that it is the one a link to it has.
func TestEmptyFormFieldsLeaveTheAddress(t *testing.T) {
	checkRedirects(t, serveSite(t, "../build/testdata/reports"), map[string]string{
		"q=dns&from=&to=":          "./?q=dns",
		"from=&to=":                "./",
		"q=dns&from=2021-04&to=":   "./?from=2021-04&q=dns",
		"q=dns&from=2021-04":       "",
		"q=dns&sort=oldest&to=%20": "",
	})
}

// TestPagePerPageIsTheAPIs: the page shows ten results a page whatever
// per_page says (the API's), so that its numbered links, which count ten
// a page, lead to the results after those shown, and its size stays
// bounded.
func TestPagePerPageIsTheAPIs(t *testing.T) {
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	first := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}, "per_page": {"50"}})
	total, cards := first.count(t), first.cards()
	if len(cards) != 10 {
		t.Errorf("per_page=50: %d results on the page, want 10", len(cards))
	}
	if last := first.pageLinks()[len(first.pageLinks())-2]; last != strconv.Itoa((total+9)/10) {
		t.Errorf("%d incidents: the last page is %s, want %d at ten a page", total, last, (total+9)/10)
	}
	second := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}, "page": {"2"}})
	for _, c := range second.cards() {
		if slices.ContainsFunc(cards, func(s card) bool { return s.title == c.title }) {
			t.Errorf("%q is on the first page and the second", c.title)
		}
	}
}

// TestPagePastTheLast: a page past the last (an old link, an archive
// with fewer results now) leads to the last page, not to a total with
// no result under it.
func TestPagePastTheLast(t *testing.T) {
	checkRedirects(t, serveSite(t, "../build/testdata/reports"), map[string]string{
		"page=2":                   "./",
		"q=dns&sort=oldest&page=9": "./?q=dns&sort=oldest",
		"page=1":                   "",
	})
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	first := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}})
	last := (first.count(t) + 9) / 10
	p := getPage(t, get, "/en/search/", url.Values{"q": {"latency"}, "page": {strconv.Itoa(last + 1)}})
	if n := len(p.cards()); p.status != http.StatusOK || n == 0 || !slices.Contains(p.pageLinks(), "["+strconv.Itoa(last)+"]") {
		t.Errorf("page %d of %d: status %d, %d results, links %q; want the last page", last+1, last, p.status, n, p.pageLinks())
	}
}

// TestAllValuesBounded: asked for every value of a facet of an archive
// with more products than the page can list (a thousand, as a real
// archive's), the page lists render.FacetListed of them, says how many
// it leaves out, and stays under 100 KB.
func TestAllValuesBounded(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := corpus.Generate(src, corpus.Options{N: 400, Langs: []string{"en"}, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	// Each incident gets products of its own.
	files, err := filepath.Glob(filepath.Join(src, "content", "*", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no incidents: %v", err)
	}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		own := fmt.Sprintf("products: [Service %d, Store %d, ", i, i)
		if err := os.WriteFile(f, []byte(strings.Replace(string(data), "products: [", own, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(filepath.Join(src, "i18n"), os.DirFS("../../i18n")); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: src, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
		t.Fatal(err)
	}
	srv, _ := serveBuilt(t, dest)
	code, body := get(t, srv, "/en/search/", url.Values{"all": {"product"}})
	p := getPage(t, func(string, url.Values) (int, []byte) { return code, body }, "", nil)
	g := p.facetGroups(t)["product"]
	if g == nil {
		t.Fatal("no products listed")
	}
	listed := len(g.shown) + len(g.more)
	total := api(t, srv, url.Values{"all": {"product"}, "lang": {"en"}}).FacetTotals["product"]
	unlisted := findID(p.doc, "unlisted-product")
	if code != http.StatusOK || len(body) > 100<<10 || listed != render.FacetListed || unlisted == nil ||
		!strings.HasPrefix(textOfNode(unlisted), strconv.Itoa(total-listed)+" more") {
		t.Errorf("status %d, %d bytes; %d of %d products listed, the rest: %v", code, len(body), listed, total, unlisted != nil && textOfNode(unlisted) != "")
	}
}
