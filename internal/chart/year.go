package chart

import (
	"strconv"
	"strings"
	"time"
)

// YearChart describes a year of the archive: a column per month, its
// height the month's incidents, stacked by severity, each linked to the
// month's page. It is drawn 480 units wide with its text at yrFont, and
// not enlarged on a phone, where it is scaled to about three quarters:
// its text stays at 12 CSS px or more.
type YearChart struct {
	IDPrefix    string
	Title, Desc string
	// Spans are the year's incidents, each counted in the month of its
	// Begin as given (in its own zone: the month it is listed under).
	Spans []Span
	// Href links a month's column; "" leaves it unlinked.
	Href func(m time.Month) string
	// MonthLabel names a column ("Jan", "1月"); nil, or a name too wide
	// for a column, gives month numbers.
	MonthLabel func(m time.Month) string
	// ColumnLabel is a column's accessible name ("April 2015: 9
	// incidents"); nil gives the count.
	ColumnLabel func(m time.Month, n int) string
	Severities  [4]string // critical, major, minor, unknown
}

// Year picture layout, in user units.
const (
	yrWidth  = 480.0
	yrFont   = 17.0
	yrLeft   = 4.0
	yrGap    = 4.0
	yrPlotH  = 150.0 // the tallest column
	yrCountH = 22.0  // room for a count above a column
	yrKeyRow = 26.0
)

// YearSVG draws c: the severity key, twelve columns of stacked rects
// (class "severity-<name>"), each inside <a class="col"> with a <title>
// and its count above it, and the month labels below.
func YearSVG(c YearChart) string {
	id := cleanID(c.IDPrefix)
	items := make([]keyItem, len(sevNames))
	for i, name := range sevNames {
		label := c.Severities[i]
		if label == "" {
			label = name
		}
		items[i] = keyItem{swatch: name, label: label}
	}
	rows := keyRows(items, yrWidth, func(it keyItem) float64 { return keyWidth(it, yrFont) })
	keyH := 4 + yrKeyRow*float64(len(rows))
	base := keyH + yrCountH + yrPlotH // the columns' foot
	height := base + 30
	var counts [12][4]int
	for _, sp := range c.Spans {
		counts[sp.Begin.Month()-1][sevRank(cleanClass(sp.Severity))]++
	}
	peak := 1
	for _, m := range counts {
		peak = max(peak, m[0]+m[1]+m[2]+m[3])
	}
	cw := (yrWidth - 2*yrLeft - 11*yrGap) / 12
	labels, numbers := make([]string, 12), false
	for m := range labels {
		labels[m] = strconv.Itoa(m + 1)
		if c.MonthLabel != nil {
			labels[m] = c.MonthLabel(time.Month(m + 1))
		}
		numbers = numbers || textWidth(labels[m], yrFont) > cw+yrGap-2
	}
	var b strings.Builder
	openSVG(&b, id, "year chart-fixed", yrWidth, height, c.Title, c.Desc)
	yearKey(&b, rows, 4+yrKeyRow-8)
	b.WriteString(`<line class="axis" x1="` + num(yrLeft) + `" y1="` + num(base) + `" x2="` + num(yrWidth-yrLeft) + `" y2="` + num(base) + `"/>`)
	for m := range 12 {
		x := yrLeft + float64(m)*(cw+yrGap)
		yearColumn(&b, c, time.Month(m+1), counts[m], x, cw, base, peak)
		label := labels[m]
		if numbers {
			label = strconv.Itoa(m + 1)
		}
		b.WriteString(`<text class="muted" x="` + num(x+cw/2) + `" y="` + num(base+21) + `" text-anchor="middle">` + esc(label) + `</text>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// yearColumn draws one month's column with its foot at base.
func yearColumn(b *strings.Builder, c YearChart, m time.Month, counts [4]int, x, w, base float64, peak int) {
	n := counts[0] + counts[1] + counts[2] + counts[3]
	if n == 0 {
		return
	}
	href, label := "", strconv.Itoa(n)
	if c.Href != nil {
		href = c.Href(m)
	}
	if c.ColumnLabel != nil {
		label = c.ColumnLabel(m, n)
	}
	if href != "" {
		b.WriteString(`<a class="col" href="` + esc(safeHref(href)) + `" tabindex="-1">`)
	} else {
		b.WriteString(`<g class="col">`)
	}
	b.WriteString(`<title>` + esc(label) + `</title>`)
	// A hit area the column's full height, so that a short column is as
	// easy to tap as a tall one.
	b.WriteString(`<rect class="hit" x="` + num(x) + `" y="` + num(base-yrPlotH-yrCountH) + `" width="` + num(w) + `" height="` + num(yrPlotH+yrCountH) + `"/>`)
	y := base
	for i, k := range counts {
		if k == 0 {
			continue
		}
		h := yrPlotH * float64(k) / float64(peak)
		y -= h
		b.WriteString(`<rect class="severity-` + sevNames[i] + `" x="` + num(x) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(h) + `"/>`)
	}
	b.WriteString(`<text class="n" x="` + num(x+w/2) + `" y="` + num(y-6) + `" text-anchor="middle">` + strconv.Itoa(n) + `</text>`)
	if href != "" {
		b.WriteString(`</a>`)
	} else {
		b.WriteString(`</g>`)
	}
}

// yearKey draws the severity key's rows, the first at baseline y.
func yearKey(b *strings.Builder, rows [][]keyItem, y float64) {
	b.WriteString(`<g class="chart-key">`)
	for r, row := range rows {
		x, base := 4.0, y+float64(r)*yrKeyRow
		for _, it := range row {
			b.WriteString(`<rect class="severity-` + it.swatch + `" x="` + num(x) + `" y="` + num(base-13) + `" width="16" height="13"/>`)
			b.WriteString(`<text x="` + num(x+21) + `" y="` + num(base) + `">` + esc(it.label) + `</text>`)
			x += keyWidth(it, yrFont)
		}
	}
	b.WriteString(`</g>`)
}
