package chart

import (
	"sort"
	"strings"
	"time"
)

// Event is one timeline event to mark.
type Event struct {
	At    time.Time // instant
	Label string    // short text for the marker's <title> tooltip, e.g. "10:22 PDT · 17:22 UTC — Error rate jumps"
	Href  string    // link target of the marker, e.g. "#t-20170313T1722Z"
}

// IncidentTimeline describes one incident's picture.
type IncidentTimeline struct {
	IDPrefix    string                   // unique prefix for element ids
	Title, Desc string                   // accessible name and description (in the page language)
	Begin, End  time.Time                // impact window, shaded
	Open        bool                     // End is only the last known instant: the end was not stated
	Location    *time.Location           // the incident's zone: local ticks use it
	Events      []Event                  //
	LocalTick   func(t time.Time) string // label for a local tick, e.g. "10:30 PDT" (given t in Location)
	UTCTick     func(t time.Time) string // label for a UTC tick, e.g. "17:30 UTC"
}

// Incident layout, in user units of the 720-wide viewBox.
const (
	incX0       = 70.0  // axis start (room for half a label on the left)
	incX1       = 650.0 // axis end
	incLocalY   = 30.0  // baseline of local tick labels
	incGridTop  = 38.0  // top of grid lines and impact band
	incLanesTop = 46.0  // top of the marker lanes
	incLaneGap  = 22.0  // vertical distance between marker lanes
	incMaxLanes = 6     // more coincident events than this overlap
	incDotR     = 7.0   // marker radius
	incHitR     = 11.0  // radius of the invisible, larger hit area
	incMinGap   = 20.0  // markers closer than this in x go to different lanes
)

