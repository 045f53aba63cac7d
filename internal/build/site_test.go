package build_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/memory"
)

// The bundled archive: the repository's own content/, i18n/ and layouts/.
const repoRoot = "../.."

var (
	siteLangs = []string{"en", "ja", "zh-CN", "zh-TW"}
	seedIDs   = []string{
		"2016-10-31-pubsub-subscription-creation",
		"2017-03-13-bigquery-streaming-inserts",
		"2020-08-19-blob-storage-metadata-overload",
		"2024-08-12-europe-west2-connectivity",
	}
)

// buildSeed builds the bundled archive into a temp folder.
func buildSeed(t *testing.T, baseURL string) string {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "public")
	res, err := build.Run(build.Options{Source: repoRoot, Dest: dest, BaseURL: baseURL, Generator: "gen test"})
	if err != nil {
		t.Fatalf("building the bundled archive: %v", err)
	}
	if res.Incidents != len(seedIDs) || res.Languages != len(siteLangs) {
		t.Fatalf("built %d incidents in %d languages, want %d in %d", res.Incidents, res.Languages, len(seedIDs), len(siteLangs))
	}
	return dest
}

func parseHTML(t *testing.T, file string) *html.Node {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attr(n, "class")), class)
}

// findAll returns the elements under n for which match is true.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

// text is the element's text with white space folded.
func text(n *html.Node) string { return strings.Join(strings.Fields(textOf(n)), " ") }

func htmlFiles(t *testing.T, dest string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir // gen's private files, never served
		}
		if err == nil && strings.HasSuffix(p, ".html") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestSeedIncidentsInEveryLanguage(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	for _, lang := range siteLangs {
		for _, id := range seedIDs {
			file := filepath.Join(dest, lang, "incidents", id, "index.html")
			doc := parseHTML(t, file)
			htmlEl := findAll(doc, tag("html"))[0]
			if got := attr(htmlEl, "lang"); got != lang {
				t.Errorf("%s/%s: <html lang=%q>, want %q", lang, id, got, lang)
			}
			h1 := findAll(doc, tag("h1"))
			if len(h1) != 1 || text(h1[0]) == "" {
				t.Errorf("%s/%s: want one non-empty <h1>, got %d", lang, id, len(h1))
			}
			if len(findAll(doc, tag("main"))) != 1 || len(findAll(doc, tag("nav"))) == 0 {
				t.Errorf("%s/%s: missing <main> or <nav> landmarks", lang, id)
			}
			events := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "event") })
			if len(events) < 3 {
				t.Errorf("%s/%s: %d timeline events, want at least 3", lang, id, len(events))
			}
			for _, e := range events {
				if !strings.HasPrefix(attr(e, "id"), "t-") || len(findAll(e, tag("time"))) == 0 {
					t.Errorf("%s/%s: timeline event without anchor or <time>: %s", lang, id, text(e))
				}
			}
		}
	}
}

func TestFallbackNoticeForMissingTranslation(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	notice := func(lang, id string) (*html.Node, *html.Node) {
		doc := parseHTML(t, filepath.Join(dest, lang, "incidents", id, "index.html"))
		article := findAll(doc, tag("article"))[0]
		ns := findAll(doc, func(n *html.Node) bool { return hasClass(n, "notice") })
		if len(ns) == 0 {
			return article, nil
		}
		return article, ns[0]
	}
	// The 2024 incident has no Japanese text: the ja page shows the English
	// original, marked as such, with a notice in Japanese.
	article, n := notice("ja", "2024-08-12-europe-west2-connectivity")
	if n == nil {
		t.Fatal("ja page of an untranslated incident has no notice")
	}
	if attr(n, "lang") != "ja" || !strings.Contains(text(n), "翻訳されていません") || !strings.Contains(text(n), "英語") {
		t.Errorf("notice = %q (lang %q), want a Japanese notice naming English in Japanese (英語)", text(n), attr(n, "lang"))
	}
	if attr(article, "lang") != "en" {
		t.Errorf("untranslated article lang = %q, want en", attr(article, "lang"))
	}
	// No incident is written in Simplified Chinese: a zh-CN page shows the
	// Traditional translation, which its reader reads more easily than the
	// English original, with a Simplified notice naming both.
	article, n = notice("zh-CN", "2024-08-12-europe-west2-connectivity")
	if n == nil || attr(n, "lang") != "zh-CN" || !strings.Contains(text(n), "尚未翻译成简体中文") ||
		!strings.Contains(text(n), "中文 (台湾)译文") || !strings.Contains(text(n), "原文为英语") {
		t.Errorf("zh-CN page of an incident translated into zh-TW: notice %q, want a Simplified notice naming the Traditional translation shown (中文 (台湾)译文) and the English original (原文为英语)", textOrNil(n))
	} else if attr(article, "lang") != "zh-TW" || !strings.Contains(text(article), "倫敦") {
		t.Errorf("zh-CN page's article lang = %q, want zh-TW, the translation, in its words", attr(article, "lang"))
	}
	// Written in Traditional Chinese: the zh-CN page shows the original.
	article, n = notice("zh-CN", "2020-08-19-blob-storage-metadata-overload")
	if n == nil || !strings.Contains(text(n), "以原文（中文 (台湾)）显示") || attr(article, "lang") != "zh-TW" {
		t.Errorf("zh-CN page of a zh-TW original: notice %q, article lang %q; want the original, so named", textOrNil(n), attr(article, "lang"))
	}
	// Translated pages have no notice.
	for _, c := range [][2]string{{"ja", "2017-03-13-bigquery-streaming-inserts"}, {"en", "2020-08-19-blob-storage-metadata-overload"}, {"zh-TW", "2024-08-12-europe-west2-connectivity"}} {
		if _, n := notice(c[0], c[1]); n != nil {
			t.Errorf("%s/%s is translated but shows notice %q", c[0], c[1], text(n))
		}
	}
}

