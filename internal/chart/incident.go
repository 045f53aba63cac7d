package chart

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Event is one timeline event to mark.
type Event struct {
	At    time.Time // instant
	Label string    // short text for the marker's <title> tooltip, e.g. "10:22 PDT · 17:22 UTC — Error rate jumps"
	Href  string    // link target of the marker, e.g. "#t-20170313T1722Z"
}

// Overlap is another incident whose window overlaps the one drawn: a
// lane of its own under the axis, linked to its page.
type Overlap struct {
	Begin, End time.Time // its window
	Open       bool      // End is only the last known instant
	Text       string    // shown in its lane, cut to fit: its title
	Label      string    // the lane's <title>: its title and when it began
	Href       string
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
	// DayTick labels a tick of a step of a day or more, at the start of a
	// day in its row's zone (t in Location, or in UTC): "Mar 3 PST". Nil
	// gives LocalTick's and UTCTick's labels.
	DayTick func(t time.Time) string
	// MidnightLabel names the local day a midnight line begins ("Aug 20");
	// nil gives "Jan 2".
	MidnightLabel func(t time.Time) string
	Legend        IncidentLegend // drawn below the axis when any is set
	// Overlaps are drawn in the order given, a lane each under the axis;
	// More, when set, is a last line naming the ones not drawn ("and 12
	// more"), linked to MoreHref.
	Overlaps       []Overlap
	More, MoreHref string
}

// IncidentLegend names an incident picture's marks, in the page language.
type IncidentLegend struct {
	Impact   string // the shaded window: "Impact"
	Events   string // the numbered markers: "Event, numbered as in the timeline"
	Midnight string // the dashed line: "Midnight, local time"
	Overlap  string // an overlap's lane: "Another incident at the same time"
	// Instant names the line drawn for an open window that is one
	// instant: "Began; no later time stated".
	Instant string
}

// Incident layout, in user units, the same for every geometry.
const (
	incLocalY   = 30.0 // baseline of local tick labels
	incGridTop  = 38.0 // top of grid lines and impact band
	incLanesTop = 46.0 // top of the marker lanes
	// incDayRoom lowers the lanes where a midnight is labelled, so that
	// the label's line is clear of the top lane's markers (on a phone a
	// marker minutes after midnight hid the date).
	incDayRoom = 8.0
	// The midnights' dates' sizes (the style sheet's .midnight-label):
	// normal (no text under 12 px), and enlarged where a 720-unit picture
	// is scaled to a phone.
	dayFont, dayFontNarrow = 12.0, 18.0
	// overlapFont is the size of an overlapping incident's name (the
	// style sheet's .overlap-label).
	overlapFont = 12.0
	// instantMargin is how much is shown either side of an incident that
	// is a single instant (no end, nothing after its beginning).
	instantMargin = time.Hour
)

// incGeom is the geometry of an incident's picture, in user units.
type incGeom struct {
	width, x0, x1 float64 // the viewBox's width; the axis
	laneGap       float64 // vertical distance between marker lanes
	maxLanes      int     // more coincident events than this overlap
	dotR, hitR    float64 // a marker's radius (room for its number) and its larger, invisible hit area
	minGap        float64 // markers closer than this in x go to different lanes
	legendH       float64 // a row of the legend
	// font is the size labels are measured at where they must not
	// collide: the largest they are shown at; dayFont the midnights'
	// dates'.
	font, dayFont float64
	// tooltips: the markers hold their events' labels, shown on hover.
	tooltips bool
	// overlapH is the height of an overlapping incident's lane (a tap
	// target on a phone).
	overlapH float64
}

// wideGeom is drawn 720 units wide and scaled to the page: on a phone to
// about half, where the style sheet enlarges its text and markers.
var wideGeom = incGeom{width: viewWidth, x0: 70, x1: 650, laneGap: 22, maxLanes: 6, dotR: 9, hitR: 11, minGap: 20, legendH: 40, font: fontTextNarrow, dayFont: dayFontNarrow, tooltips: true, overlapH: 24}

