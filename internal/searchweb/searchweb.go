// Package searchweb answers searches over HTTP: the JSON API at
// /api/search and the server-rendered search pages /L/search/, both from
// the same index. It bounds what one request may cost: concurrent
// searches, time per search, and what a query may ask for.
package searchweb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/postmortem-archive/gen/internal/refcount"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/search"

	"github.com/postmortem-archive/gen/i18n"
)

// Limits on serving searches.
const (
	// Timeout bounds one search; a slower one answers 503.
	Timeout = 2 * time.Second
	// queueWait is how long a search may wait for a free slot.
	queueWait = time.Second
)

// Handler serves searches from the index and pages it currently holds;
// the authoring server swaps both after every rebuild.
type Handler struct {
	state    atomic.Pointer[state]
	basePath string
	slots    chan struct{}
	logf     func(format string, args ...any)
}

type state struct {
	index    *refcount.Ref[search.Searcher] // one reference held by the state
	pages    *render.Renderer
	langs    []string
	fallback string
}

// acquire returns the current state with a reference to its index, or nil
// before the first Set. The caller releases the index when done.
func (h *Handler) acquire() *state {
	for {
		st := h.state.Load()
		if st == nil || st.index.Acquire() {
			return st
		}
		// Replaced and its index closed since it was loaded: the next
		// one is stored already.
	}
}

func (h *Handler) release(st *state) {
	if err := st.index.Release(); err != nil {
		h.logf("closing a replaced search index: %v", err)
	}
}

// New returns a handler for a site served under basePath ("" or
// "/archive"), allowing maxConcurrent searches at once.
func New(basePath string, maxConcurrent int, logf func(string, ...any)) *Handler {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Handler{basePath: strings.TrimSuffix(basePath, "/"), slots: make(chan struct{}, max(maxConcurrent, 1)), logf: logf}
}

// Set makes later requests use index and pages; langs are the site
// languages, the first being the default. Set takes a reference to index
// of its own, and releases the previous index's when the last search on it
// ends; the caller keeps its reference, to release when it likes.
func (h *Handler) Set(index *refcount.Ref[search.Searcher], pages *render.Renderer, langs []string, fallback string) {
	if !index.Acquire() {
		panic("searchweb: Set with a closed index")
	}
	if old := h.state.Swap(&state{index: index, pages: pages, langs: langs, fallback: fallback}); old != nil {
		h.release(old)
	}
}

