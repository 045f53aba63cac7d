package render

import (
	"net/url"
	"strconv"

	"github.com/postmortem-archive/gen/internal/i18n"
	"github.com/postmortem-archive/gen/search"
)

// SearchPath is a language's search page.
func SearchPath(lang string) string { return "/" + lang + "/search/" }

// Search is what the search page shows. The build writes the page with an
// empty Search; the server renders it again per request with results.
type Search struct {
	Served   bool // rendered by a server: results are real, no static-host notice
	Request  search.Request
	Response *search.Response
	Error    string // a query the syntax cannot use, in words for the reader
	base     string // the search page URL, with base path
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
	for k, v := range map[string]string{"q": r.Query, "product": r.Product, "region": r.Region, "cause": r.Cause} {
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
	per := s.Request.PerPage
	if per <= 0 {
		per = search.DefaultPerPage
	}
	n := min((s.Response.Total+per-1)/per, search.MaxWindow/per)
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// Page is the current page number.
func (s *Search) Page() int { return max(s.Request.Page, 1) }

// Filtered reports whether a facet filter is active.
func (s *Search) Filtered() bool {
	r := s.Request
	return r.Product != "" || r.Region != "" || r.Cause != "" || r.Year != 0
}

// searchPage is the search page of lang with s on it.
func (r *Renderer) searchPage(l *i18n.Lang, s *Search) *Page {
	title, _ := l.T("nav_search")
	s.base = r.site.URL(SearchPath(l.Tag))
	return r.newPage(l, "search", title, SearchPath(l.Tag), func(p *Page) { p.Search = s })
}

// SearchPage renders the search page of lang with results, for a server.
func (r *Renderer) SearchPage(lang string, s *Search) ([]byte, error) {
	l := r.bundle.Get(lang)
	if l == nil {
		l = r.bundle.Default()
	}
	s.Served = true
	return r.execute(r.searchPage(l, s))
}
