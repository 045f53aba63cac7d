package chart

import (
	"encoding/xml"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestMonthLanes: bars in one lane never overlap (with their gap), and
// greedy packing over bars sorted by begin uses as many lanes as the
// most bars that overlap at one point, whatever their order; the picture
// is the same string for the same bars, well-formed, and every bar is a
// link with its title.
func TestMonthLanes(t *testing.T) {
	start := time.Date(2021, 4, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	var bars []MonthBar
	for i := range 2000 {
		b := start.Add(time.Duration(rng.Int64N(int64(end.Sub(start)))))
		bars = append(bars, MonthBar{Begin: b, End: b.Add(time.Duration(rng.Int64N(int64(30 * time.Hour)))), Open: i%17 == 0,
			Severity: []string{"critical", "major", "minor", ""}[i%4], Href: "/en/incidents/x/", Label: "x"})
	}
	placed, lanes := layoutBars(bars, start, end)
	if len(placed) != len(bars) {
		t.Fatalf("placed %d of %d bars", len(placed), len(bars))
	}
	byLane := map[int][]placedBar{}
	type edge struct {
		x    float64
		open int
	}
	var edges []edge
	for _, b := range placed {
		byLane[b.lane] = append(byLane[b.lane], b)
		edges = append(edges, edge{b.x, 1}, edge{b.x + b.w + moBarGap, -1})
	}
	for lane, list := range byLane {
		sort.Slice(list, func(i, j int) bool { return list[i].x < list[j].x })
		for i := 1; i < len(list); i++ {
			if list[i].x < list[i-1].x+list[i-1].w+moBarGap {
				t.Fatalf("lane %d: bars at %.1f and %.1f overlap", lane, list[i-1].x, list[i].x)
			}
		}
	}
	// The most bars open at one point, a bar's end (with its gap) before
	// the next one's begin at the same x.
	sort.Slice(edges, func(i, j int) bool {
		return edges[i].x < edges[j].x || edges[i].x == edges[j].x && edges[i].open < edges[j].open
	})
	depth, most := 0, 0
	for _, e := range edges {
		depth += e.open
		most = max(most, depth)
	}
	if lanes != most {
		t.Errorf("%d lanes for at most %d bars at once", lanes, most)
	}
	c := MonthChart{IDPrefix: "m", Title: "April", Desc: "d", Start: start, Bars: bars}
	svg := MonthSVG(c)
	if svg != MonthSVG(c) {
		t.Error("the same bars give two pictures")
	}
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Errorf("not well-formed: %v", err)
	}
	if n := strings.Count(svg, `<a class="bar-link" href="/en/incidents/x/" tabindex="-1"><title>x</title>`); n != len(bars) {
		t.Errorf("%d bars are links with their title, want %d", n, len(bars))
	}
}

// TestMonthClipsToItsDays: a bar running in from the month before or
// out into the next is drawn within the axis; one wholly outside the
// month is not drawn; the axis names each day.
func TestMonthClipsToItsDays(t *testing.T) {
	start := time.Date(2021, 2, 1, 0, 0, 0, 0, time.UTC)
	bars := []MonthBar{
		{Begin: start.Add(-48 * time.Hour), End: start.Add(5 * time.Hour)},
		{Begin: start.Add(27*24*time.Hour + 20*time.Hour), End: start.Add(40 * 24 * time.Hour)},
		{Begin: start.Add(-72 * time.Hour), End: start.Add(-48 * time.Hour)},
	}
	placed, _ := layoutBars(bars, start, start.AddDate(0, 1, 0))
	if len(placed) != 2 {
		t.Fatalf("drew %d bars, want the 2 within February", len(placed))
	}
	for _, b := range placed {
		if b.x < moLeft || b.x+b.w > moRight+0.01 {
			t.Errorf("a bar from %.1f to %.1f leaves the axis", b.x, b.x+b.w)
		}
	}
	svg := MonthSVG(MonthChart{Start: start, Bars: bars, DayLabel: func(d time.Time) string { return d.Format("Jan 2") }})
	if !strings.Contains(svg, ">Feb 1<") || !strings.Contains(svg, ">Feb 28<") || strings.Contains(svg, ">Mar 1<") {
		t.Error("February's axis does not name its 28 days")
	}
}
