// Package render is the render stage: it turns the linked archive into the
// site's files — HTML pages through html/template layouts, Atom feeds, the
// sitemap and the JSON export — in every site language. It hands each file
// to an emit function as soon as it is made, and the largest (the sitemap,
// the JSON export) to a stream, when given one, as they are made, so
// nothing holds the whole site, or the whole of a file that lists it, in
// memory.
package render

import (
	"bytes"
	"context"
	"fmt"
	"github.com/yuin/goldmark/ast"
	"html/template"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/chart"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// Emit receives one output file: its path relative to the site root, with
// forward slashes, and its bytes. It may be called from several goroutines.
type Emit func(path string, data []byte) error

// Stream receives one output file too large to hold whole (the sitemap
// and its parts, the JSON export: hundreds of megabytes at 100,000
// incidents) as it is made: write writes it to w, and its error is
// returned as it is. It is called from one goroutine, after the pages.
type Stream func(path string, write func(w io.Writer) error) error

// Options configure a render.
type Options struct {
	BaseURL   string // absolute site URL, e.g. https://example.org/archive/
	Generator string // "gen <version>", for the feed
	// Fragments, when set, is a cache kept across renders; see Fragments.
	Fragments *Fragments
	// Parsed, when set, is given the Markdown tree of each incident page a
	// render prints in a language the incident is written in, before it
	// is printed (or what kept it from being parsed): the search index
	// takes the page's text from it instead of parsing the page again. It
	// is called once per such page, from several goroutines, in the order
	// pages are printed give or take those printing at once: language by
	// language in the bundle's order (Bundle.Tags), each language the
	// archive's incidents in order.
	Parsed func(inc *archive.Incident, lang string, doc ast.Node, src []byte, err error)
	// Sitemap bounds each file of the sitemap; the zero value is the
	// protocol's limits.
	Sitemap SitemapLimits
	// Taxonomies, when not nil, are those the navigation lists, for a
	// renderer without the archive (a server's search pages); else the
	// archive's Listed.
	Taxonomies []archive.Taxonomy
	// Recycle says that the Emit hands pages back through
	// Renderer.Recycle once written: pages are then made in reused
	// buffers.
	Recycle bool
}

// Renderer renders one archive.
type Renderer struct {
	parsed    func(inc *archive.Incident, lang string, doc ast.Node, src []byte, err error)
	archive   *archive.Archive
	bundle    *locale.Bundle
	site      *SiteView
	urls      urls.Scheme
	tmpl      map[string]*template.Template
	layouts   *Layouts
	fragments *Fragments
	navs      sync.Map     // navKey → template.HTML: NavHTML
	buffers   *pageBuffers // nil unless Options.Recycle
	// sitemapLimits bound each file of the sitemap (sitemap.go).
	sitemapLimits SitemapLimits

	born uint64 // the fragments' epoch when the renderer was made
}

// BasePath is the URL path prefix of the site, without trailing slash.
func (r *Renderer) BasePath() string { return r.urls.BasePath }

// URLs is the URL scheme the renderer builds pages with.
func (r *Renderer) URLs() urls.Scheme { return r.urls }

// New prepares a renderer of archive a with the parsed layouts.
func New(a *archive.Archive, bundle *locale.Bundle, layouts *Layouts, opts Options) (*Renderer, error) {
	scheme, err := urls.New(opts.BaseURL, archive.TaxonomyNames())
	if err != nil {
		return nil, err
	}
	r := &Renderer{archive: a, bundle: bundle, layouts: layouts, fragments: opts.Fragments, urls: scheme, parsed: opts.Parsed,
		sitemapLimits: opts.Sitemap.orDefault()}
	if opts.Recycle {
		r.buffers = &pageBuffers{lent: map[*byte]struct{}{}}
	}
	if r.fragments == nil {
		r.fragments = NewFragments()
		r.fragments.once = true
	}
	r.born = r.fragments.now()
	r.site = &SiteView{
		BasePath:   scheme.BasePath,
		BaseURL:    scheme.BaseURL(),
		Langs:      bundle.Langs,
		Incidents:  len(a.Incidents),
		Taxonomies: opts.Taxonomies,
		Generator:  opts.Generator,
		urls:       scheme,
	}
	if r.site.Taxonomies == nil {
		r.site.Taxonomies = a.Listed()
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
	// Months are the timeline months to render: a month page shows its
	// own incidents and the list of years, nothing of other months.
	Months map[YearMonth]bool
	// ListPages are the pages of the list of every incident to render, by
	// number from 1 (see ListPagesChanged).
	ListPages map[int]bool
	// TermPages narrows a term in Terms to some of its pages, by number
	// from 1; a term in Terms without an entry here renders every page.
	TermPages map[string]map[int]bool
}

func (s *Scope) incident(id string) bool { return s == nil || s.Incidents[id] }

func (s *Scope) listPage(n int) bool { return s == nil || s.ListPages[n] }

// ListPagesChanged finds the pages of the list of every incident that
// differ between the lists before and after (in list order), given the
// incidents whose entries changed: a page shows a different incident, or
// one whose entry changed; when the number of incidents changed, every
// page (each says how many there are, and of how many pages it is one).
func ListPagesChanged(before, after []*archive.Incident, changed map[string]bool) map[int]bool {
	out := map[int]bool{}
	for i := 0; i < max(len(before), len(after)); i++ {
		n := i/PerPage + 1
		if len(before) != len(after) || before[i].ID != after[i].ID || changed[after[i].ID] || changed[before[i].ID] {
			out[n] = true
		}
	}
	if len(before) != len(after) || len(after) == 0 {
		out[1] = true // an empty list still has its first page
	}
	return out
}

func (s *Scope) term(tax archive.Taxonomy, slug string) bool {
	return s == nil || s.Terms[string(tax)+"/"+slug]
}

// TermPage reports whether page n (from 1) of a term is in the scope.
func (s *Scope) TermPage(tax archive.Taxonomy, slug string, n int) bool {
	if s == nil {
		return true
	}
	key := string(tax) + "/" + slug
	pages, narrowed := s.TermPages[key]
	return s.Terms[key] && (!narrowed || pages[n])
}

func (s *Scope) year(y int) bool { return s == nil || s.Years[y] }

func (s *Scope) month(m YearMonth) bool { return s == nil || s.Months[m] }

// Render makes every file of the site and passes it to emit. It returns the
// number of HTML pages.
func (r *Renderer) Render(emit Emit) (int, error) { return r.RenderScope(nil, emit) }

// pass is one render: where its files go and what went wrong.
type pass struct {
	ctx   context.Context
	r     *Renderer
	scope *Scope
	// want, when set, says which of the files in scope to make; the
	// others are not made (see Files and File).
	want func(file string) bool
	// only, when set, is where the one file wanted is: the parts of the
	// site that cannot hold it are not gone through.
	only *urls.Loc
	emit Emit
	// stream, when set, writes the files too large to hold whole;
	// without it they are made in memory and emitted.
	stream Stream
	mu     sync.Mutex
	errs   diag.List
	pages  int
}

func (ps *pass) wants(file string) bool { return ps.want == nil || ps.want(file) }

// in reports whether the pass goes through the files of these kinds.
func (ps *pass) in(kinds ...urls.Kind) bool {
	return ps.only == nil || slices.Contains(kinds, ps.only.Kind)
}

// emitFile makes and emits a file that is not a page, when wanted.
func (ps *pass) emitFile(file string, make func(Emit) error) {
	if ps.wants(file) {
		if err := make(ps.emit); err != nil {
			ps.fail(err)
		}
	}
}

// writeFile makes a file too large to hold whole, when wanted: through
// the pass's stream as it is made, or in memory for its emit.
func (ps *pass) writeFile(file string, write func(io.Writer) error) {
	if !ps.wants(file) {
		return
	}
	var err error
	if ps.stream != nil {
		err = ps.stream(file, write)
	} else {
		var b bytes.Buffer
		if err = write(&b); err == nil {
			err = ps.emit(file, b.Bytes())
		}
	}
	if err != nil {
		ps.fail(fmt.Errorf("%s: %w", file, err))
	}
}

func (ps *pass) fail(err error) {
	ps.mu.Lock()
	ps.errs.AddError(err)
	ps.mu.Unlock()
}

// pageAt renders the page newPage makes for loc, when the pass wants
// it: a pass that lists files (Files) or makes one (File) makes no other
// page.
func (ps *pass) pageAt(l *locale.Lang, kind, title string, loc urls.Loc, fill func(*PageView)) {
	if ps.ctx.Err() != nil || !ps.wants(loc.File()) {
		return
	}
	ps.page(ps.r.newPage(l, kind, title, loc, fill))
}

// page renders one HTML page to its file.
func (ps *pass) page(p *PageView) {
	if ps.ctx.Err() != nil {
		return // the render was given up; RenderScopeContext says so
	}
	if !ps.wants(p.Loc.File()) {
		return
	}
	out, err := ps.r.execute(p)
	if err == nil {
		err = ps.emit(p.Loc.File(), out)
	}
	if err != nil {
		ps.fail(err)
		return
	}
	ps.mu.Lock()
	ps.pages++
	ps.mu.Unlock()
}

// RenderScope makes the files in scope: the incident and term pages it
// names, and every page that lists or summarises the whole archive.
func (r *Renderer) RenderScope(scope *Scope, emit Emit) (int, error) {
	return r.RenderScopeContext(context.Background(), scope, emit)
}

// RenderScopeContext is RenderScope that stops rendering pages once ctx is
// done (the authoring server gives up a build when the sources change
// again) and then returns ctx's error.
func (r *Renderer) RenderScopeContext(ctx context.Context, scope *Scope, emit Emit) (int, error) {
	return r.render(&pass{ctx: ctx, r: r, scope: scope, emit: emit})
}

// RenderScopeStreamed is RenderScope that writes the files too large to
// hold whole (the sitemap, the JSON export) through stream as they are
// made, and emits the others.
func (r *Renderer) RenderScopeStreamed(scope *Scope, emit Emit, stream Stream) (int, error) {
	return r.render(&pass{ctx: context.Background(), r: r, scope: scope, emit: emit, stream: stream})
}

func (r *Renderer) render(ps *pass) (int, error) {
	ctx := ps.ctx
	ps.run()
	if err := ctx.Err(); err != nil {
		return ps.pages, err
	}
	return ps.pages, ps.errs.Err()
}

// Files lists the files of the site, those Render makes, without making
// them: the authoring server makes each when it is asked for.
func (r *Renderer) Files() ([]string, error) {
	var mu sync.Mutex
	var files []string
	ps := &pass{ctx: context.Background(), r: r, want: func(file string) bool {
		mu.Lock()
		files = append(files, file)
		mu.Unlock()
		return false
	}}
	ps.run()
	sort.Strings(files)
	return files, ps.errs.Err()
}

// File makes one file of the site, byte for byte what Render makes for
// it; an error satisfying errors.Is(err, fs.ErrNotExist) when the site
// has no such file.
func (r *Renderer) File(file string) ([]byte, error) {
	if loc := r.urls.ParseFile(file); loc.Kind == urls.Incident {
		if inc := r.archive.Incident(loc.ID); inc != nil && r.bundle.Get(loc.Lang) != nil {
			return r.IncidentPage(inc, loc.Lang)
		}
	}
	var out []byte
	found := false
	loc := r.urls.ParseFile(file)
	ps := &pass{ctx: context.Background(), r: r, only: &loc, want: func(f string) bool { return f == file }, emit: func(_ string, data []byte) error {
		out, found = data, true
		return nil
	}}
	ps.run()
	if err := ps.errs.Err(); err != nil {
		return nil, err
	}
	if !found {
		return nil, &fs.PathError{Op: "render", Path: file, Err: fs.ErrNotExist}
	}
	return out, nil
}

// run makes the files in the pass's scope that it wants.
func (ps *pass) run() {
	r := ps.r
	done := ps.incidents()
	for _, l := range r.bundle.Langs {
		if ps.only != nil && ps.only.Lang != l.Tag {
			continue
		}
		if ps.in(urls.List) {
			ps.lists(l)
		}
		if ps.in(urls.Search) {
			ps.search(l)
		}
		if ps.in(urls.Timeline, urls.Year, urls.Month) {
			ps.timeline(l)
		}
		for _, tax := range r.site.Taxonomies {
			if ps.in(urls.Terms, urls.Term) && (ps.only == nil || ps.only.Taxonomy == string(tax)) {
				ps.taxonomy(l, tax)
			}
		}
		ps.emitFile(urls.FeedLoc(l.Tag).File(), func(emit Emit) error { return r.feed(l, emit) })
		if r.fragments.once {
			r.fragments.forgetLang(l.Tag)
		}
	}
	if ps.in(urls.Home, urls.NotFound) {
		ps.siteWide()
	}
	<-done
	ps.sitemap()
	ps.writeFile(urls.ExportLoc().File(), r.exportJSON)
	ps.emitFile(urls.AssetLoc("chart.css").File(), chartCSS)
	static, err := r.staticFiles()
	if err != nil {
		ps.fail(err)
	}
	for _, name := range static {
		ps.emitFile(urls.AssetLoc(path.Base(name)).File(), func(emit Emit) error { return r.copyStatic(name, emit) })
	}
}

// incidents renders the incident pages in scope, most of the work, spread
// over the cores; done closes when they are all written.
func (ps *pass) incidents() (done <-chan struct{}) {
	jobs := make(chan *PageView, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range jobs {
				ps.page(p)
				if v := p.Incident; v.parsed != nil {
					// The layout did not print the body, or the page
					// was given up.
					p, _ := v.page()
					doc, src, err := p.Tree()
					v.parsed(doc, src, err)
				}
			}
		})
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for _, l := range ps.r.bundle.Langs {
			if !ps.in(urls.Incident) {
				break
			}
			for _, inc := range ps.r.archive.Incidents {
				if ps.scope.incident(inc.ID) && ps.wants(urls.IncidentLoc(l.Tag, inc.ID).File()) {
					v := ps.r.incident(inc, l)
					if _, written := inc.Versions[l.Tag]; written && ps.r.parsed != nil {
						v.parsed = func(doc ast.Node, src []byte, err error) { ps.r.parsed(inc, l.Tag, doc, src, err) }
					}
					jobs <- ps.r.newPage(l, "incident", v.Title(), urls.IncidentLoc(l.Tag, inc.ID), func(p *PageView) { p.Incident = v })
				}
			}
		}
		close(jobs)
		wg.Wait()
	}()
	return finished
}

