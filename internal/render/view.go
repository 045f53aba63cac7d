package render

import (
	"cmp"
	"github.com/yuin/goldmark/ast"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/chart"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/timefmt"
	"github.com/postmortem-archive/gen/internal/urls"
)

// PageView is what every template receives.
type PageView struct {
	Site  *SiteView
	L     *locale.Lang // the page's language
	Kind  string       // home, list, incident, terms, term, timeline, 404
	Title string
	Path  string   // site path of this page, e.g. "/en/incidents/<id>/"
	Loc   urls.Loc // what the page is
	// Alternates is this page in every site language (itself included).
	Alternates []Alternate

	Incident  *IncidentView   // incident pages
	Incidents []*IncidentView // lists: this page's share
	Pager     *Pager          // lists: where this page is among the others
	Taxonomy  archive.Taxonomy
	Terms     []*IndexedTerm // terms index: this page's share
	Initials  []Initial      // terms index: where each letter begins
	Term      *TermView      // term page
	TermChart bool           // term pages: the first, which draws the term's chart
	Year      *Year          // a year's or a month's timeline page
	Month     *Month         // a month's timeline page
	YearList  []YearSummary  // timeline pages: every year, for navigation
	Search    *Search        // search page

	r *Renderer
}

// Links to the pages every page links to, in the page's language.

// ListURL is the list of every incident.
func (p *PageView) ListURL() string { return p.Site.urls.URL(urls.ListLoc(p.L.Tag)) }

// TimelineURL is the archive-wide timeline.
func (p *PageView) TimelineURL() string { return p.Site.urls.URL(urls.TimelineLoc(p.L.Tag)) }

// TermsURL lists a taxonomy's terms.
func (p *PageView) TermsURL(tax archive.Taxonomy) string {
	return p.Site.urls.URL(urls.TermsLoc(p.L.Tag, string(tax)))
}

// SearchURL is the search page.
func (p *PageView) SearchURL() string { return p.Site.urls.URL(urls.SearchLoc(p.L.Tag)) }

// ExportURL is the whole archive's facts as JSON (incidents.json).
func (p *PageView) ExportURL() string { return p.Site.urls.URL(urls.ExportLoc()) }

// FeedURL is the Atom feed.
func (p *PageView) FeedURL() string { return p.Site.urls.URL(urls.FeedLoc(p.L.Tag)) }

// Pager says where a list page is among the pages of its list.
type Pager struct {
	Page, Of     int
	Newer, Older string // URLs of the neighbouring pages, or ""
	// Links are the page numbers to show: the first, the last, and two
	// on either side of this one, with gaps between.
	Links []PageLink
}

// PageLink is one page number of a Pager, or a gap ("…").
type PageLink struct {
	N       int
	URL     string
	Current bool
	Gap     bool
}

// SiteView is what all pages share.
type SiteView struct {
	BasePath string // URL path prefix without trailing slash: "" or "/archive"
	BaseURL  string // absolute, with trailing slash
	Langs    []*locale.Lang
	// Incidents is how many incidents the archive has.
	Incidents int
	// Taxonomies lists products, regions, causes for navigation.
	Taxonomies []archive.Taxonomy
	Generator  string

	urls urls.Scheme
}

// HomeURL is a language's home: its list of incidents.
func (s *SiteView) HomeURL(l *locale.Lang) string { return s.urls.URL(urls.ListLoc(l.Tag)) }

// AssetURL is a file of the theme, such as style.css.
func (s *SiteView) AssetURL(name string) string { return s.urls.URL(urls.AssetLoc(name)) }

// SearchAPIURL is the server's JSON search API.
func (s *SiteView) SearchAPIURL() string { return s.urls.URL(urls.SearchAPILoc()) }

// Alternate is one language version of a page.
type Alternate struct {
	Lang    *locale.Lang
	URL     string // with the base path
	AbsURL  string // absolute, for <link rel="alternate">
	Current bool
}

// IncidentView is an incident seen in one language.
type IncidentView struct {
	*archive.Incident
	L    *locale.Lang
	site *SiteView
	r    *Renderer
	// parsed is Options.Parsed for the incident page a render prints in a
	// language the incident is written in, until it is called.
	parsed func(doc ast.Node, src []byte, err error)
	// events is the timeline in the page language once made: the chart
	// and the body both show it, and a build reads its texts from a file.
	events     []content.Event
	eventsMade bool
}

