// Package render is the render stage: it turns the linked archive into the
// site's files — HTML pages through html/template layouts, Atom feeds, the
// sitemap and the JSON export — in every site language. It hands each file
// to an emit function as soon as it is made, so nothing holds the whole
// site in memory.
package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/chart"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/i18n"
)

// Emit receives one output file: its path relative to the site root, with
// forward slashes, and its bytes. It may be called from several goroutines.
type Emit func(path string, data []byte) error

// Options configure a render.
type Options struct {
	BaseURL   string // absolute site URL, e.g. https://example.org/archive/
	Generator string // "gen <version>", for the feed
	// Fragments, when set, is a cache kept across renders; see Fragments.
	Fragments *Fragments
}

// Renderer renders one archive.
type Renderer struct {
	archive   *archive.Archive
	bundle    *i18n.Bundle
	site      *Site
	tmpl      map[string]*template.Template
	layouts   *Layouts
	fragments *Fragments
}

// BasePath is the URL path prefix of the site, without trailing slash.
func (r *Renderer) BasePath() string { return r.site.BasePath }

// Path helpers: every URL of the site, before the base path is added.

// LangPath is a language's incident list.
func LangPath(lang string) string { return "/" + lang + "/" }

// IncidentPath is an incident's page in a language.
func IncidentPath(lang, id string) string { return "/" + lang + "/incidents/" + id + "/" }

// TermsPath lists a taxonomy's terms.
func TermsPath(lang string, tax archive.Taxonomy) string { return "/" + lang + "/" + string(tax) + "/" }

// TermPath is one term's page.
func TermPath(lang string, tax archive.Taxonomy, slug string) string {
	return "/" + lang + "/" + string(tax) + "/" + url.PathEscape(slug) + "/"
}

// TimelinePath is the archive-wide timeline: an overview and its years.
func TimelinePath(lang string) string { return "/" + lang + "/timeline/" }

// TimelineYearPath is one year of the archive-wide timeline, every event.
func TimelineYearPath(lang string, year int) string {
	return "/" + lang + "/timeline/" + strconv.Itoa(year) + "/"
}

// FeedPath is a language's Atom feed.
func FeedPath(lang string) string { return "/" + lang + "/feed.xml" }

