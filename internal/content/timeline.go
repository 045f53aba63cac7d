package content

import (
	"fmt"
	"regexp"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Mark is one timeline item as written: a wall-clock time, with a date only
// when the item starts a new day. The link stage turns marks into instants
// with the incident's time zone (a translation does not know it).
type Mark struct {
	Pos
	Date    string // "2017-03-13", or "" to continue the previous item's date
	Clock   string // "10:22"
	Written string // the prefix as written, for messages
	Text    string // the item's text after the time, plain
}

// Event is a timeline item placed in time.
type Event struct {
	Mark
	Instant time.Time // UTC
	Anchor  string    // "t-20170313T1722Z", the same in every language
}

// markPrefix matches "2017-03-13 10:22 — " or "10:22 - " at the start of an
// item: an em dash, en dash or hyphen separates the time from the text.
var markPrefix = regexp.MustCompile(`^(?:(\d{4}-\d{2}-\d{2})[ T])?(\d{1,2}:\d{2})\s*(?:—|–|-{1,2}|:)\s*`)

// extractTimeline finds the list under the heading with id "timeline" in
// doc, the page's parsed body, and returns each item's time and where the
// heading is; it swaps the written time for an EventTime node so that the
// render stage can print it for any language.
func extractTimeline(p *Page, doc ast.Node, add func(pos Pos, format string, args ...any)) (marks []Mark, heading Pos) {
	for h := doc.FirstChild(); h != nil; h = h.NextSibling() {
		if _, ok := h.(*ast.Heading); !ok || headingID(h) != "timeline" {
			continue
		}
		heading = p.pos(h.Lines().At(0).Start)
		list, ok := h.NextSibling().(*ast.List)
		if !ok {
			add(heading, "the timeline heading must be followed by a list of `- YYYY-MM-DD HH:MM — what happened` items")
			return marks, heading
		}
		for item := list.FirstChild(); item != nil; item = item.NextSibling() {
			para := item.FirstChild()
			if para == nil || para.Lines().Len() == 0 {
				add(p.pos(itemStart(item)), "empty timeline item; write `- HH:MM — what happened`")
				continue
			}
			start := para.Lines().At(0).Start
			m := markPrefix.FindSubmatchIndex(p.Body[start:para.Lines().At(0).Stop])
			pos := p.pos(start)
			if m == nil {
				add(pos, "timeline item must start with a time: `YYYY-MM-DD HH:MM — …` for a new day or `HH:MM — …`")
				continue
			}
			mark := Mark{Pos: pos, Clock: string(p.Body[start+m[4] : start+m[5]]), Written: string(p.Body[start : start+m[5]])}
			if m[2] >= 0 {
				mark.Date = string(p.Body[start+m[2] : start+m[3]])
			}
			if !replacePrefix(para, start+m[1], len(marks)) {
				add(pos, "the time of a timeline item must be plain text, without formatting")
				continue
			}
			mark.Text = plainText(para, p.Body)
			item.SetAttributeString(eventAttr, len(marks))
			marks = append(marks, mark)
		}
		return marks, heading
	}
	return marks, heading
}

// replacePrefix removes the source bytes before end from the leading text
// nodes of para and puts an EventTime node in their place.
func replacePrefix(para ast.Node, end, index int) bool {
	first := para.FirstChild()
	for n := first; n != nil; {
		t, ok := n.(*ast.Text)
		if !ok {
			return false
		}
		next := n.NextSibling()
		switch {
		case t.Segment.Stop <= end:
			para.RemoveChild(para, t)
		default:
			if t.Segment.Start < end {
				t.Segment = text.NewSegment(end, t.Segment.Stop)
			}
			para.InsertBefore(para, t, &EventTime{Index: index})
			return true
		}
		n = next
	}
	para.AppendChild(para, &EventTime{Index: index})
	return true
}

func itemStart(item ast.Node) int {
	for n := item; n != nil; n = n.FirstChild() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	}
	return 0
}

// PlaceEvents gives each mark its instant in loc: a time without a date
// continues the previous item's date, an item that needs a date and has
// none, a time that does not exist, and a time earlier than the one before
// are errors. A wall time the clocks show twice takes the first instant
// that does not go backwards.
func PlaceEvents(marks []Mark, loc *time.Location) ([]Event, []PosError) {
	var events []Event
	var errs []PosError
	date := ""
	var prev time.Time
	anchors := map[string]int{}
	for _, m := range marks {
		if m.Date != "" {
			date = m.Date
		}
		if date == "" {
			errs = append(errs, PosError{m.Pos, fmt.Sprintf("the first timeline item needs a date: write `YYYY-MM-DD %s — …`", m.Clock)})
			continue
		}
		wall, err := time.Parse("2006-01-02 15:04", date+" "+m.Clock)
		if err != nil {
			errs = append(errs, PosError{m.Pos, fmt.Sprintf("%q is not a valid date and time; write YYYY-MM-DD HH:MM with a 24-hour clock", m.Written)})
			continue
		}
		cands := WallInstants(wall, loc)
		if len(cands) == 0 {
			errs = append(errs, PosError{m.Pos, fmt.Sprintf("%s %s does not exist in %s (the clocks skip it for daylight saving time); use the time after the change", date, m.Clock, loc)})
			continue
		}
		at := cands[0]
		for _, c := range cands {
			if !c.Before(prev) {
				at = c
				break
			}
		}
		if at.Before(prev) {
			hint := "put the items in order"
			if m.Date == "" {
				hint = "if the day changed, write the new date: `YYYY-MM-DD " + m.Clock + " — …`"
			}
			errs = append(errs, PosError{m.Pos, fmt.Sprintf("timeline goes backwards: %s %s is before the previous item (%s); %s",
				date, m.Clock, prev.In(loc).Format("2006-01-02 15:04"), hint)})
			continue
		}
		if err := Writable(at, date+" "+m.Clock); err != nil {
			errs = append(errs, PosError{m.Pos, err.Error()})
			continue
		}
		prev = at
		anchor := Anchor(at)
		anchors[anchor]++
		if n := anchors[anchor]; n > 1 {
			// Two events in the same minute: the order in the list, which is
			// the same in every language, tells them apart.
			anchor = fmt.Sprintf("%s-%d", anchor, n)
		}
		events = append(events, Event{Mark: m, Instant: at.UTC(), Anchor: anchor})
	}
	return events, errs
}

// Anchor is the fragment id of an event at instant t: its UTC minute.
func Anchor(t time.Time) string { return "t-" + t.UTC().Format("20060102T1504Z") }

// PosError is an error at a position in a known file.
type PosError struct {
	Pos
	Msg string
}