func (v *IncidentView) page() (*content.Page, bool) { return v.Incident.Page(v.L.Tag) }

// Title is the incident's title in the page language, or in the original's.
func (v *IncidentView) Title() string { p, _ := v.page(); return p.Meta.Title.V }

// Summary is the one- or two-sentence summary, like Title.
func (v *IncidentView) Summary() string {
	p, _ := v.page()
	if p.Meta.Summary.V == "" {
		return v.Original.Meta.Summary.V
	}
	return p.Meta.Summary.V
}

// Translated reports whether the incident exists in the page language.
func (v *IncidentView) Translated() bool { _, ok := v.page(); return ok }

// TextLang is the language the text is shown in (for lang attributes).
func (v *IncidentView) TextLang() string { p, _ := v.page(); return p.Lang }

// OriginalLang is the language the incident was written in, named in
// the page language: "Originally written in Chinese (Taiwan)", not in
// its own script on an English page.
func (v *IncidentView) OriginalLang() LangName {
	return LangName{Tag: v.Original.Lang, Name: v.L.LanguageName(v.Original.Lang)}
}

// ShownLang is the language the text is shown in, named in the page
// language: the translation a page without its own shows.
func (v *IncidentView) ShownLang() LangName {
	lang := v.TextLang()
	return LangName{Tag: lang, Name: v.L.LanguageName(lang)}
}

// LangName is a language as a page names it.
type LangName struct{ Tag, Name string }

// URL is the incident page in the page language.
func (v *IncidentView) URL() string { return v.site.urls.URL(urls.IncidentLoc(v.L.Tag, v.ID)) }

// LocalBegin and LocalEnd are the window in the incident's own zone.
func (v *IncidentView) LocalBegin() time.Time { return v.Begin.In(v.Location) }

// LocalEnd is the end in the incident's own zone; zero when not stated.
func (v *IncidentView) LocalEnd() time.Time {
	if !v.EndStated() {
		return time.Time{}
	}
	return v.End.In(v.Location)
}

// EndStatus says, in the page language, why there is no end: the incident
// was ongoing when reported, or its end was not stated. "" when the end is
// stated.
func (v *IncidentView) EndStatus() (string, error) { return v.endText("end_ongoing", "end_not_stated") }

// StatusShort is EndStatus in a word or two, for lists and charts.
func (v *IncidentView) StatusShort() (string, error) {
	return v.endText("status_ongoing", "status_end_not_stated")
}

func (v *IncidentView) endText(ongoing, unstated string) (string, error) {
	key := unstated
	switch {
	case v.EndStated():
		return "", nil
	case v.Ongoing:
		key = ongoing
	}
	return v.L.T(key)
}

// DurationText is the duration in the page language: exact when the end
// is stated, "at least …" up to the last event when it is not, and "" when
// nothing followed the begin.
func (v *IncidentView) DurationText() (string, error) {
	d := v.L.Duration(v.Duration)
	if v.EndStated() {
		return d, nil
	}
	if v.Duration <= 0 {
		return "", nil
	}
	return v.L.T("duration_at_least", "duration", d)
}

// SeverityClass is the severity for CSS classes: "unknown" when the
// original does not state it.
func (v *IncidentView) SeverityClass() string {
	if v.Severity == "" {
		return "unknown"
	}
	return v.Severity
}

// SeverityURL lists the incidents of the same severity: the search page
// browsing by that filter (served by gen's server; a static copy says
// that search needs it).
func (v *IncidentView) SeverityURL() string {
	return v.site.urls.URL(urls.SearchLoc(v.L.Tag)) + "?" + url.Values{"severity": {v.SeverityClass()}}.Encode()
}

// SeverityLabel is the severity in the page language, or "unknown".
func (v *IncidentView) SeverityLabel() (string, error) {
	return v.L.T("severity_" + v.SeverityClass())
}

// OrganizationLink is the incident's organization, or nil.
func (v *IncidentView) OrganizationLink() (*TermView, error) {
	if t := v.Organization(); t != nil {
		return v.r.term(t, v.L)
	}
	return nil, nil
}

// Zone is the IANA name of the incident's zone.
func (v *IncidentView) Zone() string { return v.Location.String() }

// Chart is the incident's SVG timeline: the impact window and a marker per
// event, linking to the event in the text below.
func (v *IncidentView) Chart() (template.HTML, error) {
	c, err := v.chart()
	if err != nil {
		return "", err
	}
	return template.HTML(chart.IncidentResponsive(c)), nil // #nosec G203: chart escapes all text
}

