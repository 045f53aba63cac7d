// Package archive is the link stage: it groups pages into incidents, lets
// translations inherit the original's facts (and checks that they do not
// contradict them), places every time in UTC, and builds the cross-links:
// the archive-wide timeline, overlaps, related incidents, taxonomies and
// previous/next. It is pure: pages in, archive out, no I/O.
package archive

import (
	"time"

	"github.com/postmortem-archive/gen/internal/content"
)

// Archive is the whole linked site content.
type Archive struct {
	Langs     []string    // site languages
	Incidents []*Incident // newest first
	Events    []EventRef  // every timeline event of every incident, oldest first
	Terms     map[Taxonomy][]*Term
}

// Taxonomy is a kind of term incidents are classified by.
type Taxonomy string

// The taxonomies, in the order pages list them.
const (
	Products Taxonomy = "products"
	Regions  Taxonomy = "regions"
	Causes   Taxonomy = "causes"
)

// Taxonomies lists every taxonomy in display order.
var Taxonomies = []Taxonomy{Products, Regions, Causes}

// Severity levels.
const (
	Minor    = "minor"
	Major    = "major"
	Critical = "critical"
)

// Incident is one postmortem with all its language versions.
type Incident struct {
	ID       string
	Original *content.Page
	Versions map[string]*content.Page // by language tag, the original included

	Location *time.Location
	Begin    time.Time // UTC
	End      time.Time // UTC
	Duration time.Duration
	Severity string
	Draft    bool
	Sources  []content.Source
	Terms    map[Taxonomy][]*Term // in the order the original lists them

	// Events are the original's timeline; Timelines holds each version's,
	// which have the same instants (checked) but their own text.
	Events    []content.Event
	Timelines map[string][]content.Event

	Related     []*Incident // stated in either direction, by begin time
	Overlapping []*Incident // impact windows intersect, by begin time
	Similar     []*Incident // share a product, region or cause; ranked
	Prev, Next  *Incident   // neighbours in time (older, newer)
}

// Page returns the version in lang, or the original when the incident has
// not been translated into lang; translated reports which.
func (inc *Incident) Page(lang string) (p *content.Page, translated bool) {
	if p, ok := inc.Versions[lang]; ok {
		return p, true
	}
	return inc.Original, false
}

// Timeline returns the events as written in lang, falling back like Page.
func (inc *Incident) Timeline(lang string) []content.Event {
	if t, ok := inc.Timelines[lang]; ok {
		return t
	}
	return inc.Events
}

// Term is one product, region or cause and the incidents it classifies.
type Term struct {
	Taxonomy  Taxonomy
	Name      string      // as first written
	Slug      string      // URL segment
	Incidents []*Incident // newest first
}

// EventRef is one event of the archive-wide timeline.
type EventRef struct {
	Incident *Incident
	Index    int // into Incident.Events
}

// Event returns the referenced event as written in lang.
func (r EventRef) Event(lang string) content.Event {
	return r.Incident.Timeline(lang)[r.Index]
}