// phoneGeom is drawn for a phone, 360 units wide, so that a unit is about
// a CSS pixel: text at its size, markers a 26 px tap target, and no
// tooltips: a phone has no pointer to hover with.
var phoneGeom = incGeom{width: 360, x0: 40, x1: 320, laneGap: 28, maxLanes: 8, dotR: 11, hitR: 13, minGap: 24, legendH: 30, font: fontText, dayFont: dayFont, overlapH: 28}

// Incident draws a horizontal time axis covering the window and all events
// (with margins), local-time ticks above the axis and UTC ticks below it at
// "nice" intervals (1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 3, 7,
// 14 days, months, years) chosen so there are 4–8 ticks; the impact window
// as a shaded band (class "band", edged by dashed lines, class "band-edge",
// so a zero-length window still shows); each event as a circle marker
// wrapped in <a href=Href class="marker"> with a <title>Label</title> child
// and its number (its place in Events, from 1) written on it.
// Exactly one element with class "marker" per event. Events at (nearly) the
// same x are staggered vertically into up to 6 lanes so markers don't hide
// each other (more within minutes are set beside one another); a thin
// stem joins each marker to its time on the axis.
//
// Ticks are computed on instants: below a day they fall on round wall-clock
// times of their zone, period by period, so crossing midnight or a DST change
// gives increasing, correctly labelled ticks (local labels via LocalTick,
// called with t in Location; UTC labels via UTCTick, called with t in UTC).
// Nil tick functions default to "15:04 MST" (or "Jan 2" for day steps).
// A nil Location means UTC. A zero Begin or End takes the other's value;
// End before Begin is swapped.
//
// Each local midnight in view is a dashed line (class "midnight") with
// the date it begins; with a Legend, a row below the axis names the band,
// the markers and the midnight line.
//
// The marker links have tabindex="-1": inside role="img" they are not
// announced, and the page's text timeline carries the same links.
func Incident(c IncidentTimeline) string {
	var b strings.Builder
	b.Grow(incidentSize(c, 1))
	s := &svgw{w: &b}
	new(incidentLayout).draw(s, c, wideGeom, "incident")
	return b.String()
}

// IncidentResponsive draws the picture twice: as Incident does (its root
// also of class "chart-wide"), and for a phone's width (class
// "chart-phone", ids prefixed "<IDPrefix>-phone", no tooltips: a phone
// has no pointer to hover with), where text is at its size, markers are
// at least 24 CSS px across, and lanes and the legend have room for them.
// The style sheet shows the one that fits the viewport.
func IncidentResponsive(c IncidentTimeline) string {
	var b strings.Builder
	b.Grow(incidentSize(c, 2))
	s, g := &svgw{w: &b}, new(incidentLayout)
	g.draw(s, c, wideGeom, "incident chart-wide")
	phone := c
	phone.IDPrefix += "-phone"
	g.draw(s, phone, phoneGeom, "incident chart-phone") // in the room the wide one's layout leaves
	return b.String()
}

// incidentSize is about the length of c's markup drawn in n geometries,
// rather over than under: a builder that runs short doubles.
func incidentSize(c IncidentTimeline, n int) int {
	size := n * (2600 + len(c.Title) + len(c.Desc) + len(c.Legend.Impact) + len(c.Legend.Events) + len(c.Legend.Midnight) + len(c.Legend.Instant))
	for _, e := range c.Events {
		size += n*(270+len(e.Href)) + len(e.Label) + 15 // the label: one tooltip
	}
	for _, o := range c.Overlaps {
		size += n * (330 + len(o.Href) + len(o.Label) + len(o.Text))
	}
	size += n * (len(c.More) + len(c.MoreHref) + len(c.Legend.Overlap))
	return size + size/8
}

// draw lays c out in geometry geo and writes it; kind is the root's
// classes after "chart-".
func (g *incidentLayout) draw(s *svgw, c IncidentTimeline, geo incGeom, kind string) {
	g.layout(c, geo)
	s.root(cleanID(c.IDPrefix), kind, geo.width, g.height, c.Title, c.Desc)
	g.band(s)
	g.midnights(s)
	g.localTicks(s)
	g.utcTicks(s)
	g.markers(s)
	g.overlapLanes(s)
	g.legend(s)
	s.str(`</svg>`)
}