// New prepares a renderer of archive a with the parsed layouts.
func New(a *archive.Archive, bundle *i18n.Bundle, layouts *Layouts, opts Options) (*Renderer, error) {
	base, err := url.Parse(opts.BaseURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("base URL %q must be absolute, like https://example.org/ or http://127.0.0.1:1313/", opts.BaseURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	r := &Renderer{archive: a, bundle: bundle, layouts: layouts, fragments: opts.Fragments}
	if r.fragments == nil {
		r.fragments = NewFragments()
	}
	r.site = &Site{
		BasePath:   strings.TrimSuffix(base.Path, "/"),
		BaseURL:    base.String(),
		Langs:      bundle.Langs,
		Incidents:  len(a.Incidents),
		Taxonomies: archive.Taxonomies,
		Generator:  opts.Generator,
	}
	r.tmpl = layouts.sets
	return r, nil
}

// Scope limits a render to the pages a change touches. The nil Scope means
// everything.
type Scope struct {
	Incidents map[string]bool // incident pages to render, by id
	Terms     map[string]bool // term pages to render, by "taxonomy/slug"
	Years     map[int]bool    // timeline years to render
}

func (s *Scope) incident(id string) bool { return s == nil || s.Incidents[id] }

func (s *Scope) term(tax archive.Taxonomy, slug string) bool {
	return s == nil || s.Terms[string(tax)+"/"+slug]
}

func (s *Scope) year(y int) bool { return s == nil || s.Years[y] }

// Render makes every file of the site and passes it to emit. It returns the
// number of HTML pages.
func (r *Renderer) Render(emit Emit) (int, error) { return r.RenderScope(nil, emit) }

// RenderScope makes the files in scope: the incident and term pages it
// names, and every page that lists or summarises the whole archive.
func (r *Renderer) RenderScope(scope *Scope, emit Emit) (int, error) {
	var errs diag.List
	var mu sync.Mutex
	pages := 0
	fail := func(err error) {
		mu.Lock()
		errs.AddError(err)
		mu.Unlock()
	}
	page := func(p *Page) {
		out, err := r.execute(p)
		if err == nil {
			// Paths are URLs, escaped; files are named by what they decode to.
			name, _ := url.PathUnescape(strings.TrimPrefix(p.Path, "/"))
			err = emit(name+"index.html", out)
		}
		if err != nil {
			fail(err)
			return
		}
		mu.Lock()
		pages++
		mu.Unlock()
	}

	// Incident pages are most of the work: spread them over the cores.
	jobs := make(chan *Page, 64)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				page(p)
			}
		}()
	}
	for _, l := range r.bundle.Langs {
		for _, inc := range r.archive.Incidents {
			if !scope.incident(inc.ID) {
				continue
			}
			v := r.incident(inc, l)
			jobs <- r.newPage(l, "incident", v.Title(), IncidentPath(l.Tag, inc.ID), func(p *Page) { p.Incident = v })
		}
	}
	close(jobs)

	for _, l := range r.bundle.Langs {
		list, _ := l.T("nav_incidents")
		for _, pg := range paginate(r.archive.Incidents, LangPath(l.Tag)) {
			page(r.newPage(l, "list", list, pg.path, func(p *Page) {
				p.Incidents, p.Pager = r.incidents(pg.items, l), r.pager(pg, LangPath(l.Tag))
			}))
		}
		page(r.searchPage(l, &Search{}))
		tl, _ := l.T("nav_timeline")
		years := yearSummaries(r.archive.Events)
		page(r.newPage(l, "timeline", tl, TimelinePath(l.Tag), func(p *Page) { p.YearList = years }))
		for _, y := range years {
			if !scope.year(y.Year) {
				continue
			}
			page(r.newPage(l, "timeline", tl+" "+strconv.Itoa(y.Year), TimelineYearPath(l.Tag, y.Year), func(p *Page) {
				p.Years = r.years(r.archive.Events[y.first:y.first+y.Events], l)
				p.YearList = years
			}))
		}
		for _, tax := range archive.Taxonomies {
			title, _ := l.T("nav_" + string(tax))
			terms := r.terms(r.archive.Terms[tax], l)
			page(r.newPage(l, "terms", title, TermsPath(l.Tag, tax), func(p *Page) { p.Taxonomy, p.Terms = tax, terms }))
			for _, t := range terms {
				if !scope.term(tax, t.Slug) {
					continue
				}
				for _, pg := range paginate(t.Incidents, TermPath(l.Tag, tax, t.Slug)) {
					page(r.newPage(l, "term", t.Label(), pg.path, func(p *Page) {
						p.Taxonomy, p.Term = tax, t
						p.Incidents, p.Pager = r.incidents(pg.items, l), r.pager(pg, TermPath(l.Tag, tax, t.Slug))
					}))
				}
			}
		}
		if err := r.feed(l, emit); err != nil {
			fail(err)
		}
	}
	def := r.bundle.Default()
	home := r.newPage(def, "home", "", "/", nil)
	home.Alternates = nil
	page(home)
	// The site-wide 404 page in the default language, and one per language
	// for addresses under /<lang>/.
	notFound := func(l *i18n.Lang, name string) {
		p := r.newPage(l, "404", "404", "/", nil)
		p.Alternates = nil
		if out, err := r.execute(p); err != nil {
			fail(err)
		} else if err := emit(name, out); err != nil {
			fail(err)
		}
	}
	notFound(def, "404.html")
	for _, l := range r.bundle.Langs {
		notFound(l, l.Tag+"/404.html")
	}
	wg.Wait()

	if err := r.sitemap(emit); err != nil {
		fail(err)
	}
	if err := r.exportJSON(emit); err != nil {
		fail(err)
	}
	if err := r.copyStatic(emit); err != nil {
		fail(err)
	}
	if err := emit("chart.css", []byte(chart.Stylesheet())); err != nil {
		fail(err)
	}
	return pages, errs.Err()
}

// newPage fills what every page has; fill sets the kind's own data.
func (r *Renderer) newPage(l *i18n.Lang, kind, title, sitePath string, fill func(*Page)) *Page {
	p := &Page{Site: r.site, L: l, Kind: kind, Title: title, Path: sitePath, r: r}
	for _, other := range r.bundle.Langs {
		alt := sitePath
		if kind != "home" {
			alt = "/" + other.Tag + strings.TrimPrefix(sitePath, "/"+l.Tag)
		}
		p.Alternates = append(p.Alternates, Alternate{Lang: other, URL: r.site.URL(alt), AbsURL: r.abs(alt), Current: other == l})
	}
	if fill != nil {
		fill(p)
	}
	return p
}

func (r *Renderer) execute(p *Page) ([]byte, error) {
	t, ok := r.tmpl[p.Kind]
	if !ok {
		return nil, fmt.Errorf("layouts: no template for %s pages (%s.html)", p.Kind, p.Kind)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, p.Kind+".html", p); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.Path, err)
	}
	return buf.Bytes(), nil
}

