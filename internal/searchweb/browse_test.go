package searchweb_test

import (
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/search"
)

// page is a served search page, parsed.
type page struct {
	status int
	doc    *html.Node
}

func getPage(t *testing.T, get func(path string, q url.Values) (int, []byte), path string, q url.Values) page {
	t.Helper()
	code, body := get(path, q)
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	return page{code, doc}
}

// count is the number the result count states.
func (p page) count(t *testing.T) int {
	t.Helper()
	n := findID(p.doc, "result-count")
	if n == nil {
		t.Fatal("no result count on the page")
	}
	// The number is the first word in English, the second in Chinese
	// ("找到 101 起事故").
	for _, f := range strings.Fields(textOfNode(n)) {
		if v, err := strconv.Atoi(strings.ReplaceAll(f, ",", "")); err == nil {
			return v
		}
	}
	t.Fatalf("result count %q", textOfNode(n))
	return 0
}

// chips are the active filters' chips: facet → the address each leads
// to, which removes it.
func (p page) chips() map[string]string {
	out := map[string]string{}
	walk(p.doc, func(n *html.Node) {
		if n.Data == "button" && attrOf(n, "class") == "chip" {
			out[attrOf(n, "data-facet")] = p.submits(n)
		}
	})
	return out
}

// button is the address the button of class leads to.
func (p page) button(class string) string {
	var to string
	walk(p.doc, func(n *html.Node) {
		if n.Data == "button" && attrOf(n, "class") == class {
			to = p.submits(n)
		}
	})
	return to
}

// submits is the address a button of the page leads to, as a browser
// submits its form: the form's action, its fields, and the button's own
// name and value when it has a name. The form is the one the button
// names, or the one it is in.
func (p page) submits(button *html.Node) string {
	form := findID(p.doc, attrOf(button, "form"))
	for up := button.Parent; form == nil && up != nil; up = up.Parent {
		if up.Data == "form" {
			form = up
		}
	}
	if form == nil {
		return ""
	}
	q := url.Values{}
	walk(form, func(n *html.Node) {
		if n.Data == "input" && attrOf(n, "name") != "" {
			q.Add(attrOf(n, "name"), attrOf(n, "value"))
		}
	})
	if name := attrOf(button, "name"); name != "" {
		q.Add(name, attrOf(button, "value"))
	}
	if len(q) == 0 {
		return attrOf(form, "action")
	}
	return attrOf(form, "action") + "?" + q.Encode()
}

// choices are the page's buttons that set parameter name, each with
// the words it shows, without the count beside them.
func (p page) choices(name string) map[string]string {
	out := map[string]string{}
	walk(p.doc, func(n *html.Node) {
		if n.Data == "button" && attrOf(n, "name") == name {
			out[attrOf(n, "value")] = strings.TrimSpace(n.FirstChild.Data)
		}
	})
	return out
}

// TestBrowseWithoutWords: without words, the API and the page list every
// incident newest first, with every facet, and sort them.
func TestBrowseWithoutWords(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	all := api(t, srv, url.Values{"lang": {"en"}, "per_page": {"50"}})
	if all.Total != 6 || len(all.Results) != 6 {
		t.Fatalf("no words: %d incidents, want all 6", all.Total)
	}
	var dates []string
	for _, r := range all.Results {
		dates = append(dates, r.Date)
	}
	if !slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("not newest first: %v", dates)
	}
	for _, f := range []string{"organization", "severity", "year", "duration", "lang"} {
		if len(all.Facets[f]) == 0 {
			t.Errorf("facet %s missing when browsing: %v", f, all.Facets)
		}
	}
	if !slices.ContainsFunc(all.Facets["severity"], func(c search.FacetCount) bool { return c.Term == "unknown" }) {
		t.Errorf("severity facet without unknown: %v", all.Facets["severity"])
	}
	bySeverity := api(t, srv, url.Values{"lang": {"en"}, "sort": {"severity"}})
	if first := bySeverity.Results[0]; first.Severity != "critical" {
		t.Errorf("sorted by severity, first %s (%s)", first.ID, first.Severity)
	}

	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	p := getPage(t, get, "/en/search/", nil)
	if p.status != http.StatusOK || p.count(t) != 6 {
		t.Fatalf("the search page without words: status %d", p.status)
	}
	// Languages are named in the reader's language.
	ja := getPage(t, get, "/ja/search/", nil)
	langs := ja.choices("language")
	if langs["en"] != "英語" || langs["ja"] != "日本語" {
		t.Errorf("language facet on the Japanese page: %q", langs)
	}
	// Causes too, as their term pages name them: the i18n file's name,
	// else the slug in words; in the facet and in the filter's chip.
	causes := ja.choices("cause")
	walk(getPage(t, get, "/ja/search/", url.Values{"cause": {"load-spike"}}).doc, func(n *html.Node) {
		if n.Data == "button" && attrOf(n, "class") == "chip" {
			causes["chip"] = textOfNode(n)
		}
	})
	if causes["load-spike"] != "負荷の急増" || causes["queue-backlog"] != "Queue backlog" || !strings.Contains(causes["chip"], "負荷の急増") {
		t.Errorf("causes on the Japanese page: %q", causes)
	}
}

