package chart

import (
	"slices"
	"time"
)

// tickStep is one "nice" tick interval: a fixed duration below a day, else a
// number of calendar days or months (which follow the zone's wall clock).
type tickStep struct {
	d      time.Duration
	days   int
	months int
}

// approx is the step's typical length, for estimating tick counts.
func (s tickStep) approx() time.Duration {
	switch {
	case s.d > 0:
		return s.d
	case s.days > 0:
		return time.Duration(s.days) * 24 * time.Hour
	default:
		return time.Duration(s.months) * 30 * 24 * time.Hour
	}
}

var tickSteps = []tickStep{
	{d: time.Minute}, {d: 2 * time.Minute}, {d: 5 * time.Minute}, {d: 10 * time.Minute},
	{d: 15 * time.Minute}, {d: 30 * time.Minute}, {d: time.Hour}, {d: 2 * time.Hour},
	{d: 3 * time.Hour}, {d: 6 * time.Hour}, {d: 12 * time.Hour},
	{days: 1}, {days: 2}, {days: 3}, {days: 7}, {days: 14},
	{months: 1}, {months: 2}, {months: 3}, {months: 6}, {months: 12},
	{months: 24}, {months: 60}, {months: 120}, {months: 240}, {months: 600}, {months: 1200},
}

// floorDiv is integer division rounding towards negative infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// ticksIn appends to out the tick instants of step s in [start, end] whose
// wall clock in loc is a round multiple of the step. Sub-day steps are
// computed on instants, one zone period (between offset changes) at a
// time, so a DST change inside the range keeps every tick on a round local
// time; the ticks appended are strictly increasing. out is empty: its room
// is reused.
func ticksIn(out []time.Time, start, end time.Time, s tickStep, loc *time.Location) []time.Time {
	const maxTicks = 1000
	switch {
	case s.d > 0:
		step := int64(s.d / time.Second)
		t := start
		for guard := 0; !t.After(end) && guard < 100; guard++ {
			lt := t.In(loc)
			_, off := lt.Zone()
			_, segEnd := lt.ZoneBounds()
			last := segEnd.IsZero() || segEnd.After(end)
			wall := t.Unix() + int64(off)
			if t.Nanosecond() > 0 {
				wall++ // round up to the next whole second
			}
			for k := ceilDiv(wall, step) * step; len(out) < maxTicks; k += step {
				tick := time.Unix(k-int64(off), 0)
				if last && tick.After(end) || !last && !tick.Before(segEnd) {
					break
				}
				if n := len(out); n == 0 || tick.After(out[n-1]) {
					out = append(out, tick)
				}
			}
			if last {
				break
			}
			t = segEnd
		}
	case s.days > 0:
		l := start.In(loc)
		y, m, d := l.Date()
		day0 := floorDiv(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix(), 86400)
		n := int64(s.days)
		for k := ceilDiv(day0, n) * n; len(out) < maxTicks; k += n {
			tick := time.Date(y, m, d+int(k-day0), 0, 0, 0, 0, loc)
			if tick.After(end) {
				break
			}
			if !tick.Before(start) && (len(out) == 0 || tick.After(out[len(out)-1])) {
				out = append(out, tick)
			}
		}
	default:
		l := start.In(loc)
		idx0 := int64(l.Year())*12 + int64(l.Month()-1)
		n := int64(s.months)
		for k := ceilDiv(idx0, n) * n; len(out) < maxTicks; k += n {
			tick := time.Date(int(floorDiv(k, 12)), time.Month(k-floorDiv(k, 12)*12+1), 1, 0, 0, 0, 0, loc)
			if tick.After(end) {
				break
			}
			if !tick.Before(start) && (len(out) == 0 || tick.After(out[len(out)-1])) {
				out = append(out, tick)
			}
		}
	}
	return out
}

// tickRow is one row of axis ticks with their labels.
type tickRow struct {
	at     []time.Time
	labels []string
}

// place makes the row the ticks of step s in loc, without labels. Room
// for as many ticks as a step that is tried can give is made once.
func (r *tickRow) place(start, end time.Time, s tickStep, loc *time.Location) {
	r.at = ticksIn(slices.Grow(r.at[:0], 48), start, end, s, loc)
	r.labels = r.labels[:0]
}

// label names the row's ticks.
func (r *tickRow) label(name func(time.Time) string) {
	r.labels = slices.Grow(r.labels[:0], len(r.at))
	for _, t := range r.at {
		r.labels = append(r.labels, name(t))
	}
}

// tickRows are an axis's ticks: a row in the incident's zone, a row in
// UTC. Choosing them again reuses their room.
type tickRows struct {
	local, utc tickRow
}

// tickLabels name the ticks of each row: below a day, and at the starts
// of days (a step of a day or more).
type tickLabels struct {
	local, utc, localDay, utcDay func(time.Time) string
}

// choose picks the tick step for an axis over [start, end] drawn from x0
// to x1: the finest "nice" step giving 4–8 ticks in both rows whose
// labels do not collide; failing that the coarsest step giving 4–8 ticks;
// failing that the step whose counts come closest. Ticks are counted
// before they are labelled: only a step giving 4–8 ticks has its labels
// measured.
func (r *tickRows) choose(start, end time.Time, x0, x1 float64, loc *time.Location, names tickLabels) {
	span := end.Sub(start)
	scale := (x1 - x0) / seconds(end, start) // units per second
	label := func(s tickStep) {
		localLabel, utcLabel := names.local, names.utc
		if s.d == 0 {
			localLabel, utcLabel = names.localDay, names.utcDay
		}
		r.local.label(func(t time.Time) string { return localLabel(t.In(loc)) })
		r.utc.label(func(t time.Time) string { return utcLabel(t.UTC()) })
	}
	lastInRange, closest, penalty := -1, -1, 0
	for i, s := range tickSteps {
		if span/s.approx() > 40 {
			continue // far too many ticks; skip without generating them
		}
		r.local.place(start, end, s, loc)
		r.utc.place(start, end, s, time.UTC)
		nl, nu := len(r.local.at), len(r.utc.at)
		if nl >= 4 && nl <= 8 && nu >= 4 && nu <= 8 {
			label(s)
			if rowFits(r.local, scale, fontText, fontText) && rowFits(r.utc, scale, fontText, fontText) {
				return
			}
			lastInRange = i
		}
		if p := dist(nl) + dist(nu); closest < 0 || p < penalty {
			closest, penalty = i, p
		}
		if nl < 2 && nu < 2 {
			break
		}
	}
	chosen := lastInRange
	if chosen < 0 {
		chosen = closest
	}
	if chosen < 0 {
		*r = tickRows{}
		return
	}
	r.local.place(start, end, tickSteps[chosen], loc)
	r.utc.place(start, end, tickSteps[chosen], time.UTC)
	label(tickSteps[chosen])
}

func dist(n int) int {
	switch {
	case n < 4:
		return 4 - n
	case n > 8:
		return n - 8
	}
	return 0
}

// rowFits reports whether neighbouring labels of the row, centred on their
// ticks, leave at least gap units between them at the given font size.
func rowFits(r tickRow, scale, font, gap float64) bool {
	for i := 1; i < len(r.at); i++ {
		space := seconds(r.at[i], r.at[i-1]) * scale
		need := (textWidth(r.labels[i-1], font)+textWidth(r.labels[i], font))/2 + gap
		if space < need {
			return false
		}
	}
	return true
}