// chart is what the incident's timeline shows.
func (v *IncidentView) chart() (chart.IncidentTimeline, error) {
	timeline := v.Events()
	events := make([]chart.Event, len(timeline))
	for i, e := range timeline {
		// Numbered as the marker and the timeline item are.
		events[i] = chart.Event{At: e.Instant, Label: strconv.Itoa(i+1) + ". " + v.L.Time(e.Instant, v.Location) + " — " + e.Text, Href: "#" + e.Anchor}
	}
	words, err := v.chartWords(len(events))
	if err != nil {
		return chart.IncidentTimeline{}, err
	}
	c := chart.IncidentTimeline{
		IDPrefix: "incident-chart", Title: words[0], Desc: words[1],
		Begin: v.Begin, End: v.Through, Open: !v.EndStated(), Location: v.Location, Events: events,
		LocalTick:     func(t time.Time) string { return t.Format(timefmt.Clock) + " " + locale.ZoneName(t) },
		UTCTick:       func(t time.Time) string { return t.UTC().Format(timefmt.Clock) + " UTC" },
		DayTick:       func(t time.Time) string { return v.L.DateShort(t) + " " + locale.ZoneName(t) },
		MidnightLabel: func(t time.Time) string { return v.L.DateShort(t) },
		Legend:        chart.IncidentLegend{Impact: words[2], Events: words[3], Midnight: words[4], Overlap: words[5], Instant: words[6]},
	}
	return c, v.chartOverlaps(&c)
}

// overlapLanes is how many overlapping incidents an incident's chart
// draws: a handful stays legible at any size; the month page has the rest.
const overlapLanes = 5

// chartOverlaps puts in c the incidents that overlapped this one most
// (the longest shared time first, then the earliest), by begin, and a
// line linking to the month's page for the others.
func (v *IncidentView) chartOverlaps(c *chart.IncidentTimeline) error {
	shared := func(o *archive.Incident) time.Duration {
		end, begin := o.Through, o.Begin
		if v.Through.Before(end) {
			end = v.Through
		}
		if v.Begin.After(begin) {
			begin = v.Begin
		}
		return end.Sub(begin)
	}
	drawn := slices.Clone(v.Overlapping)
	slices.SortStableFunc(drawn, func(a, b *archive.Incident) int { return cmp.Compare(shared(b), shared(a)) })
	drawn = drawn[:min(len(drawn), overlapLanes)]
	slices.SortStableFunc(drawn, func(a, b *archive.Incident) int { return a.Begin.Compare(b.Begin) })
	for _, o := range v.wrap(drawn) {
		c.Overlaps = append(c.Overlaps, chart.Overlap{Begin: o.Begin, End: o.Through, Open: !o.EndStated(), Text: o.Title(),
			Label: o.Title() + " — " + v.L.DateShort(o.LocalBegin()) + " " + v.L.Time(o.Begin, o.Location), Href: o.URL()})
	}
	if rest := len(v.Overlapping) - len(drawn); rest > 0 {
		more, err := v.L.N("overlap_more", rest)
		if err != nil {
			return err
		}
		local := v.LocalBegin()
		c.More, c.MoreHref = more, v.site.urls.URL(urls.MonthLoc(v.L.Tag, local.Year(), local.Month()))
	}
	return nil
}

// chartWords are the incident chart's title, description and legend.
func (v *IncidentView) chartWords(events int) ([]string, error) {
	title, err := v.L.T("chart_incident_title")
	if err != nil {
		return nil, err
	}
	desc, err := v.L.T("chart_incident_desc", "begin", v.L.Time(v.Begin, v.Location), "end", v.L.Time(v.End, v.Location),
		"duration", v.L.Duration(v.Duration), "events", v.L.Number(events))
	if err == nil && !v.EndStated() {
		var status string
		if status, err = v.StatusShort(); err == nil {
			key := "chart_incident_desc_open"
			if v.Through.Equal(v.Begin) {
				key = "chart_incident_desc_instant" // nothing shaded: one instant
			}
			desc, err = v.L.T(key, "begin", v.L.Time(v.Begin, v.Location), "status", status,
				"last", v.L.Time(v.Through, v.Location), "events", v.L.Number(events))
		}
	}
	out := []string{title, desc}
	for _, key := range []string{"chart_legend_impact", "chart_legend_events", "chart_legend_midnight", "chart_legend_overlap", "chart_legend_instant"} {
		if err != nil {
			return nil, err
		}
		var w string
		w, err = v.L.T(key)
		out = append(out, w)
	}
	return out, err
}

