package importer

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
)

// lang is one of gen's built-in languages.
func lang(t testing.TB, tag string) *locale.Lang {
	t.Helper()
	b, err := locale.Load(i18n.Files, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	l := b.Get(tag)
	if l == nil {
		t.Fatalf("no built-in language %s", tag)
	}
	return l
}

// parse reads a rendered file the way gen build does and fails the test on
// any problem, so that what gen import writes is always a valid page.
func parse(t testing.TB, f File) *content.Page {
	t.Helper()
	var errs diag.List
	p := content.Parse("content/"+f.ID+"/en.md", f.ID, "en", f.Text, &errs)
	for _, e := range errs.Errors() {
		t.Errorf("%s\n%s", e, f.Text)
	}
	if p == nil {
		t.Fatalf("no page from:\n%s", f.Text)
	}
	return p
}

func render(t testing.TB, inc Incident, zone string) File {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	f, ok := Render(inc, Options{Location: loc, Lang: lang(t, "en")}, &errs)
	if !ok || errs.Len() > 0 {
		t.Fatalf("Render: %v", errs.Err())
	}
	return f
}

// rawHTML lists the raw HTML a page's Markdown would pass through.
func rawHTML(t *testing.T, p *content.Page) []string {
	t.Helper()
	var out []string
	doc, src, err := p.Tree()
	if err != nil {
		t.Fatal(err)
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch h := n.(type) {
		case *ast.RawHTML:
			out = append(out, string(h.Segments.Value(src)))
		case *ast.HTMLBlock:
			out = append(out, string(h.Lines().Value(src)))
		}
		return ast.WalkContinue, nil
	})
	return out
}

