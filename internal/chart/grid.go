package chart

import (
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
	first, last, peak := gridYears(g.Rows)
	var b strings.Builder
	if peak == 0 {
		emptyFrame(&b, id, "grid", g.Title, g.Desc)
		return b.String()
	}
	years := last - first + 1
	cw := (viewWidth - grLabelW - float64(years)*hmGap) / float64(years)
	top := 40 + grHeadH
	openSVG(&b, id, "grid", viewWidth, top+float64(len(g.Rows))*grRowH+8, g.Title, g.Desc)
	heatScale(&b, g.Legend, 22)
	yearHeads(&b, first, years, cw, 40+grHeadH-8)
	for r, row := range g.Rows {
		gridRow(&b, g, row, first, years, peak, cw, top+float64(r)*grRowH)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// gridYears finds the rows' first and last years and the largest count.
func gridYears(rows []GridRow) (first, last, peak int) {
	for _, row := range rows {
		for y, n := range row.Years {
			if n == 0 {
				continue
			}
			if peak == 0 {
				first, last = y, y
			}
			first, last, peak = min(first, y), max(last, y), max(peak, n)
		}
	}
	return first, last, peak
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
// when they would collide.
func yearHeads(b *strings.Builder, first, years int, cw, y float64) {
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
	for i := range years {
		if (first+i)%wide != 0 {
			continue
		}
		class := "muted"
		if (first+i)%narrow != 0 {
			class += " nh"
		}
		x := grLabelW + float64(i)*(cw+hmGap) + cw/2
		b.WriteString(`<text class="` + class + `" x="` + num(x) + `" y="` + num(y) + `">` + strconv.Itoa(first+i) + `</text>`)
	}
	b.WriteString(`</g>`)
}

// gridRow draws one row at y: its label, linked, and its cells.
func gridRow(b *strings.Builder, g Grid, row GridRow, first, years, peak int, cw, y float64) {
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
	for i := range years {
		n := row.Years[first+i]
		lvl := level(n, peak)
		x := grLabelW + float64(i)*(cw+hmGap)
		b.WriteString(`<g class="cell">`)
		if n > 0 {
			tip := row.Label + ", " + strconv.Itoa(first+i) + ": " + strconv.Itoa(n)
			if g.CellLabel != nil {
				tip = g.CellLabel(row.Label, first+i, n)
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
