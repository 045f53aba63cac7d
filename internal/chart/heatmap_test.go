package chart

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

func testHeatmap(spans []Span) Heatmap {
	return Heatmap{
		IDPrefix: "h", Title: "Incidents by month", Desc: "d", Spans: spans,
		Href: func(y int, m time.Month) string {
			return "/en/timeline/" + strconv.Itoa(y) + "/#m-" + strconv.Itoa(int(m))
		},
		Legend: Legend{Fewer: "fewer", More: "more", Caption: "Strip: severity", Severities: [4]string{"Critical", "Major", "Minor", "Unknown"}},
	}
}

// TestHeatmapScales: the same years give the same picture, one cell per
// month, at 10, 1,000 and 10,000 incidents; only the counts differ, so the
// size stays within a few digits per cell.
func TestHeatmapScales(t *testing.T) {
	sizes := map[int]int{}
	for _, n := range []int{10, 1000, 10000} {
		spans := manySpans(n)
		// Pin the years: one span at each end of the 15.
		spans = append(spans, Span{Begin: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), Severity: "minor"},
			Span{Begin: time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC)})
		out := HeatmapSVG(testHeatmap(spans))
		sizes[n] = len(out)
		root := parse(t, out)
		cells := root.all(byClass("heat"))
		if got := len(cells) - (hmLevels + 1); got != 15*12 { // less the legend's swatches
			t.Errorf("%d spans: %d cells, want %d", n, got, 15*12)
		}
		total := 0
		for _, c := range root.all(byClass("cell")) {
			for _, txt := range c.all(byClass("n")) {
				k, _ := strconv.Atoi(txt.text)
				total += k
			}
		}
		if total != len(spans) {
			t.Errorf("%d spans: cells count %d", n, total)
		}
		// No two cells overlap.
		type box struct{ x, y, w, h float64 }
		var boxes []box
		for _, c := range cells[hmLevels+1:] {
			f := func(k string) float64 { v, _ := strconv.ParseFloat(c.attr[k], 64); return v }
			boxes = append(boxes, box{f("x"), f("y"), f("width"), f("height")})
		}
		for i, a := range boxes {
			for _, b := range boxes[i+1:] {
				if a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h {
					t.Fatalf("%d spans: cells %v and %v overlap", n, a, b)
				}
			}
		}
	}
	if sizes[10000] > sizes[1000]*21/20 || sizes[10000] > 100_000 {
		t.Errorf("sizes grow with the incidents: %v", sizes)
	}
}

// TestHeatmapLegendAndUnknown: every mark's class is in the legend, unknown
// severity its own.
func TestHeatmapLegendAndUnknown(t *testing.T) {
	at := time.Date(2020, 3, 5, 0, 0, 0, 0, time.UTC)
	root := parse(t, HeatmapSVG(testHeatmap([]Span{{Begin: at, Severity: "critical"}, {Begin: at, Severity: "unknown"}, {Begin: at, Severity: ""}})))
	legend := root.all(byClass("chart-key"))
	if len(legend) == 0 {
		t.Fatal("no legend")
	}
	inLegend := map[string]bool{}
	for _, l := range legend {
		for _, n := range l.all(byName("rect")) {
			inLegend[n.attr["class"]] = true
		}
	}
	for _, c := range root.all(byClass("cell")) {
		for _, r := range c.all(byName("rect")) {
			if !inLegend[r.attr["class"]] {
				t.Errorf("mark of class %q is not in the legend", r.attr["class"])
			}
		}
	}
	if n := len(root.all(byClass("severity-none"))); n != 2 { // the legend's and the cell's strip
		t.Errorf("unknown severity drawn %d times, want its own strip and legend key", n)
	}
}

func TestGridAndDurations(t *testing.T) {
	g := Grid{IDPrefix: "g", Title: "t", Rows: []GridRow{
		{Label: "A very long organization name that cannot fit in the label column at all", Href: "/en/organizations/a/", Years: map[int]int{2019: 3, 2021: 1}},
		{Label: "B", Years: map[int]int{2020: 7}},
	}}
	root := parse(t, GridSVG(g))
	if got := len(root.all(byClass("heat"))) - (hmLevels + 1); got != 2*3 {
		t.Errorf("%d cells, want 2 rows × 3 years", got)
	}
	for _, l := range root.all(byClass("row-label")) {
		if w := textWidth(l.text, fontTextNarrow); w > grLabelW {
			t.Errorf("label %q is %v wide, over the %v column", l.text, w, grLabelW)
		}
	}
	d := parse(t, DurationsSVG(Durations{IDPrefix: "d", Spans: []Span{{Begin: time.Unix(0, 0), End: time.Unix(600, 0)}, {Begin: time.Unix(0, 0), Open: true}}}))
	if n := len(d.all(byClass("duration-bar"))); n != 6 {
		t.Errorf("%d duration rows, want 6 (with the end-not-stated row)", n)
	}
}