// TestEveryFilterShowsAChipAndClears: each facet value filters the page
// browsed without words, shows a chip that removes it, and "Clear
// filters" removes them all.
func TestEveryFilterShowsAChipAndClears(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	all := api(t, srv, url.Values{"lang": {"en"}})
	applied := url.Values{}
	for _, param := range render.SearchFilters {
		facet := param
		if param == "language" {
			facet = "lang"
		}
		values := all.Facets[facet]
		if len(values) == 0 {
			continue
		}
		q := url.Values{param: {values[0].Term}}
		p := getPage(t, get, "/en/search/", q)
		if p.status != http.StatusOK || p.count(t) != values[0].Count {
			t.Errorf("%s=%s: status %d, want %d incidents", param, values[0].Term, p.status, values[0].Count)
			continue
		}
		remove, ok := p.chips()[facet]
		if !ok {
			t.Errorf("%s=%s: no chip among %v", param, values[0].Term, p.chips())
			continue
		}
		u, _ := url.Parse(remove)
		if u.Query().Has(param) {
			t.Errorf("%s: the chip links to %s, which keeps it", param, remove)
		}
		if back := getPage(t, get, u.Path, u.Query()); back.count(t) != all.Total || len(back.chips()) != 0 {
			t.Errorf("%s: after removing it, %d incidents and chips %v", param, back.count(t), back.chips())
		}
		applied.Set(param, values[0].Term)
	}
	if len(applied) < 5 {
		t.Fatalf("only %d filters tried: %v", len(applied), applied)
	}
	// Two at once, with words: two chips; clearing keeps the words.
	both := url.Values{"q": {"dns"}, "organization": {"AWS"}, "year": {"2021"}}
	p := getPage(t, get, "/en/search/", both)
	if len(p.chips()) != 2 {
		t.Errorf("chips %v, want organization and year", p.chips())
	}
	u, _ := url.Parse(p.button("clear-filters"))
	if got := u.Query(); len(got) != 1 || got.Get("q") != "dns" {
		t.Errorf("clear filters links to %s; want the words only", u)
	}
}

// TestQueryErrorsInTheReadersLanguage: the page says what is wrong with a
// query in its own language; the API in English, with a code.
func TestQueryErrorsInTheReadersLanguage(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	for _, c := range []struct {
		path string
		q    url.Values
		want string
	}{
		{"/ja/search/", url.Values{"q": {"year:20x"}}, "year:20x は年ではありません"},
		{"/zh-TW/search/", url.Values{"q": {"year:20x"}}, "year:20x 不是年份"},
		{"/en/search/", url.Values{"q": {"year:20x"}}, "year:20x is not a year"},
		{"/ja/search/", url.Values{"q": {strings.Repeat("a", 600)}}, "検索語が長すぎます（600 文字。最大 512 文字）"},
		{"/ja/search/", url.Values{"page": {"0"}}, "page は 1 から 1000 までの数値で指定してください"},
		{"/ja/search/", url.Values{"sort": {"price"}}, "「price」は並べ替えの順序ではありません"},
	} {
		p := getPage(t, get, c.path, c.q)
		msg := findID(p.doc, "search-error")
		if p.status != http.StatusBadRequest || msg == nil || !strings.Contains(textOfNode(msg), c.want) {
			t.Errorf("%s?%s: status %d, message %v; want %q", c.path, c.q.Encode(), p.status, msg != nil && true, c.want)
			if msg != nil {
				t.Logf("message: %s", textOfNode(msg))
			}
		}
	}
	code, body := get("/api/search", url.Values{"q": {"year:20x"}})
	if code != http.StatusBadRequest || !strings.Contains(string(body), `"code":"year"`) || !strings.Contains(string(body), "is not a year") {
		t.Errorf("API: %d %s", code, body)
	}
}

