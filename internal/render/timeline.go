package render

import (
	"cmp"
	"html/template"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/chart"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/timefmt"
	"github.com/postmortem-archive/gen/internal/urls"
)

// The archive-wide timeline has a page per year and a page per month. A
// month's page is the cross-linked timeline: a picture of its incidents
// on a day axis in UTC, its incidents by organization, and every event
// that happened in it (in UTC), merged in time order by day, each linked
// to its place on its incident's page. An incident is listed under the
// year and month of its begin in its own zone, the date every list shows
// for it, so that a page never files "December 31" under January; it is
// also on the page of every month, in UTC, its window or its events
// reach, so that one running into the next month is found from both. A
// page per month rather than per year holds a twelfth of a busy year.

// YearMonth is a month of the timeline.
type YearMonth struct {
	Year  int
	Month time.Month
}

// monthOf is the month of t in UTC.
func monthOf(t time.Time) YearMonth { t = t.UTC(); return YearMonth{t.Year(), t.Month()} }

// start is the month's first instant, in UTC.
func (m YearMonth) start() time.Time { return time.Date(m.Year, m.Month, 1, 0, 0, 0, 0, time.UTC) }

func (m YearMonth) next() YearMonth { return monthOf(m.start().AddDate(0, 1, 0)) }

func (m YearMonth) before(o YearMonth) bool {
	return m.Year < o.Year || m.Year == o.Year && m.Month < o.Month
}

// LocalMonth is the month an incident is listed under: that of its begin
// in its own zone.
func LocalMonth(inc *archive.Incident) YearMonth {
	t := inc.Begin.In(inc.Location)
	return YearMonth{t.Year(), t.Month()}
}

// LocalYear is the year an incident is listed under: that of its begin in
// its own zone.
func LocalYear(inc *archive.Incident) int { return inc.Begin.In(inc.Location).Year() }

// maxSpanMonths is how many months an incident's window alone puts it
// on, counted from the month it began in (UTC): one stated to have
// lasted for years is on the pages of its first months and of the months
// its events happened in, not of every month between (one file could
// otherwise make a hundred thousand pages).
const maxSpanMonths = 12

// IncidentMonths are the months whose pages show inc, in order: the
// month it is listed under, the months in UTC its window spans (at most
// maxSpanMonths), and those its events happened in.
func IncidentMonths(inc *archive.Incident) []YearMonth {
	out := []YearMonth{LocalMonth(inc)}
	last := monthOf(inc.Through)
	for m, n := monthOf(inc.Begin), 0; !last.before(m) && n < maxSpanMonths; m, n = m.next(), n+1 {
		out = append(out, m)
	}
	for _, t := range inc.EventInstants() {
		out = append(out, monthOf(t))
	}
	slices.SortFunc(out, compareMonths)
	return slices.Compact(out)
}

// String is the month as a timeline key: "2021-04".
func (m YearMonth) String() string { return m.start().Format(timefmt.Month) }

// ParseMonth reads a month written by String.
func ParseMonth(s string) (YearMonth, error) {
	t, err := time.Parse(timefmt.Month, s)
	return monthOf(t), err
}

// timelineMonths are the months that have a page, oldest first, with
// the incidents each shows, oldest first.
type timelineMonths struct {
	order []YearMonth
	shows map[YearMonth][]*archive.Incident
}

// monthPages finds the months of incidents (newest first, as the archive
// keeps them).
func monthPages(incidents []*archive.Incident) *timelineMonths {
	out := &timelineMonths{shows: map[YearMonth][]*archive.Incident{}}
	for i := len(incidents) - 1; i >= 0; i-- {
		for _, m := range IncidentMonths(incidents[i]) {
			out.shows[m] = append(out.shows[m], incidents[i])
		}
	}
	for m := range out.shows {
		out.order = append(out.order, m)
	}
	slices.SortFunc(out.order, compareMonths)
	return out
}

// around is the months with pages before and after m, where there are.
func (t *timelineMonths) around(m YearMonth) (prev, next YearMonth, hasPrev, hasNext bool) {
	i, found := slices.BinarySearchFunc(t.order, m, compareMonths)
	if i > 0 {
		prev, hasPrev = t.order[i-1], true
	}
	if found {
		i++
	}
	if i < len(t.order) {
		next, hasNext = t.order[i], true
	}
	return prev, next, hasPrev, hasNext
}