// Incident draws a horizontal time axis covering the window and all events
// (with margins), local-time ticks above the axis and UTC ticks below it at
// "nice" intervals (1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 3, 7,
// 14 days, months, years) chosen so there are 4–8 ticks; the impact window
// as a shaded band (class "band", edged by dashed lines, class "band-edge",
// so a zero-length window still shows); each event as a circle marker
// wrapped in <a href=Href class="marker"> with a <title>Label</title> child.
// Exactly one element with class "marker" per event. Events at (nearly) the
// same x are staggered vertically into up to 6 lanes so markers don't hide
// each other; a thin stem joins each marker to the axis.
//
// Ticks are computed on instants: below a day they fall on round wall-clock
// times of their zone, period by period, so crossing midnight or a DST change
// gives increasing, correctly labelled ticks (local labels via LocalTick,
// called with t in Location; UTC labels via UTCTick, called with t in UTC).
// Nil tick functions default to "15:04 MST" (or "Jan 2" for day steps).
// A nil Location means UTC. A zero Begin or End takes the other's value;
// End before Begin is swapped.
//
// The marker links have tabindex="-1": inside role="img" they are not
// announced, and the page's text timeline carries the same links.
func Incident(c IncidentTimeline) string {
	loc := c.Location
	if loc == nil {
		loc = time.UTC
	}
	id := cleanID(c.IDPrefix)
	localTick, utcTick := c.LocalTick, c.UTCTick

	begin, end := c.Begin, c.End
	switch {
	case begin.IsZero() && !end.IsZero():
		begin = end
	case end.IsZero() && !begin.IsZero():
		end = begin
	}
	if end.Before(begin) {
		begin, end = end, begin
	}
	hasWindow := !begin.IsZero()

	// Domain: window and events, plus margins.
	var lo, hi time.Time
	first := true
	widen := func(t time.Time) {
		if first {
			lo, hi, first = t, t, false
			return
		}
		if t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	if hasWindow {
		widen(begin)
		widen(end)
	}
	for _, e := range c.Events {
		if !e.At.IsZero() {
			widen(e.At)
		}
	}
	if first { // nothing to place: an hour around the Unix epoch
		lo = time.Unix(0, 0)
		hi = lo
	}
	span := hi.Sub(lo)
	margin := span / 14
	if margin < 2*time.Minute {
		margin = 2 * time.Minute
	}
	if span+2*margin < 8*time.Minute {
		margin = (8*time.Minute - span) / 2
	}
	d0, d1 := lo.Add(-margin), hi.Add(margin)
	scale := (incX1 - incX0) / seconds(d1, d0) // units per second
	sx := func(t time.Time) float64 { return incX0 + seconds(t, d0)*scale }

	// Ticks.
	stepIsDay := false
	if localTick == nil || utcTick == nil {
		stepIsDay = d1.Sub(d0) > 5*24*time.Hour
	}
	if localTick == nil {
		localTick = func(t time.Time) string {
			if stepIsDay {
				return t.Format("Jan 2")
			}
			return t.Format("15:04 MST")
		}
	}
	if utcTick == nil {
		utcTick = func(t time.Time) string {
			if stepIsDay {
				return t.Format("Jan 2")
			}
			return t.Format("15:04 MST")
		}
	}
	localRow, utcRow := chooseTicks(d0, d1, incX0, incX1, loc, localTick, utcTick)

	// Markers: time order, greedy lanes.
	type mark struct {
		i    int
		x    float64
		lane int
	}
	marks := make([]mark, 0, len(c.Events))
	for i, e := range c.Events {
		at := e.At
		if at.IsZero() {
			at = lo
		}
		marks = append(marks, mark{i: i, x: sx(at)})
	}
	sort.SliceStable(marks, func(a, b int) bool { return marks[a].x < marks[b].x })
	var laneLast []float64
	for k := range marks {
		x := marks[k].x
		lane := -1
		for l, last := range laneLast {
			if x-last >= incMinGap {
				lane = l
				break
			}
		}
		if lane < 0 {
			if len(laneLast) < incMaxLanes {
				lane = len(laneLast)
				laneLast = append(laneLast, x)
			} else {
				lane = 0
				for l, last := range laneLast {
					if last < laneLast[lane] {
						lane = l
					}
				}
			}
		}
		laneLast[lane] = x
		marks[k].lane = lane
	}
	lanes := max(len(laneLast), 1)
	axisY := incLanesTop + float64(lanes)*incLaneGap + 8
	laneY := func(l int) float64 { return axisY - 8 - incLaneGap/2 - float64(l)*incLaneGap }
	utcY := axisY + 30
	height := axisY + 42

	var b strings.Builder
	b.Grow(4096 + 300*len(c.Events))
	openSVG(&b, id, "incident", height, c.Title, c.Desc)

	// Impact band.
	if hasWindow {
		bx0, bx1 := sx(begin), sx(end)
		band, edges := "band", [2]string{"band-edge", "band-edge"}
		if c.Open {
			// No stated end: the band fades out at the last known instant
			// instead of stopping at an edge.
			band, edges[1] = "band open", "band-edge open"
		}
		b.WriteString(`<rect class="` + band + `" x="` + num(bx0) + `" y="` + num(incGridTop) + `" width="` + num(bx1-bx0) +
			`" height="` + num(axisY-incGridTop) + `"/>`)
		for i, x := range []float64{bx0, bx1} {
			b.WriteString(`<line class="` + edges[i] + `" x1="` + num(x) + `" y1="` + num(incGridTop) + `" x2="` + num(x) + `" y2="` + num(axisY) + `"/>`)
		}
	}

	// Local ticks: grid lines and labels above.
	b.WriteString(`<g class="ticks-local" text-anchor="middle">`)
	localNH := !rowFits(localRow, scale, fontTextNarrow, fontTextNarrow*0.75)
	for i, t := range localRow.at {
		x := num(sx(t))
		b.WriteString(`<line class="grid" x1="` + x + `" y1="` + num(incGridTop) + `" x2="` + x + `" y2="` + num(axisY) + `"/>`)
		b.WriteString(`<text class="tick tick-local` + nhClass(localNH, i) + `" x="` + x + `" y="` + num(incLocalY) + `">` + esc(localRow.labels[i]) + `</text>`)
	}
	b.WriteString(`</g>`)

	// Axis and UTC ticks below.
	b.WriteString(`<line class="axis" x1="` + num(incX0-20) + `" y1="` + num(axisY) + `" x2="` + num(incX1+20) + `" y2="` + num(axisY) + `"/>`)
	b.WriteString(`<g class="ticks-utc" text-anchor="middle">`)
	utcNH := !rowFits(utcRow, scale, fontTextNarrow, fontTextNarrow*0.75)
	for i, t := range utcRow.at {
		x := num(sx(t))
		b.WriteString(`<line class="tk" x1="` + x + `" y1="` + num(axisY) + `" x2="` + x + `" y2="` + num(axisY+7) + `"/>`)
		b.WriteString(`<text class="tick tick-utc muted` + nhClass(utcNH, i) + `" x="` + x + `" y="` + num(utcY) + `">` + esc(utcRow.labels[i]) + `</text>`)
	}
	b.WriteString(`</g>`)

	// Stems, then markers on top.
	if len(marks) > 0 {
		b.WriteString(`<g class="stems">`)
		for _, m := range marks {
			x := num(m.x)
			b.WriteString(`<line class="stem" x1="` + x + `" y1="` + num(laneY(m.lane)+incDotR) + `" x2="` + x + `" y2="` + num(axisY) + `"/>`)
		}
		b.WriteString(`</g><g class="events">`)
		for _, m := range marks {
			e := c.Events[m.i]
			x, y := num(m.x), num(laneY(m.lane))
			b.WriteString(`<a class="marker" href="` + esc(safeHref(e.Href)) + `" tabindex="-1"><title>` + esc(e.Label) + `</title>`)
			b.WriteString(`<circle class="hit" cx="` + x + `" cy="` + y + `" r="` + num(incHitR) + `"/>`)
			b.WriteString(`<circle class="dot" cx="` + x + `" cy="` + y + `" r="` + num(incDotR) + `"/></a>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// nhClass returns " nh" (hidden on narrow viewports) for every other label
// of a row whose labels would collide there.
func nhClass(crowded bool, i int) string {
	if crowded && i%2 == 1 {
		return " nh"
	}
	return ""
}
