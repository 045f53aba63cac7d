package chart

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Heatmap describes a year × month picture of how many incidents began
// when: one row per year, one cell per month, the cell's shade its count
// and a strip along its foot the count's split by severity. Its size
// depends on the number of years only, never on the number of incidents.
type Heatmap struct {
	IDPrefix    string
	Title, Desc string
	// Spans are the incidents; each counts in the month of its Begin as
	// given (in its own zone: the month its date is listed under).
	Spans []Span
	// Href links a month's cell, e.g. to that month on the year's page;
	// nil or "" leaves it unlinked.
	Href func(year int, month time.Month) string
	// Labels, all localised by the caller; nil functions give numbers.
	MonthLabel func(m time.Month) string // column heads: "Jan", "1月"
	CellLabel  func(year int, month time.Month, n int, bySeverity [4]int) string
	Legend     Legend
}

// Legend names a picture's marks, in the page language.
type Legend struct {
	Fewer, More string    // the two ends of the shade scale: "fewer", "more"
	Severities  [4]string // critical, major, minor, unknown (the order of sevNames)
	Caption     string    // what a strip along a cell's foot is: "split by severity"
}

// Heat map layout, in user units of the 720-wide viewBox.
const (
	hmLabelW  = 72.0 // the year column
	hmTotalW  = 60.0 // the total column
	hmGap     = 3.0
	hmRowH    = 34.0
	hmStripH  = 5.0
	hmHeadH   = 30.0 // month heads
	hmKeyRowH = 30.0 // a row of the legend above the grid
	hmLevels  = 5    // shades of a non-empty cell
	hmGapH    = 20.0 // a row standing for a run of empty years
)

// rowHeight is the height of a heat map's row.
func rowHeight(r yearSlot) float64 {
	if r.gap {
		return hmGapH
	}
	return hmRowH
}

// gapRow draws a run of empty years at y: their span, where a year's label
// would be.
func gapRow(b *strings.Builder, r yearSlot, y float64) {
	b.WriteString(`<text class="year-label muted" x="4" y="` + num(y+hmGapH/2+2) + `">` + yearRange(r) + `</text>`)
}

// yearRange writes a gap's years: "1–2019".
func yearRange(r yearSlot) string { return strconv.Itoa(r.first) + "–" + strconv.Itoa(r.last) }

// monthCounts counts spans per (year, month), by severity.
type monthCounts struct {
	cells map[int]*[12][4]int // by year
	years []int               // the years with spans, ascending
	peak  int
}

func countMonths(spans []Span) monthCounts {
	c := monthCounts{cells: map[int]*[12][4]int{}}
	for _, sp := range spans {
		y := sp.Begin.Year()
		row := c.cells[y]
		if row == nil {
			row = new([12][4]int)
			c.cells[y] = row
			c.years = append(c.years, y)
		}
		cell := &row[sp.Begin.Month()-1]
		cell[sevRank(cleanClass(sp.Severity))]++
	}
	slices.Sort(c.years)
	for _, row := range c.cells {
		for _, cell := range row {
			c.peak = max(c.peak, cell[0]+cell[1]+cell[2]+cell[3])
		}
	}
	return c
}

// level is a count's shade, 0 for none, else 1–hmLevels by its share of
// the peak (rounded up, so one incident is never invisible).
func level(n, peak int) int {
	if n == 0 || peak == 0 {
		return 0
	}
	return (n*hmLevels + peak - 1) / peak
}

