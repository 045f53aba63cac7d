package searchweb_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/searchweb"
	"github.com/postmortem-archive/gen/internal/server"
	"github.com/postmortem-archive/gen/internal/server/published"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/search"
)

// serveSeed builds the bundled archive and serves the built folder as
// gen serve --dir does, on a real port.
func serveSeed(t *testing.T) *httptest.Server { t.Helper(); return serveSite(t, "../..") }

// serveSite builds the site in source and serves it with search.
func serveSite(t *testing.T, source string) *httptest.Server {
	t.Helper()
	srv, _ := serveSiteHandler(t, source)
	return srv
}

// serveSiteHandler is serveSite, returning the search handler too.
func serveSiteHandler(t *testing.T, source string) (*httptest.Server, *searchweb.Handler) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(build.Options{Source: source, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
		t.Fatal(err)
	}
	return serveBuilt(t, dest)
}

// serveBuilt serves the site built at dest with search, as gen serve
// --dir does.
func serveBuilt(t *testing.T, dest string) (*httptest.Server, *searchweb.Handler) {
	t.Helper()
	out, err := published.OpenSite(dest)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	h := searchweb.New("", 4, t.Logf)
	h.Set(out.Index, out.Pages, out.Bundle.Tags(), out.Bundle.Default().Tag)
	srv := httptest.NewServer(server.NewHandler(server.NewDirSite(dest), server.Options{Search: http.HandlerFunc(h.API), Pages: map[string]http.Handler{
		urls.SearchPageRoute: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !h.Page(w, r) {
				server.NotFound(w, r)
			}
		}),
	}}))
	t.Cleanup(srv.Close)
	return srv, h
}

// A search refused because every slot is taken says when to try again,
// on the API and on the search page.
func TestBusySaysRetryAfter(t *testing.T) {
	srv, h := serveSiteHandler(t, "../..")
	free := h.Occupy()
	defer free()
	for _, path := range []string{"/api/search", "/en/search/"} {
		res, err := http.Get(srv.URL + path + "?q=gmail")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" {
			t.Errorf("%s while busy: %s, Retry-After %q; want 503 and 1", path, res.Status, res.Header.Get("Retry-After"))
		}
	}
}

func get(t *testing.T, srv *httptest.Server, path string, params url.Values) (int, []byte) {
	t.Helper()
	res, err := http.Get(srv.URL + path + "?" + params.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, body
}

func api(t *testing.T, srv *httptest.Server, params url.Values) *search.Response {
	t.Helper()
	code, body := get(t, srv, "/api/search", params)
	if code != http.StatusOK {
		t.Fatalf("%v: status %d: %s", params, code, body)
	}
	var res search.Response
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("%v: %v", params, err)
	}
	return &res
}

func TestAPIFindsAcrossLanguages(t *testing.T) {
	srv := serveSeed(t)
	const blob = "2020-08-19-blob-storage-metadata-overload"
	cases := []struct {
		q, lang, wantID, wantLang string
	}{
		// The zh-TW original and its English translation both mention
		// Gmail; an English reader gets the English version.
		{"Gmail", "en", blob, "en"},
		{"Gmail", "zh-TW", blob, "zh-TW"},
		// No Japanese version: shown in the original's language.
		{"Gmail", "ja", blob, "zh-TW"},
		// Stemming: the text says "overloaded"/"overload".
		{"overloads", "en", blob, "en"},
		// Chinese words of two to four characters, no spaces.
		{"資源耗盡", "zh-TW", blob, "zh-TW"},
		{"停電", "zh-TW", "2024-08-12-europe-west2-connectivity", "zh-TW"},
		{"訂閱", "zh-TW", "2016-10-31-pubsub-subscription-creation", "zh-TW"},
		{"Pub/Sub", "en", "2016-10-31-pubsub-subscription-creation", "en"},
		{"europe-west2", "en", "2024-08-12-europe-west2-connectivity", "en"},
	}
	for _, c := range cases {
		res := api(t, srv, url.Values{"q": {c.q}, "lang": {c.lang}})
		if len(res.Results) == 0 || res.Results[0].ID != c.wantID || res.Results[0].Lang != c.wantLang {
			t.Errorf("%q in %s: results %+v, want %s first in %s", c.q, c.lang, res.Results, c.wantID, c.wantLang)
			continue
		}
		found := false
		for _, f := range res.Results[0].Fragments {
			found = found || strings.Contains(f, "<mark>")
		}
		if !found {
			t.Errorf("%q: no highlighted fragment in %v", c.q, res.Results[0].Fragments)
		}
	}
}

