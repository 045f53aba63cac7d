package chart

import (
	"container/heap"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MonthChart describes a month of the archive: one bar per incident on a
// day axis in UTC, incidents that overlap set in lanes one above another.
// Its text is drawn at fontText and is not enlarged on a phone: the page
// lets the picture keep its width there and scroll in its own box, so a
// unit stays a CSS pixel.
type MonthChart struct {
	IDPrefix    string
	Title, Desc string
	// Start is the month's first instant; the axis runs to the next
	// month's, in UTC.
	Start time.Time
	// Bars are the incidents, each clipped to the month.
	Bars []MonthBar
	// DayLabel names a day under the axis; nil gives its number.
	DayLabel func(day time.Time) string
	Legend   MonthLegend
}

// MonthBar is one incident of a month.
type MonthBar struct {
	Begin, End time.Time // its window; an End before Begin is Begin
	// Open marks an incident whose end is not stated: its bar fades out
	// at End, its last known instant.
	Open     bool
	Severity string // critical, major or minor; anything else is unknown
	Href     string // its page
	Label    string // its accessible name: title, organization, times
}

// MonthLegend names a month picture's marks, in the page language.
type MonthLegend struct {
	Severities [4]string // critical, major, minor, unknown (the order of sevNames)
	Open       string    // the fading bar: "no end stated"
	Days       string    // what the axis counts: "days, UTC"
}

// Month picture layout, in user units of the 720-wide viewBox.
const (
	moLeft    = 6.0
	moRight   = viewWidth - 6
	moLaneH   = 16.0 // a lane: a bar and the gap below it
	moBarH    = 11.0
	moMinBarW = 3.0 // an incident of minutes still shows, and can be clicked
	moBarGap  = 2.0 // bars closer than this in a lane go to different lanes
	moKeyRowH = 24.0
	moAxisH   = 30.0 // the axis and its day labels
)

// MonthSVG draws c: the key (severities, the fading bar of an incident
// without an end, what the axis counts), the day lines, a bar per
// incident (class "bar severity-<name>", an open one "bar open" filled
// with its severity fading out), each in <a class="bar-link"> holding a
// <title> of its Label, and the day axis with each day's label. Lanes
// are packed greedily over the bars sorted by begin, in O(n log n): a
// bar takes the lowest lane free at its left edge.
func MonthSVG(c MonthChart) string {
	id := cleanID(c.IDPrefix)
	start := c.Start.UTC()
	end := start.AddDate(0, 1, 0)
	days := int(end.Sub(start).Hours()/24 + 0.5)
	if days <= 0 {
		days = 1
	}
	bars, lanes := layoutBars(c.Bars, start, end)
	rows := monthKeyRows(c.Legend)
	keyH := 4 + moKeyRowH*float64(len(rows))
	top := keyH + 6
	lanesH := float64(max(lanes, 1)) * moLaneH
	height := top + lanesH + moAxisH
	var b strings.Builder
	b.Grow(600 + 90*days + 260*len(bars))
	openSVG(&b, id, "month chart-fixed", viewWidth, height, c.Title, c.Desc)
	monthDefs(&b, id, bars)
	monthKey(&b, id, rows, 4+moKeyRowH-8)
	dayW := (moRight - moLeft) / float64(days)
	// The days' lines are one path: a month's page is bounded.
	b.WriteString(`<path class="grid" d="`)
	for d := 0; d <= days; d++ {
		b.WriteString("M" + num(moLeft+float64(d)*dayW) + " " + num(top) + "v" + num(lanesH))
	}
	b.WriteString(`"/>`)
	for _, bar := range bars {
		monthBar(&b, id, bar, top)
	}
	axisY := top + lanesH
	b.WriteString(`<line class="axis" x1="` + num(moLeft) + `" y1="` + num(axisY) + `" x2="` + num(moRight) + `" y2="` + num(axisY) + `"/>`)
	b.WriteString(`<g class="heads" text-anchor="middle">`)
	for d := range days {
		day := start.AddDate(0, 0, d)
		label := strconv.Itoa(day.Day())
		if c.DayLabel != nil {
			label = c.DayLabel(day)
		}
		b.WriteString(`<text class="muted" x="` + num(moLeft+(float64(d)+0.5)*dayW) + `" y="` + num(axisY+19) + `">` + esc(label) + `</text>`)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// placedBar is a bar where it is drawn.
type placedBar struct {
	MonthBar
	x, w float64
	lane int
	sev  string // a name of sevNames
}

// layoutBars clips the bars to [start, end), drops those outside it,
// and packs them into lanes; it returns them in the order given and the
// number of lanes.
func layoutBars(in []MonthBar, start, end time.Time) ([]placedBar, int) {
	span := seconds(end, start)
	out := make([]placedBar, 0, len(in))
	for _, bar := range in {
		b, e := bar.Begin, bar.End
		if e.Before(b) {
			e = b
		}
		if !b.Before(end) || e.Before(start) {
			continue
		}
		x0 := moLeft + (moRight-moLeft)*max(0, seconds(b, start))/span
		x1 := moLeft + (moRight-moLeft)*min(span, seconds(e, start))/span
		w := max(moMinBarW, x1-x0)
		x0 = min(x0, moRight-w)
		out = append(out, placedBar{MonthBar: bar, x: x0, w: w, sev: sevNames[sevRank(cleanClass(bar.Severity))]})
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case out[i].x < out[j].x:
			return -1
		case out[i].x > out[j].x:
			return 1
		}
		return 0
	})
	var free laneHeap // lanes whose last bar ends before the next begins, lowest first
	var busy busyHeap // lanes in use, the one whose bar ends first on top
	lanes := 0
	for _, i := range order {
		bar := &out[i]
		for len(busy) > 0 && busy[0].end+moBarGap <= bar.x {
			heap.Push(&free, heap.Pop(&busy).(laneEnd).lane)
		}
		if len(free) > 0 {
			bar.lane = heap.Pop(&free).(int)
		} else {
			bar.lane = lanes
			lanes++
		}
		heap.Push(&busy, laneEnd{lane: bar.lane, end: bar.x + bar.w})
	}
	return out, lanes
}

// laneHeap is lanes by number, lowest first.
type laneHeap []int

func (h laneHeap) Len() int           { return len(h) }
func (h laneHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h laneHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *laneHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *laneHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// laneEnd is a lane in use and where its last bar ends.
type laneEnd struct {
	lane int
	end  float64
}

// busyHeap is lanes in use, the earliest end first (then the lowest lane,
// so that the picture does not depend on the heap's order).
type busyHeap []laneEnd

func (h busyHeap) Len() int { return len(h) }
func (h busyHeap) Less(i, j int) bool {
	return h[i].end < h[j].end || h[i].end == h[j].end && h[i].lane < h[j].lane
}
func (h busyHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *busyHeap) Push(x any)   { *h = append(*h, x.(laneEnd)) }
func (h *busyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// monthDefs writes the gradients open bars fade out with, one per
// severity an open bar has, and the key's.
func monthDefs(b *strings.Builder, id string, bars []placedBar) {
	var need [len(sevNames)]bool
	need[len(sevNames)-1] = true // the key's swatch
	for _, bar := range bars {
		if bar.Open {
			need[sevRank(bar.sev)] = true
		}
	}
	b.WriteString(`<defs>`)
	for i, sev := range sevNames {
		if need[i] {
			b.WriteString(`<linearGradient id="` + id + `-fade-` + sev + `"><stop offset="0" class="stop-` + sev +
				`"/><stop offset="1" class="stop-` + sev + `" stop-opacity="0"/></linearGradient>`)
		}
	}
	b.WriteString(`</defs>`)
}

// monthBar draws one bar, linked to its incident.
func monthBar(b *strings.Builder, id string, bar placedBar, top float64) {
	y := top + float64(bar.lane)*moLaneH + (moLaneH-moBarH)/2
	if bar.Href != "" {
		b.WriteString(`<a class="bar-link" href="` + esc(safeHref(bar.Href)) + `" tabindex="-1">`)
	} else {
		b.WriteString(`<g class="bar-link">`)
	}
	b.WriteString(`<title>` + esc(bar.Label) + `</title><rect class="bar`)
	if bar.Open {
		b.WriteString(` open" fill="url(#` + id + `-fade-` + bar.sev + `)"`)
	} else {
		b.WriteString(` severity-` + bar.sev + `"`)
	}
	b.WriteString(` x="` + num(bar.x) + `" y="` + num(y) + `" width="` + num(bar.w) + `" height="` + num(moBarH) + `" rx="2"/>`)
	if bar.Href != "" {
		b.WriteString(`</a>`)
	} else {
		b.WriteString(`</g>`)
	}
}

// monthKeyRows lays the key out in rows that fit the picture at its one
// text size: the severities, the open bar, what the axis counts.
func monthKeyRows(l MonthLegend) [][]keyItem {
	items := make([]keyItem, 0, len(sevNames)+2)
	for i, name := range sevNames {
		label := l.Severities[i]
		if label == "" {
			label = name
		}
		items = append(items, keyItem{swatch: name, label: label})
	}
	if l.Open != "" {
		items = append(items, keyItem{swatch: "open", label: l.Open})
	}
	if l.Days != "" {
		items = append(items, keyItem{label: l.Days})
	}
	return keyRows(items, viewWidth, func(it keyItem) float64 { return keyWidth(it, fontText) })
}

// keyRows cuts key items into rows no wider than width, each item as
// wide as itemWidth says.
func keyRows(items []keyItem, width float64, itemWidth func(keyItem) float64) [][]keyItem {
	var rows [][]keyItem
	x := width // forces the first row
	for _, it := range items {
		w := itemWidth(it)
		if x+w > width-4 {
			rows = append(rows, nil)
			x = 4
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += w
	}
	return rows
}

// keyWidth is the room a key item takes at font, its trailing gap
// included.
func keyWidth(it keyItem, font float64) float64 {
	if it.swatch == "" {
		return textWidth(it.label, font) + 14
	}
	return 21 + textWidth(it.label, font) + 14
}

// monthKey draws the key's rows, the first at baseline y.
func monthKey(b *strings.Builder, id string, rows [][]keyItem, y float64) {
	b.WriteString(`<g class="chart-key">`)
	for r, row := range rows {
		x, base := 4.0, y+float64(r)*moKeyRowH
		for _, it := range row {
			switch it.swatch {
			case "":
				b.WriteString(`<text class="muted" x="` + num(x) + `" y="` + num(base) + `">` + esc(it.label) + `</text>`)
			case "open":
				b.WriteString(`<rect class="bar open" fill="url(#` + id + `-fade-none)" x="` + num(x) + `" y="` + num(base-11) + `" width="16" height="11" rx="2"/>`)
			default:
				b.WriteString(`<rect class="bar severity-` + it.swatch + `" x="` + num(x) + `" y="` + num(base-11) + `" width="16" height="11" rx="2"/>`)
			}
			if it.swatch != "" {
				b.WriteString(`<text x="` + num(x+21) + `" y="` + num(base) + `">` + esc(it.label) + `</text>`)
			}
			x += keyWidth(it, fontText)
		}
	}
	b.WriteString(`</g>`)
}
