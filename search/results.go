package search

// The results of the page shown: the language version to show, and the
// highlighted fragments of the document that matched.

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/locate"
	"github.com/postmortem-archive/gen/search/query"
)

// results turns the matches of one page into results: it picks the
// language to show, and highlights the matching document of each.
func (ix *engine) results(page []match, p *plan, searches []*langSearch) ([]Result, error) {
	byLang := make(map[string]*langSearch, len(searches))
	for _, ls := range searches {
		byLang[ls.lang] = ls
	}
	results := make([]Result, len(page))
	for i := range page {
		m := &page[i]
		show := displayLang(m, searches, p.query, p.reader)
		d := m.in.doc(show)
		r := &results[i]
		*r = Result{
			ID:           m.in.id,
			Lang:         show,
			Title:        d.Title,
			URL:          d.URL,
			Date:         date(d.Date, d.Begin, m.in.primary.Begin),
			Products:     nonNil(d.Products),
			Organization: d.Organization,
			Severity:     d.Severity,
			Zone:         d.Zone,
			Duration:     d.Duration,
			Ongoing:      d.Ongoing,
			Fragments:    []string{},
		}
		if b := m.in.primary; !b.Begin.IsZero() {
			r.Begin = b.Begin.In(zone(b.Zone)).Format(time.RFC3339)
		}
		if p.ranked {
			r.Score = m.score
			ls := byLang[show]
			if ls == nil || m.langs&(1<<ls.i) == 0 {
				ls = m.bestLang(searches)
			}
			found, err := highlightResult(r, m, ls)
			if err != nil {
				return nil, err
			}
			if found {
				continue
			}
		}
		// Without highlighted fragments (matched in the title or a
		// product name only, or no text query): the start of the
		// summary.
		if err := ix.excerpt(r, m, byLang[show]); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// highlightResult sets the fragments of r from the document of m that
// ls searched, and reports whether it found any.
func highlightResult(r *Result, m *match, ls *langSearch) (bool, error) {
	if len(ls.queries.highlights) == 0 {
		return false, nil
	}
	t, err := ls.texts.get(m.in.id)
	if err != nil {
		return false, fmt.Errorf("search: highlight (%s): %w", ls.lang, err)
	}
	if t == nil {
		return false, nil
	}
	fs := locate.Fragments(ls.texts.loc, t, ls.queries.highlights)
	if len(fs) == 0 {
		return false, nil
	}
	r.Fragments = fs
	if ls.lang != r.Lang {
		r.FragmentsLang = ls.lang
	}
	return true, nil
}

// excerpt sets the fragments of r to the start of the summary of the
// document shown; ls is the search of its language, nil if none.
func (ix *engine) excerpt(r *Result, m *match, ls *langSearch) error {
	var t *docstore.Text
	var err error
	if ls != nil {
		t, err = ls.texts.get(m.in.id)
	} else if src := ix.docs[r.Lang]; src != nil {
		t, err = src.Text(m.in.id)
	}
	if err != nil {
		return fmt.Errorf("search: excerpt (%s): %w", r.Lang, err)
	}
	if t != nil {
		if s := excerptOf(t.Field(0)); s != "" {
			r.Fragments = []string{s}
		}
	}
	return nil
}

// displayLang chooses the language version to show: the reader's when it
// exists, else one in the reader's language in another script or region
// (as the pages do: a zh-CN reader gets the zh-TW translation, not an
// English original), else the original, else the best-matching one;
// languages the query excluded with lang: are never chosen.
func displayLang(m *match, searches []*langSearch, q *query.Query, reader string) string {
	if reader != "" && m.in.doc(reader) != nil && q.Allows(reader) {
		return reader
	}
	if reader != "" {
		var have []string
		for _, d := range m.in.docs { // by language
			if q.Allows(d.Lang) {
				have = append(have, d.Lang)
			}
		}
		if near, ok := i18n.Readable(reader, have); ok {
			return near
		}
	}
	if o := m.in.orig; o != "" && m.in.doc(o) != nil && q.Allows(o) {
		return o
	}
	return m.bestLang(searches).lang
}

// excerptOf returns the escaped start of s, cut at a word boundary when
// there is one near the limit.
func excerptOf(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= locate.FragmentRunes {
		return html.EscapeString(s)
	}
	cut := string([]rune(s)[:locate.FragmentRunes])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return html.EscapeString(cut) + "…"
}

// date is the result's date: the local one the site lists the incident
// under, else its begin's UTC date.
func date(local string, t, fallback time.Time) string {
	if local != "" {
		return local
	}
	if t.IsZero() {
		t = fallback
	}
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

// zones are the time zones results were shown in, loaded once: loading
// one reads the zone database.
var zones sync.Map // IANA name → *time.Location

// zone is the named zone, UTC when it is unnamed or unknown.
func zone(name string) *time.Location {
	if name == "" || name == "UTC" {
		return time.UTC
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC
	}
	zones.Store(name, loc)
	return loc
}
