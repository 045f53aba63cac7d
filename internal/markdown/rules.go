package markdown

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// lineBreakTransformer settles the soft line breaks that goldmark's CJK
// rule would drop: it decides whether to keep a line break only when the
// next node is text, so "compare how\n[a link](…)" lost its space. The
// same rule is applied here for any next node: the break is kept unless
// the characters on both sides are East Asian wide.
type lineBreakTransformer struct{}

// Transform implements parser.ASTTransformer.
func (lineBreakTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
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

// attributeFilter keeps only the allowed attributes of those authors can
// write with `{…}`.
type attributeFilter struct{ keep []string }

// Transform implements parser.ASTTransformer.
func (f *attributeFilter) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Attributes() == nil {
			return ast.WalkContinue, nil
		}
		var kept []ast.Attribute
		for _, a := range n.Attributes() {
			if slices.Contains(f.keep, string(a.Name)) {
				kept = append(kept, a)
			}
		}
		n.RemoveAttributes()
		for _, a := range kept {
			n.SetAttribute(a.Name, a.Value)
		}
		return ast.WalkContinue, nil
	})
}

// linkFilter drops links and images to javascript:, vbscript:, file: and
// data: (but data: images) URLs, keeping their text: a reader must never
// run what an author wrote by following a link.
type linkFilter struct{}

// Transform implements parser.ASTTransformer.
func (linkFilter) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var bad []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && isDangerous(n, src) {
			bad = append(bad, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range bad {
		parent := n.Parent()
		if al, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, n, ast.NewString(al.Label(src)))
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

func isDangerous(n ast.Node, src []byte) bool {
	switch l := n.(type) {
	case *ast.Link:
		return dangerousURL(l.Destination)
	case *ast.Image:
		return dangerousURL(l.Destination)
	case *ast.AutoLink:
		return dangerousURL(l.URL(src))
	}
	return false
}

// dangerousURL is goldmark's test, after removing what browsers ignore in
// a scheme: control characters and spaces ("java\tscript:").
func dangerousURL(u []byte) bool {
	clean := make([]byte, 0, len(u))
	for _, c := range u {
		if c > ' ' {
			clean = append(clean, c)
		}
	}
	return ghtml.IsDangerousURL(bytes.ToLower(clean))
}
