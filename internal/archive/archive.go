// Package archive is the link stage: it groups pages into incidents, lets
// translations inherit the original's facts (and checks that they do not
// contradict them), places every time in UTC, and builds the cross-links:
// the archive-wide timeline, overlaps, related incidents, taxonomies and
// previous/next. It is pure: pages in, archive out, no I/O.
package archive

import (
	"maps"
	"slices"
	"time"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/content"
)

// Archive is the whole linked site content.
type Archive struct {
	Langs     []string    // site languages
	Incidents []*Incident // newest first
	Terms     map[Taxonomy][]*Term

	// For linking again (Options.Prev): the incidents by id, and the
	// ids of the drafts left out.
	byID   map[string]*Incident
	hidden map[string]bool
	// moved is where MoveTexts moved the timelines' texts.
	moved *textFile
}

// Incident returns the incident id, or nil when the archive has none
// (or leaves it out: a draft).
func (a *Archive) Incident(id string) *Incident { return a.byID[id] }

// Taxonomy is a kind of term incidents are classified by.
type Taxonomy string

// The taxonomies, in the order pages list them.
const (
	Organizations Taxonomy = "organizations"
	Products      Taxonomy = "products"
	Regions       Taxonomy = "regions"
	Causes        Taxonomy = "causes"
)

// Taxonomies lists every taxonomy in display order: whose incident it was
// first.
var Taxonomies = []Taxonomy{Organizations, Products, Regions, Causes}

// Listed are the taxonomies that have terms, in display order: those the
// site's navigation links to and whose index pages a build writes (an
// archive whose reports name no region has no page of regions).
func (a *Archive) Listed() []Taxonomy {
	var out []Taxonomy
	for _, t := range Taxonomies {
		if len(a.Terms[t]) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// TaxonomyNames are the taxonomies as they appear in URLs.
func TaxonomyNames() []string {
	out := make([]string, len(Taxonomies))
	for i, t := range Taxonomies {
		out[i] = string(t)
	}
	return out
}

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
	// End is zero when the original states none: the incident was ongoing
	// when reported (Ongoing), or its end was not stated.
	End     time.Time // UTC
	Ongoing bool
	// Through is the last instant the incident is known to have lasted to:
	// End when stated, else its last timeline event (never before Begin).
	// Overlaps, charts and durations use the window [Begin, Through].
	Through time.Time // UTC
	// Duration is Through − Begin: exact when the end is stated, else a
	// lower bound ("at least").
	Duration time.Duration
	Severity string // "" when not stated: shown as unknown, never guessed
	Draft    bool
	Sources  []content.Source
	Terms    TermLists // in the order the original lists them
	// Products, Regions and Causes are the original's lists as written
	// (a term's Name is as the archive first wrote it), which the search
	// index and incidents.json give: kept here, as a build lets the
	// pages' front matter go once linked.
	Products, Regions, Causes []string

	// timeline is the original's events and translations holds each
	// translation's texts (the same instants, checked): kept for every
	// incident for the whole build, they hold no pointers but one string
	// each, and Events and Timeline make events from them when asked.
	timeline     timeline
	translations []translation
	// moved is where the texts of both are once moved out of memory
	// (Archive.MoveTexts); nil while they are in it.
	moved *textFile

	Related     []*Incident // stated in either direction, by begin time
	Overlapping []*Incident // impact windows intersect, by begin time
	Similar     []*Incident // share a product, region or cause; ranked
	Prev, Next  *Incident   // neighbours in time (older, newer)

	n int // its place in Archive.Incidents
	// linksTo are the incidents (ids) and terms ("taxonomy/slug") its
	// pages link to: when one of them changes, its links are checked
	// again.
	linksTo []string
}

// Place is the incident's index in Archive.Incidents.
func (inc *Incident) Place() int { return inc.n }

// EndStated reports whether the original states the end; when it does not,
// Duration is only a lower bound.
func (inc *Incident) EndStated() bool { return !inc.End.IsZero() }

// Organization is the organization whose incident it is, or nil when the
// original does not say.
func (inc *Incident) Organization() *Term {
	if t := inc.Terms.Of(Organizations); len(t) > 0 {
		return t[0]
	}
	return nil
}

// Page returns the version in lang, or when the incident has not been
// translated into lang the version its reader reads most easily: one in
// lang's language in another script or region (i18n.Readable: a zh-CN
// page shows the zh-TW translation, not an English original), else the
// original. translated reports whether it is lang's own.
func (inc *Incident) Page(lang string) (p *content.Page, translated bool) {
	if p, ok := inc.Versions[lang]; ok {
		return p, true
	}
	tags := slices.Sorted(maps.Keys(inc.Versions)) // the same choice whatever the map's order
	if near, ok := i18n.Readable(lang, tags); ok {
		return inc.Versions[near], false
	}
	return inc.Original, false
}

// Events returns the original's timeline.
func (inc *Incident) Events() []content.Event {
	return inc.timeline.events(inc.moved.read(inc.timeline.texts, inc.timeline.size()), nil)
}

// EventCount is the number of events of the timeline.
func (inc *Incident) EventCount() int { return len(inc.timeline.at) }

// EventInstants are the instants of the events, in order, without their
// texts.
func (inc *Incident) EventInstants() []time.Time {
	out := make([]time.Time, len(inc.timeline.at))
	for i, p := range inc.timeline.at {
		out[i] = time.Unix(p.unix, int64(p.nsec)).UTC()
	}
	return out
}

// Timeline returns the events as written in the version Page(lang) shows:
// the original's instants, with a translation's own texts.
func (inc *Incident) Timeline(lang string) []content.Event {
	p, _ := inc.Page(lang)
	lang = p.Lang
	for _, t := range inc.translations {
		if t.lang == lang {
			out := inc.timeline.events(inc.moved.read(t.texts, t.size()), t.ends)
			for i := range out {
				out[i].NewDay = slices.Contains(t.newDays, uint32(i))
			}
			return out
		}
	}
	return inc.Events()
}

// Term is one organization, product, region or cause and the incidents it
// classifies.
type Term struct {
	Taxonomy  Taxonomy
	Name      string      // as first written
	Slug      string      // URL segment
	Incidents []*Incident // newest first
	// Organization owns a product: two organizations' products of the
	// same name are two terms. Nil for other taxonomies and for products
	// of incidents that name no organization.
	Organization *Term
	// Shared is set on a product whose name another term of the taxonomy
	// also has (another organization's), so it is shown with its
	// organization's name.
	Shared bool
}

// Key is the term's value in search facets and feeds, the same in every
// language: its name, and for a product its organization's in brackets,
// "Storage (AWS)", so that same-named products stay apart.
func (t *Term) Key() string {
	if t.Organization != nil {
		return t.Name + " (" + t.Organization.Name + ")"
	}
	return t.Name
}
