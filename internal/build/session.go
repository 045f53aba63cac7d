package build

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/refcount"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/search"
)

// Session keeps a site built in memory between changes, for the authoring
// server: a change to one incident reads that incident's folder again,
// links it against the archive and marks the pages that show it to be
// made again; a change to layouts or languages rebuilds all. Pages are
// made when first asked for (Pages), so a change costs about the same in
// an archive of any size. A Session is not safe for concurrent use.
type Session struct {
	opts   Options
	cache  *content.Cache
	site   *source.Site                   // the last good build's site
	pages  map[string]*Page               // the last good build's files, made when first asked for
	list   listing                        // the same, in name order
	render *render.Renderer               // the last good build's renderer, for search pages
	index  *refcount.Ref[search.Searcher] // built on disk, changed in place by each edit
	edits  *search.Editable               // index, to change
	// indexes is the session's own folder (a temporary one) for its
	// search indexes, one folder each, numbered from 1 (built);
	// dropIndexes removes it.
	indexes     string
	dropIndexes func() error
	built       int
	frags       *render.Fragments // list and timeline entries of unchanged incidents
	tmpl        *render.Layouts   // parsed once, again after a change to layouts
	// dirty are the incidents whose files changed since the last good
	// build: a failed build's changes are built by the next one.
	dirty map[string]bool
}

// NewSession starts a session for the site in opts.Source. opts.Dest is
// not used: pages stay in memory, and the search index is built in a
// temporary folder that Close removes.
func NewSession(opts Options) *Session {
	return &Session{opts: opts, cache: content.NewCache(), dirty: map[string]bool{}}
}

// Update brings the output up to date after changes to the given source
// files (absolute or relative to the source folder); nil means unknown and
// rebuilds everything. On error the last good output is kept (Pages).
func (s *Session) Update(changed []string) (*Result, error) {
	return s.UpdateContext(context.Background(), changed)
}

// UpdateContext is Update that gives up when ctx is done, returning ctx's
// error and keeping the last good output, as after any failed build. It
// checks ctx while loading the content and between stages; once the
// search index is being changed it finishes.
func (s *Session) UpdateContext(ctx context.Context, changed []string) (*Result, error) {
	start := time.Now()
	touched, full := s.forget(changed)
	maps.Copy(s.dirty, touched)
	touched = s.dirty
	phases := startPhases()
	var site *source.Site
	var err error
	if full {
		site, err = source.LoadContext(ctx, s.opts.Source, s.opts.Drafts, s.cache)
	} else {
		site, err = source.Reload(ctx, s.opts.Source, s.opts.Drafts, s.cache, s.site, touched)
		if errors.Is(err, source.ErrLanguagesChanged) {
			full = true
			site, err = source.LoadContext(ctx, s.opts.Source, s.opts.Drafts, s.cache)
		}
	}
	phases.mark("load+link")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Every page's navigation lists the taxonomies that have terms: when
	// they change, every page is made again (the index needs only the
	// change).
	allPages := full || !slices.Equal(s.site.Archive.Listed(), site.Archive.Listed())
	var scope *render.Scope
	if allPages || s.frags == nil {
		s.frags = render.NewFragments()
		if s.tmpl, err = render.ParseLayouts(site.Layouts); err != nil {
			s.tmpl = nil // never render later changes with older layouts
			return nil, err
		}
	}
	if !allPages {
		scope = affected(touched, s.site.Archive, site.Archive, render.IncidentMonths)
		// The export lists related ids: an incident that gained or lost a
		// relation is in scope without being touched.
		s.frags.Forget(scope.Incidents)
	}
	phases.mark("scope")
	r, err := newRenderer(site, s.opts, s.tmpl, s.frags)
	if err != nil {
		return nil, err
	}
	pages, list, carried, count, err := s.plan(ctx, r, scope, touched)
	if err != nil {
		return nil, err
	}
	phases.mark("render")
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warnings, err := s.updateIndex(site, r.BasePath(), full, touched)
	if err != nil {
		return nil, err
	}
	if full { // said once, not after every save
		warnings = append(warnings, standInNotes(site)...)
	}
	phases.mark("index")
	for _, p := range carried {
		p.follow(r)
	}
	s.site, s.pages, s.list, s.render = site, pages, list, r
	clear(s.dirty)
	return &Result{
		Incidents: len(site.Archive.Incidents), Languages: len(site.Bundle.Langs),
		Pages: count, Took: time.Since(start), Phases: phases, Warnings: warnings,
	}, nil
}