// lists renders a language's list of every incident, page by page.
func (ps *pass) lists(l *locale.Lang) {
	title, err := l.T("nav_incidents")
	if err != nil {
		ps.fail(err)
		return
	}
	for _, pg := range paginate(ps.r.archive.Incidents, urls.ListLoc(l.Tag), PerPage) {
		if !ps.scope.listPage(pg.n) {
			continue
		}
		ps.pageAt(l, "list", title, pg.loc, func(p *PageView) {
			p.Incidents, p.Pager = ps.r.incidents(pg.items, l), ps.r.pager(pg.n, pg.of, pg.loc)
		})
	}
}

// search renders a language's search page as a static host serves it:
// the form, and a notice that results need the server.
func (ps *pass) search(l *locale.Lang) {
	p, err := ps.r.searchPage(l, &Search{})
	if err != nil {
		ps.fail(err)
		return
	}
	ps.page(p)
}

// timeline renders the archive-wide timeline, and its years and months
// in scope.
func (ps *pass) timeline(l *locale.Lang) {
	title, err := l.T("nav_timeline")
	if err != nil {
		ps.fail(err)
		return
	}
	months := monthPages(ps.r.archive.Incidents)
	years := yearSummaries(ps.r.archive.Incidents, months)
	ps.pageAt(l, "timeline", title, urls.TimelineLoc(l.Tag), func(p *PageView) { p.YearList = years })
	for i, y := range years {
		if ps.only != nil && (ps.only.Kind == urls.Timeline || ps.only.Year != y.Year) {
			continue
		}
		year := ps.r.year(years, i, months, l)
		if ps.scope.year(y.Year) {
			ps.pageAt(l, "timeline", title+" "+strconv.Itoa(y.Year), urls.YearLoc(l.Tag, y.Year), func(p *PageView) {
				p.Year, p.YearList = year, years
			})
		}
		for _, m := range year.Months {
			loc := urls.MonthLoc(l.Tag, y.Year, m.Start.Month())
			if m.URL() == "" || !ps.scope.month(YearMonth{y.Year, m.Start.Month()}) || !ps.wants(loc.File()) {
				continue
			}
			page, err := ps.r.month(m, months, l)
			if err != nil {
				ps.fail(err)
				continue
			}
			ps.pageAt(l, "timeline", title+" "+l.MonthYear(m.Start), loc, func(p *PageView) {
				p.Month, p.YearList = page, years
			})
		}
	}
}

