package markdown

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

func parse(t *testing.T, src string, opts ...Option) (ast.Node, *Timeline) {
	t.Helper()
	pc := parser.NewContext()
	doc := NewMarkdown(opts...).Parser().Parse(text.NewReader([]byte(src)), parser.WithContext(pc))
	return doc, TimelineOf(pc)
}

func kinds(n ast.Node) map[ast.NodeKind]int {
	out := map[ast.NodeKind]int{}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			out[c.Kind()]++
		}
		return ast.WalkContinue, nil
	})
	return out
}

func TestTimelineItems(t *testing.T) {
	src := "# T\n\n## Timeline {#timeline}\n\n" +
		"- 2017-03-13 10:22 — plain\n" +
		"- 10:23 — _joe_ runs the script\n" +
		"- 10:24 — https://gerrit.example.org/r/489823/ gets merged\n" +
		"- 10:25 — **Paged** on-call\n" +
		"- 10:26 — `kubectl drain` starts\n" +
		"- 10:27 — [the dashboard](https://example.org/d) turns red\n" +
		"- 10:28 — ![graph](g.png) shows it\n" +
		"- 10:29 -- hyphens\n"
	doc, tl := parse(t, src)
	if len(tl.Problems) != 0 {
		t.Fatalf("problems: %+v", tl.Problems)
	}
	if len(tl.Items) != 8 {
		t.Fatalf("%d items, want 8", len(tl.Items))
	}
	first := tl.Items[0]
	if first.Date != "2017-03-13" || first.Clock != "10:22" || first.Written != "2017-03-13 10:22" || src[first.Offset:first.Offset+5] != "2017-" {
		t.Errorf("first item = %+v", first)
	}
	wantFirst := []ast.NodeKind{ast.KindText, ast.KindEmphasis, ast.KindAutoLink, ast.KindEmphasis, ast.KindCodeSpan, ast.KindLink, ast.KindImage, ast.KindText}
	for i, it := range tl.Items {
		para := it.Node.FirstChild()
		et, ok := para.FirstChild().(*EventTime)
		if !ok || et.Index != i {
			t.Errorf("item %d does not start with EventTime %d", i, i)
			continue
		}
		if next := et.NextSibling(); next == nil || next.Kind() != wantFirst[i] {
			t.Errorf("item %d: after the time comes %v, want %v", i, next, wantFirst[i])
		}
		if c := src[it.Offset : it.Offset+2]; i > 0 && c != "10" {
			t.Errorf("item %d offset points at %q", i, c)
		}
	}
	if n := kinds(doc)[KindEventTime]; n != 8 {
		t.Errorf("%d EventTime nodes, want 8", n)
	}
}

func TestTimelineProblems(t *testing.T) {
	cases := []struct{ src, want string }{
		{"## Timeline {#timeline}\n\nNo list.\n", "must be followed by a list"},
		{"## Timeline {#timeline}\n\n- at ten — x\n", "must start with a time"},
		{"## Timeline {#timeline}\n\n-\n- 10:00 — x\n", "empty timeline item"},
	}
	for _, c := range cases {
		_, tl := parse(t, c.src)
		if len(tl.Problems) != 1 || !strings.Contains(tl.Problems[0].Msg, c.want) {
			t.Errorf("%q: problems %+v, want one saying %q", c.src, tl.Problems, c.want)
		}
	}
	// A timeline heading without text: its lines are empty, the block's
	// start is where the problem is (the fuzzer found "# # {#timeline}").
	for _, src := range []string{"# # {#timeline}", "Intro.\n\n## ## {#timeline}\n"} {
		_, tl := parse(t, src)
		if len(tl.Problems) != 1 || !strings.Contains(tl.Problems[0].Msg, "must be followed by a list") ||
			tl.Heading < 0 || !strings.HasPrefix(src[tl.Heading:], "#") {
			t.Errorf("%q: heading at %d, problems %+v; want the heading's start and one problem", src, tl.Heading, tl.Problems)
		}
	}
	_, tl := parse(t, "## Other {#other}\n\n- 10:00 — x\n")
	if tl.Heading != -1 || len(tl.Items) != 0 {
		t.Errorf("a page without a timeline heading: %+v", tl)
	}
	_, tl = parse(t, "## Events {#events}\n\n- 2017-01-01 10:00 — x\n", WithTimelineHeading("events"))
	if len(tl.Items) != 1 {
		t.Errorf("WithTimelineHeading: %d items", len(tl.Items))
	}
}