// MonthPagesChanged finds the month pages whose neighbours differ
// between two sets of months with pages: a month with a page in one and
// not the other, and the months with pages on either side of it in
// each, whose previous or next month links it changes.
func MonthPagesChanged(before, after map[YearMonth]bool) map[YearMonth]bool {
	order := func(set map[YearMonth]bool) *timelineMonths {
		t := &timelineMonths{}
		for m := range set {
			t.order = append(t.order, m)
		}
		slices.SortFunc(t.order, compareMonths)
		return t
	}
	b, a := order(before), order(after)
	out := map[YearMonth]bool{}
	for _, side := range []struct {
		months *timelineMonths
		other  map[YearMonth]bool
	}{{b, after}, {a, before}} {
		for _, m := range side.months.order {
			if side.other[m] {
				continue
			}
			out[m] = true
			for _, t := range []*timelineMonths{b, a} {
				prev, next, hasPrev, hasNext := t.around(m)
				if hasPrev {
					out[prev] = true
				}
				if hasNext {
					out[next] = true
				}
			}
		}
	}
	return out
}

func compareMonths(a, b YearMonth) int {
	return cmp.Or(cmp.Compare(a.Year, b.Year), cmp.Compare(a.Month, b.Month))
}

// YearSummary counts one year of the archive-wide timeline.
type YearSummary struct {
	Year      int
	Events    int
	Incidents int
	// incidents began in the year, oldest first.
	incidents []*archive.Incident
}

// URL is the year's timeline page, in the page language.
func (y YearSummary) URL(p *PageView) string { return p.Site.urls.URL(urls.YearLoc(p.L.Tag, y.Year)) }

// yearSummaries groups incidents (newest first, as the archive keeps
// them) by the local year of their begin, oldest year first, with a year
// for each other year that has a month page (one an incident of the year
// before runs into). The archive is in the order of their instants, not
// of their local dates: around a new year an incident of the old year in
// its zone can follow one of the new year in another, so a year is
// found, not assumed to be the last.
func yearSummaries(incidents []*archive.Incident, months *timelineMonths) []YearSummary {
	var out []YearSummary
	at := map[int]int{} // a year's place in out
	add := func(y int) *YearSummary {
		k, ok := at[y]
		if !ok {
			k, at[y] = len(out), len(out)
			out = append(out, YearSummary{Year: y})
		}
		return &out[k]
	}
	for i := len(incidents) - 1; i >= 0; i-- {
		inc := incidents[i]
		s := add(LocalYear(inc))
		s.Incidents++
		s.Events += inc.EventCount()
		s.incidents = append(s.incidents, inc)
	}
	for _, m := range months.order {
		add(m.Year)
	}
	slices.SortFunc(out, func(a, b YearSummary) int { return cmp.Compare(a.Year, b.Year) })
	return out
}

// TimelineLink is a neighbouring year or month of the timeline.
type TimelineLink struct {
	Start time.Time // its first day, for its name
	URL   string
}

// Year is one year's page of the archive-wide timeline.
type Year struct {
	Year  int
	Count int // incidents that began in it
	// Months are the twelve months, each with the incidents that began in
	// it, for the index.
	Months     [12]*Month
	Prev, Next *TimelineLink // the years with pages before and after
	r          *Renderer
	l          *locale.Lang
}

// Month is one month of the timeline: in a year's index, or on its page.
type Month struct {
	Start time.Time // its first day, for names and datetime attributes
	Count int       // incidents that began in it
	// On its own page: the months with pages before and after it, the
	// incidents it shows by organization, and its events by day.
	Prev, Next    *TimelineLink
	Organizations []*MonthOrganization
	Days          []*MonthDay
	Events        int // its events, in every day
	url           string
	incidents     []*archive.Incident // began in it
	shown         []*IncidentView     // on its page, oldest first
	r             *Renderer
	l             *locale.Lang
}

// URL is the month's timeline page; "" when it has none.
func (m *Month) URL() string { return m.url }

// MonthOrganization is an organization's incidents on a month's page,
// under an anchor that its heat map's cell for the month links to.
type MonthOrganization struct {
	ID        string    // its fragment id
	Term      *TermView // nil: the incidents name no organization
	Incidents []*IncidentView
}

// MonthDay is a day of a month's events, in UTC.
type MonthDay struct {
	Date time.Time // its first instant
	// Runs are its events in time order, those of one incident that
	// follow one another under it.
	Runs []*EventRun
}

// EventRun is events of one incident that follow one another on a day.
type EventRun struct {
	Incident *IncidentView
	Events   []MonthEvent
}

