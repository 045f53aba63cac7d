package render

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"strconv"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/i18n"
)

// pageWriter carries one page's context to the node renderers: goldmark
// hands the writer it was given to every render function, so one shared
// renderer serves all pages concurrently.
type pageWriter struct {
	*bufio.Writer
	id     string // the incident's id
	events []content.Event
	loc    *time.Location
	lang   *i18n.Lang
}

// bodyRenderer adds gen's nodes to goldmark's HTML: timeline events placed
// in time, and raw HTML shown as text.
type bodyRenderer struct{}

// markdownHTML renders the Markdown features the load stage parses (GFM,
// footnotes, CJK line breaks) plus gen's own nodes.
var markdownHTML = renderer.NewRenderer(renderer.WithNodeRenderers(
	util.Prioritized(ghtml.NewRenderer(
		ghtml.WithEastAsianLineBreaks(ghtml.EastAsianLineBreaksSimple),
		ghtml.WithWriter(ghtml.NewWriter(ghtml.WithEscapedSpace())),
	), 1000),
	util.Prioritized(extension.NewTableHTMLRenderer(), 500),
	util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
	util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500),
	util.Prioritized(extension.NewFootnoteHTMLRenderer(), 500),
	util.Prioritized(bodyRenderer{}, 100),
))

// renderBody turns a parsed page into HTML, with its timeline events
// formatted for lang. Raw HTML written in the Markdown is shown as text.
func renderBody(p *content.Page, events []content.Event, loc *time.Location, lang *i18n.Lang) ([]byte, error) {
	var buf bytes.Buffer
	w := &pageWriter{Writer: bufio.NewWriter(&buf), id: p.ID, events: events, loc: loc, lang: lang}
	if err := markdownHTML.Render(w, p.Body, p.Tree()); err != nil {
		return nil, fmt.Errorf("%s: rendering Markdown: %w", p.File, err)
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// RegisterFuncs implements renderer.NodeRenderer.
func (br bodyRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(content.KindEventTime, br.eventTime)
	reg.Register(ast.KindListItem, br.listItem)
	reg.Register(ast.KindRawHTML, br.rawHTML)
	reg.Register(ast.KindHTMLBlock, br.htmlBlock)
	reg.Register(east.KindTableCell, br.tableCell)
}

// tableCell aligns cells with a class: goldmark's own renderer writes a
// style attribute, which a strict Content-Security-Policy blocks.
func (br bodyRenderer) tableCell(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
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

func (br bodyRenderer) eventTime(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	pw := w.(*pageWriter)
	i := n.(*content.EventTime).Index
	if !entering || i >= len(pw.events) {
		return ast.WalkContinue, nil
	}
	e := pw.events[i]
	shown := pw.lang.Time(e.Instant, pw.loc)
	if e.Date != "" {
		// The author started a new day here: say which.
		shown = pw.lang.DateShort(e.Instant.In(pw.loc)) + " " + shown
	}
	// The time links to the same moment on the archive-wide timeline; the
	// item's own id is the event's permalink.
	_, _ = w.WriteString(`<a class="event-time" href="../../timeline/` + strconv.Itoa(e.Instant.Year()) + `/#` + TimelineID(pw.id, e.Anchor) + `"><time datetime="` + e.Instant.Format(time.RFC3339) +
		`" title="` + e.Instant.Format("2006-01-02 15:04 UTC") + `">` + html.EscapeString(shown) + `</time></a> `)
	return ast.WalkContinue, nil
}

// listItem gives timeline items their event's anchor id; other items are
// printed as goldmark would.
func (br bodyRenderer) listItem(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</li>\n")
		return ast.WalkContinue, nil
	}
	events := w.(*pageWriter).events
	if i, ok := content.EventItemIndex(n); ok && i < len(events) {
		_, _ = w.WriteString(`<li class="event" id="` + events[i].Anchor + `">`)
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

func (br bodyRenderer) rawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			_, _ = w.WriteString(html.EscapeString(string(seg.Value(source))))
		}
	}
	return ast.WalkSkipChildren, nil
}

func (br bodyRenderer) htmlBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
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
