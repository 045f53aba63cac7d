package render

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// Search is what the search page shows. The build writes the page with an
// empty Search; a server renders it again per request with results,
// filled from whatever answers its searches.
type Search struct {
	Served   bool // rendered by a server: results are real, no static-host notice
	Request  SearchRequest
	Response *SearchResponse // nil when nothing was searched, or on Error
	// Error is a request that cannot be searched: a message key of the
	// language files and its placeholders' values; Message says it.
	Error *SearchError
	base  string       // the search page URL, with base path
	l     *locale.Lang // the page's language
}

// SearchError is a problem with a request, to say in the reader's
// language: the key of its message and name, value pairs for its
// {placeholders}.
type SearchError struct {
	Key  string
	Args []any
}

// SearchFilters are the URL parameters that filter results, in the order
// their chips are shown. Each is a facet of the same name, except
// language, the facet "lang".
var SearchFilters = []string{"organization", "product", "region", "cause", "severity", "year", "duration", "language", "from", "to"}

// searchDates are the filters of SearchFilters that are no facet: the
// bounds of the dates incidents began, fields of the search form.
var searchDates = []string{"from", "to"}

// SearchSorts are the orders of results a reader may choose; the first
// is the default.
var SearchSorts = []string{"relevance", "date", "oldest", "duration", "severity"}

// SearchRequest is what the reader asked.
type SearchRequest struct {
	Query   string
	Filters map[string]string // by URL parameter (SearchFilters)
	Sort    string            // one of SearchSorts; "" for the first
	Page    int               // 1-based
	// AllFacet is the facet whose values are all listed, not only the
	// most frequent (URL parameter all).
	AllFacet string
}

// SearchResponse is one page of results.
type SearchResponse struct {
	DidYouMean string // the query with its typos corrected, if it had some
	Total      int    // matching incidents
	KeepTyping bool   // none, for a last word too short to complete
	Pages      int    // result pages the reader may ask for
	Results    []SearchResult
	Facets     map[string][]SearchFacet // by facet name: organization, product, region, cause, severity, year, duration, lang
	// FacetTotals are the numbers of values of each facet, listed or not.
	FacetTotals map[string]int
}

// SearchResult is one incident found.
type SearchResult struct {
	Lang, Title, URL string
	Date             string   // YYYY-MM-DD
	Organization     string   // shown first; "" when not stated
	Severity         string   // a facet value: minor, major, critical, unknown
	Products         []string // facet values: "Name (Organization)"
	// Begin is in the incident's own zone; zero when not known.
	Begin    time.Time
	Duration time.Duration // 0 when the end is not stated
	Ongoing  bool          // not over when reported
	// Fragments are HTML: the matches marked, everything else escaped by
	// the search index. FragmentsLang is their language when it is not Lang.
	Fragments     []string
	FragmentsLang string
}

// SearchFacet is one value of a facet and how many results have it.
type SearchFacet struct {
	Term  string
	Count int
}

// SearchChip is an active filter, with the form that removes it (the id
// of its SearchForm, whose fields are the request without it).
type SearchChip struct {
	Facet, Label, Form string
}

// SearchSort is an order of results the page offers: the value of its
// parameter sort, "" for the default.
type SearchSort struct {
	Label, Value string
	Current      bool
}

// SearchForm is one of the page's small GET forms that its choices
// submit (facet values, chips, orders, result pages, "List all"): the
// request once, as hidden fields, but the parameter its buttons set or
// remove, so that the page's size does not grow with the query's length
// times its choices. One form, the request whole, serves the values of
// every facet not filtered by and the result pages; a filtered facet
// has a form of its own, without the filter, for its values and chip.
type SearchForm struct {
	ID     string      // the form's id, which its buttons name in their form attribute
	Fields [][2]string // hidden fields: name, value
}

// searchParams are the URL parameters of a request the page's forms
// keep, in the order they are written.
var searchParams = slices.Concat([]string{"q"}, SearchFilters, []string{"sort", "all"})