// plan lists the files of the build r renders: a file outside the scope
// of a change (nil: everything) is the last build's, carried over, and
// any other is made when first asked for, but the pages of the touched
// incidents, which are made now: their author is about to look at them,
// and their errors fail the build. count is how many pages are made
// again, now or later. The map of pages is the last build's with the
// files in scope, new or gone changed: it is not made again whole.
func (s *Session) plan(ctx context.Context, r *render.Renderer, scope *render.Scope, touched map[string]bool) (pages map[string]*Page, list listing, carried []*Page, count int, err error) {
	files, err := r.Files()
	if err != nil {
		return nil, listing{}, nil, 0, err
	}
	if scope == nil || s.pages == nil {
		pages = make(map[string]*Page, len(files))
	} else {
		pages = maps.Clone(s.pages)
	}
	list = listing{files: files, pages: make([]*Page, len(files))}
	var now []*Page
	i := 0 // the last build's files, in the same order
	for j, file := range files {
		for ; i < len(s.list.files) && s.list.files[i] < file; i++ {
			delete(pages, s.list.files[i]) // gone
		}
		var old *Page
		if i < len(s.list.files) && s.list.files[i] == file {
			old = s.list.pages[i]
			i++
		}
		if old != nil && scope != nil && keep(old.loc, scope) {
			list.pages[j] = old
			carried = append(carried, old)
			continue
		}
		p := &Page{r: r, file: file}
		if old != nil {
			p.loc = old.loc
		} else {
			p.loc = siteURLs.ParseFile(file)
		}
		pages[file], list.pages[j] = p, p
		if strings.HasSuffix(file, ".html") {
			count++
		}
		if scope != nil && p.loc.Kind == urls.Incident && touched[p.loc.ID] {
			now = append(now, p)
		}
	}
	for ; i < len(s.list.files); i++ {
		delete(pages, s.list.files[i])
	}
	if scope == nil {
		now = samples(list)
	}
	var errs diag.List
	seen := map[string]bool{}
	for _, p := range now {
		if err := ctx.Err(); err != nil {
			return nil, listing{}, nil, 0, err
		}
		if _, err := p.Bytes(); err != nil && !seen[err.Error()] {
			// One broken layout fails every page of its kind alike.
			seen[err.Error()] = true
			errs.AddError(err)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, listing{}, nil, 0, err
	}
	return pages, list, carried, count, nil
}

// samples are the pages a full build makes at once, the first of each
// kind in each language: the others are made when asked for, but a
// layout that fails when run must fail the build, as one that does not
// parse does, so that the last good pages stay with its error over them
// instead of pages that cannot be shown.
func samples(list listing) []*Page {
	type kind struct {
		kind urls.Kind
		lang string
	}
	seen := map[kind]bool{}
	var out []*Page
	for _, p := range list.pages {
		k := kind{p.loc.Kind, p.loc.Lang}
		if !strings.HasSuffix(p.file, ".html") || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// listing is a build's files in name order (render.Renderer.Files), each
// with its page.
type listing struct {
	files []string
	pages []*Page
}

// forget drops the changed files from the parse cache and tells which
// incidents they belong to; full is true when a change is not to one
// incident's file (layouts, languages, something unknown) or there is no
// previous build to change.
func (s *Session) forget(changed []string) (touched map[string]bool, full bool) {
	full = s.site == nil || changed == nil
	touched = map[string]bool{} // incident ids whose files changed
	src, err := filepath.Abs(s.opts.Source)
	if err != nil {
		full, src = true, s.opts.Source // cannot tell where a change is: rebuild all
	}
	for _, p := range changed {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(src, p)
		}
		s.cache.Forget(abs)
		rel, err := filepath.Rel(src, abs)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if err != nil || parts[0] != "content" || len(parts) < 2 {
			full = true
			continue
		}
		touched[parts[1]] = true
	}
	return touched, full
}

// Site returns the last good build's site, or nil.
func (s *Session) Site() *source.Site { return s.site }

// Search returns the search index and the renderer of the search pages
// of the last good build. The session holds one reference to the index
// until a full rebuild replaces it: a user acquires its own.
func (s *Session) Search() (*refcount.Ref[search.Searcher], *render.Renderer) {
	return s.index, s.render
}

// Pages returns the last good build's files, by path: each is made when
// first asked for. The returned map must not be modified.
func (s *Session) Pages() map[string]*Page { return s.pages }

// Close releases the session's index and removes the folder of its
// indexes (an index a user still holds reads files already open).
func (s *Session) Close() error {
	var err error
	if s.index != nil {
		err = s.index.Release()
		s.index, s.edits = nil, nil
	}
	if s.dropIndexes != nil {
		err = errors.Join(err, s.dropIndexes())
		s.indexes, s.dropIndexes = "", nil
	}
	return err
}

// updateIndex brings the search index up to date: a full build writes a
// new index as gen build does, on disk, which replaces the old one (the
// session lets go of the old one, which closes and is removed when the
// last search running on it ends); otherwise only the documents of the
// touched incidents are replaced, in place, in one step.
func (s *Session) updateIndex(site *source.Site, basePath string, full bool, touched map[string]bool) (warnings []error, err error) {
	if !full && s.index != nil {
		docs, err := index.Documents(site.Archive, touched, basePath)
		if err == nil {
			err = s.edits.Replace(touched, docs)
		}
		if err != nil {
			return nil, fmt.Errorf("updating the index: %w", err)
		}
		return nil, nil
	}
	fresh, edits, err := s.writeIndex(site, basePath)
	if err != nil {
		return nil, err
	}
	old := s.index
	s.index, s.edits = fresh, edits
	if old != nil {
		if err := old.Release(); err != nil {
			warnings = append(warnings, fmt.Errorf("closing the replaced search index: %w", err))
		}
	}
	return warnings, nil
}

// writeIndex writes the search index of a site into a new folder of the
// session's and opens it to be changed in place; it is removed once
// closed. Written as gen build writes one (an incident's documents at a
// time, segments merged at the end), it holds no more than a few batches
// of documents in memory, whatever the size of the archive.
func (s *Session) writeIndex(site *source.Site, basePath string) (*refcount.Ref[search.Searcher], *search.Editable, error) {
	if s.indexes == "" {
		dir, drop, err := output.Scratch("gen-serve-")
		if err != nil {
			return nil, nil, fmt.Errorf("indexing: %w", err)
		}
		s.indexes, s.dropIndexes = dir, drop
	}
	s.built++
	dir := filepath.Join(s.indexes, strconv.Itoa(s.built))
	if err := index.Write(dir, site.Archive, site.Bundle.Tags(), basePath); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("indexing: %w", err), os.RemoveAll(dir))
	}
	ix, err := search.OpenEditable(dir)
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("indexing: %w", err), os.RemoveAll(dir))
	}
	return refcount.NewWith[search.Searcher](ix, func() error { return os.RemoveAll(dir) }), ix, nil
}

