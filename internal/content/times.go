package content

import (
	"fmt"
	"time"

	"github.com/postmortem-archive/gen/internal/timefmt"
)

// ParseTime reads a begin/end value: a local wall-clock time in loc, or an
// RFC 3339 time with an explicit offset. A wall-clock time that does not
// exist in loc (skipped by a spring-forward change) or that exists twice
// (repeated by a fall-back change) is an error that says how to write it.
func ParseTime(s string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, Writable(t, s)
	}
	for _, layout := range timefmt.Written {
		wall, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		cands := WallInstants(wall, loc)
		switch len(cands) {
		case 0:
			return time.Time{}, fmt.Errorf("%s does not exist in %s (the clocks skip it for daylight saving time); use the time after the change or an RFC 3339 time with offset", s, loc)
		case 1:
			return cands[0], Writable(cands[0], s)
		default:
			return time.Time{}, fmt.Errorf("%s happens twice in %s (the clocks fall back); write it with its offset, e.g. %s or %s",
				s, loc, timefmt.Offset(cands[0].In(loc)), timefmt.Offset(cands[1].In(loc)))
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time; write YYYY-MM-DD HH:MM (local to timezone) or RFC 3339 like 2017-03-13T10:22:00-07:00", s)
}

// Writable reports a time that cannot be written out: RFC 3339 (in the
// pages, the feeds and incidents.json) has four-digit years, so an instant
// outside the years 1–9999 in UTC, or in its own zone, has no spelling.
// written is the time as the author wrote it, for the message.
func Writable(t time.Time, written string) error {
	if y, uy := t.Year(), t.UTC().Year(); y < 1 || y > 9999 || uy < 1 || uy > 9999 {
		return fmt.Errorf("%s is %s in UTC, outside the years 1–9999 that dates can be written in; check the year",
			written, t.UTC().Format(timefmt.Wall))
	}
	return nil
}

// WallInstants returns every instant, earliest first, at which the clocks
// in loc show the wall time given by wall's fields (wall's own location is
// ignored): none in a spring-forward gap, two in a fall-back overlap.
func WallInstants(wall time.Time, loc *time.Location) []time.Time {
	y, mo, d := wall.Date()
	h, mi, sec := wall.Clock()
	naive := time.Date(y, mo, d, h, mi, sec, 0, time.UTC)
	// Offsets in force around that wall time: zone changes are never closer
	// together than a day, so the offsets a day either side cover both sides.
	seen := map[int]bool{}
	var out []time.Time
	for _, probe := range []time.Time{naive.Add(-26 * time.Hour), naive, naive.Add(26 * time.Hour)} {
		_, off := probe.In(loc).Zone()
		if seen[off] {
			continue
		}
		seen[off] = true
		t := naive.Add(-time.Duration(off) * time.Second)
		if _, o := t.In(loc).Zone(); o == off {
			out = append(out, t)
		}
	}
	if len(out) == 2 && out[1].Before(out[0]) {
		out[0], out[1] = out[1], out[0]
	}
	return out
}