func TestHreflangCompleteAndSymmetric(t *testing.T) {
	dest := buildSeed(t, "https://example.org/archive/")
	alternates := map[string]map[string]string{} // page URL → lang → URL
	for _, file := range htmlFiles(t, dest) {
		rel, _ := filepath.Rel(dest, file)
		if rel == "index.html" || filepath.Base(rel) == "404.html" {
			continue // language-neutral and not-found pages
		}
		self := "https://example.org/archive/" + strings.TrimSuffix(filepath.ToSlash(rel), "index.html")
		alts := map[string]string{}
		for _, l := range findAll(parseHTML(t, file), func(n *html.Node) bool {
			return n.Data == "link" && attr(n, "rel") == "alternate" && attr(n, "hreflang") != ""
		}) {
			alts[attr(l, "hreflang")] = attr(l, "href")
		}
		if len(alts) != len(siteLangs) {
			t.Errorf("%s: hreflang alternates %v, want one per language %v", rel, alts, siteLangs)
		}
		lang := strings.Split(filepath.ToSlash(rel), "/")[0]
		if alts[lang] != self {
			t.Errorf("%s: alternate for its own language is %q, want %q", rel, alts[lang], self)
		}
		alternates[self] = alts
	}
	for self, alts := range alternates {
		for lang, other := range alts {
			back, ok := alternates[other]
			if !ok {
				t.Errorf("%s: alternate %s (%s) is not a built page", self, other, lang)
				continue
			}
			if !slices.Contains(mapsValues(back), self) {
				t.Errorf("%s links %s as %s, which does not link back", self, other, lang)
			}
		}
	}
}

func mapsValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestEveryLinkResolves follows every internal href and src of every page,
// relative ones included, to a built file and, for fragments, to an
// element with that id.
func TestEveryLinkResolves(t *testing.T) {
	checked, fragments := checkLinks(t, buildSeed(t, "https://example.org/archive/"), "https://example.org/archive/")
	if checked < 1000 || fragments < 100 {
		t.Errorf("checked only %d links and %d fragments; the site has many more", checked, fragments)
	}
}