// TestFacetShowsAll: a facet lists its most frequent values; when it has
// more, a button (no JavaScript needed) lists every one of them.
func TestFacetShowsAll(t *testing.T) {
	src := t.TempDir()
	if err := corpus.Generate(src, corpus.Options{N: 150, Langs: []string{"en"}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(src, "i18n"), os.DirFS("../../i18n")); err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, src)
	capped := api(t, srv, url.Values{"lang": {"en"}})
	total := capped.FacetTotals["product"]
	if total <= search.MaxFacetTerms || len(capped.Facets["product"]) != search.MaxFacetTerms {
		t.Fatalf("products: %d listed of %d; the test wants more than %d", len(capped.Facets["product"]), total, search.MaxFacetTerms)
	}
	if all := api(t, srv, url.Values{"lang": {"en"}, "all": {"product"}}); len(all.Facets["product"]) != total {
		t.Errorf("all=product lists %d products, want %d", len(all.Facets["product"]), total)
	}

	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	p := getPage(t, get, "/en/search/", nil)
	links := p.showAll()
	if len(links) != 1 || !strings.Contains(links[0], "all=product") {
		t.Fatalf("show-all links %q, want one for products", links)
	}
	u, _ := url.Parse(links[0])
	full := getPage(t, get, u.Path, u.Query())
	if n := len(full.choices("product")); n != total || len(full.showAll()) != 0 {
		t.Errorf("after show all: %d product links, want %d; show-all links %q", n, total, full.showAll())
	}
}

// showAll are the addresses of the page's buttons that list every value
// of a facet.
func (p page) showAll() []string {
	var out []string
	walk(p.doc, func(n *html.Node) {
		if n.Data == "p" && attrOf(n, "class") == "facet-all" {
			walk(n, func(b *html.Node) {
				if b.Data == "button" {
					out = append(out, p.submits(b))
				}
			})
		}
	})
	return out
}

// TestNoResultsSaysWhy: when nothing matches, the page asks for other
// words if there are words, and else for fewer filters: browsing by
// dates and facets with no word typed, "try other words" says nothing.
func TestNoResultsSaysWhy(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	for _, c := range []struct {
		path string
		q    url.Values
		want string
	}{
		{"/en/search/", url.Values{"q": {"zzzqqq"}}, "Try fewer or other words"},
		{"/en/search/", url.Values{"from": {"2030-01"}}, "No incident matches these filters and dates"},
		{"/ja/search/", url.Values{"from": {"2022-01"}, "to": {"2021-01"}, "organization": {"AWS"}}, "この絞り込みと日付"},
	} {
		p := getPage(t, get, c.path, c.q)
		msg := findID(p.doc, "no-results")
		if p.status != http.StatusOK || msg == nil || !strings.Contains(textOfNode(msg), c.want) {
			t.Errorf("%s?%s: status %d, %v; want %q", c.path, c.q.Encode(), p.status, msg != nil && textOfNode(msg) != "", c.want)
			if msg != nil {
				t.Logf("message: %s", textOfNode(msg))
			}
		}
	}
}

// TestChoicesSubmitTheRequestOnce: every choice of the page (a facet's
// value, a chip, an order, a page, List all, Clear filters) is a button
// whose form sends each parameter once: what it sets, and the rest of
// the request but the page, which only a page's button sets.
func TestChoicesSubmitTheRequestOnce(t *testing.T) {
	srv := serveGenerated(t)
	get := func(path string, q url.Values) (int, []byte) { return get(t, srv, path, q) }
	product := api(t, srv, url.Values{"q": {"latency"}, "lang": {"en"}}).Facets["product"][0].Term
	request := url.Values{"q": {"latency"}, "product": {product}, "from": {"2010-01"}, "sort": {"oldest"}, "all": {"region"}, "page": {"2"}}
	p := getPage(t, get, "/en/search/", request)
	buttons := 0
	walk(findID(p.doc, "search-results"), func(n *html.Node) {
		if n.Data != "button" {
			return
		}
		buttons++
		u, err := url.Parse(p.submits(n))
		if err != nil || u.Path != "/en/search/" {
			t.Fatalf("%s leads to %q", textOfNode(n), p.submits(n))
		}
		got, name := u.Query(), attrOf(n, "name")
		want := maps.Clone(request)
		want.Del("page")
		// A button without a name removes what its form leaves out:
		// refine-product the filter (a chip, the chosen value),
		// refine-sort the order (the default), refine the page (the
		// first), refine-clear every filter.
		form := attrOf(n, "form")
		switch {
		case name != "":
			want.Set(name, attrOf(n, "value"))
		case form == "refine-clear":
			want = url.Values{"q": {"latency"}, "sort": {"oldest"}}
		default:
			want.Del(strings.TrimPrefix(form, "refine-"))
		}
		if got.Encode() != want.Encode() {
			t.Errorf("%q (%s=%s) sends %s, want %s", textOfNode(n), name, attrOf(n, "value"), got.Encode(), want.Encode())
		}
	})
	if buttons < 50 {
		t.Errorf("%d buttons; the test wants a page of facets, orders and pages", buttons)
	}
}
