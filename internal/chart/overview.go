package chart

import (
	"sort"
	"strconv"
	"strings"
	"time"
)

// Span is one incident on the overview.
type Span struct {
	Begin, End time.Time
	Label      string // title for tooltip
	Href       string
	Severity   string // minor|major|critical → class
	// Open marks an incident whose end was not stated: End is only what
	// is known (its last event). Its bar is drawn open-ended and its
	// duration counts in a bucket of its own.
	Open bool
}

// Overview describes the archive-wide picture.
type Overview struct {
	IDPrefix        string
	Title, Desc     string
	Spans           []Span
	YearLabel       func(year int) string // e.g. "2017" or "2017年"
	CountLabel      func(n int) string    // e.g. "3 incidents" (for bar tooltips)
	DurationBuckets []string              // labels for duration histogram buckets: <1 h, 1–4 h, 4–12 h, 12–24 h, ≥1 d, end not stated (6 labels, caller localises)
	Headings        [3]string             // localised headings for the three panels: "Incidents over time", "Incidents per year", "Durations"
}

// denseThreshold is the number of spans above which panel 1 of the overview
// shows per-month density bars instead of one bar per incident: past a few
// dozen, bars of a minimum width pile into lanes and overlap, and the
// picture grows with the archive.
const denseThreshold = 60

// Overview layout, in user units of the 720-wide viewBox.
const (
	ovX0       = 24.0
	ovX1       = 696.0
	ovLaneH    = 14.0 // lane pitch in panel 1 (bars are 4 less)
	ovLaneHMax = 24.0 // lane pitch with a single lane
	ovLanesMin = 32.0 // height of panel 1's lanes when there are few of them
	ovLaneSep  = 4.0  // vertical gap between lanes
	ovMaxLanes = 12
	ovMinW     = 8.0 // minimum visible bar length in panel 1
	ovPackGap  = 2.0 // horizontal gap between bars sharing a lane
	ovDenseH   = 120.0
	ovChartH   = 100.0 // tallest bar in panels 2 and 3
	ovPanelGap = 22.0
	ovRowPitch = 30.0 // row pitch of the horizontal histogram
	ovRowBarH  = 18.0
)

// durationBounds are the upper bounds of the first four duration buckets;
// the fifth holds everything from one day.
var durationBounds = [4]time.Duration{time.Hour, 4 * time.Hour, 12 * time.Hour, 24 * time.Hour}

var defaultBuckets = []string{"<1 h", "1–4 h", "4–12 h", "12–24 h", "≥1 d", "end not stated"}

// openBucket is the histogram row of incidents whose end was not stated:
// their duration is unknown, so no duration bucket is right for them.
const openBucket = 5

// durationBucket returns the histogram bucket (0–4) of a duration.
func durationBucket(d time.Duration) int {
	for i, ub := range durationBounds {
		if d < ub {
			return i
		}
	}
	return len(durationBounds)
}

// severity ranks for stacking density bars, bottom first.
func sevRank(sev string) int {
	switch sev {
	case "critical":
		return 0
	case "major":
		return 1
	case "minor":
		return 2
	}
	return 3
}

var sevNames = [4]string{"critical", "major", "minor", "none"}

