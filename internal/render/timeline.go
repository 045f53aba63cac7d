package render

import (
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// The archive-wide timeline has a page per year: a month index, then one
// line per incident, oldest first. An incident is listed under the year
// and month of its begin in its own zone, the date every list shows for
// it, so that a page never files "December 31" under January. A line per
// incident rather than per event keeps a year page a few hundred bytes
// per incident, whatever the length of their timelines.

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

// LocalYear is the year an incident is listed under: that of its begin in
// its own zone.
func LocalYear(inc *archive.Incident) int { return inc.Begin.In(inc.Location).Year() }

// yearSummaries groups incidents (newest first, as the archive keeps
// them) by the local year of their begin, oldest year first.
func yearSummaries(incidents []*archive.Incident) []YearSummary {
	var out []YearSummary
	for i := len(incidents) - 1; i >= 0; i-- {
		inc := incidents[i]
		y := LocalYear(inc)
		if len(out) == 0 || out[len(out)-1].Year != y {
			out = append(out, YearSummary{Year: y})
		}
		s := &out[len(out)-1]
		s.Incidents++
		s.Events += len(inc.Events)
		s.incidents = append(s.incidents, inc)
	}
	return out
}

// Year is one year's page of the archive-wide timeline.
type Year struct {
	Year  int
	Count int // incidents that began in it
	// Months are the twelve months, each with the incidents that began in
	// it, for the index and the sections.
	Months [12]*Month
}

// Month is one month of a year's timeline.
type Month struct {
	Start     time.Time // its first day, for names and datetime attributes
	Incidents []*IncidentView
}

// ID is the month's fragment id on its year page.
func (m *Month) ID() string { return urls.MonthID(m.Start) }

// year lays out a year's incidents by local month.
func (r *Renderer) year(s YearSummary, l *locale.Lang) *Year {
	y := &Year{Year: s.Year, Count: s.Incidents}
	for i := range y.Months {
		y.Months[i] = &Month{Start: time.Date(s.Year, time.Month(i+1), 1, 0, 0, 0, 0, time.UTC)}
	}
	for _, inc := range s.incidents {
		m := y.Months[inc.Begin.In(inc.Location).Month()-1]
		m.Incidents = append(m.Incidents, r.incident(inc, l))
	}
	return y
}

// TimelineID is the incident's fragment id on its year's timeline page.
func (v *IncidentView) TimelineID() string { return urls.TimelineID(v.ID) }

// TimelineURL is the incident's line on the archive-wide timeline.
func (v *IncidentView) TimelineURL() string {
	return v.site.urls.URL(urls.TimelineEventLoc(v.L.Tag, v.ID, v.LocalBegin()))
}