// MonthEvent is an event on a month's page.
type MonthEvent struct {
	At   time.Time
	Time string // in the incident's zone and in UTC, as on its page
	Text string // its text, shortened to eventText
	URL  string // the event on its incident's page
}

// eventText is the most a month's page shows of an event's text, in
// columns (a wide character takes two): the event's page has the rest.
// An item written as a paragraph would otherwise make a busy month's
// page unbounded.
const eventText = 160

// year lays out a year's incidents by local month; i is the year's place
// among years.
func (r *Renderer) year(years []YearSummary, i int, months *timelineMonths, l *locale.Lang) *Year {
	s := years[i]
	y := &Year{Year: s.Year, Count: s.Incidents, r: r, l: l}
	for i := range y.Months {
		start := time.Date(s.Year, time.Month(i+1), 1, 0, 0, 0, 0, time.UTC)
		m := &Month{Start: start, r: r, l: l}
		if _, ok := months.shows[monthOf(start)]; ok {
			m.url = r.urls.URL(urls.MonthLoc(l.Tag, s.Year, start.Month()))
		}
		y.Months[i] = m
	}
	for _, inc := range s.incidents {
		m := y.Months[inc.Begin.In(inc.Location).Month()-1]
		m.Count++
		m.incidents = append(m.incidents, inc)
	}
	link := func(year int) *TimelineLink {
		return &TimelineLink{Start: time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), URL: r.urls.URL(urls.YearLoc(l.Tag, year))}
	}
	if i > 0 {
		y.Prev = link(years[i-1].Year)
	}
	if i+1 < len(years) {
		y.Next = link(years[i+1].Year)
	}
	return y
}

// month is m with what its page shows.
func (r *Renderer) month(m *Month, months *timelineMonths, l *locale.Lang) (*Month, error) {
	out := *m
	ym := monthOf(m.Start)
	prev, next, hasPrev, hasNext := months.around(ym)
	link := func(o YearMonth) *TimelineLink {
		return &TimelineLink{Start: o.start(), URL: r.urls.URL(urls.MonthLoc(l.Tag, o.Year, o.Month))}
	}
	if hasPrev {
		out.Prev = link(prev)
	}
	if hasNext {
		out.Next = link(next)
	}
	out.shown = r.incidents(months.shows[ym], l)
	var err error
	if out.Organizations, err = byOrganization(out.shown, l); err != nil {
		return nil, err
	}
	out.Days, out.Events = monthEvents(out.shown, ym)
	return &out, nil
}

// byOrganization groups a month's incidents by organization, in the
// language's order of their names, those naming none last.
func byOrganization(views []*IncidentView, l *locale.Lang) ([]*MonthOrganization, error) {
	var out []*MonthOrganization
	var none *MonthOrganization
	at := map[*archive.Term]*MonthOrganization{}
	for _, v := range views {
		t := v.Organization()
		if t == nil {
			if none == nil {
				none = &MonthOrganization{ID: "no-organization"}
			}
			none.Incidents = append(none.Incidents, v)
			continue
		}
		g, ok := at[t]
		if !ok {
			term, err := v.r.term(t, l)
			if err != nil {
				return nil, err
			}
			g = &MonthOrganization{ID: urls.OrganizationID(t.Slug), Term: term}
			at[t] = g
			out = append(out, g)
		}
		g.Incidents = append(g.Incidents, v)
	}
	locale.Sort(l, out, func(g *MonthOrganization) string { return g.Term.Label })
	if none != nil {
		out = append(out, none)
	}
	return out, nil
}

// monthEvents merges the events of views that happened in month m, in
// time order, by day in UTC; it returns them and how many there are.
func monthEvents(views []*IncidentView, m YearMonth) ([]*MonthDay, int) {
	start, end := m.start(), m.next().start()
	type item struct {
		v *IncidentView
		e content.Event
	}
	var all []item
	for _, v := range views {
		for _, e := range v.Events() {
			if !e.Instant.Before(start) && e.Instant.Before(end) {
				all = append(all, item{v, e})
			}
		}
	}
	// Stable: events of the same instant keep the order of their
	// incidents' begins, and of their timelines.
	slices.SortStableFunc(all, func(a, b item) int { return a.e.Instant.Compare(b.e.Instant) })
	var days []*MonthDay
	var day *MonthDay
	var run *EventRun
	for _, it := range all {
		date := it.e.Instant.UTC().Truncate(24 * time.Hour)
		if day == nil || !day.Date.Equal(date) {
			day, run = &MonthDay{Date: date}, nil
			days = append(days, day)
		}
		if run == nil || run.Incident != it.v {
			run = &EventRun{Incident: it.v}
			day.Runs = append(day.Runs, run)
		}
		v := it.v
		run.Events = append(run.Events, MonthEvent{
			At: it.e.Instant, Time: v.L.Time(it.e.Instant, v.Location), Text: shorten(it.e.Text, eventText),
			URL: v.site.urls.URL(urls.IncidentLoc(v.L.Tag, v.ID).At(it.e.Anchor)),
		})
	}
	return days, len(all)
}