func TestAPIFiltersFacetsAndPages(t *testing.T) {
	srv := serveSeed(t)
	all := api(t, srv, url.Values{"q": {"Google"}, "lang": {"en"}})
	if all.Total < 3 || len(all.Facets["product"]) == 0 || len(all.Facets["year"]) == 0 {
		t.Fatalf("Google: total %d, facets %v", all.Total, all.Facets)
	}
	// A product's facet value carries its organization: two
	// organizations' products of the same name stay apart.
	only := api(t, srv, url.Values{"q": {"Google"}, "lang": {"en"}, "product": {"Gmail (Google Cloud)"}})
	for _, r := range only.Results {
		if !strings.Contains(strings.Join(r.Products, ","), "Gmail") {
			t.Errorf("product=Gmail returned %s with %v", r.ID, r.Products)
		}
	}
	if only.Total == 0 || only.Total >= all.Total {
		t.Errorf("filtering by Gmail gave %d of %d", only.Total, all.Total)
	}
	p1 := api(t, srv, url.Values{"q": {"Google"}, "lang": {"en"}, "per_page": {"1"}})
	p2 := api(t, srv, url.Values{"q": {"Google"}, "lang": {"en"}, "per_page": {"1"}, "page": {"2"}})
	if len(p1.Results) != 1 || len(p2.Results) != 1 || p1.Results[0].ID == p2.Results[0].ID || p1.Total != p2.Total {
		t.Errorf("pages 1 and 2 of one: %+v / %+v", p1.Results, p2.Results)
	}
}

func TestJunkNeverServerError(t *testing.T) {
	srv := serveSeed(t)
	junk := []url.Values{
		{"q": {"title:("}}, {"q": {`"`}}, {"q": {"/"}}, {"q": {"*"}}, {"q": {strings.Repeat("a", 5000)}},
		{"q": {"-"}}, {"q": {"::"}}, {"q": {"\x00\xff"}}, {"q": {"ok"}, "page": {"-1"}}, {"q": {"ok"}, "page": {"x"}},
		{"q": {"ok"}, "lang": {"<script>"}}, {"q": {"ok"}, "year": {"99999999999999999999"}}, {"q": {"ok"}, "per_page": {"100000"}},
		{"q": {strings.Repeat("資", 600)}}, {"q": {strings.Repeat("a ", 200)}},
	}
	for _, params := range junk {
		for _, path := range []string{"/api/search", "/en/search/"} {
			code, body := get(t, srv, path, params)
			if code >= 500 {
				t.Errorf("%s %v: status %d: %s", path, params, code, body)
			}
			if path == "/en/search/" && strings.Contains(string(body), "<script>") {
				t.Errorf("%s %v: unescaped input in the page", path, params)
			}
		}
	}
}

// Invalid UTF-8 in a request is echoed as U+FFFD: the page is sent as
// UTF-8, in the search box, the filter chips and the hidden fields.
func TestInvalidUTF8NotEchoed(t *testing.T) {
	srv := serveSeed(t)
	code, body := get(t, srv, "/en/search/", url.Values{"q": {"\xff<script>"}, "product": {"Big\xfeQuery"}, "sort": {"\xc3"}})
	if code >= 500 || !utf8.Valid(body) {
		t.Fatalf("status %d; valid UTF-8: %v", code, utf8.Valid(body))
	}
	for _, want := range []string{"\uFFFD&lt;script&gt;", "Big\uFFFDQuery"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the page does not echo %q", want)
		}
	}
}

func TestSearchPageWorksWithoutJavaScript(t *testing.T) {
	srv := serveSeed(t)
	code, body := get(t, srv, "/zh-TW/search/", url.Values{"q": {"Gmail"}})
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var results, marks, notices int
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "class" && a.Val == "result" {
					results++
				}
				if a.Key == "id" && a.Val == "static-notice" {
					notices++
				}
			}
			if n.Data == "mark" {
				marks++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if results == 0 || marks == 0 || notices != 0 {
		t.Errorf("served search page: %d results, %d <mark>, %d static notices", results, marks, notices)
	}
	// The same page built for static hosts says search needs the server.
	code, body = get(t, srv, "/zh-TW/search/index.html", nil)
	if code != http.StatusOK || !strings.Contains(string(body), `id="static-notice"`) {
		t.Errorf("static search page: status %d, notice missing", code)
	}
}

// A word with a typo finds what the word would, and the API and the
// search page in each language suggest the corrected query as a link:
// an English word, and a Chinese and a Japanese word typed with a
// character of the same sound (閱 yuè, 循 じゅん).
func TestDidYouMean(t *testing.T) {
	srv := serveSeed(t)
	for _, tc := range []struct{ lang, q, want, label string }{
		{"en", "subscripton", "subscription", "Did you mean:"},
		{"ja", "subscripton", "subscription", "もしかして:"},
		{"zh-TW", "subscripton", "subscription", "您是不是要找："},
		{"zh-TW", "訂悅", "訂閱", "您是不是要找："},
		{"ja", "悪順環", "悪循環", "もしかして:"},
	} {
		res := api(t, srv, url.Values{"q": {tc.q}, "lang": {tc.lang}})
		if res.DidYouMean != tc.want || res.Total == 0 {
			t.Errorf("%s: %s: did you mean %q, %d results", tc.lang, tc.q, res.DidYouMean, res.Total)
		}
		if res := api(t, srv, url.Values{"q": {tc.want}, "lang": {tc.lang}}); res.DidYouMean != "" {
			t.Errorf("%s: %s: did you mean %q", tc.lang, tc.want, res.DidYouMean)
		}
		code, body := get(t, srv, "/"+tc.lang+"/search/", url.Values{"q": {tc.q}})
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tc.lang, code)
		}
		text, href := suggestion(t, body)
		u, err := url.Parse(href)
		if err != nil || u.Query().Get("q") != tc.want || !strings.Contains(text, tc.label+" "+tc.want) {
			t.Errorf("%s: %s: suggestion %q linking to %q", tc.lang, tc.q, text, href)
		}
	}
}