// TestGeneratedArchive builds a generated archive larger than a list page
// through the whole pipeline: pages are split 50 to a page and every link
// resolves.
func TestGeneratedArchive(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 120, Langs: []string{"en", "zh-TW"}, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	res, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/", Memory: memory.Policy{Scratch: memory.Always}})
	if err != nil {
		t.Fatalf("building a generated archive: %v", err)
	}
	if res.Incidents != 120 {
		t.Fatalf("built %d incidents, want 120", res.Incidents)
	}
	// The timelines' texts and the search documents waited in files
	// while the pages were made: they are gone.
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".gen-scratch-") {
			t.Errorf("%s left behind", path)
		}
		return err
	})
	for page, want := range map[string]int{"en/index.html": 50, "en/page/2/index.html": 50, "en/page/3/index.html": 20, "zh-TW/page/3/index.html": 20} {
		doc := parseHTML(t, filepath.Join(dest, filepath.FromSlash(page)))
		if got := len(findAll(doc, func(n *html.Node) bool { return hasClass(n, "incident-item") })); got != want {
			t.Errorf("%s lists %d incidents, want %d", page, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dest, "en", "page", "4")); err == nil {
		t.Error("a fourth page of 120 incidents exists")
	}
	// The pager names every page here (first, last and two either side),
	// the current one unlinked; the list links the feed and the export,
	// and each entry its organization and products.
	doc := parseHTML(t, filepath.Join(dest, "en", "page", "2", "index.html"))
	var pages []string
	for _, nav := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "pagination") }) {
		for _, li := range findAll(nav, tag("li")) {
			if a := findAll(li, tag("a")); len(a) == 1 {
				pages = append(pages, textOf(li)+"→"+attr(a[0], "href"))
			} else {
				pages = append(pages, textOf(li))
			}
		}
	}
	want := []string{"← Newer→/en/", "1→/en/", "2", "3→/en/page/3/", "Older →→/en/page/3/"}
	if strings.Join(pages, " ") != strings.Join(want, " ") {
		t.Errorf("pager of page 2 of 3: %q, want %q", pages, want)
	}
	hrefs := map[string]bool{}
	for _, a := range findAll(doc, tag("a")) {
		hrefs[attr(a, "href")] = true
	}
	if !hrefs["/incidents.json"] || !hrefs["/en/feed.xml"] {
		t.Error("the list links neither incidents.json nor the feed")
	}
	items := findAll(doc, func(n *html.Node) bool { return hasClass(n, "incident-item") })
	for _, item := range items[:5] {
		var products, severity int
		for _, a := range findAll(item, tag("a")) {
			switch h := attr(a, "href"); {
			case strings.HasPrefix(h, "/en/products/"):
				products++
			case strings.HasPrefix(h, "/en/search/?severity="):
				severity++
			}
		}
		if products == 0 || severity != 1 {
			t.Errorf("an entry links %d products and %d severities, want some and one", products, severity)
		}
	}
	checkLinks(t, dest, "http://127.0.0.1:1313/")
}

// checkLinks follows every internal link of the site built in dest for
// base and reports how many links and fragments it checked.
func checkLinks(t *testing.T, dest, baseURL string) (checked, fragments int) {
	t.Helper()
	base, _ := url.Parse(baseURL)
	ids := map[string]map[string]bool{} // built file → element ids
	docs := map[string]*html.Node{}
	for _, file := range htmlFiles(t, dest) {
		doc := parseHTML(t, file)
		docs[file] = doc
		ids[file] = map[string]bool{}
		for _, n := range findAll(doc, func(n *html.Node) bool { return attr(n, "id") != "" }) {
			ids[file][attr(n, "id")] = true
		}
	}
	for file, doc := range docs {
		rel, _ := filepath.Rel(dest, file)
		pageURL := base.ResolveReference(&url.URL{Path: strings.TrimSuffix(filepath.ToSlash(rel), "index.html")})
		for _, n := range findAll(doc, func(n *html.Node) bool { return attr(n, "href") != "" || attr(n, "src") != "" }) {
			ref := attr(n, "href") + attr(n, "src")
			u, err := url.Parse(ref)
			if err != nil {
				t.Errorf("%s: bad URL %q", rel, ref)
				continue
			}
			target := pageURL.ResolveReference(u)
			if target.Host != base.Host {
				continue // external
			}
			if !strings.HasPrefix(target.Path, base.Path) {
				t.Errorf("%s: link %q leaves the base path %s", rel, ref, base.Path)
				continue
			}
			targetFile := filepath.Join(dest, filepath.FromSlash(strings.TrimPrefix(target.Path, base.Path)))
			if strings.HasSuffix(target.Path, "/") {
				targetFile = filepath.Join(targetFile, "index.html")
			}
			if _, err := os.Stat(targetFile); err != nil {
				t.Errorf("%s: link %q points at nothing (%s)", rel, ref, target.Path)
				continue
			}
			checked++
			if target.Fragment != "" && strings.HasSuffix(targetFile, ".html") {
				fragments++
				if !ids[targetFile][target.Fragment] {
					t.Errorf("%s: link %q: %s has no element with id %q", rel, ref, target.Path, target.Fragment)
				}
			}
		}
	}
	return checked, fragments
}