// Forms of the page (SearchForm.ID) but the filters' own (filterForm).
const (
	formRequest = "refine"       // the request whole: sets a filter not set, or the page
	formSort    = "refine-sort"  // sets the order
	formAll     = "refine-all"   // lists all of one facet's values
	formClear   = "refine-clear" // removes every filter
)

// filterForm is the id of the form that sets filter param: the
// request's when the filter is not set, else its own, which holds the
// request without it and removes it.
func (s *Search) filterForm(param string) string {
	if s.Request.Filters[param] == "" {
		return formRequest
	}
	return formRequest + "-" + param
}

// filterParam is the URL parameter filtering by facet.
func filterParam(facet string) string {
	if facet == "lang" {
		return "language"
	}
	return facet
}

// facetOf is the facet a filter parameter filters by.
func facetOf(param string) string {
	if param == "language" {
		return "lang"
	}
	return param
}

// With returns the search URL for the current request with one parameter
// set (or removed when value is ""), back on the first page.
func (s *Search) With(key, value string) string {
	q := s.params()
	q.Del("page")
	if value == "" {
		q.Del(key)
	} else {
		q.Set(key, value)
	}
	return s.url(q)
}

// listsAll reports whether the page offers to list every value of a
// facet: some are not listed, and the reader has not asked for them.
func (s *Search) listsAll(facet string) bool {
	return s.Response != nil && s.Request.AllFacet != facet && s.Response.FacetTotals[facet] > len(s.Response.Facets[facet])
}

// FacetShown is how many values of a facet the page lists before "Show
// all": the rest, in a disclosure, take no room until asked for.
const FacetShown = 10

// FacetListed is how many values of a facet the page lists at most when
// a reader asks for all of them: an archive's products run to
// thousands, and the page stays under 100 KB. The others are found by
// typing their names.
const FacetListed = 200

// FacetGroup is one facet as the page lists it.
type FacetGroup struct {
	Shown []SearchFacet // the most frequent values, and any selected
	More  []SearchFacet // the rest of those the response lists
	Total int           // values of the facet among the results
	// Param is the URL parameter that filters by the facet, Form the id
	// of the form its values' buttons submit.
	Param, Form string
	// All is the id of the form that lists every value, when the
	// response does not (a button, so that a reader without JavaScript
	// sees them too); "" when it does.
	All  string
	Open bool // the reader asked for all of them
	// Unlisted is how many values the page leaves out of all of them
	// (past FacetListed).
	Unlisted int
}

// Group is facet's values as the page lists them: values no result has
// are left out; a selected value is always among those shown.
func (s *Search) Group(facet string) *FacetGroup {
	if s.Response == nil {
		return nil
	}
	param := filterParam(facet)
	g := &FacetGroup{Total: s.Response.FacetTotals[facet], Param: param, Form: s.filterForm(param), Open: s.Request.AllFacet == facet}
	if s.listsAll(facet) {
		g.All = formAll
	}
	for _, v := range s.Response.Facets[facet] {
		switch {
		case v.Count <= 0:
		case len(g.Shown) < FacetShown || s.Active(facet, v.Term):
			g.Shown = append(g.Shown, v)
		default:
			g.More = append(g.More, v)
		}
	}
	if len(g.Shown) == 0 {
		return nil
	}
	g.Total = max(g.Total, len(g.Shown)+len(g.More))
	if keep := max(FacetListed-len(g.Shown), 0); len(g.More) > keep {
		g.More = g.More[:keep]
	}
	if g.Open {
		g.Unlisted = g.Total - len(g.Shown) - len(g.More)
	}
	return g
}

// Active reports whether the results are filtered by this value of facet.
func (s *Search) Active(facet, term string) bool {
	return s.Request.Filters[filterParam(facet)] == term
}

