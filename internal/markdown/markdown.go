// Package markdown is gen's Markdown, one goldmark extension: GitHub
// tables, strikethrough, task lists and autolinks, footnotes, CJK line
// breaks, heading ids (`{#timeline}` and automatic ones), the timeline of
// a postmortem (each item's written time becomes an EventTime node), and
// the rules an archive that takes contributions needs: raw HTML shown as
// text, javascript: and other dangerous links dropped, only id and class
// attributes kept, table alignment as classes rather than styles.
//
// Parsing knows nothing of other pages. What depends on the site — when an
// event happened in UTC, how the page's language writes it, where the
// archive-wide timeline is — is put on the tree at render time with Place.
package markdown

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// config is what the options set.
type config struct {
	timelineID string   // id of the heading whose list is the timeline
	attributes []string // attribute names authors may write with `{…}`
}

// Option configures the extension.
type Option func(*config)

// WithTimelineHeading sets the id of the heading whose list is the
// timeline; the default is "timeline", written `## Timeline {#timeline}`.
func WithTimelineHeading(id string) Option { return func(c *config) { c.timelineID = id } }

// WithAttributes sets the attributes authors may write with `{…}` after a
// heading; the default is id and class. Styles and event handlers have no
// place in pages served with a strict Content-Security-Policy.
func WithAttributes(names ...string) Option { return func(c *config) { c.attributes = names } }

type genMarkdown struct{ config }

// New returns gen's Markdown extension with the given options.
func New(opts ...Option) goldmark.Extender {
	e := &genMarkdown{config{timelineID: "timeline", attributes: []string{"id", "class"}}}
	for _, o := range opts {
		o(&e.config)
	}
	return e
}

// Extension is gen's Markdown extension with the default options.
var Extension = New()

// Extend implements goldmark.Extender.
func (e *genMarkdown) Extend(m goldmark.Markdown) {
	extension.GFM.Extend(m)
	extension.Footnote.Extend(m)
	extension.CJK.Extend(m)
	m.Parser().AddOptions(
		parser.WithAutoHeadingID(),
		parser.WithAttribute(),
		parser.WithASTTransformers(
			util.Prioritized(&timelineTransformer{id: e.timelineID}, 100),
			util.Prioritized(lineBreakTransformer{}, 200),
			util.Prioritized(&attributeFilter{keep: e.attributes}, 300),
			util.Prioritized(linkFilter{}, 300),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(htmlRenderer{}, 100),
	))
}

// NewMarkdown is goldmark configured as gen's Markdown: the load stage
// parses with it, the render stage prints with it.
func NewMarkdown(opts ...Option) goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(New(opts...)))
}