// incidentLayout is where everything of an incident's picture goes.
type incidentLayout struct {
	c             IncidentTimeline
	geo           incGeom
	loc           *time.Location
	begin, end    time.Time // the window, ordered; zero when there is none
	hasWindow     bool
	instant       bool      // the window is one instant: a line, not a band
	d0, d1        time.Time // the axis
	scale         float64   // units per second
	ticks         tickRows
	utcSame       bool        // the UTC labels would repeat the local ones: drawn once
	days          []time.Time // local midnights in view
	dayLabels     []dayLabel  // their dates, placed clear of the band's edges
	edgeTop       [2]float64  // where each band edge starts: below a date it would cross
	marks         []mark
	overlaps      []overlapLane
	overlapTop    float64   // the top of the first overlap lane
	laneLast      []float64 // the x of each lane's last marker, while placing them
	lanes         int
	keys          []legendItem
	keyRows       int
	axisY, height float64
}

// mark is one event's marker: its event, lane and x, and the x of its
// time on the axis, where its stem ends (x unless it was moved aside).
type mark struct {
	i     int
	x     float64
	lane  int
	axisX float64
}

func (g *incidentLayout) sx(t time.Time) float64 { return g.geo.x0 + seconds(t, g.d0)*g.scale }

func (g *incidentLayout) laneY(l int) float64 {
	return g.axisY - 8 - g.geo.laneGap/2 - float64(l)*g.geo.laneGap
}

// layout orders the window, finds the axis, its ticks, the markers'
// lanes and the picture's height. A layout made before leaves its room
// for this one's ticks, midnights, markers and legend.
func (g *incidentLayout) layout(c IncidentTimeline, geo incGeom) {
	*g = incidentLayout{c: c, geo: geo, loc: c.Location,
		ticks: g.ticks, days: g.days[:0], marks: g.marks[:0], laneLast: g.laneLast[:0], keys: g.keys[:0], overlaps: g.overlaps[:0]}
	if g.loc == nil {
		g.loc = time.UTC
	}
	g.begin, g.end = c.Begin, c.End
	switch {
	case g.begin.IsZero() && !g.end.IsZero():
		g.begin = g.end
	case g.end.IsZero() && !g.begin.IsZero():
		g.end = g.begin
	}
	if g.end.Before(g.begin) {
		g.begin, g.end = g.end, g.begin
	}
	g.hasWindow = !g.begin.IsZero()
	g.instant = g.hasWindow && g.begin.Equal(g.end)
	lo, hi := g.domain()
	span := hi.Sub(lo)
	margin := max(span/14, 2*time.Minute)
	switch {
	case span == 0:
		// One instant: an axis of minutes around nothing says nothing; an
		// hour either side places it in its day.
		margin = instantMargin
	case span+2*margin < 8*time.Minute:
		margin = (8*time.Minute - span) / 2
	}
	g.d0, g.d1 = lo.Add(-margin), hi.Add(margin)
	g.scale = (geo.x1 - geo.x0) / seconds(g.d1, g.d0)
	g.chooseTicks()
	local, utc := &g.ticks.local, &g.ticks.utc
	g.utcSame = slices.Equal(local.labels, utc.labels) && slices.EqualFunc(local.at, utc.at, time.Time.Equal)
	g.localMidnights()
	g.placeDayLabels()
	g.placeMarks(lo)
	g.axisY = incLanesTop + float64(g.lanes)*geo.laneGap + 8
	if len(g.days) > 0 {
		g.axisY += incDayRoom
	}
	g.height = g.axisY + 42
	g.placeOverlaps()
	if g.hasLegend() {
		g.placeKeys()
		g.height += float64(g.keyRows) * geo.legendH
	}
}