// The severity key wraps into rows that fit the picture at the narrow
// viewport's text size, keeping every label in order.
func TestSeverityKeyFits(t *testing.T) {
	for _, l := range []Legend{
		{Caption: "Strip: severity", Severities: [4]string{"Critical", "Major", "Minor", "Unknown"}},
		{Caption: "Strip along the foot of a cell: the split by severity", Severities: [4]string{"Critical outage", "Major degradation", "Minor disruption", "Severity not stated"}},
		{},
	} {
		var got []string
		rows := severityKey(l)
		for _, row := range rows {
			w := 4.0
			for _, it := range row {
				w += keyItemWidth(it)
				got = append(got, it.label)
			}
			if w > viewWidth {
				t.Errorf("%+v: a row is %v wide, over %v", l, w, viewWidth)
			}
		}
		want := len(sevNames)
		if l.Caption != "" {
			want++
		}
		if len(got) != want || (l.Caption != "" && got[0] != l.Caption) {
			t.Errorf("%+v: key %q", l, got)
		}
		if l.Caption == "" && len(rows) != 1 {
			t.Errorf("%+v: %d rows, want one", l, len(rows))
		}
	}
}

// TestChartsBoundedAcrossYears: incidents in years 1, 2020 and 9999 draw
// three rows (and three columns) with the empty millennia between as two
// gaps, not ten thousand; incidents in 500 different years draw the most
// recent maxYearSlots.
func TestChartsBoundedAcrossYears(t *testing.T) {
	at := func(y int) time.Time { return time.Date(y, 6, 1, 0, 0, 0, 0, time.UTC) }
	spans := []Span{{Begin: at(1)}, {Begin: at(2020), Severity: "major"}, {Begin: at(9999)}}
	heat := HeatmapSVG(testHeatmap(spans))
	root := parse(t, heat)
	if got := len(root.all(byClass("heat"))) - (hmLevels + 1); got != 3*12 {
		t.Errorf("%d heat map cells, want 3 years × 12", got)
	}
	var labels []string
	for _, l := range root.all(byClass("year-label")) {
		labels = append(labels, l.text)
	}
	if want := []string{"1", "2–2019", "2020", "2021–9998", "9999"}; !slices.Equal(labels, want) {
		t.Errorf("rows %q, want %q", labels, want)
	}
	grid := GridSVG(Grid{IDPrefix: "g", Title: "t", Rows: []GridRow{{Label: "A", Years: map[int]int{1: 1, 2020: 1, 9999: 1}}}})
	if got := len(parse(t, grid).all(byClass("heat"))) - (hmLevels + 1); got != 3 {
		t.Errorf("%d grid cells, want 3", got)
	}
	if len(heat)+len(grid) > 20_000 {
		t.Errorf("the heat map and grid weigh %d bytes", len(heat)+len(grid))
	}
	var many []Span
	years := map[int]int{}
	for y := 1000; y < 3000; y += 4 {
		many = append(many, Span{Begin: at(y)})
		years[y] = 1
	}
	root = parse(t, HeatmapSVG(testHeatmap(many)))
	labels = labels[:0]
	for _, l := range root.all(byClass("year-label")) {
		labels = append(labels, l.text)
	}
	if len(labels) > maxYearSlots || labels[len(labels)-1] != "2996" {
		t.Errorf("500 years: %d rows, the last %q; want at most %d, the most recent last", len(labels), labels[len(labels)-1], maxYearSlots)
	}
	grid = GridSVG(Grid{IDPrefix: "g", Title: "t", Rows: []GridRow{{Label: "A", Years: years}}})
	if got := len(parse(t, grid).all(byClass("heat"))) - (hmLevels + 1); got > maxYearSlots {
		t.Errorf("500 years: %d grid columns, want at most %d", got, maxYearSlots)
	}
}
