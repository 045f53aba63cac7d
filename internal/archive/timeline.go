package archive

import (
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/urls"
)

// timeline is a timeline as the archive keeps it: what content.Event
// holds, with the texts one string and each event's anchor made again
// from its instant and its place among the events of its minute. It holds
// two objects per incident, neither of which the collector scans but for
// the string's one pointer (the events' values hold 2 pointers and an
// anchor string each: at 100,000 incidents, millions of objects).
type timeline struct {
	at    []placed
	texts string
}

// placed is one event without its text: its instant, where its text ends
// in the timeline's texts, which event of its minute it is and whether it
// starts a day.
type placed struct {
	unix   int64
	nsec   int32
	end    uint32
	n      uint32
	newDay bool
}

// newTimeline keeps events, which content.PlaceEvents placed in order.
func newTimeline(events []content.Event) timeline {
	if len(events) == 0 {
		return timeline{}
	}
	t := timeline{at: make([]placed, len(events))}
	var texts strings.Builder
	texts.Grow(textSize(events))
	perMinute := map[time.Time]uint32{}
	for i, e := range events {
		texts.WriteString(e.Text)
		minute := e.Instant.UTC().Truncate(time.Minute)
		perMinute[minute]++
		t.at[i] = placed{unix: e.Instant.Unix(), nsec: int32(e.Instant.Nanosecond()), end: uint32(texts.Len()), n: perMinute[minute], newDay: e.NewDay}
	}
	t.texts = texts.String()
	return t
}

// events makes the timeline's events, a new list on each call.
func (t timeline) events() []content.Event {
	if len(t.at) == 0 {
		return nil
	}
	out := make([]content.Event, len(t.at))
	start := uint32(0)
	for i, p := range t.at {
		at := time.Unix(p.unix, int64(p.nsec)).UTC()
		out[i] = content.Event{Instant: at, Anchor: urls.EventAnchor(at, int(p.n)), Text: t.texts[start:p.end], NewDay: p.newDay}
		start = p.end
	}
	return out
}

// translation is a translation's timeline: the original's instants and
// anchors (checked the same) with the translation's own texts, one string
// cut where ends says, and the items it wrote a date on.
type translation struct {
	lang    string
	texts   string
	ends    []uint32
	newDays []uint32 // indexes of the events that start a day, ascending
}

// translated keeps the timeline of a translation whose events are the
// original's instants: what of them is its own.
func translated(lang string, events []content.Event) translation {
	t := translation{lang: lang, ends: make([]uint32, len(events))}
	var texts strings.Builder
	texts.Grow(textSize(events))
	for i, e := range events {
		texts.WriteString(e.Text)
		t.ends[i] = uint32(texts.Len())
		if e.NewDay {
			t.newDays = append(t.newDays, uint32(i))
		}
	}
	t.texts = texts.String()
	return t
}

// textSize is the length of the events' texts together.
func textSize(events []content.Event) int {
	n := 0
	for _, e := range events {
		n += len(e.Text)
	}
	return n
}