func TestDangerousLinksAreDropped(t *testing.T) {
	src := "[a](javascript:alert(1)) [b](JAVASCRIPT:x) [c](vbscript:x) [d](data:text/html,x) ![e](javascript:x) <javascript:alert(1)> [ok](https://example.org/) ![png](data:image/png;base64,AAAA)\n"
	doc, _ := parse(t, src)
	k := kinds(doc)
	if k[ast.KindLink] != 1 || k[ast.KindImage] != 1 || k[ast.KindAutoLink] != 0 {
		t.Errorf("links %d, images %d, autolinks %d; want only the https link and the png image left", k[ast.KindLink], k[ast.KindImage], k[ast.KindAutoLink])
	}
	var out bytes.Buffer
	if err := NewMarkdown().Renderer().Render(&out, []byte(src), doc); err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"a", "b", "c", "d", "e", "javascript:alert(1)"} {
		if !strings.Contains(out.String(), word) {
			t.Errorf("the text %q of a dropped link is gone: %s", word, out.String())
		}
	}
	if !dangerousURL([]byte(" java\tscript:x")) || dangerousURL([]byte("https://example.org/javascript:x")) {
		t.Errorf("dangerousURL does not ignore what browsers ignore in a scheme")
	}
}

func TestAttributes(t *testing.T) {
	src := "## A {#a .c onclick=\"x\" style=\"y\" data-x=\"z\"}\n"
	doc, _ := parse(t, src)
	h := doc.FirstChild()
	var names []string
	for _, a := range h.Attributes() {
		names = append(names, string(a.Name))
	}
	if strings.Join(names, ",") != "id,class" {
		t.Errorf("attributes kept: %v, want id,class", names)
	}
	doc, _ = parse(t, src, WithAttributes("id", "data-x"))
	names = nil
	for _, a := range doc.FirstChild().Attributes() {
		names = append(names, string(a.Name))
	}
	if strings.Join(names, ",") != "id,data-x" {
		t.Errorf("WithAttributes: kept %v", names)
	}
}

func TestPlaceAndRender(t *testing.T) {
	src := "## Timeline {#timeline}\n\n- 2017-03-13 10:22 — first <b>x</b>\n- 10:30 — second\n"
	doc, tl := parse(t, src)
	at := time.Date(2017, 3, 13, 17, 22, 0, 0, time.UTC)
	Place(doc, func(i int) (Placement, bool) {
		if i != 0 {
			return Placement{}, false // an event that could not be placed
		}
		return Placement{At: at, Anchor: "t-20170313T1722Z", Shown: "10:22 <PDT>", AnchorLabel: "Link to this event", Href: "../../timeline/2017/#x&y", TimelineLabel: "on the <archive> timeline"}, true
	})
	if len(tl.Items) != 2 {
		t.Fatalf("%d items", len(tl.Items))
	}
	var out bytes.Buffer
	if err := NewMarkdown().Renderer().Render(&out, []byte(src), doc); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		// The time is the event's permalink; the archive's timeline is a
		// link of its own after the text.
		`<li class="event" id="t-20170313T1722Z"><a class="event-time" href="#t-20170313T1722Z" title="Link to this event"><time datetime="2017-03-13T17:22:00Z" title="2017-03-13 17:22 UTC">10:22 &lt;PDT&gt;</time></a> first &lt;b&gt;x&lt;/b&gt; <a class="event-timeline" href="../../timeline/2017/#x&amp;y">on the &lt;archive&gt; timeline</a></li>`,
		"<li>second</li>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered\n%s\nwant it to contain\n%s", got, want)
		}
	}
}

func TestUnreadableItemsKeepTheDate(t *testing.T) {
	_, tl := parse(t, "## Timeline {#timeline}\n\n- 2017-03-13 10:00 — a\n- 10h10 — b\n- 10:20 — c\n- 2017-03-14 1O:00 — d\n- 10:30 — e\n- 2017-03-15 10:00 — f\n- 10:40 — g\n")
	if tl.Unreadable != 2 || len(tl.Problems) != 2 {
		t.Fatalf("unreadable %d, problems %+v; want the two items b and d", tl.Unreadable, tl.Problems)
	}
	// c continues the first item's date; e follows d, which meant to start
	// a new day, so its date is unknown; g follows a good date again.
	want := map[string]bool{"10:00": false, "10:20": false, "10:30": true, "10:40": false}
	for _, it := range tl.Items {
		if lost, ok := want[it.Clock]; ok && it.DateLost != lost {
			t.Errorf("item %s: DateLost %v, want %v", it.Clock, it.DateLost, lost)
		}
	}
}