// API serves GET /api/search as JSON.
func (h *Handler) API(w http.ResponseWriter, r *http.Request) {
	st := h.acquire()
	if st == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "the site is still building"})
		return
	}
	defer h.release(st)
	req, err := st.request(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorJSON(err))
		return
	}
	res, status, err := h.search(r.Context(), st, req)
	if err != nil {
		retryLater(w, err)
		writeJSON(w, status, errorJSON(err))
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// Page serves /L/search/ rendered with results; it reports false for
// every other path, so that the caller serves it as a file.
func (h *Handler) Page(w http.ResponseWriter, r *http.Request) bool {
	st := h.acquire()
	if st == nil {
		return false
	}
	defer h.release(st)
	if st.pages == nil {
		return false
	}
	// The path is as this handler sees it, under its own base path (a
	// server may strip the one the pages were built for).
	scheme := st.pages.URLs()
	scheme.BasePath = h.basePath
	loc := scheme.ParseURL(r.URL.Path)
	lang := loc.Lang
	if loc.Kind != urls.Search || !slices.Contains(st.langs, lang) {
		return false
	}
	q := r.URL.Query()
	if clean, ok := withoutEmpty(q); ok {
		// A form without JavaScript sends its empty fields (from=&to=):
		// the page's address is the one a link to it would have. The
		// location is relative, right under any base path.
		w.Header().Set("Location", "./"+clean)
		w.WriteHeader(http.StatusSeeOther)
		return true
	}
	q.Set("lang", lang)
	// The page shows search.DefaultPerPage results a page, as its links
	// to other pages count them: per_page is the API's, and 50 results
	// with their passages would pass the page's 100 KB.
	q.Del("per_page")
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = q.Encode()
	// Without words, the page lists every incident, newest first, to
	// browse by facet.
	view := &render.Search{}
	status := http.StatusOK
	req, err := st.request(r2)
	view.Request = pageRequest(req)
	if err != nil {
		view.Error, status = problemOf(err), http.StatusBadRequest
	} else if res, code, err := h.search(r.Context(), st, req); err != nil {
		view.Error, status = problemOf(err), code
		retryLater(w, err)
	} else {
		view.Response = pageResponse(req, res)
		if last := view.Response.Pages; len(res.Results) == 0 && last > 0 && req.Page > last {
			// A page past the last (an old link; the archive has fewer
			// results now) would state the total and show none of them:
			// the last page shows some.
			q.Del("lang")
			q.Set("page", strconv.Itoa(last))
			if last == 1 {
				q.Del("page")
			}
			w.Header().Set("Location", "./"+encoded(q))
			w.WriteHeader(http.StatusSeeOther)
			return true
		}
	}
	page, err := st.pages.SearchPage(lang, view)
	if err != nil {
		h.logf("search page: %v", err)
		http.Error(w, "the search page could not be rendered", http.StatusInternalServerError)
		return true
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(page)
	return true
}

// withoutEmpty is the query string of q without its empty parameters
// ("" or "?…"), and whether q had any.
func withoutEmpty(q url.Values) (string, bool) {
	had := false
	for k, vs := range q {
		if slices.Contains(vs, "") {
			had = true
			if vs = slices.DeleteFunc(vs, func(v string) bool { return v == "" }); len(vs) == 0 {
				delete(q, k)
			} else {
				q[k] = vs
			}
		}
	}
	return encoded(q), had
}

// encoded is the query string of q: "" or "?…".
func encoded(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// pageRequest is what the search page shows of a request.
func pageRequest(req search.Request) render.SearchRequest {
	year := ""
	if req.Year != 0 {
		year = strconv.Itoa(req.Year)
	}
	return render.SearchRequest{Query: req.Query, Sort: req.Sort, Page: req.Page, AllFacet: req.AllFacet, Filters: map[string]string{
		"organization": req.Organization, "product": req.Product, "region": req.Region, "cause": req.Cause,
		"severity": req.Severity, "year": year, "duration": req.Duration, "language": req.Language,
		"from": req.From, "to": req.To,
	}}
}

// Problems of the server rather than of the request, each with the key
// of its message in the site's languages.
var (
	errBusy   = errors.New("the server is busy; try again in a moment")
	errSlow   = errors.New("the search took too long; try fewer words")
	errFailed = errors.New("the search failed")
	errKeys   = map[error]string{errBusy: "search_error_busy", errSlow: "search_error_slow", errFailed: "search_error_failed"}
)

// busyRetry is how long a client is told to wait after errBusy: a
// search takes at most Timeout, most a few milliseconds.
const busyRetry = "1"

// retryLater tells a client refused for errBusy when to try again.
func retryLater(w http.ResponseWriter, err error) {
	if errors.Is(err, errBusy) {
		w.Header().Set("Retry-After", busyRetry)
	}
}

// problemOf is an error of a search as the page says it: by the key of
// its message in the site's languages.
func problemOf(err error) *render.SearchError {
	var p *search.Problem
	if errors.As(err, &p) {
		return &render.SearchError{Key: p.Key, Args: p.Args}
	}
	for e, key := range errKeys {
		if errors.Is(err, e) {
			return &render.SearchError{Key: key}
		}
	}
	return &render.SearchError{Key: "search_error_failed"}
}

// errorJSON is an error as the API answers it: in English, with the key
// of its message for clients that say it in other words.
func errorJSON(err error) map[string]string {
	out := map[string]string{"error": err.Error()}
	if p := problemOf(err); p.Key != "" {
		out["code"] = strings.TrimPrefix(p.Key, "search_error_")
	}
	return out
}

// pageResponse is what the search page shows of a response: its results
// and facets, and how many result pages the index lets a reader page
// through.
func pageResponse(req search.Request, res *search.Response) *render.SearchResponse {
	per := req.PerPage
	if per <= 0 {
		per = search.DefaultPerPage
	}
	out := &render.SearchResponse{
		DidYouMean:  res.DidYouMean,
		Total:       res.Total,
		KeepTyping:  res.KeepTyping,
		Pages:       min((res.Total+per-1)/per, search.MaxWindow/per),
		Facets:      map[string][]render.SearchFacet{},
		FacetTotals: res.FacetTotals,
	}
	for _, r := range res.Results {
		begin, _ := time.Parse(time.RFC3339, r.Begin) // zero when not known
		if z, err := time.LoadLocation(r.Zone); err == nil && r.Zone != "" {
			begin = begin.In(z) // its abbreviation, not only its offset
		}
		out.Results = append(out.Results, render.SearchResult{
			Lang: r.Lang, Title: r.Title, URL: r.URL, Date: r.Date, Products: r.Products,
			Organization: r.Organization, Severity: r.Severity,
			Begin: begin, Duration: time.Duration(r.Duration) * time.Second, Ongoing: r.Ongoing,
			Fragments: r.Fragments, FragmentsLang: r.FragmentsLang,
		})
	}
	for name, counts := range res.Facets {
		for _, c := range counts {
			out.Facets[name] = append(out.Facets[name], render.SearchFacet{Term: c.Term, Count: c.Count})
		}
	}
	return out
}

// search runs one bounded search: it waits briefly for a free slot and
// gives up after Timeout.
func (h *Handler) search(ctx context.Context, st *state, req search.Request) (*search.Response, int, error) {
	wait, cancel := context.WithTimeout(ctx, queueWait)
	defer cancel()
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-wait.Done():
		return nil, http.StatusServiceUnavailable, errBusy
	}
	ctx, cancel = context.WithTimeout(ctx, Timeout)
	defer cancel()
	res, err := st.index.Value().Search(ctx, req)
	switch {
	case err == nil:
		return res, http.StatusOK, nil
	case errors.Is(err, search.ErrBadQuery):
		return nil, http.StatusBadRequest, err
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return nil, http.StatusServiceUnavailable, errSlow
	}
	h.logf("search %q: %v", req.Query, err)
	return nil, http.StatusInternalServerError, errFailed
}

// request reads a search request from URL parameters. A malformed number
// or unknown language is an error for the reader, never a server error.
func (st *state) request(r *http.Request) (search.Request, error) {
	q := r.URL.Query()
	// What a reader sends is echoed in pages and JSON sent as UTF-8:
	// invalid bytes become U+FFFD here, once for every echo.
	get := func(name string) string { return strings.ToValidUTF8(q.Get(name), "\uFFFD") }
	req := search.Request{
		Query: strings.TrimSpace(get("q")), Product: get("product"), Region: get("region"), Cause: get("cause"),
		Organization: get("organization"), Severity: get("severity"),
		Language: get("language"), Duration: get("duration"), Sort: get("sort"),
		AllFacet: get("all"), From: get("from"), To: get("to"),
		Lang: st.fallback,
	}
	if l := get("lang"); l != "" {
		tag, err := i18n.Canonical(l)
		if err != nil || !slices.Contains(st.langs, tag) {
			langs := strings.Join(st.langs, ", ")
			return req, search.NewProblem("search_error_site_lang", "lang must be one of {langs}", "langs", langs)
		}
		req.Lang = tag
	}
	num := func(name string, dst *int, lo, hi int) error {
		s := get(name)
		if s == "" {
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return search.NewProblem("search_error_number", "{name} must be a number from {lo} to {hi}", "name", name, "lo", lo, "hi", hi)
		}
		*dst = n
		return nil
	}
	if err := num("page", &req.Page, 1, search.MaxWindow); err != nil {
		return req, err
	}
	if err := num("per_page", &req.PerPage, 1, search.MaxPerPage); err != nil {
		return req, err
	}
	if err := num("year", &req.Year, 1, 9999); err != nil {
		return req, err
	}
	return req, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v)
}
