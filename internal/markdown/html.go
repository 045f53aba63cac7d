package markdown

import (
	"html"
	"time"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/postmortem-archive/gen/internal/timefmt"
)

// htmlRenderer prints gen's nodes and its rules over goldmark's HTML:
// event times, raw HTML as text, table alignment as classes.
type htmlRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (r htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindEventTime, r.eventTime)
	reg.Register(KindTimelineLink, r.timelineLink)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(east.KindTableCell, r.tableCell)
}

// eventTime prints a placed event's time as a link to the item's own id:
// the event's permalink, which a reader copies or shares from where they
// are reading.
func (r htmlRenderer) eventTime(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	et := n.(*EventTime)
	if !entering || !et.Placed {
		return ast.WalkContinue, nil
	}
	if et.Anchor == "" {
		writeTime(w, et)
		_, _ = w.WriteString(` `)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a class="event-time" href="#` + html.EscapeString(et.Anchor) + `"`)
	if et.Label != "" {
		_, _ = w.WriteString(` title="` + html.EscapeString(et.Label) + `"`)
	}
	_, _ = w.WriteString(`>`)
	writeTime(w, et)
	_, _ = w.WriteString(`</a> `)
	return ast.WalkContinue, nil
}

// writeTime writes the event's <time>, its UTC instant in its title.
func writeTime(w util.BufWriter, et *EventTime) {
	_, _ = w.WriteString(`<time datetime="` + et.At.Format(time.RFC3339) + `" title="` + timefmt.UTC(et.At) + `">` + html.EscapeString(et.Shown) + `</time>`)
}

// timelineLink prints the link to the same moment on the archive-wide
// timeline, after the item's text.
func (r htmlRenderer) timelineLink(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		l := n.(*TimelineLink)
		_, _ = w.WriteString(` <a class="event-timeline" href="` + html.EscapeString(l.Href) + `">` + html.EscapeString(l.Label) + `</a>`)
	}
	return ast.WalkContinue, nil
}

// rawHTML shows inline HTML as the text it is.
func (r htmlRenderer) rawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			_, _ = w.WriteString(html.EscapeString(string(seg.Value(source))))
		}
	}
	return ast.WalkSkipChildren, nil
}

// htmlBlock shows a block of HTML as preformatted text.
func (r htmlRenderer) htmlBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString(`<pre class="raw-html">`)
	for i := 0; i < b.Lines().Len(); i++ {
		line := b.Lines().At(i)
		_, _ = w.WriteString(html.EscapeString(string(line.Value(source))))
	}
	if b.HasClosure() {
		_, _ = w.WriteString(html.EscapeString(string(b.ClosureLine.Value(source))))
	}
	_, _ = w.WriteString("</pre>\n")
	return ast.WalkSkipChildren, nil
}

// tableCell aligns cells with a class: goldmark's own renderer writes a
// style attribute, which a strict Content-Security-Policy blocks.
func (r htmlRenderer) tableCell(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	tag := "td"
	if n.Parent() != nil && n.Parent().Kind() == east.KindTableHeader {
		tag = "th"
	}
	if !entering {
		_, _ = w.WriteString("</" + tag + ">\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag)
	if tag == "th" {
		_, _ = w.WriteString(` scope="col"`)
	}
	if a := n.(*east.TableCell).Alignment; a != east.AlignNone {
		_, _ = w.WriteString(` class="align-` + a.String() + `"`)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}