// Events lists the timeline in the page language; callers do not change it.
func (v *IncidentView) Events() []content.Event {
	if !v.eventsMade {
		v.events, v.eventsMade = v.Timeline(v.L.Tag), true
	}
	return v.events
}

// TermLinks are the incident's terms of one taxonomy. Beside the
// incident's organization its products cannot be confused with another's,
// so they are labelled by their own names.
func (v *IncidentView) TermLinks(tax archive.Taxonomy) ([]*TermView, error) {
	out := make([]*TermView, len(v.Terms.Of(tax)))
	for i, t := range v.Terms.Of(tax) {
		var err error
		if out[i], err = v.r.termIn(t, v.L, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// listedTerms is how many terms of one taxonomy a list entry names: an
// incident may name thousands of products, and its entry is on the page
// of every one of them.
const listedTerms = 5

// TermsShown are the first terms of a taxonomy an entry names, and how
// many more its own page names.
type TermsShown struct {
	Terms []*TermView
	More  int
}

// ListedTerms are the incident's terms of one taxonomy as a list entry
// names them: the first few, then how many more.
func (v *IncidentView) ListedTerms(tax archive.Taxonomy) (*TermsShown, error) {
	all := v.Terms.Of(tax)
	if len(all) == 0 {
		return nil, nil
	}
	out := &TermsShown{Terms: make([]*TermView, min(len(all), listedTerms)), More: len(all) - min(len(all), listedTerms)}
	for i := range out.Terms {
		var err error
		if out.Terms[i], err = v.r.termIn(all[i], v.L, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wrap makes views of incidents in the same language.
func (v *IncidentView) wrap(list []*archive.Incident) []*IncidentView {
	return v.r.incidents(list, v.L)
}

// RelatedIncidents, OverlappingIncidents, SimilarIncidents are cross-links.
func (v *IncidentView) RelatedIncidents() []*IncidentView { return v.wrap(v.Related) }

// OverlappingIncidents are incidents whose impact windows intersect this
// one, but for those listed as related: a page names an incident once.
func (v *IncidentView) OverlappingIncidents() []*IncidentView {
	var out []*archive.Incident
	for _, o := range v.Overlapping {
		if !slices.Contains(v.Related, o) {
			out = append(out, o)
		}
	}
	return v.wrap(out)
}

// SimilarIncidents share a cause, product or region.
func (v *IncidentView) SimilarIncidents() []*IncidentView { return v.wrap(v.Similar) }

// PrevIncident is the incident before this one in time, or nil.
func (v *IncidentView) PrevIncident() *IncidentView { return v.r.incident(v.Prev, v.L) }

// NextIncident is the incident after this one in time, or nil.
func (v *IncidentView) NextIncident() *IncidentView { return v.r.incident(v.Next, v.L) }

// TermView is a term seen in one language.
type TermView struct {
	*archive.Term
	L *locale.Lang
	// Label is the term's display name: a translation from the i18n file
	// (key "term.<taxonomy>.<slug>") when there is one, else the name; a
	// product another organization has one of the same name of is shown
	// with its organization's ("Storage (AWS)").
	Label string
	r     *Renderer
}

// URL is the term's page in the page language.
func (t *TermView) URL() string {
	return t.r.urls.URL(urls.TermLoc(t.L.Tag, string(t.Taxonomy), t.Slug))
}

// TermsURL is the list of the term's taxonomy.
func (t *TermView) TermsURL() string { return t.r.urls.URL(urls.TermsLoc(t.L.Tag, string(t.Taxonomy))) }

// Chart is the term's timeline: its incidents per month across the years.
func (t *TermView) Chart() (template.HTML, error) {
	c, err := t.r.charts(t.L)
	if err != nil {
		return "", err
	}
	// An organization's month leads to its own incidents on the month's
	// page.
	fragment := ""
	if t.Taxonomy == archive.Organizations {
		fragment = urls.OrganizationID(t.Slug)
	}
	return figure("timeline", "term-chart", c.heatTitle, c.heatmap(t.Incidents, "term-chart", fragment)), nil
}