// affected finds the pages a change to the touched incidents can alter:
// their own, those of every incident that shows them (as related,
// overlapping, similar, previous or next) before or after the change, and
// the pages of every term they had or have, and the timeline's pages
// that show them. beforeMonths gives the months whose pages showed an
// incident of before.
func affected(touched map[string]bool, before, after *archive.Archive, beforeMonths func(*archive.Incident) []render.YearMonth) *render.Scope {
	scope := &render.Scope{Incidents: map[string]bool{}, Terms: map[string]bool{}, Years: map[int]bool{}, Months: map[render.YearMonth]bool{}}
	for id := range touched {
		scope.Incidents[id] = true
	}
	// An incident whose neighbours changed (a new similar incident
	// ranked above the others once one is gone) shows them.
	previous := make(map[string]*archive.Incident, len(before.Incidents))
	for _, inc := range before.Incidents {
		previous[inc.ID] = inc
	}
	for _, inc := range after.Incidents {
		if old := previous[inc.ID]; old == nil || !sameNeighbours(old, inc) {
			scope.Incidents[inc.ID] = true
		}
	}
	// A few ids are compared faster than looked up.
	ids := slices.Collect(maps.Keys(touched))
	isTouched := func(inc *archive.Incident) bool {
		if inc == nil {
			return false
		}
		if len(ids) > 8 {
			return touched[inc.ID]
		}
		return slices.Contains(ids, inc.ID)
	}
	for _, a := range []*archive.Archive{before, after} {
		for _, inc := range a.Incidents {
			if !isTouched(inc) {
				if isTouched(inc.Prev) || isTouched(inc.Next) || slices.ContainsFunc(inc.Related, isTouched) ||
					slices.ContainsFunc(inc.Overlapping, isTouched) || slices.ContainsFunc(inc.Similar, isTouched) {
					scope.Incidents[inc.ID] = true
				}
				continue
			}
			for _, list := range [][]*archive.Incident{{inc.Prev, inc.Next}, inc.Related, inc.Overlapping, inc.Similar} {
				for _, other := range list {
					if other != nil {
						scope.Incidents[other.ID] = true
					}
				}
			}
			scope.Years[render.LocalYear(inc)] = true
			for tax, terms := range inc.Terms.All() {
				for _, t := range terms {
					scope.Terms[string(tax)+"/"+t.Slug] = true
				}
			}
		}
	}
	// A term named otherwise (its oldest incident writes it otherwise)
	// or shown otherwise (a product that became or stopped being shared,
	// or whose organization is named otherwise) changes on every page
	// that names it.
	label := func(a *archive.Archive) map[string]string {
		out := map[string]string{}
		for tax, list := range a.Terms {
			for _, t := range list {
				out[string(tax)+"/"+t.Slug] = t.Key() + "\x00" + strconv.FormatBool(t.Shared)
			}
		}
		return out
	}
	was, is := label(before), label(after)
	entries := maps.Clone(touched) // incidents whose list entries changed
	for _, a := range []*archive.Archive{before, after} {
		for tax, list := range a.Terms {
			for _, t := range list {
				key := string(tax) + "/" + t.Slug
				if b, ok := was[key]; !ok || b == is[key] {
					continue
				}
				scope.Terms[key] = true
				for _, inc := range t.Incidents {
					scope.Incidents[inc.ID] = true
					entries[inc.ID] = true
				}
			}
		}
	}
	timelineScope(scope, entries, before, after, beforeMonths)
	// A list entry shows only its own incident: the neighbours in scope
	// keep theirs.
	scope.ListPages = render.ListPagesChanged(before.Incidents, after.Incidents, entries)
	scope.TermPages = termPagesChanged(scope.Terms, before, after, entries)
	return scope
}