// domain is the first and last instant to show: the window and the events.
func (g *incidentLayout) domain() (lo, hi time.Time) {
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
	if g.hasWindow {
		widen(g.begin)
		widen(g.end)
	}
	for _, e := range g.c.Events {
		if !e.At.IsZero() {
			widen(e.At)
		}
	}
	if first { // nothing to place: an hour around the Unix epoch
		lo = time.Unix(0, 0)
		hi = lo
	}
	return lo, hi
}

// chooseTicks chooses the local and UTC tick rows, with default labels.
func (g *incidentLayout) chooseTicks() {
	localTick, utcTick, dayTick := g.c.LocalTick, g.c.UTCTick, g.c.DayTick
	def := func(t time.Time) string { return t.Format("15:04 MST") }
	if localTick == nil {
		localTick = def
	}
	if utcTick == nil {
		utcTick = def
	}
	localDay, utcDay := localTick, utcTick
	switch {
	case dayTick != nil:
		localDay, utcDay = dayTick, dayTick
	case g.c.LocalTick == nil && g.c.UTCTick == nil:
		localDay = func(t time.Time) string { return t.Format("Jan 2") }
		utcDay = localDay
	}
	g.ticks.choose(g.d0, g.d1, g.geo.x0, g.geo.x1, g.loc, tickLabels{localTick, utcTick, localDay, utcDay})
}

// placeMarks puts the markers in time order into lanes, greedily, so that
// markers closer than the geometry's minGap do not share one.
func (g *incidentLayout) placeMarks(lo time.Time) {
	g.marks = slices.Grow(g.marks, len(g.c.Events))
	for i, e := range g.c.Events {
		at := e.At
		if at.IsZero() {
			at = lo
		}
		x := g.sx(at)
		g.marks = append(g.marks, mark{i: i, x: x, axisX: x})
	}
	slices.SortStableFunc(g.marks, func(a, b mark) int { return cmp.Compare(a.x, b.x) })
	laneLast := slices.Grow(g.laneLast, g.geo.maxLanes)
	for k := range g.marks {
		x := g.marks[k].x
		lane := -1
		for l, last := range laneLast {
			if x-last >= g.geo.minGap {
				lane = l
				break
			}
		}
		if lane < 0 && len(laneLast) < g.geo.maxLanes {
			lane = len(laneLast)
			laneLast = append(laneLast, x)
		}
		if lane < 0 {
			// More markers within minGap than there are lanes: this one
			// goes beside the last marker of the lane free the longest,
			// its stem slanting to its time, or into a lane of its own
			// where that would leave the picture.
			lane = 0
			for l, last := range laneLast {
				if last < laneLast[lane] {
					lane = l
				}
			}
			if beside := laneLast[lane] + g.geo.minGap; beside <= g.geo.width-g.geo.hitR {
				x = beside
				g.marks[k].x = x
			} else {
				lane = len(laneLast)
				laneLast = append(laneLast, x)
			}
		}
		laneLast[lane] = x
		g.marks[k].lane = lane
	}
	g.laneLast = laneLast
	g.lanes = max(len(laneLast), 1)
}

// band shades the impact window, edged by dashed lines.
func (g *incidentLayout) band(s *svgw) {
	if !g.hasWindow {
		return
	}
	bx0, bx1 := g.sx(g.begin), g.sx(g.end)
	if g.instant {
		// Nothing to shade: the instant is a line, its mark.
		s.line("instant", bx0, min(g.edgeTop[0], g.edgeTop[1]), bx0, g.axisY)
		return
	}
	band, edges := "band", [2]string{"band-edge", "band-edge"}
	if g.c.Open {
		// No stated end: the band fades out at the last known instant
		// instead of stopping at an edge.
		band, edges[1] = "band open", "band-edge open"
	}
	s.open("rect", band)
	s.attr("x", bx0)
	s.attr("y", incGridTop)
	s.attr("width", bx1-bx0)
	s.attr("height", g.axisY-incGridTop)
	s.str("/>")
	for i, x := range [2]float64{bx0, bx1} {
		s.line(edges[i], x, g.edgeTop[i], x, g.axisY)
	}
}