// shorten cuts s to at most n columns (a wide character takes two),
// after a word where there is one in its last fifth, and marks the cut.
func shorten(s string, n int) string {
	cols := 0
	for i, r := range s {
		w := 1
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0xFF00 && r <= 0xFF60 || r >= 0x3000 && r <= 0x303F {
			w = 2
		}
		if cols+w > n-1 {
			cut := s[:i]
			if sp := strings.LastIndexByte(cut, ' '); sp > len(cut)*4/5 {
				cut = cut[:sp]
			}
			return strings.TrimRight(cut, " ,;:") + "…"
		}
		cols += w
	}
	return s
}

// Chart is the month's picture: a bar per incident on a day axis in UTC.
func (m *Month) Chart() (template.HTML, error) {
	l := m.l
	w := make([]string, 0, 8)
	for _, key := range []string{"chart_month_title", "chart_month_desc", "severity_critical", "severity_major", "severity_minor",
		"severity_unknown", "chart_legend_open", "chart_month_days"} {
		s, err := l.T(key)
		if err != nil {
			return "", err
		}
		w = append(w, s)
	}
	bars := make([]chart.MonthBar, len(m.shown))
	for i, v := range m.shown {
		label := v.Title() + " — " + l.Time(v.Begin, v.Location)
		if org := v.Organization(); org != nil {
			if t, err := m.r.term(org, l); err == nil {
				label = t.Label + ": " + label
			}
		}
		if d, err := v.DurationText(); err == nil && d != "" {
			label += " (" + d + ")"
		}
		bars[i] = chart.MonthBar{Begin: v.Begin, End: v.Through, Open: !v.EndStated(), Severity: v.Severity, Href: v.URL(), Label: label}
	}
	svg := chart.MonthSVG(chart.MonthChart{
		IDPrefix: "month-chart", Title: w[0], Desc: w[1], Start: m.Start, Bars: bars,
		Legend: chart.MonthLegend{Severities: [4]string{w[2], w[3], w[4], w[5]}, Open: w[6], Days: w[7]},
	})
	return figureOf("chart chart-scroll", "month-chart", "month-chart", w[0], svg), nil
}

// Chart is the year's picture: its incidents by the month they began in,
// by severity, each month linked to its page.
func (y *Year) Chart() (template.HTML, error) {
	l := y.l
	w := make([]string, 0, 6)
	for _, key := range []string{"chart_year_title", "chart_year_desc", "severity_critical", "severity_major", "severity_minor", "severity_unknown"} {
		s, err := l.T(key)
		if err != nil {
			return "", err
		}
		w = append(w, s)
	}
	if _, err := l.N("incidents_count", 1); err != nil {
		return "", err
	}
	c := chart.YearChart{IDPrefix: "year-chart", Title: w[0], Desc: w[1], Severities: [4]string{w[2], w[3], w[4], w[5]},
		MonthLabel: l.MonthShort,
		Href:       func(m time.Month) string { return y.Months[m-1].url },
		ColumnLabel: func(m time.Month, n int) string {
			count, _ := l.N("incidents_count", n) // checked above
			return l.MonthYear(y.Months[m-1].Start) + ": " + count
		},
	}
	for _, m := range y.Months {
		c.Spans = append(c.Spans, spans(m.incidents)...)
	}
	return figureOf("chart chart-year", "year-chart", "year-chart", w[0], chart.YearSVG(c)), nil
}

// TimelineID is the incident's fragment id on its month's timeline page.
func (v *IncidentView) TimelineID() string { return urls.TimelineID(v.ID) }

// TimelineURL is the incident's line on the archive-wide timeline.
func (v *IncidentView) TimelineURL() string {
	return v.site.urls.URL(urls.TimelineEventLoc(v.L.Tag, v.ID, v.LocalBegin()))
}