// timelineScope adds to scope the timeline's year and month pages a
// change alters, given the incidents whose entries changed.
// beforeMonths gives the months whose pages showed an incident of
// before.
func timelineScope(scope *render.Scope, entries map[string]bool, before, after *archive.Archive, beforeMonths func(*archive.Incident) []render.YearMonth) {
	// A month's page shows the incidents its month reaches, their
	// events and their organizations' names.
	for _, side := range []struct {
		a      *archive.Archive
		months func(*archive.Incident) []render.YearMonth
	}{{before, beforeMonths}, {after, render.IncidentMonths}} {
		for _, inc := range side.a.Incidents {
			if entries[inc.ID] {
				for _, m := range side.months(inc) {
					scope.Months[m] = true
				}
			}
		}
	}
	// A month that gains or loses its page changes the previous and next
	// month links of those on either side of it, and its year's index.
	had, has := monthsWithPages(before, beforeMonths), monthsWithPages(after, render.IncidentMonths)
	for m := range render.MonthPagesChanged(had, has) {
		scope.Months[m] = true
		scope.Years[m.Year] = true
	}
	// Year and month pages list every year: a year that appears or goes
	// away changes them all.
	if years := yearsOf(has); !maps.Equal(years, yearsOf(had)) {
		maps.Copy(scope.Years, years)
		for m := range has {
			scope.Months[m] = true
		}
	}
}