func TestDurationsAndTimes(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	facts := func(lang, id string) string {
		doc := parseHTML(t, filepath.Join(dest, lang, "incidents", id, "index.html"))
		return text(findAll(doc, func(n *html.Node) bool { return hasClass(n, "facts") })[0])
	}
	cases := []struct{ lang, id, want string }{
		{"en", "2017-03-13-bigquery-streaming-inserts", "30 min"},
		{"en", "2016-10-31-pubsub-subscription-creation", "2 h 4 min"},
		{"zh-TW", "2016-10-31-pubsub-subscription-creation", "2 小時 4 分鐘"},
		{"zh-CN", "2016-10-31-pubsub-subscription-creation", "2 小时 4 分钟"},
		{"zh-CN", "2017-03-13-bigquery-streaming-inserts", "2017年3月13日 10:22 PDT · 17:22 UTC"},
		{"ja", "2016-10-31-pubsub-subscription-creation", "2 時間 4 分"},
		// Crosses midnight: begins on the 19th local time, ends on the 20th.
		{"en", "2020-08-19-blob-storage-metadata-overload", "6 h 35 min"},
		// The UTC part is on the next day: it says so.
		{"en", "2020-08-19-blob-storage-metadata-overload", "August 19, 2020 20:55 PDT · 2020-08-20 03:55 UTC"},
		{"en", "2020-08-19-blob-storage-metadata-overload", "August 20, 2020 03:30 PDT · 10:30 UTC"},
		{"zh-TW", "2017-03-13-bigquery-streaming-inserts", "2017年3月13日 10:22 PDT · 17:22 UTC"},
	}
	for _, c := range cases {
		if got := facts(c.lang, c.id); !strings.Contains(got, c.want) {
			t.Errorf("%s/%s facts = %q, want it to contain %q", c.lang, c.id, got, c.want)
		}
	}
	// The timeline item after midnight carries its date and its UTC instant.
	doc := parseHTML(t, filepath.Join(dest, "en", "incidents", "2020-08-19-blob-storage-metadata-overload", "index.html"))
	var found bool
	for _, tm := range findAll(doc, tag("time")) {
		if attr(tm, "datetime") == "2020-08-20T07:00:00Z" && strings.Contains(text(tm), "2020-08-20 00:00 PDT") {
			found = true
		}
	}
	if !found {
		t.Error("no <time datetime=2020-08-20T07:00:00Z> showing the new day 2020-08-20 00:00 PDT")
	}
}

