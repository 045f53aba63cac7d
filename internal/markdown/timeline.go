package markdown

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Item is one timeline item as written: a wall-clock time, with a date
// only when the item starts a new day.
type Item struct {
	Offset  int           // where the item's text starts in the source
	Date    string        // "2017-03-13", or "" to continue the previous item's date
	Clock   string        // "10:22"
	Written string        // the time as written, for messages
	Node    *ast.ListItem // the item, for its text
	// DateLost is set on an item without a date when an item since the
	// last dated one could not be read and looked like it started a new
	// day: the date this item continues is unknown.
	DateLost bool
}

// Problem is something wrong with the timeline, at a byte offset of the
// source.
type Problem struct {
	Offset int
	Msg    string
}

// Timeline is what the parser found under the timeline heading.
type Timeline struct {
	Heading  int    // offset of the heading; -1 when the page has none
	Items    []Item // the items that could be read; EventTime.Index counts them
	Problems []Problem
	// Unreadable counts the items that could not be read.
	Unreadable int

	dateLost bool // see Item.DateLost
}

var timelineKey = parser.NewContextKey()

// TimelineOf returns the timeline found by the parse that used pc (see
// parser.WithContext); a page without one has Heading -1.
func TimelineOf(pc parser.Context) *Timeline {
	if t, ok := pc.Get(timelineKey).(*Timeline); ok {
		return t
	}
	return &Timeline{Heading: -1}
}

// timePrefix matches "2017-03-13 10:22 — " or "10:22 - " at the start of
// an item: an em dash, en dash, hyphen or colon separates the time from
// the text.
var timePrefix = regexp.MustCompile(`^(?:(\d{4}-\d{2}-\d{2})[ T])?(\d{1,2}:\d{2})\s*(?:—|–|-{1,2}|:)\s*`)

// markup is what may come before a time an author formatted: emphasis,
// code, a link's bracket.
const markup = "*_`~["

// bareTime is a time without its separator, as found inside formatting.
var bareTime = regexp.MustCompile(`^(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}`)

// datePrefix is the start of an item that meant to begin a new day.
var datePrefix = regexp.MustCompile(`^[` + markup + `]*\d{4}-\d{1,2}-\d{1,2}`)

// timelineTransformer finds the list under the timeline heading and puts
// an EventTime node in place of each item's written time.
type timelineTransformer struct{ id string }

// Transform implements parser.ASTTransformer.
func (t *timelineTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	tl := &Timeline{Heading: -1}
	pc.Set(timelineKey, tl)
	for h := doc.FirstChild(); h != nil; h = h.NextSibling() {
		if _, ok := h.(*ast.Heading); !ok || HeadingID(h) != t.id {
			continue
		}
		tl.Heading = headingStart(h)
		list, ok := h.NextSibling().(*ast.List)
		if !ok {
			tl.problem(tl.Heading, "the timeline heading must be followed by a list of `- YYYY-MM-DD HH:MM — what happened` items")
			return
		}
		for item := list.FirstChild(); item != nil; item = item.NextSibling() {
			tl.read(item.(*ast.ListItem), src)
		}
		return
	}
}

// itemProblem is a problem with one item, which then cannot be read.
func (tl *Timeline) itemProblem(off int, msg string) {
	tl.Unreadable++
	tl.problem(off, msg)
}

func (tl *Timeline) problem(off int, msg string) {
	tl.Problems = append(tl.Problems, Problem{Offset: off, Msg: msg})
}

// read reads one item's time and puts an EventTime in its place.
func (tl *Timeline) read(item *ast.ListItem, src []byte) {
	para := item.FirstChild()
	if para == nil || para.Lines().Len() == 0 {
		tl.itemProblem(itemStart(item), "empty timeline item; write `- HH:MM — what happened`")
		return
	}
	line := para.Lines().At(0)
	m := timePrefix.FindSubmatchIndex(line.Value(src))
	if m == nil {
		written := line.Value(src)
		msg := "timeline item must start with a time: `YYYY-MM-DD HH:MM — …` for a new day or `HH:MM — …`"
		if bare := bytes.TrimLeft(written, markup); len(bare) < len(written) && bareTime.Match(bare) {
			msg = "the time of a timeline item must be plain text, without formatting: write `- HH:MM — …` and format the text after the dash"
		}
		tl.itemProblem(line.Start, msg)
		tl.dateLost = tl.dateLost || datePrefix.Match(written)
		return
	}
	// The date and the clock are parts of the text as written: one string
	// for the three, which last as long as the archive.
	written := string(src[line.Start : line.Start+m[5]])
	at := func(i int) string { return written[m[2*i]:m[2*i+1]] }
	it := Item{Offset: line.Start, Clock: at(2), Written: written, Node: item}
	if m[2] >= 0 {
		it.Date = at(1)
	}
	if !replacePrefix(para, line.Start+m[1], src, &EventTime{Index: len(tl.Items)}) {
		tl.itemProblem(line.Start, "the time of a timeline item must be plain text, without formatting: write `- HH:MM — …` and format the text after the dash")
		tl.dateLost = tl.dateLost || it.Date != ""
		return
	}
	if it.Date != "" {
		tl.dateLost = false
	} else {
		it.DateLost = tl.dateLost
	}
	tl.Items = append(tl.Items, it)
}

// replacePrefix removes the written time, the source bytes before end,
// from the leading text nodes of para and puts et in their place. What
// follows the time may be any inline Markdown; the time itself must be
// text.
func replacePrefix(para ast.Node, end int, src []byte, et *EventTime) bool {
	covered := -1 // end of the last text node removed
	for n := para.FirstChild(); n != nil; {
		next := n.NextSibling()
		t, ok := n.(*ast.Text)
		switch {
		case ok && t.Segment.Stop <= end:
			covered = t.Segment.Stop
			para.RemoveChild(para, t)
		case ok:
			if t.Segment.Start < end {
				t.Segment = t.Segment.WithStart(end)
			}
			para.InsertBefore(para, t, et)
			return true
		case covered >= 0 && len(bytes.TrimSpace(src[covered:end])) == 0:
			// Formatting, a link or code right after the separator.
			para.InsertBefore(para, n, et)
			return true
		default:
			return false
		}
		n = next
	}
	para.AppendChild(para, et)
	return true
}

// headingStart is where a heading's text starts, or for a heading with
// no text ("# {#timeline}") where its block starts.
func headingStart(h ast.Node) int {
	if h.Lines().Len() > 0 {
		return h.Lines().At(0).Start
	}
	return max(h.Pos(), 0)
}

func itemStart(item ast.Node) int {
	for n := item; n != nil; n = n.FirstChild() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	}
	return 0
}

// HeadingID returns the id attribute of a heading, or "".
func HeadingID(n ast.Node) string {
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
