package render_test

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/layouts"
)

const base = "https://example.org/arc/"

// The archive every test renders: one incident in English and Japanese,
// with everything an author may get wrong or right in its body, and one
// only in English.
var sources = map[string]string{
	"2017-03-13-bq/en.md": `---
title: "BigQuery streaming inserts failed"
summary: "Inserts failed for 38 minutes."
timezone: America/Los_Angeles
begin: 2017-03-13 10:22
end: 2017-03-13 11:00
products: [BigQuery]
regions: [us-east1]
causes: [config change]
severity: major
---

## Impact {#impact onclick="alert(1)" style="color:red" .wide}

Text with <b>inline HTML</b>, a [bad link](javascript:alert(1)), an
[odd one](JAVASCRIPT:alert(2)) and [the other incident](../2018-01-02-gcs/#t-20180102T1700Z).

<script>alert("x")</script>

## What we learned

| a | b |
|:--|--:|
| 1 | 2 |

## Timeline {#timeline}

- 2017-03-13 10:22 — Inserts start to _fail_.
- 10:40 — **Paged** on-call.
- 10:40 — ` + "`bq rollback`" + ` runs.
- 11:00 — https://status.example.org/ says fixed.
`,
	"2017-03-13-bq/ja.md": `---
title: "BigQuery のストリーミング挿入の失敗"
summary: "38 分間失敗しました。"
---

## 影響 {#impact}

挿入が失敗しました。

## タイムライン {#timeline}

- 2017-03-13 10:22 — 挿入が失敗し始める。
- 10:40 — 担当者を呼び出す。
- 10:40 — ロールバック。
- 11:00 — 復旧。
`,
	"2018-01-02-gcs/en.md": `---
title: "Cloud Storage errors"
summary: "Errors."
timezone: Europe/Paris
begin: 2018-01-02 18:00
end: 2018-01-02 19:00
products: [Cloud Storage]
regions: [europe-west1]
causes: [capacity]
severity: minor
---

## Timeline {#timeline}

- 2018-01-02 18:00 — Errors.
- 19:00 — Fixed.
`,
}

// renderSite renders sources with the built-in languages and layouts into
// a map of file names to contents.
func renderSite(t *testing.T, langs fs.FS) (map[string][]byte, error) {
	t.Helper()
	r := newRenderer(t, langs)
	files := map[string][]byte{}
	var mu sync.Mutex
	_, err := r.Render(func(name string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := files[name]; dup {
			t.Errorf("%s written twice", name)
		}
		files[name] = data
		return nil
	})
	return files, err
}

// newRenderer links the sources with the built-in layouts and the
// languages in langs.
func newRenderer(t *testing.T, langs fs.FS) *render.Renderer {
	t.Helper()
	return newRendererWith(t, langs, render.Options{BaseURL: base, Generator: "gen test"})
}