// OverviewSVG draws three panels in one SVG:
//
//  1. incidents on a time axis across the years of the archive (UTC years),
//     one bar per incident packed into lanes (greedy interval packing in
//     drawing space, so bars that would touch get different lanes; at most 12
//     lanes, after which bars overlap in the lane that frees up first); bar
//     length is the duration but at least 8 units, and with one or two
//     lanes the bars are taller (20 or 12 units instead of 10), so even a
//     few incidents over many years show as clear marks; each bar is an <a href>
//     with a <title>, class "span severity-<sev>"; year grid and labels.
//     Above denseThreshold (2,000) spans, one bar per incident would make
//     the page heavy (hundreds of bytes each), so the panel is aggregated
//     instead: one bar per month whose height is the number of incidents
//     beginning that month, stacked by severity, each with a <title>
//     ("2017-03: " + CountLabel(n)) — the output then stays a few tens of KB
//     whatever the number of spans.
//  2. a bar chart of incidents per year (by the year of Begin in Begin's own
//     location; every year from the first to the last, zero years included),
//     each bar a <g class="year-bar" data-year data-count> with a <title>
//     YearLabel(y) + ": " + CountLabel(n) and its count written above it.
//  3. a histogram of durations (End−Begin) over the 5 buckets <1 h, 1–4 h,
//     4–12 h, 12–24 h, ≥1 d, and a sixth row for Open spans (end not
//     stated), drawn only when there are some, as horizontal bars (one row per bucket,
//     so the localised bucket labels never collide, even on a phone),
//     labelled by DurationBuckets, each bar a <g class="duration-bar"
//     data-bucket data-count> with a <title> label + ": " + CountLabel(n).
//
// Bar links have tabindex="-1" (inside role="img" they are not announced;
// the archive's list pages carry the same links). Spans with a zero Begin,
// or dated outside the years 1–9999, are skipped; a zero End or one before Begin counts
// as a zero-length incident. With no spans it draws an empty frame holding
// the title. Nil label functions default to plain numbers, and missing
// bucket labels to the English ones above.
func OverviewSVG(o Overview) string {
	id := cleanID(o.IDPrefix)
	yearLabel, countLabel := o.YearLabel, o.CountLabel
	if yearLabel == nil {
		yearLabel = strconv.Itoa
	}
	if countLabel == nil {
		countLabel = strconv.Itoa
	}
	buckets := bucketLabels(o.DurationBuckets)
	spans := overviewSpans(o.Spans)

	var b strings.Builder
	if len(spans) == 0 {
		const h = 120.0
		openSVG(&b, id, "overview", h, o.Title, o.Desc)
		b.WriteString(`<rect class="frame" x="0.5" y="0.5" width="` + num(viewWidth-1) + `" height="` + num(h-1) + `"/>`)
		b.WriteString(`<text class="h muted" x="` + num(viewWidth/2) + `" y="` + num(h/2+5) + `" text-anchor="middle">` + esc(o.Title) + `</text>`)
		b.WriteString(`</svg>`)
		return b.String()
	}

	// Years.
	firstY, lastY := spans[0].Begin.Year(), spans[0].Begin.Year()
	axisFirst, axisLast := spans[0].Begin.UTC().Year(), spans[0].End.UTC().Year()
	for _, sp := range spans {
		y := sp.Begin.Year()
		firstY, lastY = min(firstY, y), max(lastY, y)
		axisFirst = min(axisFirst, y, sp.Begin.UTC().Year())
		axisLast = max(axisLast, y, sp.End.UTC().Year())
	}
	t0 := time.Date(axisFirst, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := time.Date(axisLast+1, 1, 1, 0, 0, 0, 0, time.UTC)
	scale := (ovX1 - ovX0) / seconds(t1, t0) // units per second
	sx := func(t time.Time) float64 { return ovX0 + seconds(t, t0)*scale }
	dense := len(spans) > denseThreshold

	// Panel 1 content, computed first because its height depends on it.
	var p1 strings.Builder
	const p1Top = 36.0
	var areaH float64
	if dense {
		areaH = ovDenseH
		writeDensity(&p1, spans, t0, axisFirst, axisLast, sx, p1Top, areaH, countLabel)
	} else {
		areaH = writeLanes(&p1, spans, sx, p1Top)
	}
	axis1 := p1Top + areaH + 4
	p1Bottom := axis1 + 34

	p2Top := p1Bottom + ovPanelGap
	p2Base := p2Top + 52 + ovChartH
	p2Bottom := p2Base + 34
	p3Top := p2Bottom + ovPanelGap
	rows := openBucket
	for _, sp := range spans {
		if sp.Open {
			rows = openBucket + 1
			break
		}
	}
	height := p3Top + 40 + float64(rows)*ovRowPitch + 10

	openSVG(&b, id, "overview", height, o.Title, o.Desc)

	// Panel 1: heading, year grid, bars, axis, year labels.
	b.WriteString(`<g class="panel panel-time">`)
	heading(&b, o.Headings[0], 22)
	nAxisYears := axisLast - axisFirst + 1
	years := make([]int, nAxisYears)
	labels := make([]string, nAxisYears)
	for i := range years {
		years[i] = axisFirst + i
		labels[i] = yearLabel(years[i])
	}
	for y := axisFirst; y <= axisLast+1; y++ {
		x := num(sx(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)))
		b.WriteString(`<line class="grid" x1="` + x + `" y1="` + num(p1Top-4) + `" x2="` + x + `" y2="` + num(axis1) + `"/>`)
	}
	b.WriteString(p1.String())
	b.WriteString(`<line class="axis" x1="` + num(ovX0) + `" y1="` + num(axis1) + `" x2="` + num(ovX1) + `" y2="` + num(axis1) + `"/>`)
	slotLabels(&b, "year-label", years, labels, axis1+22)
	b.WriteString(`</g>`)

	yearsPanel(&b, spans, firstY, lastY, p2Top, p2Base, yearLabel, countLabel, o.Headings[1])
	durationsPanel(&b, spans, buckets, rows, p3Top, countLabel, o.Headings[2])
	b.WriteString(`</svg>`)
	return b.String()
}