// Label is how a facet value reads on the page: severities and duration
// bands in words, languages by their names in the page's language, causes
// and regions as their term pages name them, the others as they are.
func (s *Search) Label(facet, term string) (string, error) {
	switch facet {
	case "severity":
		return s.l.T("severity_" + term)
	case "duration": // the bands of the overview chart
		if term == "unknown" {
			return s.l.T("bucket_end_unknown")
		}
		return s.l.T("bucket_" + strings.ReplaceAll(term, "-", "_"))
	case "lang":
		return s.l.LanguageName(term), nil
	case "cause":
		return termLabel(archive.Causes, term, archive.Slug(term), s.l)
	case "region":
		return termLabel(archive.Regions, term, archive.Slug(term), s.l)
	}
	return term, nil
}

// ResultProducts is how many products a result names; the rest are
// counted ("+3"), so that a result stays a few lines.
const ResultProducts = 5

// ResultProductList is a result's products as it names them.
type ResultProductList struct {
	Names []string
	More  int
}

// ProductsOf are a result's products, without the incident's own
// organization beside each ("Gmail", not "Gmail (Google Cloud)" in
// Google Cloud's incident), at most ResultProducts of them.
func (s *Search) ProductsOf(r SearchResult) ResultProductList {
	var out ResultProductList
	for _, p := range r.Products {
		if len(out.Names) == ResultProducts {
			out.More++
			continue
		}
		if r.Organization != "" {
			p = strings.TrimSuffix(p, " ("+r.Organization+")")
		}
		out.Names = append(out.Names, p)
	}
	return out
}

// When is a result's begin as lists give it: its date, time and zone
// where it happened ("March 13, 2017, 10:22 PDT"); the date alone when
// the time is not known.
func (s *Search) When(r SearchResult) string {
	if r.Begin.IsZero() {
		return r.Date
	}
	return s.l.DateTime(r.Begin, r.Begin.Location())
}

// Lasted is how long a result's incident lasted, or why that is not
// known: ongoing, or its end not stated.
func (s *Search) Lasted(r SearchResult) (string, error) {
	switch {
	case r.Ongoing:
		return s.l.T("status_ongoing")
	case r.Duration > 0:
		return s.l.Duration(r.Duration), nil
	}
	return s.l.T("status_end_not_stated")
}

// SeverityOf is a result's severity as a facet value: "unknown" when the
// report does not state it.
func (s *Search) SeverityOf(r SearchResult) string {
	if r.Severity == "" {
		return "unknown"
	}
	return r.Severity
}

// Chips are the active filters, each with the URL that removes it.
func (s *Search) Chips() ([]SearchChip, error) {
	var chips []SearchChip
	for _, param := range SearchFilters {
		v := s.Request.Filters[param]
		if v == "" {
			continue
		}
		label, err := s.Label(facetOf(param), v)
		if err != nil {
			return nil, err
		}
		chips = append(chips, SearchChip{Facet: facetOf(param), Label: label, Form: s.filterForm(param)})
	}
	return chips, nil
}

// Sorts are the orders of results, each with its parameter's value.
// Without words there is no relevance: the default is newest first.
func (s *Search) Sorts() ([]SearchSort, error) {
	cur, names := s.Request.Sort, SearchSorts
	if s.Request.Query == "" {
		names = names[1:]
		if cur == "" || cur == SearchSorts[0] {
			cur = "date"
		}
	}
	if cur == "" {
		cur = SearchSorts[0]
	}
	var out []SearchSort
	for _, name := range names {
		label, err := s.l.T("sort_" + name)
		if err != nil {
			return nil, err
		}
		v := name
		if name == SearchSorts[0] || s.Request.Query == "" && name == "date" {
			v = "" // the default
		}
		out = append(out, SearchSort{Label: label, Value: v, Current: name == cur})
	}
	return out, nil
}

// Kept are the parameters a new query keeps (the filters and the order),
// as hidden fields of the search form; the dates are fields of their own.
func (s *Search) Kept() [][2]string {
	return s.fields(slices.Concat([]string{"q", "all"}, searchDates)...)
}