// midnights marks each local midnight on the axis with a line and the
// date it begins, so that a reader sees where the day changes.
func (g *incidentLayout) midnights(s *svgw) {
	for i, day := range g.days {
		x, l := g.sx(day), g.dayLabels[i]
		s.str(`<g class="midnight">`)
		s.line("", x, incGridTop, x, g.axisY)
		more := ""
		if l.before {
			more = ` text-anchor="end"`
		}
		s.textAt("midnight-label", l.x, dayLabelY, l.text, more)
		s.str(`</g>`)
	}
}

// dayLabelY is the baseline of the midnights' dates.
const dayLabelY = incGridTop + 12

// dayLabel is a midnight's date, placed: after its line, or before it
// (text-anchor end) where a band edge would cross it after.
type dayLabel struct {
	text   string
	x      float64
	before bool
}

// box is the extent of the date's text, measured at its largest size.
func (l dayLabel) box(font float64) (x0, x1, y0, y1 float64) {
	w := textWidth(l.text, font)
	x0 = l.x
	if l.before {
		x0 -= w
	}
	return x0, x0 + w, dayLabelY - font, dayLabelY + font/4
}

// placeDayLabels puts each midnight's date after its line, or before it
// where an edge of the band (or the instant's line) would strike it
// through; where both sides are crossed, the date stays after its line
// and the edge starts below it.
func (g *incidentLayout) placeDayLabels() {
	g.edgeTop = [2]float64{incGridTop, incGridTop}
	g.dayLabels = slices.Grow(g.dayLabels[:0], len(g.days))
	var edges [2]float64
	if g.hasWindow {
		edges = [2]float64{g.sx(g.begin), g.sx(g.end)}
	}
	crossed := func(l dayLabel) (hit [2]bool, any bool) {
		if !g.hasWindow {
			return hit, false
		}
		x0, x1, _, _ := l.box(g.geo.dayFont)
		for i, e := range edges {
			hit[i] = e >= x0-2 && e <= x1+2
			any = any || hit[i]
		}
		return hit, any
	}
	for _, day := range g.days {
		x := g.sx(day)
		text := day.Format("Jan 2")
		if g.c.MidnightLabel != nil {
			text = g.c.MidnightLabel(day)
		}
		l := dayLabel{text: text, x: x + 4}
		hit, any := crossed(l)
		// A date after a midnight near the right end would be cut at the
		// picture's edge: it goes before its line, even across an edge.
		_, x1, _, _ := l.box(g.geo.dayFont)
		past := x1 > g.geo.width
		if any || past {
			if alt := (dayLabel{text: text, x: x - 4, before: true}); x-4-textWidth(text, g.geo.dayFont) >= 0 {
				if altHit, altAny := crossed(alt); !altAny || past {
					l, hit, any = alt, altHit, altAny
				}
			}
		}
		if any {
			_, _, _, bottom := l.box(g.geo.dayFont)
			for i := range hit {
				if hit[i] {
					g.edgeTop[i] = max(g.edgeTop[i], bottom+2)
				}
			}
		}
		g.dayLabels = append(g.dayLabels, l)
	}
}

// localMidnights finds the starts of the local days that begin in view,
// none when the ticks are days already.
func (g *incidentLayout) localMidnights() {
	if g.d1.Sub(g.d0) > 5*24*time.Hour {
		return
	}
	y, m, d := g.d0.In(g.loc).Date()
	for i := 1; ; i++ {
		day := dayStart(y, m, d+i, g.loc)
		if !day.Before(g.d1) {
			return
		}
		g.days = append(g.days, day)
	}
}

// dayStart is the first instant of the local day y-m-d (d may overflow
// its month). Where the clocks skip midnight (São Paulo's daylight saving
// time began at 00:00), time.Date gives an instant of the day before, and
// the day begins when the clocks jump.
func dayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	if want := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); t.Day() != want.Day() {
		if _, jump := t.ZoneBounds(); !jump.IsZero() {
			t = jump
		}
	}
	return t
}

// A tick label's classes: shown, crowded, nh (see tickLabel).
var (
	localLabelClasses = [3]string{"tick tick-local", "tick tick-local crowded", "tick tick-local nh"}
	utcLabelClasses   = [3]string{"tick tick-utc muted", "tick tick-utc muted crowded", "tick tick-utc muted nh"}
)