// HeatmapSVG draws h, one row per year as yearSlots lays them out (a long
// run of empty years is one narrow row giving their span). Cells are
// <a class="cell"> (when linked) holding a <title> from CellLabel, a rect
// of class "heat heat-<level>", the count, and one rect per severity
// present along the foot (class "severity-<name>"). A legend above the grid shows the shades and the
// severity colours (class "chart-key"). Spans dated outside the years
// 1–9999 are skipped.
func HeatmapSVG(h Heatmap) string {
	id := cleanID(h.IDPrefix)
	spans := validSpans(h.Spans)
	var b strings.Builder
	if len(spans) == 0 {
		emptyFrame(&b, id, "heatmap", h.Title, h.Desc)
		return b.String()
	}
	c := countMonths(spans)
	rows := yearSlots(c.years)
	key := severityKey(h.Legend)
	legendH := 4 + hmKeyRowH*float64(1+len(key))
	height := legendH + hmHeadH + 8
	for _, r := range rows {
		height += rowHeight(r)
	}
	openSVG(&b, id, "heatmap", viewWidth, height, h.Title, h.Desc)
	heatScale(&b, h.Legend, 22)
	heatKey(&b, key, 22+hmKeyRowH)
	monthHeads(&b, h.MonthLabel, legendH)
	y := legendH + hmHeadH
	for _, r := range rows {
		if r.gap {
			gapRow(&b, r, y)
		} else {
			heatRow(&b, h, c, r.first, y)
		}
		y += rowHeight(r)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// validSpans drops spans a chart cannot place.
func validSpans(in []Span) []Span {
	out := make([]Span, 0, len(in))
	for _, sp := range in {
		if sp.Begin.IsZero() || sp.Begin.Year() < 1 || sp.Begin.Year() > 9999 {
			continue
		}
		out = append(out, sp)
	}
	return out
}

// emptyFrame is a chart with nothing to show: a frame holding its title.
func emptyFrame(b *strings.Builder, id, kind, title, desc string) {
	const h = 120.0
	openSVG(b, id, kind, viewWidth, h, title, desc)
	b.WriteString(`<rect class="frame" x="0.5" y="0.5" width="` + num(viewWidth-1) + `" height="` + num(h-1) + `"/>`)
	b.WriteString(`<text class="h muted" x="` + num(viewWidth/2) + `" y="` + num(h/2+5) + `" text-anchor="middle">` + esc(title) + `</text>`)
	b.WriteString(`</svg>`)
}

// cellWidth is the width of a month's cell.
func cellWidth() float64 { return (viewWidth - hmLabelW - hmTotalW - 12*hmGap) / 12 }

// keyItem is a label of the severity legend: a colour swatch and its
// name, or (swatch "") the caption before them.
type keyItem struct{ swatch, label string }

// severityKey lays out the caption and severity colours in rows that fit
// the picture's width at the narrow viewport's text size, where labels are
// widest: one row on a desktop, two where a language's words are long.
func severityKey(l Legend) [][]keyItem {
	items := make([]keyItem, 0, 1+len(sevNames))
	if l.Caption != "" {
		items = append(items, keyItem{label: l.Caption})
	}
	for i, name := range sevNames {
		label := l.Severities[i]
		if label == "" {
			label = name
		}
		items = append(items, keyItem{swatch: name, label: label})
	}
	return keyRows(items, viewWidth, keyItemWidth)
}

// keyItemWidth is the room an item takes, its trailing gap included.
func keyItemWidth(it keyItem) float64 {
	if it.swatch == "" {
		return textWidth(it.label, fontTextNarrow) + 12
	}
	return 21 + textWidth(it.label, fontTextNarrow) + 14
}

// heatKey draws the rows of severityKey, the first at baseline y.
func heatKey(b *strings.Builder, rows [][]keyItem, y float64) {
	b.WriteString(`<g class="chart-key">`)
	for r, row := range rows {
		x, base := 4.0, y+float64(r)*hmKeyRowH
		for _, it := range row {
			if it.swatch == "" {
				b.WriteString(`<text x="` + num(x) + `" y="` + num(base) + `">` + esc(it.label) + `</text>`)
			} else {
				b.WriteString(`<rect class="severity-` + it.swatch + `" x="` + num(x) + `" y="` + num(base-12) + `" width="16" height="12"/>`)
				b.WriteString(`<text x="` + num(x+21) + `" y="` + num(base) + `">` + esc(it.label) + `</text>`)
			}
			x += keyItemWidth(it)
		}
	}
	b.WriteString(`</g>`)
}

// monthHeads writes the twelve column heads.
func monthHeads(b *strings.Builder, label func(time.Month) string, y float64) {
	b.WriteString(`<g class="heads" text-anchor="middle">`)
	w := cellWidth()
	labels := make([]string, 12)
	crowded := false // on a narrow screen: then every other month is named
	for m := range labels {
		labels[m] = strconv.Itoa(m + 1)
		if label != nil {
			labels[m] = label(time.Month(m + 1))
		}
		crowded = crowded || textWidth(labels[m], fontTextNarrow) > w+hmGap-2
	}
	for m, s := range labels {
		x := hmLabelW + float64(m)*(w+hmGap) + w/2
		b.WriteString(`<text class="muted` + nhClass(crowded, m) + `" x="` + num(x) + `" y="` + num(y+hmHeadH-8) + `">` + esc(s) + `</text>`)
	}
	b.WriteString(`</g>`)
}

// heatRow draws year's row at y: its label, twelve cells and its total.
func heatRow(b *strings.Builder, h Heatmap, c monthCounts, year int, y float64) {
	w, ch := cellWidth(), hmRowH-hmGap
	b.WriteString(`<text class="year-label" x="4" y="` + num(y+ch/2+5) + `">` + strconv.Itoa(year) + `</text>`)
	total := 0
	for m := range 12 {
		var cell [4]int
		if row := c.cells[year]; row != nil {
			cell = row[m]
		}
		n := cell[0] + cell[1] + cell[2] + cell[3]
		total += n
		x := hmLabelW + float64(m)*(w+hmGap)
		heatCell(b, h, year, time.Month(m+1), cell, n, level(n, c.peak), x, y, w, ch)
	}
	b.WriteString(`<text class="cnt total" x="` + num(viewWidth-4) + `" y="` + num(y+ch/2+5) + `" text-anchor="end">` + strconv.Itoa(total) + `</text>`)
}

// heatCell draws one month: shade, count and severity strip, linked.
func heatCell(b *strings.Builder, h Heatmap, year int, month time.Month, cell [4]int, n, lvl int, x, y, w, ch float64) {
	rect := `<rect class="heat heat-` + strconv.Itoa(lvl) + `" x="` + num(x) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(ch) + `"/>`
	if n == 0 {
		b.WriteString(rect)
		return
	}
	href := ""
	if h.Href != nil {
		href = h.Href(year, month)
	}
	label := strconv.Itoa(year) + "-" + strconv.Itoa(int(month)) + ": " + strconv.Itoa(n)
	if h.CellLabel != nil {
		label = h.CellLabel(year, month, n, cell)
	}
	if href != "" {
		b.WriteString(`<a class="cell" href="` + esc(safeHref(href)) + `" tabindex="-1">`)
	} else {
		b.WriteString(`<g class="cell">`)
	}
	b.WriteString(`<title>` + esc(label) + `</title>` + rect)
	textClass := "n"
	if lvl >= 4 {
		textClass += " on-dark"
	}
	b.WriteString(`<text class="` + textClass + `" x="` + num(x+w/2) + `" y="` + num(y+(ch-hmStripH)/2+5) + `" text-anchor="middle">` + strconv.Itoa(n) + `</text>`)
	// The strip's rects share their y and height: one translation for all.
	b.WriteString(`<g transform="translate(` + num(x) + ` ` + num(y+ch-hmStripH) + `)">`)
	sx := 0.0
	for i, k := range cell {
		if k == 0 {
			continue
		}
		sw := w * float64(k) / float64(n)
		b.WriteString(`<rect class="severity-` + sevNames[i] + `" x="` + num(sx) + `" width="` + num(sw) + `" height="` + num(hmStripH) + `"/>`)
		sx += sw
	}
	b.WriteString(`</g>`)
	if href != "" {
		b.WriteString(`</a>`)
	} else {
		b.WriteString(`</g>`)
	}
}