func (r *Renderer) incident(inc *archive.Incident, l *i18n.Lang) *Incident {
	if inc == nil {
		return nil
	}
	return &Incident{Incident: inc, L: l, site: r.site, r: r}
}

func (r *Renderer) incidents(list []*archive.Incident, l *i18n.Lang) []*Incident {
	out := make([]*Incident, len(list))
	for i, inc := range list {
		out[i] = r.incident(inc, l)
	}
	return out
}

func (r *Renderer) term(t *archive.Term, l *i18n.Lang) *Term { return &Term{Term: t, L: l, r: r} }

// terms returns a taxonomy's terms sorted by label in the page language.
func (r *Renderer) terms(list []*archive.Term, l *i18n.Lang) []*Term {
	out := make([]*Term, len(list))
	for i, t := range list {
		out[i] = r.term(t, l)
	}
	i18n.Sort(l, out, (*Term).Label)
	return out
}

// PerPage is how many incidents a list page shows.
const PerPage = 50

// listPage is one page of a paginated list.
type listPage struct {
	n, of int
	path  string
	items []*archive.Incident
}

// paginate splits a list into pages: the first at base, the others at
// base + "page/N/", as Hugo and Zola readers know them.
func paginate(items []*archive.Incident, base string) []listPage {
	of := max(1, (len(items)+PerPage-1)/PerPage)
	out := make([]listPage, of)
	for i := range out {
		out[i] = listPage{n: i + 1, of: of, path: pagePath(base, i+1), items: items[i*PerPage : min(len(items), (i+1)*PerPage)]}
	}
	return out
}

func pagePath(base string, n int) string {
	if n == 1 {
		return base
	}
	return base + "page/" + strconv.Itoa(n) + "/"
}

// pager links a list page to its neighbours.
func (r *Renderer) pager(pg listPage, base string) *Pager {
	p := &Pager{Page: pg.n, Of: pg.of}
	if pg.n > 1 {
		p.Newer = r.site.URL(pagePath(base, pg.n-1))
	}
	if pg.n < pg.of {
		p.Older = r.site.URL(pagePath(base, pg.n+1))
	}
	return p
}

// YearSummary counts one year of the archive-wide timeline.
type YearSummary struct {
	Year      int
	Events    int
	Incidents int
	first     int // index of its first event in the archive's events
}

// yearSummaries counts events and incidents per UTC year; events are
// sorted by time, so each year is one run.
func yearSummaries(events []archive.EventRef) []YearSummary {
	var out []YearSummary
	var seen map[*archive.Incident]bool
	for i, ref := range events {
		y := ref.Incident.Events[ref.Index].Instant.Year()
		if len(out) == 0 || out[len(out)-1].Year != y {
			out = append(out, YearSummary{Year: y, first: i})
			seen = map[*archive.Incident]bool{}
		}
		s := &out[len(out)-1]
		s.Events++
		if !seen[ref.Incident] {
			seen[ref.Incident] = true
			s.Incidents++
		}
	}
	return out
}

// years groups timeline events by UTC year and month, oldest first.
func (r *Renderer) years(events []archive.EventRef, l *i18n.Lang) []*Year {
	var out []*Year
	views := map[*archive.Incident]*Incident{}
	for _, ref := range events {
		e := ref.Event(l.Tag)
		if len(out) == 0 || out[len(out)-1].Year != e.Instant.Year() {
			out = append(out, &Year{Year: e.Instant.Year()})
		}
		y := out[len(out)-1]
		start := time.Date(e.Instant.Year(), e.Instant.Month(), 1, 0, 0, 0, 0, time.UTC)
		if len(y.Months) == 0 || !y.Months[len(y.Months)-1].Start.Equal(start) {
			y.Months = append(y.Months, &Month{Start: start})
		}
		m := y.Months[len(y.Months)-1]
		v, ok := views[ref.Incident]
		if !ok {
			v = r.incident(ref.Incident, l)
			views[ref.Incident] = v
		}
		m.Events = append(m.Events, &TimelineEvent{
			Event: e, Index: ref.Index, Incident: v,
			IsBegin: ref.Index == 0, IsLast: ref.Index == len(ref.Incident.Events)-1,
		})
	}
	return out
}

// copyStatic copies the layouts' static files (CSS, the language script).
func (r *Renderer) copyStatic(emit Emit) error {
	names, err := fs.Glob(r.layouts.files, "static/*")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := fs.ReadFile(r.layouts.files, name)
		if err != nil {
			return fmt.Errorf("layouts: %w", err)
		}
		if err := emit(path.Base(name), data); err != nil {
			return err
		}
	}
	return nil
}
