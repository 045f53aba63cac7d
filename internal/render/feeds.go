package render

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// feedSize is how many of the newest incidents a feed carries.
const feedSize = 50

type atomFeed struct {
	XMLName   xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang      string      `xml:"xml:lang,attr"`
	Title     string      `xml:"title"`
	ID        string      `xml:"id"`
	Updated   string      `xml:"updated"`
	Links     []atomLink  `xml:"link"`
	Generator string      `xml:"generator,omitempty"`
	Entries   []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel      string `xml:"rel,attr,omitempty"`
	Href     string `xml:"href,attr"`
	Type     string `xml:"type,attr,omitempty"`
	HrefLang string `xml:"hreflang,attr,omitempty"`
}

type atomEntry struct {
	Title     string     `xml:"title"`
	ID        string     `xml:"id"`
	Updated   string     `xml:"updated"`
	Published string     `xml:"published"`
	Links     []atomLink `xml:"link"`
	Summary   atomText   `xml:"summary"`
	Author    atomAuthor `xml:"author"`
	Category  []atomCat  `xml:"category"`
}

type atomText struct {
	Lang string `xml:"xml:lang,attr,omitempty"`
	Text string `xml:",chardata"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomCat struct {
	Term  string `xml:"term,attr"`
	Label string `xml:"label,attr,omitempty"`
}

// feed writes /L/feed.xml: the newest incidents, titled in L.
func (r *Renderer) feed(l *locale.Lang, emit Emit) error {
	title, err := l.T("site_title")
	if err != nil {
		return err
	}
	author, err := l.T("feed_author")
	if err != nil {
		return err
	}
	f := atomFeed{
		Lang: l.Tag, Title: title, ID: r.urls.Abs(urls.ListLoc(l.Tag)), Generator: r.site.Generator,
		Links: []atomLink{
			{Rel: "self", Href: r.urls.Abs(urls.FeedLoc(l.Tag)), Type: "application/atom+xml"},
			{Rel: "alternate", Href: r.urls.Abs(urls.ListLoc(l.Tag)), Type: "text/html"},
		},
		Updated: time.Unix(0, 0).UTC().Format(time.RFC3339),
	}
	incs := r.archive.Incidents[:min(feedSize, len(r.archive.Incidents))]
	for _, inc := range incs {
		v := r.incident(inc, l)
		// An incident without a stated end was last updated at what is
		// known of it: its last event.
		updated := inc.Through.Format(time.RFC3339)
		if updated > f.Updated {
			f.Updated = updated
		}
		e := atomEntry{
			Title: v.Title(), ID: r.urls.Abs(urls.IncidentLoc(l.Tag, inc.ID)), Updated: updated,
			Published: inc.Begin.Format(time.RFC3339),
			Links:     []atomLink{{Rel: "alternate", Href: r.urls.Abs(urls.IncidentLoc(l.Tag, inc.ID)), Type: "text/html", HrefLang: v.TextLang()}},
			Summary:   atomText{Lang: v.TextLang(), Text: v.Summary()},
			Author:    atomAuthor{Name: author},
		}
		for _, tax := range archive.Taxonomies {
			terms, err := v.TermLinks(tax)
			if err != nil {
				return err
			}
			for _, t := range terms {
				e.Category = append(e.Category, atomCat{Term: string(tax) + "/" + t.Slug, Label: t.Label})
			}
		}
		f.Entries = append(f.Entries, e)
	}
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("feed %s: %w", l.Tag, err)
	}
	return emit(urls.FeedLoc(l.Tag).File(), append([]byte(xml.Header), out...))
}

// IncidentJSON is one incident in /incidents.json.
type IncidentJSON struct {
	ID              string                 `json:"id"`
	OriginalLang    string                 `json:"original_lang"`
	Timezone        string                 `json:"timezone"`
	Begin           time.Time              `json:"begin"`
	End             *time.Time             `json:"end"`              // null: ongoing, or not stated
	Ongoing         bool                   `json:"ongoing"`          // the end is null because it had not ended
	DurationMinutes *int                   `json:"duration_minutes"` // null when the end is
	Severity        *string                `json:"severity"`         // null when not stated
	Organization    *string                `json:"organization"`     // null when not stated
	Products        []string               `json:"products"`
	Regions         []string               `json:"regions"`
	Causes          []string               `json:"causes"`
	Related         []string               `json:"related"`
	Sources         []SourceJSON           `json:"sources"`
	Versions        map[string]VersionJSON `json:"versions"`
	Events          []EventJSON            `json:"events"`
}

// SourceJSON is a source report.
type SourceJSON struct {
	Title string `json:"title"`
	URL   string `json:"url,omitempty"`
}

// VersionJSON is the incident as a reader of one language gets it.
type VersionJSON struct {
	Title      string `json:"title"`
	Summary    string `json:"summary"`
	URL        string `json:"url"`
	Translated bool   `json:"translated"`
}

// EventJSON is one timeline event.
type EventJSON struct {
	Anchor  string    `json:"anchor"`
	Instant time.Time `json:"instant"`
	Text    string    `json:"text"`
}

// exportJSON writes /incidents.json to w: every incident with its facts,
// UTC times and per-language titles and URLs, a record at a time.
func (r *Renderer) exportJSON(w io.Writer) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for i, inc := range r.archive.Incidents {
		rec, err := r.fragments.get(fragmentKey{inc.ID, "", partJSON}, r.born, func() (string, error) {
			data, err := json.Marshal(r.incidentJSON(inc))
			return string(data), err
		})
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == 0 {
			sep = ""
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := io.WriteString(w, rec); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]\n")
	return err
}

func (r *Renderer) incidentJSON(inc *archive.Incident) IncidentJSON {
	j := IncidentJSON{
		ID: inc.ID, OriginalLang: inc.Original.Lang, Timezone: inc.Location.String(),
		Begin: inc.Begin, Ongoing: inc.Ongoing, Products: inc.Products, Regions: inc.Regions,
		Causes: inc.Causes, Related: []string{}, Sources: []SourceJSON{},
		Versions: map[string]VersionJSON{}, Events: []EventJSON{},
	}
	// Unknown is null, never a made-up value: no end, no duration.
	if inc.EndStated() {
		end, minutes := inc.End, int(inc.Duration/time.Minute)
		j.End, j.DurationMinutes = &end, &minutes
	}
	if inc.Severity != "" {
		j.Severity = &inc.Severity
	}
	if org := inc.Organization(); org != nil {
		j.Organization = &org.Name
	}
	for _, list := range []*[]string{&j.Products, &j.Regions, &j.Causes} {
		if *list == nil {
			*list = []string{} // an empty list, not null: none are named
		}
	}
	for _, rel := range inc.Related {
		j.Related = append(j.Related, rel.ID)
	}
	for _, s := range inc.Sources {
		j.Sources = append(j.Sources, SourceJSON{s.Title, s.URL})
	}
	for _, l := range r.bundle.Langs {
		v := r.incident(inc, l)
		j.Versions[l.Tag] = VersionJSON{Title: v.Title(), Summary: v.Summary(), URL: r.urls.Abs(urls.IncidentLoc(l.Tag, inc.ID)), Translated: v.Translated()}
	}
	for _, e := range inc.Events() {
		j.Events = append(j.Events, EventJSON{Anchor: e.Anchor, Instant: e.Instant, Text: e.Text})
	}
	return j
}