// localTicks draws grid lines and local labels above the axis.
func (g *incidentLayout) localTicks(s *svgw) {
	s.str(`<g class="ticks-local" text-anchor="middle">`)
	row := &g.ticks.local
	own, phone := g.labelsEvery(*row, fontText), g.labelsEvery(*row, g.geo.font)
	for i, t := range row.at {
		x := g.sx(t)
		s.line("grid", x, incGridTop, x, g.axisY)
		g.tickLabel(s, &localLabelClasses, own, phone, *row, i, incLocalY)
	}
	s.str(`</g>`)
}

// utcTicks draws the axis and the UTC labels below it.
func (g *incidentLayout) utcTicks(s *svgw) {
	s.line("axis", g.geo.x0-20, g.axisY, g.geo.x1+20, g.axisY)
	if g.utcSame {
		return // an incident kept in UTC: its times are above
	}
	s.str(`<g class="ticks-utc" text-anchor="middle">`)
	row := &g.ticks.utc
	own, phone := g.labelsEvery(*row, fontText), g.labelsEvery(*row, g.geo.font)
	for i, t := range row.at {
		x := g.sx(t)
		s.line("tk", x, g.axisY, x, g.axisY+7)
		g.tickLabel(s, &utcLabelClasses, own, phone, *row, i, g.axisY+30)
	}
	s.str(`</g>`)
}

// labelCentre is where tick i's label is centred: on its tick, moved in
// just far enough to stay inside the picture (a long zone name, "15:00
// BST, UTC+1", on a tick near an end of a phone's axis would be cut).
func (g *incidentLayout) labelCentre(row tickRow, i int) float64 {
	half := textWidth(row.labels[i], g.geo.font) / 2
	return max(half, min(g.sx(row.at[i]), g.geo.width-half))
}

// labelsEvery is how many ticks apart shown labels must be for no two,
// at their centres, to collide at the given font size: 1, every label;
// 2, every other; and so on.
func (g *incidentLayout) labelsEvery(row tickRow, font float64) int {
	k := 1
	for ; k < len(row.at); k++ {
		fits := true
		for i := k; i < len(row.at) && fits; i += k {
			space := g.labelCentre(row, i) - g.labelCentre(row, i-k)
			fits = space >= (textWidth(row.labels[i-k], font)+textWidth(row.labels[i], font))/2+font*0.75
		}
		if fits {
			break
		}
	}
	return k
}

// tickLabel writes tick i's label: x is its tick, dx the move that keeps
// it inside the picture. Where labels would collide only some are shown,
// every own-th (class crowded: hidden at every width) and every phone-th
// where a phone enlarges the text (class nh); classes holds the three,
// written out whole (a label is drawn for every tick of every page).
func (g *incidentLayout) tickLabel(s *svgw, classes *[3]string, own, phone int, row tickRow, i int, y float64) {
	class := classes[0]
	switch {
	case i%own != 0:
		class = classes[1]
	case i%phone != 0:
		class = classes[2]
	}
	x := g.sx(row.at[i])
	s.open("text", class)
	s.attr("x", x)
	s.attr("y", y)
	if dx := g.labelCentre(row, i) - x; math.Abs(dx) >= 0.05 {
		s.attr("dx", dx)
	}
	s.str(">")
	s.text(row.labels[i])
	s.str("</text>")
}

// markers draws the stems, then the numbered markers on top: marker n is
// event n of the page's timeline.
func (g *incidentLayout) markers(s *svgw) {
	if len(g.marks) == 0 {
		return
	}
	s.str(`<g class="stems">`)
	for _, m := range g.marks {
		s.line("stem", m.x, g.laneY(m.lane)+g.geo.dotR, m.axisX, g.axisY)
	}
	s.str(`</g><g class="events">`)
	for _, m := range g.marks {
		e := g.c.Events[m.i]
		y := g.laneY(m.lane)
		s.str(`<a class="marker" href="`)
		s.text(safeHref(e.Href))
		s.str(`" tabindex="-1">`)
		if e.Label != "" && g.geo.tooltips {
			s.str(`<title>`)
			s.text(e.Label)
			s.str(`</title>`)
		}
		s.circle("hit", m.x, y, g.geo.hitR)
		s.circle("dot", m.x, y, g.geo.dotR)
		s.open("text", "num")
		s.attr("x", m.x)
		s.attr("y", y+4)
		s.str(` text-anchor="middle">`)
		s.w.Write(strconv.AppendInt(s.tmp[:0], int64(m.i+1), 10))
		s.str(`</text></a>`)
	}
	s.str(`</g>`)
}