// taxonomy renders a taxonomy's index of terms, page by page, and the
// term pages in scope.
func (ps *pass) taxonomy(l *locale.Lang, tax archive.Taxonomy) {
	title, err := l.T("nav_" + string(tax))
	if err != nil {
		ps.fail(err)
		return
	}
	terms, err := ps.r.terms(ps.r.archive.Terms[tax], l)
	if err != nil {
		ps.fail(err)
		return
	}
	first := urls.TermsLoc(l.Tag, string(tax))
	entries, initials := ps.r.termsIndex(terms, first)
	for _, pg := range paginate(entries, first, TermsPerPage) {
		ps.pageAt(l, "terms", title, pg.loc, func(p *PageView) {
			p.Taxonomy, p.Terms, p.Initials, p.Pager = tax, pg.items, initials, ps.r.pager(pg.n, pg.of, pg.loc)
		})
	}
	for _, t := range terms {
		if !ps.scope.term(tax, t.Slug) {
			continue
		}
		for _, pg := range paginate(t.Incidents, urls.TermLoc(l.Tag, string(tax), t.Slug), PerPage) {
			if !ps.scope.TermPage(tax, t.Slug, pg.n) {
				continue
			}
			ps.pageAt(l, "term", t.Label, pg.loc, func(p *PageView) {
				// The term's chart is drawn on its first page only: the
				// others are more of its list.
				p.Taxonomy, p.Term, p.TermChart = tax, t, pg.n == 1
				p.Incidents, p.Pager = ps.r.incidents(pg.items, l), ps.r.pager(pg.n, pg.of, pg.loc)
			})
		}
	}
}

