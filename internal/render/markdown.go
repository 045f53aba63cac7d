package render

import (
	"bytes"
	"html"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"gen/internal/content"
	"gen/internal/i18n"
)

// bodyRenderer prints one page's Markdown tree with the page's timeline
// events placed in time and formatted for the reader's language. A fresh
// one is made per page because the events differ; goldmark renderers are
// cheap to assemble.
type bodyRenderer struct {
	events []content.Event
	loc    *time.Location
	lang   *i18n.Lang
}

// renderBody turns a parsed page into HTML. Raw HTML written in the
// Markdown is shown as text, never passed through.
func renderBody(p *content.Page, events []content.Event, loc *time.Location, lang *i18n.Lang) ([]byte, error) {
	br := &bodyRenderer{events: events, loc: loc, lang: lang}
	r := renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(ghtml.NewRenderer(), 1000),
		util.Prioritized(br, 100),
	))
	var buf bytes.Buffer
	if err := r.Render(&buf, p.Body, p.Doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// RegisterFuncs implements renderer.NodeRenderer.
func (br *bodyRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(content.KindEventTime, br.eventTime)
	reg.Register(ast.KindListItem, br.listItem)
	reg.Register(ast.KindRawHTML, br.rawHTML)
	reg.Register(ast.KindHTMLBlock, br.htmlBlock)
}

func (br *bodyRenderer) eventTime(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	i := n.(*content.EventTime).Index
	if !entering || i >= len(br.events) {
		return ast.WalkContinue, nil
	}
	e := br.events[i]
	_, _ = w.WriteString(`<a class="event-time" href="#` + e.Anchor + `"><time datetime="` + e.Instant.Format(time.RFC3339) +
		`" title="` + e.Instant.Format("2006-01-02 15:04 UTC") + `">` + html.EscapeString(br.lang.Time(e.Instant, br.loc)) + `</time></a> `)
	return ast.WalkContinue, nil
}

// listItem gives timeline items their event's anchor id; other items are
// printed as goldmark would.
func (br *bodyRenderer) listItem(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</li>\n")
		return ast.WalkContinue, nil
	}
	if i, ok := content.EventItemIndex(n); ok && i < len(br.events) {
		_, _ = w.WriteString(`<li class="event" id="` + br.events[i].Anchor + `">`)
	} else {
		_, _ = w.WriteString("<li")
		if n.Attributes() != nil {
			ghtml.RenderAttributes(w, n, ghtml.ListItemAttributeFilter)
		}
		_ = w.WriteByte('>')
	}
	if fc := n.FirstChild(); fc != nil {
		if _, ok := fc.(*ast.TextBlock); !ok {
			_ = w.WriteByte('\n')
		}
	}
	return ast.WalkContinue, nil
}

func (br *bodyRenderer) rawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			_, _ = w.WriteString(html.EscapeString(string(seg.Value(source))))
		}
	}
	return ast.WalkSkipChildren, nil
}

func (br *bodyRenderer) htmlBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString("<pre class=\"raw-html\">")
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