// fields are the request's parameters as hidden fields, in the order of
// searchParams, but those in except; never the page.
func (s *Search) fields(except ...string) [][2]string {
	var out [][2]string
	q := s.params()
	for _, k := range searchParams {
		if v := q.Get(k); v != "" && !slices.Contains(except, k) {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// Forms are the page's forms its choices submit, each holding the
// request once (SearchForm): the request's, for the values of the facets
// not filtered by and the result pages; one per filter set, for its
// facet's values and its chip; those of the orders, "List all" and
// "Clear filters" when the page shows them. A choice's button names its
// form (FacetGroup.Form, SearchChip.Form…) and sets its parameter; a
// button without a name removes it.
func (s *Search) Forms() []SearchForm {
	var out []SearchForm
	add := func(id string, except ...string) {
		out = append(out, SearchForm{ID: id, Fields: s.fields(except...)})
	}
	request, listsAll := s.Pager() != nil, false
	for _, param := range SearchFilters {
		set, g := s.Request.Filters[param] != "", s.Group(facetOf(param))
		if set {
			add(s.filterForm(param), param)
		}
		request = request || g != nil && !set
		listsAll = listsAll || g != nil && g.All != ""
	}
	if request {
		add(formRequest)
	}
	if s.Response != nil && s.Response.Total > 1 {
		add(formSort, "sort")
	}
	if listsAll {
		add(formAll, "all")
	}
	if s.Filtered() {
		add(formClear, slices.Concat(SearchFilters, []string{"all"})...)
	}
	return out
}

// PageForm is the id of the form the result pages' buttons submit, each
// with its number (Pager's Newer, Older and Links' URL), page 1 without.
func (s *Search) PageForm() string { return formRequest }

// SortForm is the id of the form the orders' buttons submit.
func (s *Search) SortForm() string { return formSort }

// ClearForm is the id of the form that removes every filter.
func (s *Search) ClearForm() string { return formClear }

// Message is the error in the page's language.
func (s *Search) Message() (string, error) {
	if s.Error == nil {
		return "", nil
	}
	return s.l.T(s.Error.Key, s.Error.Args...)
}

func (s *Search) url(q url.Values) string {
	if len(q) == 0 {
		return s.base
	}
	return s.base + "?" + q.Encode()
}

func (s *Search) params() url.Values {
	q := url.Values{}
	r := s.Request
	if r.Query != "" {
		q.Set("q", r.Query)
	}
	for k, v := range r.Filters {
		if v != "" {
			q.Set(k, v)
		}
	}
	if r.Sort != "" && r.Sort != SearchSorts[0] {
		q.Set("sort", r.Sort)
	}
	if r.AllFacet != "" {
		q.Set("all", r.AllFacet)
	}
	return q
}

// Pager is the window of result pages: the first, the last and two on
// either side of the current page; nil when there is one page. Its
// "URLs" are the pages' numbers, the values of the buttons of PageForm.
func (s *Search) Pager() *Pager {
	if s.Response == nil || s.Response.Pages < 2 {
		return nil
	}
	return pageWindow(min(s.Page(), s.Response.Pages), s.Response.Pages, strconv.Itoa)
}

// Page is the current page number.
func (s *Search) Page() int { return max(s.Request.Page, 1) }

// Filtered reports whether a filter is active.
func (s *Search) Filtered() bool {
	for _, v := range s.Request.Filters {
		if v != "" {
			return true
		}
	}
	return false
}

// searchPage is the search page of lang with s on it.
func (r *Renderer) searchPage(l *locale.Lang, s *Search) (*PageView, error) {
	title, err := l.T("nav_search")
	if err != nil {
		return nil, err
	}
	loc := urls.SearchLoc(l.Tag)
	s.base = r.urls.URL(loc)
	s.l = l
	return r.newPage(l, "search", title, loc, func(p *PageView) { p.Search = s }), nil
}

// SearchPage renders the search page of lang with results, for a server.
func (r *Renderer) SearchPage(lang string, s *Search) ([]byte, error) {
	l := r.bundle.Get(lang)
	if l == nil {
		l = r.bundle.Default()
	}
	s.Served = true
	p, err := r.searchPage(l, s)
	if err != nil {
		return nil, err
	}
	return r.execute(p)
}