func (g *incidentLayout) hasLegend() bool { return g.c.Legend != (IncidentLegend{}) }

// legendItem is one key of the legend: its swatch and words, placed.
type legendItem struct {
	kind, text string
	x, y       float64
}

// placeKeys places the legend's keys left to right, wrapping to a new
// row where one would pass the right edge (widths are those of the
// narrow-screen text, the widest), and counts the rows they take.
func (g *incidentLayout) placeKeys() {
	l := g.c.Legend
	g.keys = slices.Grow(g.keys, 5)
	x, rows := 4.0, 1
	for _, it := range [...]legendItem{{kind: "band", text: l.Impact}, {kind: "instant", text: l.Instant}, {kind: "dot", text: l.Events},
		{kind: "midnight", text: l.Midnight}, {kind: "overlap", text: l.Overlap}} {
		if it.text == "" || !g.drawn(it.kind) {
			continue // a key for a mark not drawn
		}
		w := 34 + textWidth(it.text, g.geo.font)
		if x > 4 && x+w > g.geo.width-4 {
			x, rows = 4, rows+1
		}
		it.x, it.y = x, float64(rows-1)*g.geo.legendH
		g.keys = append(g.keys, it)
		x += w + 16
	}
	g.keyRows = rows
}

// drawn reports whether the picture has a mark of a legend's kind: a key
// for a mark not drawn would name nothing.
func (g *incidentLayout) drawn(kind string) bool {
	switch kind {
	case "band":
		return g.hasWindow && !g.instant
	case "instant":
		return g.instant && g.c.Open
	case "dot":
		return len(g.marks) > 0
	case "midnight":
		return len(g.days) > 0
	case "overlap":
		return len(g.overlaps) > 0
	}
	return false
}

// legend names the marks below the picture: the shaded window, the
// numbered markers and the midnight line.
func (g *incidentLayout) legend(s *svgw) {
	if !g.hasLegend() {
		return
	}
	top := g.height - float64(g.keyRows)*g.geo.legendH + g.geo.legendH - 14 // the first row's baseline
	s.str(`<g class="chart-key">`)
	for _, it := range g.keys {
		x, y := it.x, top+it.y
		switch it.kind {
		case "band":
			s.open("rect", "band")
			s.attr("x", x)
			s.attr("y", y-14)
			s.str(` width="28" height="18"/>`)
		case "dot":
			s.circle("dot", x+12, y-5, g.geo.dotR)
			s.textAt("num", x+12, y-1, "1", ` text-anchor="middle"`)
		case "midnight":
			s.str(`<g class="midnight">`)
			s.line("", x+14, y-16, x+14, y+4)
			s.str(`</g>`)
		case "instant":
			s.line("instant", x+14, y-16, x+14, y+4)
		case "overlap":
			s.open("rect", "overlap")
			s.attr("x", x)
			s.attr("y", y-12)
			s.str(` width="28" height="14"/>`)
		}
		s.textAt("", x+34, y, it.text, "")
	}
	s.str(`</g>`)
}

// nhClass returns " nh" (hidden on narrow viewports) for every other label
// of a row whose labels would collide there.
func nhClass(crowded bool, i int) string {
	if crowded && i%2 == 1 {
		return " nh"
	}
	return ""
}

// overlapLane is an overlapping incident's lane, placed: its bar, and its
// name inside the bar, after it or before it (anchor end), cut to fit.
type overlapLane struct {
	o         *Overlap
	x0, x1, y float64 // the bar
	textX     float64
	text      string
	before    bool
}