// newRendererWith is newRenderer with options.
func newRendererWith(t *testing.T, langs fs.FS, opts render.Options) *render.Renderer {
	t.Helper()
	bundle, err := locale.Load(langs, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	var pages []*content.Page
	var errs diag.List
	for name, src := range sources {
		id, file, _ := strings.Cut(name, "/")
		lang := strings.TrimSuffix(file, ".md")
		if bundle.Get(lang) == nil {
			continue
		}
		if p := content.Parse("content/"+name, id, lang, []byte(src), &errs); p != nil {
			pages = append(pages, p)
		}
	}
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	a, err := archive.Link(pages, bundle.Tags(), archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := render.ParseLayouts(layouts.Files)
	if err != nil {
		t.Fatal(err)
	}
	r, err := render.New(a, bundle, tmpl, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFilesAndFileMakeWhatRenderMakes: the list of files is the files
// Render makes, and each made alone is the same bytes.
func TestFilesAndFileMakeWhatRenderMakes(t *testing.T) {
	want := builtSite(t)
	r := newRenderer(t, i18n.Files)
	files, err := r.Files()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files, slices.Sorted(maps.Keys(want))) {
		t.Errorf("Files lists %d files, Render makes %d", len(files), len(want))
	}
	for _, f := range files {
		data, err := r.File(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(data, want[f]) {
			t.Errorf("%s made alone differs from what Render makes", f)
		}
	}
	if _, err := r.File("en/nowhere/index.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file the site does not have: %v", err)
	}
}

func builtSite(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := renderSite(t, i18n.Files)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func parse(t *testing.T, files map[string][]byte, name string) *html.Node {
	t.Helper()
	data, ok := files[name]
	if !ok {
		t.Fatalf("%s was not rendered", name)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// find returns the elements under n for which match is true.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
	}
	return out
}

func byID(n *html.Node, id string) *html.Node {
	found := find(n, func(c *html.Node) bool { v, _ := attr(c, "id"); return v == id })
	if len(found) == 0 {
		return nil
	}
	return found[0]
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return strings.Contains(" "+v+" ", " "+class+" ")
}

// resolve turns a link on page name into the file it points at and its
// fragment.
func resolve(t *testing.T, name, href string) (file, fragment string, ok bool) {
	t.Helper()
	baseURL, _ := url.Parse(base)
	page := baseURL.ResolveReference(&url.URL{Path: strings.TrimSuffix(name, "index.html")})
	u, err := url.Parse(href)
	if err != nil {
		t.Fatalf("%s: link %q: %v", name, href, err)
	}
	target := page.ResolveReference(u)
	if target.Host != baseURL.Host {
		return "", "", false // not ours
	}
	rest, under := strings.CutPrefix(target.Path, baseURL.Path)
	if !under {
		t.Errorf("%s: link %q leaves the base path: %s", name, href, target.Path)
		return "", "", false
	}
	if rest == "" || strings.HasSuffix(rest, "/") {
		rest += "index.html"
	}
	return rest, target.Fragment, true
}

func TestEventTimesLinkToTheTimeline(t *testing.T) {
	files := builtSite(t)
	const page = "en/incidents/2017-03-13-bq/index.html"
	doc := parse(t, files, page)
	for _, c := range []struct{ anchor, shown string }{
		{"t-20170313T1722Z", "10:22"},   // PDT is UTC−7
		{"t-20170313T1740Z", "10:40"},   // starts with strong text
		{"t-20170313T1740Z-2", "10:40"}, // the second event of that minute; starts with code
		{"t-20170313T1800Z", "11:00"},   // starts with a bare URL
	} {
		li := byID(doc, c.anchor)
		if li == nil || li.Data != "li" || !hasClass(li, "event") {
			t.Errorf("no timeline item with id %s", c.anchor)
			continue
		}
		links := find(li, func(n *html.Node) bool { return hasClass(n, "event-time") })
		if len(links) != 1 {
			t.Errorf("item %s has %d event-time links, want 1", c.anchor, len(links))
			continue
		}
		if got := text(links[0]); !strings.Contains(got, c.shown) {
			t.Errorf("item %s shows %q, want the local time %s", c.anchor, got, c.shown)
		}
		// The time is the event's permalink: following it keeps the reader
		// on the page.
		if href, _ := attr(links[0], "href"); href != "#"+c.anchor {
			t.Errorf("item %s: its time links to %q, want its own anchor #%s", c.anchor, href, c.anchor)
		}
		if len(find(li, func(n *html.Node) bool { return hasClass(n, "event-anchor") })) != 0 {
			t.Errorf("item %s still has a separate # link", c.anchor)
		}
		// The archive's timeline is a link of its own, after the text.
		tl := find(li, func(n *html.Node) bool { return hasClass(n, "event-timeline") })
		if len(tl) != 1 {
			t.Errorf("item %s has %d links to the archive timeline, want 1", c.anchor, len(tl))
			continue
		}
		if got := text(tl[0]); got != "on the archive timeline" {
			t.Errorf("item %s: the timeline link reads %q", c.anchor, got)
		}
		if tl[0].PrevSibling == nil || tl[0].NextSibling != nil && strings.TrimSpace(text(tl[0].NextSibling)) != "" {
			t.Errorf("item %s: the timeline link is not after the item's text", c.anchor)
		}
		href, _ := attr(tl[0], "href")
		file, frag, ok := resolve(t, page, href)
		if !ok || file != "en/timeline/2017/03/index.html" || frag != "i-2017-03-13-bq" {
			t.Errorf("item %s links to %q (%s#%s), want its incident's line on the March 2017 timeline", c.anchor, href, file, frag)
			continue
		}
		if byID(parse(t, files, file), frag) == nil {
			t.Errorf("item %s links to #%s, which %s does not have", c.anchor, frag, file)
		}
	}
	// The text after the time keeps its formatting.
	for anchor, want := range map[string]string{"t-20170313T1722Z": "em", "t-20170313T1740Z": "strong", "t-20170313T1740Z-2": "code", "t-20170313T1800Z": "a"} {
		li := byID(doc, anchor)
		if li != nil && len(find(li, tag(want))) == 0 {
			t.Errorf("item %s lost its <%s>", anchor, want)
		}
	}
}

func TestBodyIsEscapedAndFiltered(t *testing.T) {
	doc := parse(t, builtSite(t), "en/incidents/2017-03-13-bq/index.html")
	article := find(doc, func(n *html.Node) bool { return n.Data == "article" })
	if len(article) != 1 {
		t.Fatalf("%d articles", len(article))
	}
	body := article[0]
	if s := find(body, tag("script")); len(s) != 0 {
		t.Errorf("a <script> written in the Markdown reached the page")
	}
	if b := find(body, tag("b")); len(b) != 0 {
		t.Errorf("inline HTML reached the page as HTML")
	}
	raw := find(body, func(n *html.Node) bool { return n.Data == "pre" && hasClass(n, "raw-html") })
	if len(raw) != 1 || !strings.Contains(text(raw[0]), `<script>alert("x")</script>`) {
		t.Errorf("the HTML block is not shown as text in <pre class=raw-html>")
	}
	if !strings.Contains(text(body), "<b>inline HTML</b>") {
		t.Errorf("inline HTML is not shown as text")
	}
	for _, a := range find(body, tag("a")) {
		href, _ := attr(a, "href")
		if strings.Contains(strings.ToLower(strings.Join(strings.Fields(href), "")), "script:") {
			t.Errorf("a link to %q reached the page", href)
		}
	}
	if !strings.Contains(text(body), "bad link") {
		t.Errorf("the text of a dropped link is gone too")
	}
	// Headings: an explicit id with only id and class kept, automatic ids
	// for the others.
	impact := byID(body, "impact")
	if impact == nil || impact.Data != "h2" {
		t.Fatalf("no h2#impact")
	}
	if !hasClass(impact, "wide") {
		t.Errorf("h2#impact lost its class")
	}
	for _, bad := range []string{"onclick", "style"} {
		if _, ok := attr(impact, bad); ok {
			t.Errorf("h2#impact kept the %s attribute", bad)
		}
	}
	if h := byID(body, "what-we-learned"); h == nil || h.Data != "h2" {
		t.Errorf("a heading without an id has no automatic one")
	}
	// Table alignment is a class, never a style a strict CSP would block.
	cells := find(body, func(n *html.Node) bool { return n.Data == "td" || n.Data == "th" })
	if len(cells) != 4 {
		t.Fatalf("%d table cells, want 4", len(cells))
	}
	for _, c := range cells {
		if _, ok := attr(c, "style"); ok {
			t.Errorf("a table cell has a style attribute")
		}
	}
	if !hasClass(cells[1], "align-right") {
		t.Errorf("the right-aligned header is not class align-right")
	}
}

func TestUntranslatedIncidentShowsTheOriginalWithANotice(t *testing.T) {
	files := builtSite(t)
	doc := parse(t, files, "ja/incidents/2018-01-02-gcs/index.html")
	article := find(doc, tag("article"))
	if len(article) != 1 {
		t.Fatalf("%d articles", len(article))
	}
	if lang, _ := attr(article[0], "lang"); lang != "en" {
		t.Errorf("the English text is marked lang=%q", lang)
	}
	notices := find(article[0], func(n *html.Node) bool { return hasClass(n, "notice") })
	if len(notices) != 1 {
		t.Fatalf("%d notices, want the one saying the page is not translated", len(notices))
	}
	if lang, _ := attr(notices[0], "lang"); lang != "ja" {
		t.Errorf("the notice is marked lang=%q, want ja: it is in the page's language", lang)
	}
	// The original's language is named in the reader's: 英語, not English.
	if !strings.Contains(text(notices[0]), "英語") || strings.Contains(text(notices[0]), "English") {
		t.Errorf("the notice does not name the original's language in Japanese: %q", text(notices[0]))
	}
	// The translated incident has no notice.
	translated := parse(t, files, "ja/incidents/2017-03-13-bq/index.html")
	if n := find(translated, func(n *html.Node) bool { return hasClass(n, "notice") && n.Data == "p" }); len(n) != 0 {
		t.Errorf("a translated incident shows %d notices", len(n))
	}
}

// Every link of every page points at a file the render wrote, and every
// fragment at an id on that page: the URL scheme builds what it names.
func TestEveryLinkResolves(t *testing.T) {
	files := builtSite(t)
	for _, want := range []string{"index.html", "404.html", "en/404.html", "sitemap.xml", "incidents.json", "en/feed.xml",
		"en/products/bigquery/index.html", "ja/causes/config-change/index.html", "en/timeline/2018/index.html", "style.css", "chart.css"} {
		if _, ok := files[want]; !ok {
			t.Errorf("%s was not rendered", want)
		}
	}
	checked := 0
	for name := range files {
		if path.Ext(name) != ".html" {
			continue
		}
		doc := parse(t, files, name)
		for _, n := range find(doc, func(n *html.Node) bool { return n.Data == "a" || n.Data == "link" || n.Data == "script" }) {
			ref, ok := attr(n, "href")
			if !ok {
				if ref, ok = attr(n, "src"); !ok {
					continue
				}
			}
			if strings.HasPrefix(ref, "data:") {
				continue
			}
			file, frag, ours := resolve(t, name, ref)
			if !ours {
				continue
			}
			target, ok := files[file]
			if !ok {
				t.Errorf("%s: link %q points at %s, which was not rendered", name, ref, file)
				continue
			}
			checked++
			if frag != "" && path.Ext(file) == ".html" && byID(parse(t, map[string][]byte{file: target}, file), frag) == nil {
				t.Errorf("%s: link %q points at #%s, which %s does not have", name, ref, frag, file)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d links checked; the pages lost their navigation?", checked)
	}
}

func TestMissingStringIsAnError(t *testing.T) {
	en, err := fs.ReadFile(i18n.Files, "en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for line := range strings.Lines(string(en)) {
		if !strings.HasPrefix(strings.TrimSpace(line), "nav_timeline:") {
			kept = append(kept, line)
		}
	}
	_, err = renderSite(t, fstest.MapFS{"en.yaml": {Data: []byte(strings.Join(kept, ""))}})
	if err == nil || !strings.Contains(err.Error(), "nav_timeline") {
		t.Fatalf("rendering without nav_timeline: %v; want an error naming the string", err)
	}
}