// sameNeighbours reports whether an incident links to the same incidents
// in two archives.
func sameNeighbours(a, b *archive.Incident) bool {
	id := func(inc *archive.Incident) string {
		if inc == nil {
			return ""
		}
		return inc.ID
	}
	same := func(x, y []*archive.Incident) bool {
		return slices.EqualFunc(x, y, func(p, q *archive.Incident) bool { return id(p) == id(q) })
	}
	return same(a.Related, b.Related) && same(a.Overlapping, b.Overlapping) && same(a.Similar, b.Similar) &&
		same([]*archive.Incident{a.Prev, a.Next}, []*archive.Incident{b.Prev, b.Next})
}

// termPagesChanged narrows each term in scope to the pages of its list
// the change alters, and its first page, whose chart draws every one of
// its incidents. A term that is new, gone, or shown under another label
// (a product that became or stopped being shared) renders whole.
func termPagesChanged(terms map[string]bool, before, after *archive.Archive, entries map[string]bool) map[string]map[int]bool {
	find := func(a *archive.Archive) map[string]*archive.Term {
		out := map[string]*archive.Term{}
		for tax, list := range a.Terms {
			for _, t := range list {
				if key := string(tax) + "/" + t.Slug; terms[key] {
					out[key] = t
				}
			}
		}
		return out
	}
	was, is := find(before), find(after)
	out := map[string]map[int]bool{}
	for key := range terms {
		b, a := was[key], is[key]
		if b == nil || a == nil || b.Shared != a.Shared || b.Name != a.Name || orgName(b) != orgName(a) {
			continue
		}
		pages := render.ListPagesChanged(b.Incidents, a.Incidents, entries)
		pages[1] = true
		out[key] = pages
	}
	return out
}

// orgName is the name of a product's organization, part of its label.
func orgName(t *archive.Term) string {
	if t.Organization == nil {
		return ""
	}
	return t.Organization.Name
}

// monthsWithPages are the months of the timeline that have a page: those
// that show an incident.
func monthsWithPages(a *archive.Archive, monthsOf func(*archive.Incident) []render.YearMonth) map[render.YearMonth]bool {
	out := map[render.YearMonth]bool{}
	for _, inc := range a.Incidents {
		for _, m := range monthsOf(inc) {
			out[m] = true
		}
	}
	return out
}

// yearsOf are the years with pages: those of the months with pages.
func yearsOf(months map[render.YearMonth]bool) map[int]bool {
	out := map[int]bool{}
	for m := range months {
		out[m.Year] = true
	}
	return out
}

// keep reports whether an output file of the previous build is still
// current: an incident, list, timeline year or month or term page outside the
// scope. Everything else (timelines, term indexes, feeds, the sitemap and
// its parts, export) is rendered again: a sitemap part is never carried
// over, so one the archive no longer fills is gone.
func keep(loc urls.Loc, scope *render.Scope) bool {
	switch loc.Kind {
	case urls.Incident:
		return !scope.Incidents[loc.ID]
	case urls.List:
		return !scope.ListPages[max(loc.Page, 1)]
	case urls.Year:
		return !scope.Years[loc.Year]
	case urls.Month:
		return !scope.Months[render.YearMonth{Year: loc.Year, Month: time.Month(loc.Month)}]
	case urls.Term:
		return !scope.TermPage(archive.Taxonomy(loc.Taxonomy), loc.Term, max(loc.Page, 1))
	}
	return false
}

// siteURLs reads output file names; the base path is not part of them.
var siteURLs = urls.Scheme{Taxonomies: archive.TaxonomyNames()}