// bucketLabels are the duration buckets' labels, the English ones where
// the caller gives none.
func bucketLabels(given []string) []string {
	buckets := make([]string, len(defaultBuckets))
	for i := range buckets {
		if i < len(given) && given[i] != "" {
			buckets[i] = given[i]
		} else {
			buckets[i] = defaultBuckets[i]
		}
	}
	return buckets
}

// overviewSpans keeps the spans the overview can place, an End before
// Begin made zero-length.
func overviewSpans(in []Span) []Span {
	spans := make([]Span, 0, len(in))
	for _, sp := range in {
		if sp.Begin.IsZero() || sp.Begin.Year() < 1 || sp.Begin.Year() > 9999 || sp.End.Year() > 9999 {
			continue
		}
		if sp.End.Before(sp.Begin) {
			sp.End = sp.Begin
		}
		spans = append(spans, sp)
	}
	return spans
}

// writeLanes draws panel 1's bars, one per incident, packed into lanes
// from top, and returns the height they take.
func writeLanes(p1 *strings.Builder, spans []Span, sx func(time.Time) float64, p1Top float64) (areaH float64) {
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, c int) bool {
		p, q := spans[order[a]], spans[order[c]]
		if !p.Begin.Equal(q.Begin) {
			return p.Begin.Before(q.Begin)
		}
		if !p.End.Equal(q.End) {
			return p.End.Before(q.End)
		}
		if p.Href != q.Href {
			return p.Href < q.Href
		}
		return p.Label < q.Label
	})
	type bar struct {
		x, w float64
		lane int
	}
	bars := make([]bar, len(order))
	var laneEnd []float64
	for k, i := range order {
		x := sx(spans[i].Begin)
		w := max(sx(spans[i].End)-x, ovMinW)
		lane := -1
		for l, e := range laneEnd {
			if e+ovPackGap <= x {
				lane = l
				break
			}
		}
		if lane < 0 {
			if len(laneEnd) < ovMaxLanes {
				lane = len(laneEnd)
				laneEnd = append(laneEnd, 0)
			} else {
				lane = 0
				for l, e := range laneEnd {
					if e < laneEnd[lane] {
						lane = l
					}
				}
			}
		}
		laneEnd[lane] = max(laneEnd[lane], x+w)
		bars[k] = bar{x, w, lane}
	}
	// Few lanes get taller bars, so a small archive's handful of
	// incidents stand out: 20 units with one lane, 12 with two.
	nLanes := float64(len(laneEnd))
	pitch := min(max(ovLaneH, ovLanesMin/nLanes), ovLaneHMax)
	barH := pitch - ovLaneSep
	areaH = nLanes * pitch
	p1.WriteString(`<g class="spans">`)
	for k, i := range order {
		sp, br := spans[i], bars[k]
		class := "span severity-" + cleanClass(sp.Severity)
		if sp.Open {
			class += " open"
		}
		p1.WriteString(`<a class="` + class + `" href="` + esc(safeHref(sp.Href)) + `" tabindex="-1"><title>` + esc(sp.Label) + `</title>`)
		p1.WriteString(`<rect x="` + num(br.x) + `" y="` + num(p1Top+float64(br.lane)*pitch) + `" width="` + num(br.w) + `" height="` + num(barH) + `"/></a>`)
	}
	p1.WriteString(`</g>`)
	return areaH
}

// yearsPanel is panel 2: incidents per year.
func yearsPanel(b *strings.Builder, spans []Span, firstY, lastY int, p2Top, p2Base float64, yearLabel, countLabel func(int) string, title string) {
	// Panel 2: incidents per year.
	nYears := lastY - firstY + 1
	perYear := make([]int, nYears)
	for _, sp := range spans {
		perYear[sp.Begin.Year()-firstY]++
	}
	ys := make([]int, nYears)
	yl := make([]string, nYears)
	tips := make([]string, nYears)
	for i := range ys {
		ys[i] = firstY + i
		yl[i] = yearLabel(ys[i])
		tips[i] = yl[i] + ": " + countLabel(perYear[i])
	}
	b.WriteString(`<g class="panel panel-years" transform="translate(0 ` + num(p2Top) + `)">`)
	heading(b, title, 22)
	barChart(b, "year-bar", "data-year", ys, perYear, tips, p2Base-p2Top)
	slotLabels(b, "year-label", ys, yl, p2Base-p2Top+22)
	b.WriteString(`</g>`)

}

