package markdown

import (
	"time"

	"github.com/yuin/goldmark/ast"
)

// EventTime is the inline node that takes the place of the written time at
// the start of a timeline item ("10:22 — "). The parser fills what was
// written; Place fills how the page shows it.
type EventTime struct {
	ast.BaseInline
	Index int // position among the timeline's items that could be read

	// Set by Place at render time; an EventTime without them prints nothing.
	Placed bool
	At     time.Time // the instant, UTC
	Shown  string    // the time as the page's language writes it
	Anchor string    // the item's id: the time links to it, the event's permalink
	Label  string    // what that link is, in the page's language
}

// KindEventTime is the ast.NodeKind of EventTime.
var KindEventTime = ast.NewNodeKind("EventTime")

// Kind implements ast.Node.
func (n *EventTime) Kind() ast.NodeKind { return KindEventTime }

// Dump implements ast.Node.
func (n *EventTime) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Shown": n.Shown, "Anchor": n.Anchor}, nil)
}

// TimelineLink ends a placed event's first paragraph: a link to the same
// moment on the archive-wide timeline, apart from the time so that the
// time itself stays the event's permalink.
type TimelineLink struct {
	ast.BaseInline
	Href  string
	Label string // the link's text, in the page's language
}

// KindTimelineLink is the ast.NodeKind of TimelineLink.
var KindTimelineLink = ast.NewNodeKind("TimelineLink")

// Kind implements ast.Node.
func (n *TimelineLink) Kind() ast.NodeKind { return KindTimelineLink }

// Dump implements ast.Node.
func (n *TimelineLink) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Href": n.Href}, nil)
}

// Placement is how one timeline event shows on a page.
type Placement struct {
	At     time.Time // UTC
	Anchor string    // the item's id: the event's permalink, linked from the time
	Shown  string    // the time in the page's language
	// AnchorLabel names the time's link, to the event itself ("Link to
	// this event").
	AnchorLabel string
	// Href is the same moment on the archive-wide timeline, linked at the
	// end of the item's first paragraph with the text TimelineLabel ("on
	// the archive timeline"); no link without both.
	Href, TimelineLabel string
}

// Place puts each timeline event's placement on the tree: place returns
// it for the event at index i, or false for an event that could not be
// placed in time (it then prints as written, without the time).
func Place(doc ast.Node, place func(i int) (Placement, bool)) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		et, ok := n.(*EventTime)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		p, ok := place(et.Index)
		if !ok {
			return ast.WalkContinue, nil
		}
		et.Placed, et.At, et.Shown = true, p.At.UTC(), p.Shown
		et.Anchor, et.Label = p.Anchor, p.AnchorLabel
		if p.Href != "" && p.TimelineLabel != "" && et.Parent() != nil {
			et.Parent().AppendChild(et.Parent(), &TimelineLink{Href: p.Href, Label: p.TimelineLabel})
		}
		if item := listItemOf(et); item != nil {
			item.SetAttributeString("class", []byte("event"))
			item.SetAttributeString("id", []byte(p.Anchor))
		}
		return ast.WalkSkipChildren, nil
	})
}

// listItemOf is the timeline item an EventTime starts.
func listItemOf(n ast.Node) *ast.ListItem {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if li, ok := p.(*ast.ListItem); ok {
			return li
		}
	}
	return nil
}
