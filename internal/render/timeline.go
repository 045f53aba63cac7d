package render

import (
	"cmp"
	"slices"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// The archive-wide timeline has a page per year, with a month index,
// and a page per month that has incidents, with one line per incident,
// oldest first. An incident is listed under the year and month of its
// begin in its own zone, the date every list shows for it, so that a page
// never files "December 31" under January. A line per incident rather
// than per event keeps a month page a few hundred bytes per incident,
// whatever the length of their timelines; a page per month rather than
// per year holds a twelfth of a busy year, so a year of 1,000 incidents
// stays far under the page bound.

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

// months are the months of the year with incidents, in order. (Its
// incidents are in the order of their begin instants, not of their local
// dates, which can differ near a month's edge.)
func (y YearSummary) months() []time.Month {
	var has [12]bool
	for _, inc := range y.incidents {
		has[inc.Begin.In(inc.Location).Month()-1] = true
	}
	var out []time.Month
	for i, ok := range has {
		if ok {
			out = append(out, time.Month(i+1))
		}
	}
	return out
}

// YearMonth is a month of the timeline.
type YearMonth struct {
	Year  int
	Month time.Month
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

// yearSummaries groups incidents (newest first, as the archive keeps
// them) by the local year of their begin, oldest year first. The archive
// is in the order of their instants, not of their local dates: around a
// new year an incident of the old year in its zone can follow one of the
// new year in another, so a year is found, not assumed to be the last.
func yearSummaries(incidents []*archive.Incident) []YearSummary {
	var out []YearSummary
	at := map[int]int{} // a year's place in out
	for i := len(incidents) - 1; i >= 0; i-- {
		inc := incidents[i]
		y := LocalYear(inc)
		k, ok := at[y]
		if !ok {
			k, at[y] = len(out), len(out)
			out = append(out, YearSummary{Year: y})
		}
		s := &out[k]
		s.Incidents++
		s.Events += inc.EventCount()
		s.incidents = append(s.incidents, inc)
	}
	slices.SortFunc(out, func(a, b YearSummary) int { return cmp.Compare(a.Year, b.Year) })
	return out
}

// Year is one year's page of the archive-wide timeline.
type Year struct {
	Year  int
	Count int // incidents that began in it
	// Months are the twelve months, each with the incidents that began in
	// it, for the index.
	Months [12]*Month
}

// Month is one month of a year's timeline.
type Month struct {
	Start time.Time // its first day, for names and datetime attributes
	Count int       // incidents that began in it
	// Incidents are its incidents, oldest first, on its own page only.
	Incidents []*IncidentView
	url       string
	incidents []*archive.Incident
}

// URL is the month's timeline page.
func (m *Month) URL() string { return m.url }

// year lays out a year's incidents by local month.
func (r *Renderer) year(s YearSummary, l *locale.Lang) *Year {
	y := &Year{Year: s.Year, Count: s.Incidents}
	for i := range y.Months {
		start := time.Date(s.Year, time.Month(i+1), 1, 0, 0, 0, 0, time.UTC)
		y.Months[i] = &Month{Start: start, url: r.urls.URL(urls.MonthLoc(l.Tag, s.Year, start.Month()))}
	}
	for _, inc := range s.incidents {
		m := y.Months[inc.Begin.In(inc.Location).Month()-1]
		m.Count++
		m.incidents = append(m.incidents, inc)
	}
	return y
}

// month is m of y with its incidents' lines, for its page.
func (r *Renderer) month(m *Month, l *locale.Lang) *Month {
	out := *m
	out.Incidents = r.incidents(m.incidents, l)
	return &out
}

// TimelineID is the incident's fragment id on its month's timeline page.
func (v *IncidentView) TimelineID() string { return urls.TimelineID(v.ID) }

// TimelineURL is the incident's line on the archive-wide timeline.
func (v *IncidentView) TimelineURL() string {
	return v.site.urls.URL(urls.TimelineEventLoc(v.L.Tag, v.ID, v.LocalBegin()))
}
