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
	texts texts
}

// texts are the texts of a timeline's events, one after another: a
// string, or once moved out of memory (Archive.MoveTexts) where they are
// in the incident's textFile.
type texts struct {
	s   string
	off int64
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
	t.texts.s = texts.String()
	return t
}

// size is the length of the texts together.
func (t timeline) size() int {
	if len(t.at) == 0 {
		return 0
	}
	return int(t.at[len(t.at)-1].end)
}

// events makes the timeline's events, a new list on each call, with
// texts cut where the events end in it: the timeline's own texts, or a
// translation's cut at its ends.
func (t timeline) events(texts string, ends []uint32) []content.Event {
	if len(t.at) == 0 {
		return nil
	}
	out := make([]content.Event, len(t.at))
	start := uint32(0)
	for i, p := range t.at {
		end := p.end
		if ends != nil {
			end = ends[i]
		}
		at := time.Unix(p.unix, int64(p.nsec)).UTC()
		out[i] = content.Event{Instant: at, Anchor: urls.EventAnchor(at, int(p.n)), Text: texts[start:end], NewDay: p.newDay}
		start = end
	}
	return out
}

// translation is a translation's timeline: the original's instants and
// anchors (checked the same) with the translation's own texts, one string
// cut where ends says, and the items it wrote a date on.
type translation struct {
	lang    string
	texts   texts
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
	t.texts.s = texts.String()
	return t
}

// size is the length of the texts together.
func (t translation) size() int {
	if len(t.ends) == 0 {
		return 0
	}
	return int(t.ends[len(t.ends)-1])
}

// textSize is the length of the events' texts together.
func textSize(events []content.Event) int {
	n := 0
	for _, e := range events {
		n += len(e.Text)
	}
	return n
}
