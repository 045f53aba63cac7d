package render

import (
	"net/url"
	"strconv"

	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// Search is what the search page shows. The build writes the page with an
// empty Search; a server renders it again per request with results,
// filled from whatever answers its searches.
type Search struct {
	Served   bool // rendered by a server: results are real, no static-host notice
	Request  SearchRequest
	Response *SearchResponse // nil when nothing was asked, or on Error
	Error    string          // a query the syntax cannot use, in words for the reader
	base     string          // the search page URL, with base path
}

// SearchRequest is what the reader asked.
type SearchRequest struct {
	Query                  string
	Product, Region, Cause string // facet filters
	Organization, Severity string
	Year                   int // 0: any
	Page                   int // 1-based
}

// SearchResponse is one page of results.
type SearchResponse struct {
	DidYouMean string // the query with its typos corrected, if it had some
	Total      int    // matching incidents
	Pages      int    // result pages the reader may ask for
	Results    []SearchResult
	Facets     map[string][]SearchFacet // by facet name: organization, product, region, cause, severity, year, lang
}

// SearchResult is one incident found.
type SearchResult struct {
	Lang, Title, URL string
	Date             string // YYYY-MM-DD
	Organization     string // shown first; "" when not stated
	Severity         string // a facet value: minor, major, critical, unknown
	Products         []string
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

// With returns the search URL for the current query with one parameter set
// (or removed when value is ""), back on the first page.
func (s *Search) With(key, value string) string {
	q := s.params()
	q.Del("page")
	if value == "" {
		q.Del(key)
	} else {
		q.Set(key, value)
	}
	return s.base + "?" + q.Encode()
}

// PageURL returns the URL of results page n.
func (s *Search) PageURL(n int) string {
	q := s.params()
	if n > 1 {
		q.Set("page", strconv.Itoa(n))
	} else {
		q.Del("page")
	}
	return s.base + "?" + q.Encode()
}

func (s *Search) params() url.Values {
	q := url.Values{}
	r := s.Request
	for k, v := range map[string]string{"q": r.Query, "product": r.Product, "region": r.Region, "cause": r.Cause,
		"organization": r.Organization, "severity": r.Severity} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if r.Year != 0 {
		q.Set("year", strconv.Itoa(r.Year))
	}
	return q
}

// Pages lists the result page numbers, for pagination links.
func (s *Search) Pages() []int {
	if s.Response == nil || s.Response.Total == 0 {
		return nil
	}
	out := make([]int, s.Response.Pages)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// Page is the current page number.
func (s *Search) Page() int { return max(s.Request.Page, 1) }

// Filtered reports whether a facet filter is active.
func (s *Search) Filtered() bool { return s.Request.Filtered() }

// Filtered reports whether a facet filter is active.
func (r SearchRequest) Filtered() bool {
	return r.Product != "" || r.Region != "" || r.Cause != "" || r.Organization != "" || r.Severity != "" || r.Year != 0
}

// Cleared is the search URL for the current query without any facet
// filter.
func (s *Search) Cleared() string {
	c := &Search{Request: SearchRequest{Query: s.Request.Query}, base: s.base}
	return c.PageURL(1)
}

// searchPage is the search page of lang with s on it.
func (r *Renderer) searchPage(l *locale.Lang, s *Search) (*PageView, error) {
	title, err := l.T("nav_search")
	if err != nil {
		return nil, err
	}
	loc := urls.SearchLoc(l.Tag)
	s.base = r.urls.URL(loc)
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
