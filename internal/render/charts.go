package render

import (
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/chart"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// gridRows is how many organizations (or products) the overview's grid
// shows: the ones with the most incidents.
const gridRows = 10

// chartWords are the words every summary chart needs in one language,
// looked up (and checked) once.
type chartWords struct {
	r                              *Renderer
	l                              *locale.Lang
	heatTitle, heatDesc, gridTitle string
	gridDesc, durTitle, durDesc    string
	legend                         chart.Legend
	buckets                        []string
}

func (r *Renderer) charts(l *locale.Lang) (*chartWords, error) {
	if _, err := l.N("incidents_count", 1); err != nil {
		return nil, err
	}
	keys := []string{"chart_heatmap_title", "chart_heatmap_desc", "chart_grid_title", "chart_grid_desc", "chart_durations", "chart_durations_desc",
		"legend_fewer", "legend_more", "legend_severity", "severity_critical", "severity_major", "severity_minor", "severity_unknown",
		"bucket_under_1h", "bucket_1_4h", "bucket_4_12h", "bucket_12_24h", "bucket_over_1d", "bucket_end_unknown"}
	w := make([]string, len(keys))
	for i, k := range keys {
		var err error
		if w[i], err = l.T(k); err != nil {
			return nil, err
		}
	}
	return &chartWords{r: r, l: l, heatTitle: w[0], heatDesc: w[1], gridTitle: w[2], gridDesc: w[3], durTitle: w[4], durDesc: w[5],
		legend:  chart.Legend{Fewer: w[6], More: w[7], Caption: w[8], Severities: [4]string{w[9], w[10], w[11], w[12]}},
		buckets: w[13:]}, nil
}

func (c *chartWords) count(n int) string { s, _ := c.l.N("incidents_count", n); return s } // checked in charts

// spans are incidents as the charts take them: begin in their own zone.
func spans(incs []*archive.Incident) []chart.Span {
	out := make([]chart.Span, len(incs))
	for i, inc := range incs {
		sev := inc.Severity
		if sev == "" {
			sev = "unknown"
		}
		out[i] = chart.Span{Begin: inc.Begin.In(inc.Location), End: inc.Through.In(inc.Location), Open: !inc.EndStated(), Severity: sev}
	}
	return out
}

// heatmap draws incs per month across the years, each month linked to its
// timeline page, at fragment when it is not "".
func (c *chartWords) heatmap(incs []*archive.Incident, id, fragment string) string {
	return chart.HeatmapSVG(chart.Heatmap{
		IDPrefix: id, Title: c.heatTitle, Desc: c.heatDesc, Spans: spans(incs), Legend: c.legend,
		Href: func(y int, m time.Month) string {
			return c.r.urls.URL(urls.MonthLoc(c.l.Tag, y, m).At(fragment))
		},
		MonthLabel: c.l.MonthShort,
		CellLabel: func(y int, m time.Month, n int, by [4]int) string {
			var parts []string
			for i, k := range by {
				if k > 0 {
					parts = append(parts, c.legend.Severities[i]+" "+c.l.Number(k))
				}
			}
			return c.l.MonthYear(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)) + ": " + c.count(n) + " (" + strings.Join(parts, " · ") + ")"
		},
	})
}

// grid draws the organizations with the most incidents (products when no
// incident names its organization) against the years.
func (c *chartWords) grid(a *archive.Archive) string {
	terms := a.Terms[archive.Organizations]
	if len(terms) == 0 {
		terms = a.Terms[archive.Products]
	}
	terms = slices.Clone(terms)
	slices.SortStableFunc(terms, func(p, q *archive.Term) int { return len(q.Incidents) - len(p.Incidents) })
	var rows []chart.GridRow
	for _, t := range terms[:min(len(terms), gridRows)] {
		v, err := c.r.term(t, c.l)
		if err != nil {
			continue // its label is checked where the term's pages are made
		}
		row := chart.GridRow{Label: v.Label, Href: v.URL(), Years: map[int]int{}}
		for _, inc := range t.Incidents {
			row.Years[LocalYear(inc)]++
		}
		rows = append(rows, row)
	}
	return chart.GridSVG(chart.Grid{
		IDPrefix: "grid", Title: c.gridTitle, Desc: c.gridDesc, Rows: rows, Legend: c.legend,
		CellLabel: func(row string, y, n int) string { return row + ", " + strconv.Itoa(y) + ": " + c.count(n) },
	})
}

// durations draws how long incidents lasted.
func (c *chartWords) durations(incs []*archive.Incident) string {
	return chart.DurationsSVG(chart.Durations{IDPrefix: "durations", Title: c.durTitle, Desc: c.durDesc, Spans: spans(incs),
		CountLabel: c.count, Buckets: c.buckets})
}

// figure wraps a chart: captioned by its title, described by its desc,
// the drawing hidden from assistive technology (links are not allowed
// inside role="img", and the pages carry the same links as text).
func figure(htmlID, chartID, title, svg string) template.HTML {
	return figureOf("chart", htmlID, chartID, title, svg)
}

// figureOf is figure with the figure's classes.
func figureOf(class, htmlID, chartID, title, svg string) template.HTML {
	id := ""
	if htmlID != "" {
		id = ` id="` + htmlID + `"`
	}
	return template.HTML(`<figure class="` + class + `"` + id + ` aria-labelledby="` + chartID + `-caption" aria-describedby="` + chartID + `-desc">` + // #nosec G203: ids are ours, chart escapes all text
		`<figcaption id="` + chartID + `-caption" class="chart-title">` + template.HTMLEscapeString(title) + `</figcaption><div aria-hidden="true">` + svg + `</div></figure>`)
}

// Overview is the archive-wide pictures: incidents per month across the
// years, per organization and year, and how long they lasted.
func (p *PageView) Overview() (template.HTML, error) {
	c, err := p.r.charts(p.L)
	if err != nil {
		return "", err
	}
	incs := p.r.archive.Incidents
	return figure("", "overview", c.heatTitle, c.heatmap(incs, "overview", "")) + figure("", "grid", c.gridTitle, c.grid(p.r.archive)) +
		figure("", "durations", c.durTitle, c.durations(incs)), nil
}