// durationsPanel is panel 3: how long incidents lasted.
func durationsPanel(b *strings.Builder, spans []Span, buckets []string, rows int, p3Top float64, countLabel func(int) string, title string) {
	// Panel 3: durations.
	hist := make([]int, len(buckets))
	for _, sp := range spans {
		if sp.Open {
			hist[openBucket]++
		} else {
			hist[durationBucket(sp.End.Sub(sp.Begin))]++
		}
	}
	hist, buckets = hist[:rows], buckets[:rows]
	idx := make([]int, rows)
	for i := range idx {
		idx[i] = i
	}
	htips := make([]string, rows)
	for i := range htips {
		htips[i] = buckets[i] + ": " + countLabel(hist[i])
	}
	b.WriteString(`<g class="panel panel-durations" transform="translate(0 ` + num(p3Top) + `)">`)
	heading(b, title, 22)
	hbarChart(b, "duration-bar", "bucket-label", "data-bucket", idx, hist, htips, buckets, 40)
	b.WriteString(`</g>`)

}

func heading(b *strings.Builder, text string, y float64) {
	if text == "" {
		return
	}
	b.WriteString(`<text class="h" x="` + num(ovX0) + `" y="` + num(y) + `">` + esc(text) + `</text>`)
}

// writeDensity draws panel 1's aggregated form: per month, the number of
// incidents beginning in it, stacked by severity.
func writeDensity(b *strings.Builder, spans []Span, t0 time.Time, firstYear, lastYear int,
	sx func(time.Time) float64, top, areaH float64, countLabel func(int) string) {
	nMonths := (lastYear - firstYear + 1) * 12
	counts := make([][4]int, nMonths)
	for _, sp := range spans {
		u := sp.Begin.UTC()
		m := (u.Year()-firstYear)*12 + int(u.Month()) - 1
		if m < 0 || m >= nMonths {
			continue
		}
		counts[m][sevRank(cleanClass(sp.Severity))]++
	}
	peak := 1
	for _, c := range counts {
		peak = max(peak, c[0]+c[1]+c[2]+c[3])
	}
	base := top + areaH
	b.WriteString(`<g class="density">`)
	for m, c := range counts {
		total := c[0] + c[1] + c[2] + c[3]
		if total == 0 {
			continue
		}
		y, mon := firstYear+m/12, m%12+1
		ms := time.Date(y, time.Month(mon), 1, 0, 0, 0, 0, time.UTC)
		x0, x1 := sx(ms), sx(ms.AddDate(0, 1, 0))
		w := x1 - x0
		if w > 3 {
			w -= 0.6 // hairline gap between months
		}
		b.WriteString(`<g class="month" data-count="` + strconv.Itoa(total) + `"><title>` +
			esc(ms.Format("2006-01")+": "+countLabel(total)) + `</title>`)
		yy := base
		for r := 0; r < 4; r++ {
			if c[r] == 0 {
				continue
			}
			h := float64(c[r]) / float64(peak) * areaH
			if h < 1 {
				h = 1
			}
			yy -= h
			b.WriteString(`<rect class="severity-` + sevNames[r] + `" x="` + num(x0) + `" y="` + num(yy) + `" width="` + num(w) + `" height="` + num(h) + `"/>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g>`)
}

// barChart draws one bar per key in equal slots across the chart width,
// with its baseline at y base (relative to the panel) and the count above.
func barChart(b *strings.Builder, class, keyAttr string, keys, counts []int, tips []string, base float64) {
	n := len(keys)
	slot := (ovX1 - ovX0) / float64(n)
	bw := min(slot*0.7, 56)
	peak := 1
	for _, c := range counts {
		peak = max(peak, c)
	}
	maxCountW, maxCountWN := 0.0, 0.0
	for _, c := range counts {
		s := strconv.Itoa(c)
		maxCountW = max(maxCountW, textWidth(s, fontCount))
		maxCountWN = max(maxCountWN, textWidth(s, fontCountNarrw))
	}
	showCounts := slot >= maxCountW+4
	cntClass := "cnt"
	if slot < maxCountWN+4 {
		cntClass += " nh"
	}
	b.WriteString(`<line class="axis" x1="` + num(ovX0) + `" y1="` + num(base) + `" x2="` + num(ovX1) + `" y2="` + num(base) + `"/>`)
	for i, k := range keys {
		cx := ovX0 + slot*(float64(i)+0.5)
		h := float64(counts[i]) / float64(peak) * ovChartH
		if counts[i] > 0 && h < 2 {
			h = 2
		}
		ks, cs := strconv.Itoa(k), strconv.Itoa(counts[i])
		b.WriteString(`<g class="` + class + `" ` + keyAttr + `="` + ks + `" data-count="` + cs + `"><title>` + esc(tips[i]) + `</title>`)
		b.WriteString(`<rect class="bar" x="` + num(cx-bw/2) + `" y="` + num(base-h) + `" width="` + num(bw) + `" height="` + num(h) + `"/>`)
		if showCounts {
			b.WriteString(`<text class="` + cntClass + `" x="` + num(cx) + `" y="` + num(base-h-5) + `" text-anchor="middle">` + cs + `</text>`)
		}
		b.WriteString(`</g>`)
	}
}

// hbarChart draws one horizontal bar per key, one row each from y top
// (relative to the panel): label right-aligned before the bar, count after.
func hbarChart(b *strings.Builder, class, labelClass, keyAttr string, keys, counts []int, tips, labels []string, top float64) {
	labelW := 60.0
	for _, l := range labels {
		labelW = max(labelW, textWidth(l, fontTextNarrow)+12)
	}
	labelW = min(labelW, 300)
	peak, countW := 1, 0.0
	for _, c := range counts {
		peak = max(peak, c)
		countW = max(countW, textWidth(strconv.Itoa(c), fontCountNarrw)+10)
	}
	x0 := ovX0 + labelW
	maxLen := ovX1 - x0 - countW
	n := float64(len(keys))
	b.WriteString(`<line class="axis" x1="` + num(x0) + `" y1="` + num(top-4) + `" x2="` + num(x0) + `" y2="` + num(top+n*ovRowPitch-ovRowPitch+ovRowBarH+4) + `"/>`)
	for i, k := range keys {
		y := top + float64(i)*ovRowPitch
		mid := num(y + ovRowBarH/2)
		w := float64(counts[i]) / float64(peak) * maxLen
		if counts[i] > 0 && w < 2 {
			w = 2
		}
		cs := strconv.Itoa(counts[i])
		b.WriteString(`<text class="` + labelClass + `" x="` + num(x0-8) + `" y="` + mid + `" text-anchor="end" dominant-baseline="central">` + esc(labels[i]) + `</text>`)
		b.WriteString(`<g class="` + class + `" ` + keyAttr + `="` + strconv.Itoa(k) + `" data-count="` + cs + `"><title>` + esc(tips[i]) + `</title>`)
		b.WriteString(`<rect class="bar" x="` + num(x0) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(ovRowBarH) + `"/>`)
		b.WriteString(`<text class="cnt" x="` + num(x0+w+6) + `" y="` + mid + `" dominant-baseline="central">` + cs + `</text></g>`)
	}
}

// slotLabels writes labels centred in equal slots across the chart width.
// Where they would collide, only keys that are multiples of a round step
// are labelled; on narrow viewports every other remaining label is hidden
// if they would collide there.
func slotLabels(b *strings.Builder, class string, keys []int, labels []string, y float64) {
	n := len(keys)
	if n == 0 {
		return
	}
	slot := (ovX1 - ovX0) / float64(n)
	wide, wideN := 0.0, 0.0
	for _, l := range labels {
		wide = max(wide, textWidth(l, fontText))
		wideN = max(wideN, textWidth(l, fontTextNarrow))
	}
	every := 1
	for _, k := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		every = k
		if slot*float64(k) >= wide+fontText {
			break
		}
	}
	crowdedNarrow := slot*float64(every) < wideN+fontTextNarrow*0.75
	b.WriteString(`<g class="` + class + `s" text-anchor="middle">`)
	for i, k := range keys {
		if floorMod(k, every) != 0 {
			continue
		}
		cls := class
		if crowdedNarrow && floorMod(k/every, 2) == 1 {
			cls += " nh"
		}
		b.WriteString(`<text class="` + cls + `" x="` + num(ovX0+slot*(float64(i)+0.5)) + `" y="` + num(y) + `">` + esc(labels[i]) + `</text>`)
	}
	b.WriteString(`</g>`)
}

func floorMod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