func TestPluralsInEveryLanguage(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	lead := func(rel string) string {
		doc := parseHTML(t, filepath.Join(dest, filepath.FromSlash(rel)))
		return text(findAll(doc, func(n *html.Node) bool { return hasClass(n, "lead") })[0])
	}
	cases := map[string]string{
		"en/index.html": "4 incidents",
		"en/products/google-cloud-bigquery/index.html": "1 incident",
		"zh-TW/index.html": "4 起事故",
		"zh-TW/products/google-cloud-bigquery/index.html": "1 起事故",
		"ja/index.html":    "4 件のインシデント",
		"zh-CN/index.html": "4 起故障",
		"zh-CN/products/google-cloud-bigquery/index.html": "1 起故障",
		"ja/products/google-cloud-bigquery/index.html":    "1 件のインシデント",
	}
	for rel, want := range cases {
		if got := lead(rel); got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
}

func TestFeedsSitemapAndJSON(t *testing.T) {
	dest := buildSeed(t, "https://example.org/archive/")
	for _, lang := range siteLangs {
		data, err := os.ReadFile(filepath.Join(dest, lang, "feed.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var feed struct {
			XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
			ID      string   `xml:"id"`
			Updated string   `xml:"updated"`
			Entries []struct {
				Title string `xml:"title"`
				ID    string `xml:"id"`
				Link  struct {
					Href string `xml:"href,attr"`
				} `xml:"link"`
			} `xml:"entry"`
		}
		if err := xml.Unmarshal(data, &feed); err != nil {
			t.Fatalf("%s feed: %v", lang, err)
		}
		if len(feed.Entries) != len(seedIDs) || feed.Updated == "" {
			t.Errorf("%s feed: %d entries, updated %q", lang, len(feed.Entries), feed.Updated)
		}
		for _, e := range feed.Entries {
			if !strings.HasPrefix(e.Link.Href, "https://example.org/archive/"+lang+"/incidents/") || e.Title == "" {
				t.Errorf("%s feed entry %+v: want an absolute link under the base URL and a title", lang, e)
			}
		}
	}

	data, err := os.ReadFile(filepath.Join(dest, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				HrefLang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(data, &sm); err != nil {
		t.Fatalf("sitemap: %v", err)
	}
	htmlPages := 0
	for _, f := range htmlFiles(t, dest) {
		// Search result pages are not for search engines.
		if rel, _ := filepath.Rel(dest, f); rel != "index.html" && filepath.Base(rel) != "404.html" && !strings.HasSuffix(filepath.ToSlash(rel), "/search/index.html") {
			htmlPages++
		}
	}
	if len(sm.URLs) != htmlPages {
		t.Errorf("sitemap has %d URLs, the site %d language pages", len(sm.URLs), htmlPages)
	}
	for _, u := range sm.URLs {
		if len(u.Links) != len(siteLangs)+1 {
			t.Errorf("sitemap %s: %d alternates, want %d (each language and x-default)", u.Loc, len(u.Links), len(siteLangs)+1)
		}
		rel := strings.TrimPrefix(u.Loc, "https://example.org/archive/")
		if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(rel), "index.html")); err != nil {
			t.Errorf("sitemap lists %s, which was not built", u.Loc)
		}
	}

	data, err = os.ReadFile(filepath.Join(dest, "incidents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var incidents []struct {
		ID              string `json:"id"`
		OriginalLang    string `json:"original_lang"`
		Begin           string `json:"begin"`
		DurationMinutes int    `json:"duration_minutes"`
		Versions        map[string]struct {
			Title      string `json:"title"`
			URL        string `json:"url"`
			Translated bool   `json:"translated"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(data, &incidents); err != nil {
		t.Fatalf("incidents.json: %v", err)
	}
	byID := map[string]int{}
	for i, inc := range incidents {
		byID[inc.ID] = i
		if len(inc.Versions) != len(siteLangs) || !strings.HasSuffix(inc.Begin, "Z") {
			t.Errorf("incidents.json %s: %d versions, begin %q (want UTC)", inc.ID, len(inc.Versions), inc.Begin)
		}
		for lang, v := range inc.Versions {
			if path.Base(strings.TrimSuffix(v.URL, "/")) != inc.ID || !strings.Contains(v.URL, "/"+lang+"/") {
				t.Errorf("incidents.json %s/%s: url %q", inc.ID, lang, v.URL)
			}
		}
	}
	if got := incidents[byID["2020-08-19-blob-storage-metadata-overload"]]; got.OriginalLang != "zh-TW" || got.DurationMinutes != 395 {
		t.Errorf("2020 incident: original %q, %d min; want zh-TW, 395", got.OriginalLang, got.DurationMinutes)
	}
	if v := incidents[byID["2024-08-12-europe-west2-connectivity"]].Versions["ja"]; v.Translated {
		t.Error("2024 incident has no ja text but incidents.json says translated")
	}
}

// TestIncidentChartMarksEveryEvent reads the SVG timeline out of each
// incident page as standalone XML and counts one marker per event, each
// linking to its event's anchor on the page.
func TestIncidentChartMarksEveryEvent(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	for _, lang := range siteLangs {
		for _, id := range seedIDs {
			file := filepath.Join(dest, lang, "incidents", id, "index.html")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			start, end := bytes.Index(data, []byte("<svg")), bytes.Index(data, []byte("</svg>"))
			if start < 0 || end < start {
				t.Fatalf("%s/%s: no inline SVG", lang, id)
			}
			dec := xml.NewDecoder(bytes.NewReader(data[start : end+len("</svg>")]))
			var markers []string
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s/%s: SVG is not well-formed XML: %v", lang, id, err)
				}
				if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "a" {
					var class, href string
					for _, a := range el.Attr {
						switch a.Name.Local {
						case "class":
							class = a.Value
						case "href":
							href = a.Value
						}
					}
					if class == "marker" {
						markers = append(markers, href)
					}
				}
			}
			var anchors []string
			for _, li := range findAll(parseHTML(t, file), func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "event") }) {
				anchors = append(anchors, "#"+attr(li, "id"))
			}
			if !slices.Equal(markers, anchors) {
				t.Errorf("%s/%s: chart markers %v, want one per event %v", lang, id, markers, anchors)
			}
		}
	}
}

// TestNavigationLandmarksNamedApart checks every page of the bundled
// archive: a screen reader lists navigation landmarks by name, and two of
// one name (the month's links above and below its events) cannot be told apart.
func TestNavigationLandmarksNamedApart(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	for _, file := range htmlFiles(t, dest) {
		seen := map[string]bool{}
		for _, nav := range findAll(parseHTML(t, file), tag("nav")) {
			name := attr(nav, "aria-label")
			if seen[name] {
				t.Errorf("%s: two navigation landmarks named %q", strings.TrimPrefix(file, dest), name)
			}
			seen[name] = true
		}
	}
}
