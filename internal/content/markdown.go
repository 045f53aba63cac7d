package content

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/postmortem-archive/gen/internal/markdown"
)

// md is gen's Markdown: every page is parsed with the same extension the
// render stage prints with.
var md = markdown.NewMarkdown()

// parseMarkdown parses a page's body, and returns what was found under
// its timeline heading.
func parseMarkdown(body []byte) (ast.Node, *markdown.Timeline) {
	pc := parser.NewContext()
	doc := md.Parser().Parse(text.NewReader(body), parser.WithContext(pc))
	return doc, markdown.TimelineOf(pc)
}
