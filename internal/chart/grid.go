package chart

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Grid describes a rows × years picture: one row per organization (or
// product), one cell per year, shaded by how many of the row's incidents
// began that year. Its size depends on the rows and years only.
type Grid struct {
	IDPrefix    string
	Title, Desc string
	Rows        []GridRow
	// CellLabel is a cell's tooltip: "Google Cloud, 2017: 3 incidents".
	CellLabel func(row string, year, n int) string
	Legend    Legend // Fewer and More are used
}

// GridRow is one row of a Grid.
type GridRow struct {
	Label string
	Href  string // the row's page; "" for none
	Years map[int]int
}

// Grid layout, in user units.
const (
	grLabelW = 200.0
	grRowH   = 34.0
	grHeadH  = 30.0
)

// GridSVG draws g: a legend of shades, the years as column heads, and per
// row its label (linked to Href) and one cell per year of class
// "heat heat-<level>" with the count. Labels too long for the label
// column are cut with "…" (the tooltip keeps them whole).
func GridSVG(g Grid) string {
	id := cleanID(g.IDPrefix)
	years, peak := gridYears(g.Rows)
	var b strings.Builder
	if peak == 0 {
		emptyFrame(&b, id, "grid", g.Title, g.Desc)
		return b.String()
	}
	cols := yearSlots(years)
	cw := (viewWidth - grLabelW - float64(len(cols))*hmGap) / float64(len(cols))
	top := 40 + grHeadH
	openSVG(&b, id, "grid", viewWidth, top+float64(len(g.Rows))*grRowH+8, g.Title, g.Desc)
	heatScale(&b, g.Legend, 22)
	yearHeads(&b, cols, cw, 40+grHeadH-8)
	for r, row := range g.Rows {
		gridRow(&b, g, row, cols, peak, cw, top+float64(r)*grRowH)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// gridYears finds the years in which the rows have incidents, ascending,
// and the largest count.
func gridYears(rows []GridRow) (years []int, peak int) {
	seen := map[int]bool{}
	for _, row := range rows {
		for y, n := range row.Years {
			if n > 0 {
				seen[y], peak = true, max(peak, n)
			}
		}
	}
	return slices.Sorted(maps.Keys(seen)), peak
}

// heatScale draws the shade legend on one row at baseline y.
func heatScale(b *strings.Builder, l Legend, y float64) {
	fewer, more := l.Fewer, l.More
	if fewer == "" {
		fewer, more = "0", "+"
	}
	x := 4.0
	b.WriteString(`<g class="chart-key"><text x="` + num(x) + `" y="` + num(y) + `">` + esc(fewer) + `</text>`)
	x += textWidth(fewer, fontTextNarrow) + 8
	for k := 0; k <= hmLevels; k++ {
		b.WriteString(`<rect class="heat heat-` + strconv.Itoa(k) + `" x="` + num(x) + `" y="` + num(y-16) + `" width="22" height="20"/>`)
		x += 26
	}
	b.WriteString(`<text x="` + num(x+4) + `" y="` + num(y) + `">` + esc(more) + `</text></g>`)
}

// yearHeads labels the year columns, every other one on a narrow screen
// when they would collide; a gap's column is marked "…" on a wide screen
// only (on a narrow one it would meet its neighbours' years). The last
// label is kept inside the picture.
func yearHeads(b *strings.Builder, cols []yearSlot, cw, y float64) {
	// Name every year that fits: every one, every second, fifth or tenth,
	// on a wide screen and, among those, on a narrow one.
	step := func(font float64) int {
		for _, k := range []int{1, 2, 5, 10} {
			if float64(k)*(cw+hmGap) >= textWidth("2000", font)+6 {
				return k
			}
		}
		return 20
	}
	wide, narrow := step(fontText), step(fontTextNarrow)
	b.WriteString(`<g class="heads" text-anchor="middle">`)
	for i, col := range cols {
		label := strconv.Itoa(col.first)
		x := grLabelW + float64(i)*(cw+hmGap) + cw/2
		if col.gap {
			b.WriteString(`<text class="muted nh" x="` + num(x) + `" y="` + num(y) + `"><title>` + yearRange(col) + `</title>…</text>`)
			continue
		}
		if col.first%wide != 0 {
			continue
		}
		// Centred on the last column a year can pass the right edge,
		// where the narrow screen's larger text is cut.
		x = min(x, viewWidth-textWidth(label, fontTextNarrow)/2-1)
		class := "muted"
		if col.first%narrow != 0 {
			class += " nh"
		}
		b.WriteString(`<text class="` + class + `" x="` + num(x) + `" y="` + num(y) + `">` + label + `</text>`)
	}
	b.WriteString(`</g>`)
}

// gridRow draws one row at y: its label, linked, and its cells.
func gridRow(b *strings.Builder, g Grid, row GridRow, cols []yearSlot, peak int, cw, y float64) {
	ch := grRowH - hmGap
	label := row.Label
	for textWidth(label, fontTextNarrow) > grLabelW-10 && len([]rune(label)) > 2 {
		r := []rune(strings.TrimSuffix(label, "…"))
		label = string(r[:len(r)-1]) + "…"
	}
	text := `<text class="row-label" x="4" y="` + num(y+ch/2+5) + `"><title>` + esc(row.Label) + `</title>` + esc(label) + `</text>`
	if row.Href != "" {
		text = `<a href="` + esc(safeHref(row.Href)) + `" tabindex="-1">` + text + `</a>`
	}
	b.WriteString(text)
	for i, col := range cols {
		if col.gap {
			continue
		}
		year := col.first
		n := row.Years[year]
		lvl := level(n, peak)
		x := grLabelW + float64(i)*(cw+hmGap)
		b.WriteString(`<g class="cell">`)
		if n > 0 {
			tip := row.Label + ", " + strconv.Itoa(year) + ": " + strconv.Itoa(n)
			if g.CellLabel != nil {
				tip = g.CellLabel(row.Label, year, n)
			}
			b.WriteString(`<title>` + esc(tip) + `</title>`)
		}
		b.WriteString(`<rect class="heat heat-` + strconv.Itoa(lvl) + `" x="` + num(x) + `" y="` + num(y) + `" width="` + num(cw) + `" height="` + num(ch) + `"/>`)
		if n > 0 && cw >= textWidth(strconv.Itoa(n), fontText)+4 {
			class := "n"
			if lvl >= 4 {
				class += " on-dark"
			}
			if cw < textWidth(strconv.Itoa(n), fontTextNarrow)+4 {
				class += " nh"
			}
			b.WriteString(`<text class="` + class + `" x="` + num(x+cw/2) + `" y="` + num(y+ch/2+5) + `" text-anchor="middle">` + strconv.Itoa(n) + `</text>`)
		}
		b.WriteString(`</g>`)
	}
}