func TestRenderIsAPage(t *testing.T) {
	for _, fx := range []struct {
		format Format
		file   string
	}{{Statuspage, "statuspage.json"}, {GoogleCloud, "google-cloud.json"}} {
		incs, errs := read(t, fx.format, fx.file)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, inc := range incs {
			for _, zone := range []string{"UTC", "America/Los_Angeles", "Asia/Taipei"} {
				f := render(t, inc, zone)
				p := parse(t, f)
				if len(p.Timeline) != len(inc.Updates) {
					t.Errorf("%s in %s: %d timeline items for %d updates:\n%s", inc.ImportID, zone, len(p.Timeline), len(inc.Updates), f.Text)
				}
				for i, m := range p.Timeline {
					if !strings.HasPrefix(m.Text, inc.Updates[i].Status) {
						t.Errorf("%s: item %d reads %q; it starts with the status %q", inc.ImportID, i, m.Text, inc.Updates[i].Status)
					}
				}
				if got := strings.Join(p.Sections, " "); got != "summary timeline" {
					t.Errorf("%s: sections %q, want the main update then the timeline", inc.ImportID, got)
				}
				if p.Meta.ImportID.V != inc.ImportID || !Untouched(f.Text) {
					t.Errorf("%s: import_id %q, untouched %v", inc.ImportID, p.Meta.ImportID.V, Untouched(f.Text))
				}
				if html := rawHTML(t, p); len(html) > 0 {
					t.Errorf("%s: raw HTML passed through: %q", inc.ImportID, html)
				}
				if !strings.HasPrefix(f.ID, inc.Begin.In(mustZone(zone)).Format("2006-01-02")+"-") {
					t.Errorf("%s: id %s does not start with the local begin date", inc.ImportID, f.ID)
				}
			}
		}
	}
}

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func TestRenderFacts(t *testing.T) {
	incs, _ := read(t, Statuspage, "statuspage.json")
	f := render(t, incs[1], "America/Los_Angeles")
	p := parse(t, f)
	m := p.Meta
	for _, c := range []struct{ got, want string }{
		{f.ID, "2024-03-04-elevated-api-errors-in-the-object"},
		{m.Title.V, "Elevated API errors in the object store"},
		{m.Summary.V, "A fix has been rolled out to every region and error rates are back to normal."},
		{m.Timezone.V, "America/Los_Angeles"},
		{m.Begin.V, "2024-03-04 23:50"},
		{m.End.V, "2024-03-05 02:05"},
		{m.Severity.V, "major"},
		{strings.Join(m.Products.Values(), ","), "Object Store,API"},
		{m.Sources[0].URL, "https://stspg.example/resolved1"},
		{p.Timeline[0].Date + " " + p.Timeline[0].Clock, "2024-03-04 23:52"},
		{p.Timeline[1].Date + " " + p.Timeline[1].Clock, "2024-03-05 00:15"},
		{p.Timeline[2].Date + " " + p.Timeline[2].Clock, " 01:30"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if !bytes.Contains(f.Text, []byte(`\<script>alert(1)\</script>`)) {
		t.Errorf("the script tag in an update is not escaped:\n%s", f.Text)
	}
	ongoing := render(t, incs[0], "UTC")
	if !bytes.Contains(ongoing.Text, []byte("\nongoing: true\n")) || bytes.Contains(ongoing.Text, []byte("\nend:")) ||
		bytes.Contains(ongoing.Text, []byte("\nseverity:")) || bytes.Contains(ongoing.Text, []byte("\nproducts:")) {
		t.Errorf("an ongoing incident with impact none and no components:\n%s", ongoing.Text)
	}
}

// TestRenderRepeatedHour: in the hour the clocks fall back, a timeline
// item cannot say which of the two times it means. The import writes an
// order that gen reads back as the right instants, and refuses an update
// it cannot place rather than moving it by an hour.
func TestRenderRepeatedHour(t *testing.T) {
	ny := mustZone("America/New_York")
	inc := Incident{ImportID: "x", Title: "Fall back", Begin: utc("2024-11-03T04:50:00Z"), End: utc("2024-11-03T07:00:00Z"), Path: "incidents[0]"}
	src := newSource("e.json", []byte("[\n\n    {}]"), nil)
	inc.node = placed{src, &node{path: "incidents[0]", offset: 7}}
	inc.Updates = []Update{{At: utc("2024-11-03T05:30:00Z"), Status: "Investigating"}, {At: utc("2024-11-03T06:10:00Z"), Status: "Resolved"}}
	var errs diag.List
	f, ok := Render(inc, Options{Location: ny, Lang: lang(t, "en")}, &errs)
	if !ok {
		t.Fatalf("01:30 EDT then 01:10 EST: %v", errs.Err())
	}
	if p := parse(t, f); !strings.Contains(string(f.Text), "- 01:10 — Resolved") || len(p.Timeline) != 2 {
		t.Errorf("timeline:\n%s", f.Text)
	}
	inc.Updates = []Update{{At: utc("2024-11-03T04:50:00Z"), Status: "Investigating"}, {At: utc("2024-11-03T06:30:00Z"), Status: "Resolved"}}
	if _, ok := Render(inc, Options{Location: ny, Lang: lang(t, "en")}, &errs); ok || !strings.Contains(errs.Err().Error(), "e.json:3:5: incidents[0]: the update at 2024-11-03 06:30 UTC falls in the hour the clocks repeat") {
		t.Errorf("00:50 EDT then 01:30 EST is read back as 01:30 EDT; want an error, got %v", errs.Err())
	}
	inc.Begin, inc.Updates = utc("2024-11-03T05:30:00Z"), nil
	if f := render(t, inc, "America/New_York"); !strings.Contains(string(f.Text), "\nbegin: \"2024-11-03T01:30:00-04:00\"\n") {
		t.Errorf("a begin time the clocks show twice is written with its offset:\n%s", f.Text)
	}
}

func TestUntouched(t *testing.T) {
	incs, _ := read(t, GoogleCloud, "google-cloud.json")
	f := render(t, incs[0], "UTC")
	if !Untouched(f.Text) {
		t.Fatal("a file as rendered is not untouched")
	}
	edited := bytes.Replace(f.Text, []byte("raised the limit"), []byte("raised the storage limit"), 1)
	noHash := hashLine.ReplaceAll(f.Text, nil)
	crlf := bytes.ReplaceAll(f.Text, []byte("\n"), []byte("\r\n"))
	for name, text := range map[string][]byte{"edited body": edited, "hash removed": noHash, "line ends changed": crlf} {
		if Untouched(text) {
			t.Errorf("%s: reported untouched", name)
		}
	}
}

func TestMarkdownLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a <b>tag</b> and <!-- a comment --> and <https://x.example>", `a \<b>tag\</b> and \<!-- a comment --> and \<https://x.example>`},
		{"code `<b>` stays, `` a<b ` `` too", "code `<b>` stays, `` a<b ` `` too"},
		{"## Timeline {#timeline}\ntext", "**Timeline {#timeline}**\n\ntext"},
		{"Title\n===\n\nPara\n---", "Title\n\\===\n\nPara\n\\---"},
		{"before\n\n---\n\nafter", "before\n\n---\n\nafter"},
		{"```\n<b>\n# not a heading\n", "```\n<b>\n# not a heading\n```"},
		{"para\n\n    <indented code>\n    # still code", "para\n\n    <indented code>\n    # still code"},
		{"a\r\nb\x00c\n\n\n\nd", "a\nbc\n\nd"},
	} {
		if got := strings.Join(markdownLines(tc.in), "\n"); got != tc.want {
			t.Errorf("markdownLines(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestTimelineItem(t *testing.T) {
	for _, tc := range []struct {
		u    Update
		want string
	}{
		{Update{Status: "Identified", Text: "one\ntwo"}, "- 10:00 — Identified: one\n  two"},
		{Update{Status: "Resolved"}, "- 10:00 — Resolved"},
		{Update{Text: "no status"}, "- 10:00 — no status"},
		{Update{Status: "Update", Text: "- a list\n- item"}, "- 10:00 — Update\n\n  - a list\n  - item"},
		{Update{Status: "Update", Text: "```\ncode"}, "- 10:00 — Update\n\n  ```\n  code\n  ```"},
		{Update{Status: "<i>x</i>", Text: "y"}, `- 10:00 — \<i>x\</i>: y`},
	} {
		if got := strings.Join(timelineItem("10:00", tc.u), "\n"); got != tc.want {
			t.Errorf("timelineItem(%+v)\n got %q\nwant %q", tc.u, got, tc.want)
		}
	}
}

// TestSlug: a title with no word for a slug gives the export's id, and a
// title that opens with a long word (a commit hash) is cut, not a panic.
func TestSlug(t *testing.T) {
	hash := strings.Repeat("0123456789abcdef", 4)
	for title, want := range map[string]string{
		"Elevated API errors in the object store": "elevated-api-errors-in-the-object",
		"Pub/Sub: délais de livraison":            "pub-sub-delais-de-livraison",
		hash + " rolled back":                     hash[:60],
		"資源耗盡":                                    "incident-abc123",
		"🔥":                                       "incident-abc123",
		"…":                                       "incident-abc123",
		"":                                        "incident-abc123",
	} {
		if got := slug(Incident{Title: title, ImportID: "ABC-123"}); got != want {
			t.Errorf("slug(%q) = %q, want %q", title, got, want)
		}
	}
}

// FuzzRenderUpdate: whatever an update says, the file gen import writes
// is a page gen reads without error, with one timeline item per update,
// the two sections it wrote and no raw HTML.
func FuzzRenderUpdate(f *testing.F) {
	f.Add("Investigating", "We are <b>looking</b>.\n## Timeline {#timeline}\n- 10:00 — x", "```\n<script>")
	f.Add("", "Title\n===", "    code\n\n<div>\n\n</div>")
	f.Add("x\ny", "1. one\n2. two\n\n> quote\n<!--", "| a | b |\n|---|---|\n| <i> | c |")
	f.Add("Resolved", "<p>Fixed <code>x</code></p><script>alert(1)</script>", "<ul><li><h2>Timeline</h2></li></ul><table><tr><td>|</td></tr></table>")
	f.Fuzz(func(t *testing.T, status, text1, text2 string) {
		inc := Incident{ImportID: "fz", Title: "Fuzz", Begin: utc("2024-01-01T10:00:00Z"), End: utc("2024-01-01T11:00:00Z")}
		inc.Updates = []Update{{At: utc("2024-01-01T10:00:00Z"), Status: status, Text: text1}, {At: utc("2024-01-01T10:30:00Z"), Status: "Resolved", Text: text2}}
		// HTML is converted on reading, as the readers do.
		for i := range inc.Updates {
			if isHTML(inc.Updates[i].Text) {
				inc.Updates[i].Text = htmlToMarkdown(inc.Updates[i].Text)
			}
		}
		file := render(t, inc, "UTC")
		p := parse(t, file)
		if len(p.Timeline) != 2 {
			t.Fatalf("%d timeline items:\n%s", len(p.Timeline), file.Text)
		}
		if got := strings.Join(p.Sections, " "); got != "summary timeline" && (got != "timeline" || strings.TrimSpace(text1+text2) != "") {
			t.Fatalf("sections %q:\n%s", p.Sections, file.Text)
		}
		if html := rawHTML(t, p); len(html) > 0 {
			t.Fatalf("raw HTML %q:\n%s", html, file.Text)
		}
	})
}

// TestRenderInTheFileLanguage: the headings and status words gen import
// writes are in the language the file is written in, and gen reads the
// file back with the same timeline.
func TestRenderInTheFileLanguage(t *testing.T) {
	incs, _ := read(t, Statuspage, "statuspage.json")
	for _, c := range []struct{ tag, summary, timeline, resolved string }{
		{"en", "## Summary {#summary}", "## Timeline {#timeline}", "— Resolved: This incident"},
		{"zh-TW", "## 摘要 {#summary}", "## 時間軸 {#timeline}", "— 已解決: This incident"},
		{"ja", "## 概要 {#summary}", "## タイムライン {#timeline}", "— 解決済み: This incident"},
	} {
		var errs diag.List
		f, ok := Render(incs[1], Options{Location: time.UTC, Lang: lang(t, c.tag)}, &errs)
		if !ok {
			t.Fatalf("%s: %v", c.tag, errs.Err())
		}
		for _, want := range []string{c.summary, c.timeline, c.resolved} {
			if !strings.Contains(string(f.Text), want) {
				t.Errorf("%s: no %q in\n%s", c.tag, want, f.Text)
			}
		}
		if p := parse(t, f); len(p.Timeline) != len(incs[1].Updates) {
			t.Errorf("%s: %d timeline items for %d updates", c.tag, len(p.Timeline), len(incs[1].Updates))
		}
	}
}

// TestStatuspagePostmortem: a published postmortem is imported as its own
// section and makes the summary; one given as HTML is converted to
// Markdown, with a warning at its place.
func TestStatuspagePostmortem(t *testing.T) {
	export := func(body string) []byte {
		return []byte(`{"page": {"name": "Example"}, "incidents": [{"id": "pm1", "name": "Login failures",
  "status": "postmortem", "started_at": "2024-05-01T10:00:00Z", "resolved_at": "2024-05-01T11:00:00Z",
  "incident_updates": [{"status": "resolved", "body": "Logins work again.", "created_at": "2024-05-01T11:00:00Z"}],
  "postmortem_body": ` + body + `}]}`)
	}
	var errs diag.List
	incs := Statuspage.Read("pm.json", export(`"An expired signing certificate made every login fail for an hour. We now alert thirty days before expiry.\n\n## Root cause\nThe renewal job had been disabled."`), &errs, nil)
	if errs.Len() > 0 || len(incs) != 1 {
		t.Fatalf("read: %d incidents, %v", len(incs), errs.Err())
	}
	f := render(t, incs[0], "UTC")
	p := parse(t, f)
	text := string(f.Text)
	if !strings.Contains(text, "## Postmortem {#postmortem}\n\nAn expired signing certificate") || !strings.Contains(text, "The renewal job had been disabled.") {
		t.Errorf("the postmortem is not a section of its own:\n%s", text)
	}
	if p.Meta.Summary.V != "An expired signing certificate made every login fail for an hour." {
		t.Errorf("summary %q, want the postmortem's first sentence", p.Meta.Summary.V)
	}
	if strings.Index(text, "{#postmortem}") > strings.Index(text, "{#timeline}") {
		t.Errorf("the postmortem comes after the timeline:\n%s", text)
	}

	errs = diag.List{}
	var warns diag.List
	incs = Statuspage.Read("pm.json", export(`"<p>An <b>expired</b> certificate.</p><p onclick=\"x()\">Renewed.</p>"`), &errs, &warns)
	if errs.Len() > 0 || len(incs) != 1 || incs[0].Postmortem != "An **expired** certificate.\n\nRenewed." {
		t.Errorf("an HTML postmortem: %v %+v", errs.Err(), incs)
	}
	if w := warns.Error(); w != "pm.json:4:22: incidents[0].postmortem_body: HTML converted to Markdown" {
		t.Errorf("an HTML postmortem: warnings %q", w)
	}
}