// suggestion returns the text of a search page's "Did you mean" and
// where its link goes.
func suggestion(t *testing.T, body []byte) (text, href string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	p := findID(doc, "did-you-mean")
	if p == nil {
		t.Error("no suggestion on the page")
		return "", ""
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			text += n.Data
		}
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key == "href" {
					href = a.Val
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(p)
	return text, href
}

// findID returns the element with the id, nil if there is none.
func findID(n *html.Node, id string) *html.Node {
	if n.Type == html.ElementNode {
		for _, a := range n.Attr {
			if a.Key == "id" && a.Val == id {
				return n
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findID(c, id); f != nil {
			return f
		}
	}
	return nil
}

// TestOrganizationsAndUnknownSeverity: the organization is a facet and a
// filter, shown first in every result, and a severity the report does not
// state is a facet value of its own, named in the reader's language.
func TestOrganizationsAndUnknownSeverity(t *testing.T) {
	srv := serveSite(t, "../build/testdata/reports")
	all := api(t, srv, url.Values{"lang": {"en"}, "severity": {"unknown"}})
	if all.Total != 4 {
		t.Errorf("severity=unknown found %d, want 4", all.Total)
	}
	aws := api(t, srv, url.Values{"lang": {"en"}, "organization": {"AWS"}})
	if aws.Total != 2 {
		t.Errorf("organization=AWS found %d, want 2", aws.Total)
	}
	code, body := get(t, srv, "/ja/search/", url.Values{"q": {"storage"}, "organization": {"AWS"}})
	if code != http.StatusOK {
		t.Fatalf("search page: %d", code)
	}
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var results, firstOrg int
	var facetLabels []string
	var clear string
	walk(doc, func(n *html.Node) {
		switch {
		case n.Data == "li" && attrOf(n, "class") == "result":
			results++
			walk(n, func(m *html.Node) {
				if m.Data == "p" && attrOf(m, "class") == "meta" {
					if c := m.FirstChild; c != nil && attrOf(c, "class") == "organization" && textOfNode(c) == "AWS" {
						firstOrg++
					}
				}
			})
		}
	})
	p := page{code, doc}
	for _, label := range p.choices("severity") {
		facetLabels = append(facetLabels, label)
	}
	clear = p.button("clear-filters")
	if results != 1 || firstOrg != 1 {
		t.Errorf("AWS's storage incident: %d results, %d starting with the organization", results, firstOrg)
	}
	if !slices.Contains(facetLabels, "不明") {
		t.Errorf("severity facet labels %v, want 不明 for unknown", facetLabels)
	}
	if clear == "" || strings.Contains(clear, "organization=") {
		t.Errorf("clear filters links to %q; want the query without the organization", clear)
	}
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOfNode(n *html.Node) string {
	var b strings.Builder
	walk(n, func(m *html.Node) {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
	})
	return strings.TrimSpace(b.String())
}

// The search page in Simplified Chinese names its facets, languages,
// causes and dates in Simplified characters, though no incident is
// written in them: the facets of results in Traditional Chinese, Japanese
// and English are the reader's.
func TestSearchPageInSimplifiedChinese(t *testing.T) {
	srv := serveSeed(t)
	code, body := get(t, srv, "/zh-CN/search/", url.Values{"q": {"Gmail"}})
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	page := string(body)
	for _, want := range []string{`lang="zh-CN"`, "找到 2 起故障", "组织", "地域", "年份", "语言", "英语", "中文 (台湾)", "资源耗尽", "负载激增", "严重程度", "不到 1 小时", "4–12 小时", `<time datetime="2020-08-20T03:55:00Z">2020年8月19日 20:55 PDT</time>`, "开始日期", "搜索"} {
		if !strings.Contains(page, want) {
			t.Errorf("zh-CN search page lacks %q", want)
		}
	}
	// The page's own words are Simplified; a report's text, shown in
	// Traditional where a zh-CN reader reads the zh-TW version, says
	// its language, for fonts and screen readers.
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	own := &strings.Builder{}
	var texts func(n *html.Node)
	texts = func(n *html.Node) {
		if lang := attrOf(n, "lang"); n.Type == html.ElementNode && lang != "" && lang != "zh-CN" {
			return
		}
		if n.Type == html.TextNode {
			own.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			texts(c)
		}
	}
	texts(doc)
	for _, traditional := range []string{"搜尋", "組織", "區域", "篩選", "儲存"} {
		if strings.Contains(own.String(), traditional) {
			t.Errorf("zh-CN search page says %q, Taiwan's word, in its own language", traditional)
		}
	}
	if t.Failed() {
		t.Log(page)
	}
}