// placeOverlaps gives each overlapping incident a lane under the UTC
// times, its bar over the part of its window in view (an instant a thin
// bar), and a last line for More; the picture grows by their height.
func (g *incidentLayout) placeOverlaps() {
	if len(g.c.Overlaps) == 0 && g.c.More == "" {
		return
	}
	g.overlapTop = g.height - 4
	lo, hi := g.geo.x0-20, g.geo.x1+20 // the axis line's extent
	for i := range g.c.Overlaps {
		o := &g.c.Overlaps[i]
		x0, x1 := max(g.sx(o.Begin), lo), min(g.sx(o.End), hi)
		if x1-x0 < 4 {
			mid := min(max((x0+x1)/2, lo+2), hi-2)
			x0, x1 = mid-2, mid+2
		}
		l := overlapLane{o: o, x0: x0, x1: x1, y: g.overlapTop + float64(i)*g.geo.overlapH}
		inside, after, before := x1-x0-8, g.geo.width-4-(x1+5), x0-5-4
		w := textWidth(o.Text, overlapFont)
		switch {
		case w <= inside:
			l.textX, l.text = x0+4, o.Text
		case w <= after:
			l.textX, l.text = x1+5, o.Text
		case w <= before:
			l.textX, l.text, l.before = x0-5, o.Text, true
		default: // the most room there is, the name cut to it
			room := max(inside, after, before)
			l.text = fitText(o.Text, overlapFont, room)
			switch room {
			case inside:
				l.textX = x0 + 4
			case after:
				l.textX = x1 + 5
			default:
				l.textX, l.before = x0-5, true
			}
		}
		g.overlaps = append(g.overlaps, l)
	}
	rows := len(g.c.Overlaps)
	if g.c.More != "" {
		rows++
	}
	g.height = g.overlapTop + float64(rows)*g.geo.overlapH + 10
}

// fitText cuts s to at most room units wide at size, with an ellipsis.
func fitText(s string, size, room float64) string {
	if textWidth(s, size) <= room {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(string(r)+"…", size) > room {
		r = r[:len(r)-1]
	}
	if len(r) == 0 {
		return ""
	}
	return string(r) + "…"
}

// overlapLanes draws the overlapping incidents, each lane a link to its
// incident titled with its name, and the line naming the ones not drawn.
func (g *incidentLayout) overlapLanes(s *svgw) {
	if len(g.overlaps) == 0 && g.c.More == "" {
		return
	}
	h := g.geo.overlapH - 6
	s.str(`<g class="overlaps">`)
	for _, l := range g.overlaps {
		s.str(`<a class="overlap-lane" href="`)
		s.text(safeHref(l.o.Href))
		s.str(`" tabindex="-1"><title>`)
		s.text(l.o.Label)
		s.str(`</title>`)
		class := "overlap"
		if l.o.Open {
			class = "overlap open"
		}
		// The whole lane is the link's target, not only its bar.
		s.open("rect", "hit")
		s.attr("x", 0)
		s.attr("y", l.y)
		s.attr("width", g.geo.width)
		s.attr("height", g.geo.overlapH)
		s.str("/>")
		s.open("rect", class)
		s.attr("x", l.x0)
		s.attr("y", l.y+3)
		s.attr("width", l.x1-l.x0)
		s.attr("height", h)
		s.str("/>")
		more := ""
		if l.before {
			more = ` text-anchor="end"`
		}
		s.textAt("overlap-label", l.textX, l.y+3+h/2+overlapFont*0.35, l.text, more)
		s.str(`</a>`)
	}
	if g.c.More != "" {
		y := g.overlapTop + float64(len(g.overlaps))*g.geo.overlapH
		s.str(`<a class="overlap-more" href="`)
		s.text(safeHref(g.c.MoreHref))
		s.str(`" tabindex="-1">`)
		s.textAt("overlap-label", g.geo.x0, y+3+h/2+overlapFont*0.35, g.c.More, "")
		s.str(`</a>`)
	}
	s.str(`</g>`)
}
