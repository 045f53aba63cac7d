package render

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"io"
	"sync"

	"github.com/postmortem-archive/gen/internal/markdown"
	"github.com/postmortem-archive/gen/internal/urls"
)

// md prints bodies with the extension the load stage parsed them with.
var md = markdown.NewMarkdown()

// Body is the incident's Markdown rendered for the page language: each
// timeline time in the language's format, in the incident's zone, linked
// to the same moment on the archive-wide timeline. Raw HTML written in
// the Markdown is shown as text.
func (v *IncidentView) Body() (template.HTML, error) {
	b := bodyBuffers.Get().(*bodyBuffer)
	defer func() { b.buf.Reset(); b.w.Reset(&b.buf); bodyBuffers.Put(b) }()
	if err := v.writeBody(b.w); err != nil {
		return "", err
	}
	return template.HTML(b.buf.String()), nil // #nosec G203: goldmark output with raw HTML escaped
}

// bodyBuffer is where a body is rendered before it is copied into its
// string: grown from nothing in a buffer of its own, a body allocated
// about twice its size again, and goldmark a writer of 4 KB for it.
type bodyBuffer struct {
	buf bytes.Buffer
	w   *bufio.Writer // into buf; goldmark writes through it and flushes it
}

var bodyBuffers = sync.Pool{New: func() any {
	b := new(bodyBuffer)
	b.w = bufio.NewWriter(&b.buf)
	return b
}}

// writeBody writes Body to w.
func (v *IncidentView) writeBody(w io.Writer) error {
	p, _ := v.page()
	doc, src, err := p.Tree()
	if v.parsed != nil {
		// Before the times are placed: the index reads the text as written.
		v.parsed(doc, src, err)
		v.parsed = nil
	}
	if err != nil {
		return err
	}
	events := v.Events()
	self := urls.IncidentLoc(v.L.Tag, v.ID)
	timeline := urls.Rel(self, urls.TimelineEventLoc(v.L.Tag, v.ID, v.LocalBegin()))
	anchorLabel, err := v.L.T("event_link")
	if err != nil {
		return err
	}
	timelineLabel, err := v.L.T("event_on_timeline")
	if err != nil {
		return err
	}
	markdown.Place(doc, func(i int) (markdown.Placement, bool) {
		if i >= len(events) {
			return markdown.Placement{}, false
		}
		e := events[i]
		shown := v.L.Time(e.Instant, v.Location)
		if e.NewDay {
			// The author started a new day here: say which.
			shown = v.L.DateShort(e.Instant.In(v.Location)) + " " + shown
		}
		return markdown.Placement{At: e.Instant, Anchor: e.Anchor, Shown: shown, AnchorLabel: anchorLabel, Href: timeline, TimelineLabel: timelineLabel}, true
	})
	if err := md.Renderer().Render(w, src, doc); err != nil {
		return fmt.Errorf("%s: rendering Markdown: %w", p.File, err)
	}
	return nil
}
