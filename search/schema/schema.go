// Package schema is the format of a search index, what building one
// (package build) and searching it (package search) share: the Document
// an index is made of, the fields bleve indexes of it and their
// analyzers (Mapping), a Document analysed as bleve indexes it and its
// text as the document store keeps it (Analyse, NewText), and the files
// beside the language indexes (Meta, Lengths).
package schema

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/postmortem-archive/gen/search/docstore"

	"github.com/postmortem-archive/gen/i18n"
)

// SegmentDocs is the number of documents a build makes into one bleve
// segment: it bounds the build's memory whatever the size of the
// archive, and an Editable merges no segment that large.
const SegmentDocs = 128

// Document is one language version of an incident, as handed to the index.
type Document struct {
	ID           string // incident id, e.g. "2017-03-13-bigquery-streaming-inserts"
	Lang         string // BCP 47 tag of this text: "en", "zh-TW", "ja", ...
	OriginalLang string // tag of the incident's original

	// Plain text (markdown rendered to text, no HTML). Impact and
	// RootCause are those sections of the report, Timeline the text of
	// its timeline's items, Body the rest of it.
	Title, Summary, Impact, RootCause, Body, Timeline string

	Products, Regions, Causes []string // exact-match keyword fields (display names)
	Organization              string   // whose incident; "" when not stated
	Severity                  string   // "minor", "major", "critical", "unknown"…; "" for none

	Begin time.Time // UTC
	// Date is the begin's date in the incident's own zone (YYYY-MM-DD),
	// the date the site lists it under; "" takes Begin's UTC date.
	Date     string
	Zone     string        // IANA name of the incident's zone; "" for UTC
	Duration time.Duration // 0 when the end is not stated
	Ongoing  bool          // not over when reported
	URL      string        // site-relative URL of this language version, e.g. "/en/incidents/<id>/"
}

// Normalize checks a document and canonicalises its language tags.
func Normalize(d *Document) error {
	if d.ID == "" {
		return errors.New("search: document without ID")
	}
	if len(d.ID) > 512 {
		return fmt.Errorf("search: document ID too long: %.40q…", d.ID)
	}
	lang, err := i18n.Canonical(d.Lang)
	if err != nil {
		return fmt.Errorf("search: document %s: %w", d.ID, err)
	}
	d.Lang = lang
	if d.OriginalLang == "" {
		d.OriginalLang = lang
	} else if d.OriginalLang, err = i18n.Canonical(d.OriginalLang); err != nil {
		return fmt.Errorf("search: document %s: original language: %w", d.ID, err)
	}
	d.Begin = d.Begin.UTC()
	return nil
}

// NewMeta is what the document store keeps of d besides its text.
func NewMeta(d *Document) *docstore.Meta {
	return &docstore.Meta{
		ID:           d.ID,
		Lang:         d.Lang,
		OriginalLang: d.OriginalLang,
		Title:        d.Title,
		URL:          d.URL,
		Begin:        d.Begin.UTC(),
		Date:         d.Date,
		Duration:     int64(d.Duration / time.Second),
		Products:     slices.Clone(d.Products),
		Regions:      slices.Clone(d.Regions),
		Causes:       slices.Clone(d.Causes),
		Organization: d.Organization,
		Severity:     d.Severity,
		Zone:         d.Zone,
		Ongoing:      d.Ongoing,
	}
}

// DocumentOf is the document a stored document was made from, but its
// long fields, which the store keeps as text.
func DocumentOf(m *docstore.Meta) *Document {
	return &Document{
		ID: m.ID, Lang: m.Lang, OriginalLang: m.OriginalLang, Title: m.Title,
		Products: m.Products, Regions: m.Regions, Causes: m.Causes, Organization: m.Organization, Severity: m.Severity,
		Begin: m.Begin, Date: m.Date, Zone: m.Zone, Duration: time.Duration(m.Duration) * time.Second, Ongoing: m.Ongoing, URL: m.URL,
	}
}