// siteWide renders the home page, where readers choose a language, and
// the 404 pages: the site's in the default language, and one per language
// for addresses under /<lang>/.
func (ps *pass) siteWide() {
	def := ps.r.bundle.Default()
	home := ps.r.newPage(def, "home", "", urls.HomeLoc(), nil)
	home.Alternates = nil
	ps.page(home)
	notFound := func(l *locale.Lang, loc urls.Loc) {
		if !ps.wants(loc.File()) {
			return
		}
		p := ps.r.newPage(l, "404", "404", loc, nil)
		p.Alternates = nil
		out, err := ps.r.execute(p)
		if err == nil {
			err = ps.emit(loc.File(), out)
		}
		if err != nil {
			ps.fail(err)
		}
	}
	notFound(def, urls.NotFoundLoc(""))
	for _, l := range ps.r.bundle.Langs {
		notFound(l, urls.NotFoundLoc(l.Tag))
	}
}

// chartCSS writes the charts' stylesheet.
func chartCSS(emit Emit) error {
	return emit(urls.AssetLoc("chart.css").File(), []byte(chart.Stylesheet()))
}

// newPage fills what every page has; fill sets the kind's own data.
func (r *Renderer) newPage(l *locale.Lang, kind, title string, loc urls.Loc, fill func(*PageView)) *PageView {
	p := &PageView{Site: r.site, L: l, Kind: kind, Title: title, Path: loc.Path(), Loc: loc, r: r}
	for _, other := range r.bundle.Langs {
		alt := loc.InLang(other.Tag)
		p.Alternates = append(p.Alternates, Alternate{Lang: other, URL: r.urls.URL(alt), AbsURL: r.urls.Abs(alt), Current: other == l})
	}
	if fill != nil {
		fill(p)
	}
	return p
}

