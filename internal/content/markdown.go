package content

import (
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the one goldmark configuration every page is parsed with:
// GFM tables, footnotes, CJK line breaking (a line break inside Chinese or
// Japanese text must not become a space), explicit heading ids such as
// `{#timeline}`, and automatic ids for the other headings.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.CJK),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
)

// parseMarkdown parses a page's body.
func parseMarkdown(body []byte) ast.Node {
	doc := markdown.Parser().Parse(text.NewReader(body))
	dropUnsafeAttributes(doc)
	keepLineBreaksBeforeInlines(doc, body)
	return doc
}

// keepLineBreaksBeforeInlines settles the soft line breaks that goldmark's
// CJK rule would drop: it decides whether to keep a line break only when
// the next node is text, so "compare how\n[a link](…)" lost its space.
// The same rule is applied here for any next node: the break is kept
// unless the characters on both sides are East Asian wide.
func keepLineBreaksBeforeInlines(doc ast.Node, src []byte) {
	var breaks []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*ast.Text); ok && entering && t.SoftLineBreak() && !t.HardLineBreak() {
			if next := t.NextSibling(); next != nil && next.Kind() != ast.KindText {
				breaks = append(breaks, t)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, t := range breaks {
		t.SetSoftLineBreak(false)
		value := t.Segment.Value(src)
		if len(value) == 0 {
			continue
		}
		last, _ := utf8.DecodeLastRune(value)
		if next, ok := firstRune(t.NextSibling(), src); ok && util.IsEastAsianWideRune(last) && util.IsEastAsianWideRune(next) {
			continue // Chinese or Japanese on both sides: no space
		}
		t.Parent().InsertAfter(t.Parent(), t, ast.NewString([]byte("\n")))
	}
}

// firstRune is the first character of text under n.
func firstRune(n ast.Node, src []byte) (rune, bool) {
	for c := n; c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			if v := t.Segment.Value(src); len(v) > 0 {
				r, _ := utf8.DecodeRune(v)
				return r, true
			}
			return 0, false
		}
	}
	return 0, false
}

// dropUnsafeAttributes keeps only id and class of the attributes authors can
// write with `{…}`: styles and event handlers have no place in an archive
// that takes contributions and serves a strict Content-Security-Policy.
func dropUnsafeAttributes(doc ast.Node) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Attributes() == nil {
			return ast.WalkContinue, nil
		}
		var keep []ast.Attribute
		for _, a := range n.Attributes() {
			if name := string(a.Name); name == "id" || name == "class" {
				keep = append(keep, a)
			}
		}
		n.RemoveAttributes()
		for _, a := range keep {
			n.SetAttribute(a.Name, a.Value)
		}
		return ast.WalkContinue, nil
	})
}

// headingID returns the id attribute of a heading, or "".
func headingID(n ast.Node) string {
	if v, ok := n.AttributeString("id"); ok {
		switch id := v.(type) {
		case []byte:
			return string(id)
		case string:
			return id
		}
	}
	return ""
}

// EventTime is the inline node that replaces the written time at the start
// of a timeline item ("10:22 — "). The render stage prints it as a <time>
// element for the event's instant, formatted for the page's language.
type EventTime struct {
	ast.BaseInline
	Index int // position in Page.Timeline
}

// KindEventTime is the ast.NodeKind of EventTime.
var KindEventTime = ast.NewNodeKind("EventTime")

// Kind implements ast.Node.
func (n *EventTime) Kind() ast.NodeKind { return KindEventTime }

// Dump implements ast.Node.
func (n *EventTime) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// EventItemIndex reports whether list item n is timeline event i (the render
// stage gives such items the event's anchor id).
func EventItemIndex(n ast.Node) (int, bool) {
	if li, ok := n.(*ast.ListItem); ok {
		if v, ok := li.AttributeString(eventAttr); ok {
			if i, ok := v.(int); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// eventAttr marks timeline list items; it never reaches the HTML because the
// render stage's list-item renderer consumes it.
const eventAttr = "gen-event"
