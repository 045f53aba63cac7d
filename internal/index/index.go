// Package index is the index stage: it turns a linked archive into search
// documents, one per incident and language it is written in, and writes
// them into a search index. It knows the archive and the search package;
// neither of them knows it.
package index

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/schema"
)

// Documents lists the search documents of the incidents in ids (nil: all).
// URLs carry basePath, the path the site is served under.
func Documents(a *archive.Archive, ids map[string]bool, basePath string) ([]schema.Document, error) {
	var docs []schema.Document
	for _, inc := range a.Incidents {
		if ids != nil && !ids[inc.ID] {
			continue
		}
		more, err := IncidentDocuments(inc, basePath)
		if err != nil {
			return nil, err
		}
		docs = append(docs, more...)
	}
	return docs, nil
}

// IncidentDocuments are one incident's search documents, in language order.
func IncidentDocuments(inc *archive.Incident, basePath string) ([]schema.Document, error) {
	var docs []schema.Document
	for _, lang := range slices.Sorted(maps.Keys(inc.Versions)) {
		p := inc.Versions[lang]
		sections, err := p.PlainSections()
		if err != nil {
			return nil, err
		}
		docs = append(docs, document(inc, lang, p, sections, basePath))
	}
	return docs, nil
}

// document is the search document of the incident's version p in lang,
// whose body reads as sections without markup.
func document(inc *archive.Incident, lang string, p *content.Page, sections []content.Section, basePath string) schema.Document {
	var timeline []string
	for _, e := range inc.Timeline(lang) {
		timeline = append(timeline, e.Text)
	}
	impact, rootCause, rest := reportText(sections)
	return schema.Document{
		ID: inc.ID, Lang: lang, OriginalLang: inc.Original.Lang,
		Title: p.Meta.Title.V, Summary: p.Meta.Summary.V,
		Impact: impact, RootCause: rootCause, Body: rest,
		Timeline: strings.Join(timeline, "\n"),
		Products: productKeys(inc), Regions: inc.Regions, Causes: inc.Causes,
		Organization: organization(inc), Severity: severity(inc),
		Begin: inc.Begin, Date: inc.Begin.In(inc.Location).Format(time.DateOnly), Duration: duration(inc),
		Zone: inc.Location.String(), Ongoing: inc.Ongoing,
		URL: basePath + urls.IncidentLoc(lang, inc.ID).Path(),
	}
}

// reportText is the text of a report's impact and root cause sections
// (headings {#impact} and {#root-cause}), which the search weighs apart,
// and of the rest of it, headings included.
func reportText(sections []content.Section) (impact, rootCause, rest string) {
	var others []string
	for _, s := range sections {
		switch s.ID {
		case "impact":
			impact = s.Text
		case "root-cause":
			rootCause = s.Text
		default:
			others = append(others, strings.TrimSpace(s.Heading+"\n"+s.Text))
		}
	}
	return impact, rootCause, strings.Join(others, "\n")
}

// productKeys are the incident's products as facet values: with their
// organization's name, "Storage (AWS)", so that two organizations'
// products of the same name are two values; product:storage still finds
// both, since the names are analysed as text too.
func productKeys(inc *archive.Incident) []string {
	var out []string
	for _, t := range inc.Terms.Of(archive.Products) {
		out = append(out, t.Key())
	}
	return out
}

func organization(inc *archive.Incident) string {
	if org := inc.Organization(); org != nil {
		return org.Name
	}
	return ""
}

// severity is the incident's severity as a facet value: "unknown" when the
// report does not say is a value of its own, so a reader can find them.
func severity(inc *archive.Incident) string {
	if inc.Severity == "" {
		return "unknown"
	}
	return inc.Severity
}

// duration is how long the incident lasted as the search knows it: zero,
// unknown, when its end is not stated (its Duration is then only a lower
// bound), as the archive's overview chart counts it.
func duration(inc *archive.Incident) time.Duration {
	if !inc.EndStated() {
		return 0
	}
	return inc.Duration
}

// Write builds the search index of the whole archive into dir, for the
// given site languages.
func Write(dir string, a *archive.Archive, langs []string, basePath string) error {
	w, err := build.Create(dir, langs)
	if err != nil {
		return err
	}
	w.Widen() // nothing renders beside it
	// One incident's documents at a time: the text of the whole archive
	// need not be in memory at once.
	for _, inc := range a.Incidents {
		docs, err := IncidentDocuments(inc, basePath)
		if err != nil {
			return errors.Join(err, w.Close())
		}
		for _, d := range docs {
			if err := w.Add(d); err != nil {
				return errors.Join(fmt.Errorf("indexing %s/%s: %w", d.ID, d.Lang, err), w.Close())
			}
		}
	}
	return w.Close()
}