func (r *Renderer) execute(p *PageView) ([]byte, error) {
	t, ok := r.tmpl[p.Kind]
	if !ok {
		return nil, fmt.Errorf("layouts: no template for %s pages (%s.html)", p.Kind, p.Kind)
	}
	buf := bytes.NewBuffer(r.buffers.get())
	if err := t.ExecuteTemplate(buf, p.Kind+".html", p); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.Path, err)
	}
	r.buffers.lend(buf.Bytes())
	return buf.Bytes(), nil
}

func (r *Renderer) incident(inc *archive.Incident, l *locale.Lang) *IncidentView {
	if inc == nil {
		return nil
	}
	return &IncidentView{Incident: inc, L: l, site: r.site, r: r}
}

func (r *Renderer) incidents(list []*archive.Incident, l *locale.Lang) []*IncidentView {
	out := make([]*IncidentView, len(list))
	for i, inc := range list {
		out[i] = r.incident(inc, l)
	}
	return out
}

// term is t seen in l, with its label (see Term.Label).
func (r *Renderer) term(t *archive.Term, l *locale.Lang) (*TermView, error) {
	return r.termIn(t, l, true)
}

// termIn is term; qualify false leaves a product's organization out of
// its label, where the organization is named beside it.
func (r *Renderer) termIn(t *archive.Term, l *locale.Lang, qualify bool) (*TermView, error) {
	label, err := termLabel(t.Taxonomy, t.Name, t.Slug, l)
	if err != nil {
		return nil, err
	}
	v := &TermView{Term: t, L: l, Label: label, r: r}
	if qualify && t.Shared && t.Organization != nil {
		org, err := r.term(t.Organization, l)
		if err != nil {
			return nil, err
		}
		if v.Label, err = l.T("product_of", "product", v.Label, "organization", org.Label); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// termLabel is a term's display name in l: the i18n file's translation
// (key "term.<taxonomy>.<slug>") when there is one, else its readable
// name. Term pages and the search page's cause and region filters show
// the same words.
func termLabel(tax archive.Taxonomy, name, slug string, l *locale.Lang) (string, error) {
	if key := "term." + string(tax) + "." + slug; l.HasKey(key) {
		return l.T(key)
	}
	return readable(tax, name), nil
}

// readable is a term's name as a reader would write it when no i18n file
// names it: a cause is written as a slug ("load-spike"), which reads as
// "Load spike"; other names are shown as written.
func readable(tax archive.Taxonomy, name string) string {
	if tax != archive.Causes || strings.ContainsFunc(name, func(r rune) bool { return r == ' ' || unicode.IsUpper(r) }) {
		return name
	}
	words := strings.ReplaceAll(name, "-", " ")
	r, size := utf8.DecodeRuneInString(words)
	return string(unicode.ToUpper(r)) + words[size:]
}

// terms returns a taxonomy's terms sorted by label in the page language.
func (r *Renderer) terms(list []*archive.Term, l *locale.Lang) ([]*TermView, error) {
	out := make([]*TermView, len(list))
	for i, t := range list {
		v, err := r.term(t, l)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	locale.Sort(l, out, func(t *TermView) string { return t.Label })
	return out, nil
}

// PerPage is how many incidents a list page shows.
const PerPage = 50

// listPage is one page of a paginated list.
type listPage[T any] struct {
	n, of int
	loc   urls.Loc
	items []T
}

// paginate splits a list into pages of per items; an empty list has one
// empty page.
func paginate[T any](items []T, first urls.Loc, per int) []listPage[T] {
	of := max(1, (len(items)+per-1)/per)
	out := make([]listPage[T], of)
	for i := range out {
		out[i] = listPage[T]{n: i + 1, of: of, loc: first.Nth(i + 1), items: items[i*per : min(len(items), (i+1)*per)]}
	}
	return out
}

// pager links page n of a list of pages to its neighbours.
func (r *Renderer) pager(n, of int, loc urls.Loc) *Pager {
	return pageWindow(n, of, func(k int) string { return r.urls.URL(loc.Nth(k)) })
}

// pageWindow links page n of of pages to its neighbours and to a window
// of page numbers: the first, the last, and two on either side of n,
// with gaps between, so that a thousand pages take a line.
func pageWindow(n, of int, url func(int) string) *Pager {
	p := &Pager{Page: n, Of: of}
	if n > 1 {
		p.Newer = url(n - 1)
	}
	if n < of {
		p.Older = url(n + 1)
	}
	for k := 1; k <= of; k++ {
		switch {
		case k == 1 || k == of || k >= n-2 && k <= n+2:
			p.Links = append(p.Links, PageLink{N: k, URL: url(k), Current: k == n})
		case len(p.Links) > 0 && !p.Links[len(p.Links)-1].Gap:
			p.Links = append(p.Links, PageLink{Gap: true})
			// Skip to the next number shown: 1,000 pages cost a few links.
			if k < n-2 {
				k = n - 3
			} else {
				k = of - 1
			}
		}
	}
	return p
}

// staticFiles lists the layouts' static files (CSS, the language
// script), sorted.
func (r *Renderer) staticFiles() ([]string, error) {
	names, err := fs.Glob(r.layouts.files, "static/*")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// copyStatic copies one of the layouts' static files.
func (r *Renderer) copyStatic(name string, emit Emit) error {
	data, err := fs.ReadFile(r.layouts.files, name)
	if err != nil {
		return fmt.Errorf("layouts: %w", err)
	}
	return emit(urls.AssetLoc(path.Base(name)).File(), data)
}
