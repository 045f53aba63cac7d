package content

import (
	"fmt"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/markdown"
	"github.com/postmortem-archive/gen/internal/timefmt"
	"github.com/postmortem-archive/gen/internal/urls"

	"github.com/postmortem-archive/gen/internal/diag"
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
	// DateLost: an item before this one, since the last date, could not be
	// read and looked like it started a new day; that item is reported,
	// and this one, without a date of its own, cannot be placed.
	DateLost bool
}

// Event is a timeline item placed in time: what pages show of it. The
// archive keeps every event of every language for the whole build, so an
// event holds no more than that (64 bytes, against 128 with its mark);
// where it was written is its mark's, the item of the same index in its
// page's Timeline.
type Event struct {
	Instant time.Time // UTC
	Anchor  string    // "t-20170313T1722Z", the same in every language
	Text    string    // the item's text after the time, plain
	NewDay  bool      // the item was written with a date: it starts a day
}

// marksOf turns the timeline the parser found into marks with file
// positions, reporting its problems with add.
func marksOf(p *Page, tl *markdown.Timeline, add func(pos Pos, msg string)) (marks []Mark, heading Pos) {
	if tl.Heading >= 0 {
		heading = p.pos(tl.Heading)
	}
	for _, pr := range tl.Problems {
		add(p.pos(pr.Offset), pr.Msg)
	}
	at := p.positions()
	// Marks and their texts last as long as the archive: no spare room,
	// and the texts of a timeline are one string they are cut from (one
	// object for the collector instead of one per item).
	texts := make([]string, len(tl.Items))
	size := 0
	for i, it := range tl.Items {
		texts[i] = plainText(it.Node.FirstChild(), p.Body)
		size += len(texts[i])
	}
	var all strings.Builder
	all.Grow(size)
	for _, t := range texts {
		all.WriteString(t)
	}
	joined := all.String()
	marks = make([]Mark, 0, len(tl.Items))
	for i, it := range tl.Items {
		text := joined[:len(texts[i])]
		joined = joined[len(text):]
		marks = append(marks, Mark{Pos: at.at(it.Offset), Date: it.Date, Clock: it.Clock, Written: it.Written, Text: text, DateLost: it.DateLost})
	}
	return marks, heading
}

// PlaceEvents gives each mark of file its instant in loc, one event per mark when
// there are no errors: a time without a date
// continues the previous item's date, an item that needs a date and has
// none, a time that does not exist, and a time earlier than the one before
// are errors. A wall time the clocks show twice takes the first instant
// that does not go backwards.
func PlaceEvents(file string, marks []Mark, loc *time.Location) ([]Event, []diag.Error) {
	events := make([]Event, 0, len(marks)) // kept for the whole build: no spare room
	var errs []diag.Error
	fail := func(m Mark, format string, args ...any) {
		errs = append(errs, diag.Error{File: file, Line: m.Line, Col: m.Col, Msg: fmt.Sprintf(format, args...)})
	}
	// An error in one item never changes how the next is read: dates are
	// carried from the last good one; an item whose day is unknown because
	// the item that set it is wrong is not reported again.
	date, lost := "", false
	var prev time.Time
	perMinute := map[time.Time]int{}
	for _, m := range marks {
		if m.Date != "" {
			if _, err := time.Parse(time.DateOnly, m.Date); err != nil {
				fail(m, "%q is not a valid date and time; write YYYY-MM-DD HH:MM with a 24-hour clock", m.Written)
				lost = true
				continue
			}
			date, lost = m.Date, false
		}
		switch {
		case m.Date == "" && (lost || m.DateLost):
			continue
		case date == "":
			fail(m, "the first timeline item needs a date: write `YYYY-MM-DD %s — …`", m.Clock)
			continue
		}
		at, msg := placeMark(m, date, prev, loc)
		if msg != "" {
			fail(m, "%s", msg)
			continue
		}
		prev = at
		// Two events in the same minute: the order in the list, which is
		// the same in every language, tells them apart.
		minute := at.UTC().Truncate(time.Minute)
		perMinute[minute]++
		events = append(events, Event{Instant: at.UTC(), Anchor: urls.EventAnchor(at, perMinute[minute]), Text: m.Text, NewDay: m.Date != ""})
	}
	return events, errs
}

// placeMark is the instant of mark m on date in loc, not before prev; or
// what is wrong with it.
func placeMark(m Mark, date string, prev time.Time, loc *time.Location) (time.Time, string) {
	wall, err := time.Parse(timefmt.Wall, date+" "+m.Clock)
	if err != nil {
		return time.Time{}, fmt.Sprintf("%q is not a valid date and time; write YYYY-MM-DD HH:MM with a 24-hour clock", m.Written)
	}
	cands := WallInstants(wall, loc)
	if len(cands) == 0 {
		return time.Time{}, fmt.Sprintf("%s %s does not exist in %s (the clocks skip it for daylight saving time); use the time after the change", date, m.Clock, loc)
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
		return time.Time{}, fmt.Sprintf("timeline goes backwards: %s %s is before the previous item (%s); %s",
			date, m.Clock, prev.In(loc).Format(timefmt.Wall), hint)
	}
	if err := Writable(at, date+" "+m.Clock); err != nil {
		return time.Time{}, err.Error()
	}
	return at, ""
}
