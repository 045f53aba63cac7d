package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	htmlhl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html"
	"github.com/blevesearch/bleve/v2/search/query"
)

// match is one incident that matched, with the score of each language
// version that matched.
type match struct {
	in    *incident
	score float64     // best of langs
	langs []langScore // matching languages, in tag order
}

type langScore struct {
	lang  string
	score float64
}

// bestLang is the best-scoring matching language (ties: smallest tag).
func (m *match) bestLang() string {
	best := m.langs[0]
	for _, ls := range m.langs[1:] {
		if ls.score > best.score {
			best = ls
		}
	}
	return best.lang
}

func (m *match) matched(lang string) bool {
	for _, ls := range m.langs {
		if ls.lang == lang {
			return true
		}
	}
	return false
}

// Search runs a request. It returns an error wrapping ErrBadQuery for a
// request that cannot be searched (see the limits), the context's error if
// it is cancelled or its deadline passes (DefaultTimeout applies when it
// has none), and never panics on any query text.
func (ix *Index) Search(ctx context.Context, r Request) (*Response, error) {
	start := time.Now()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}

	qtext := strings.TrimSpace(r.Query)
	p, err := parseQuery(qtext)
	if err != nil {
		return nil, err
	}
	if qtext != "" && p.empty() {
		return nil, badQuery("there is nothing to search for in %q: type a word", clip(qtext))
	}
	page, perPage := r.Page, r.PerPage
	if page < 1 {
		page = 1
	}
	if perPage < 1 {
		perPage = DefaultPerPage
	}
	perPage = min(perPage, MaxPerPage)
	if page > MaxWindow/perPage {
		return nil, badQuery("page %d is too far: only the first %d results can be shown", page, MaxWindow)
	}
	if r.Year < 0 || r.Year > 9999 {
		return nil, badQuery("year %d is not a year", r.Year)
	}
	f := filters{product: r.Product, region: r.Region, cause: r.Cause, year: r.Year}
	reader, _ := CanonicalLang(r.Lang) // an unknown reader language shows originals

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, errors.New("search: index is closed")
	}

	// Build the queries of each language, then run them in parallel.
	type run struct {
		lang     string
		lq       langQueries
		hits     map[string]float64
		excluded []string
		err      error
	}
	var runs []*run
	queries := map[string]query.Query{}
	for _, lang := range sortedKeys(ix.subs) {
		b, err := newLangBuilder(lang, ix.subs[lang].Mapping())
		if err != nil {
			return nil, err
		}
		lq, err := b.build(p, f)
		if err != nil {
			return nil, err
		}
		if lq.match != nil || lq.exclude != nil {
			runs = append(runs, &run{lang: lang, lq: lq})
		}
		if lq.match != nil {
			queries[lang] = lq.match
		}
	}
	ranked := p.ranked()
	var wg sync.WaitGroup
	for _, rn := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx := ix.subs[rn.lang]
			if rn.lq.match != nil {
				rn.hits, rn.err = collectAll(ctx, idx, rn.lq.match, ranked)
				if rn.err != nil {
					return
				}
			}
			if rn.lq.exclude != nil {
				var excluded map[string]float64
				excluded, rn.err = collectAll(ctx, idx, rn.lq.exclude, false)
				for id := range excluded {
					rn.excluded = append(rn.excluded, id)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}

	// Collapse to incidents.
	size := 0
	for _, rn := range runs {
		size = max(size, len(rn.hits))
	}
	byID := make(map[string]*match, size)
	for _, rn := range runs { // in tag order, so m.langs is sorted
		if rn.err != nil {
			return nil, fmt.Errorf("search: %s index: %w", rn.lang, rn.err)
		}
		for id, score := range rn.hits {
			in := ix.meta.incidents[id]
			if in == nil || in.docs[rn.lang] == nil {
				continue // not possible unless meta.json and the index disagree
			}
			m := byID[id]
			if m == nil {
				m = &match{in: in, score: score}
				byID[id] = m
			}
			m.langs = append(m.langs, langScore{rn.lang, score})
			m.score = max(m.score, score)
		}
	}
	for _, rn := range runs {
		for _, id := range rn.excluded {
			delete(byID, id)
		}
	}
	matches := make([]*match, 0, len(byID))
	for _, m := range byID {
		matches = append(matches, m)
	}
	if ranked {
		slices.SortFunc(matches, func(a, b *match) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return strings.Compare(a.in.id, b.in.id)
		})
	} else {
		slices.SortFunc(matches, func(a, b *match) int {
			if c := b.in.primary.Begin.Compare(a.in.primary.Begin); c != 0 {
				return c
			}
			return strings.Compare(a.in.id, b.in.id)
		})
	}

	resp := &Response{
		Query:   qtext,
		Total:   len(matches),
		Results: []Result{},
		Facets:  facets(matches),
	}
	from := (page - 1) * perPage
	if from < len(matches) {
		pageMatches := matches[from:min(from+perPage, len(matches))]
		results, err := ix.render(ctx, pageMatches, p, queries, reader, ranked)
		if err != nil {
			return nil, err
		}
		resp.Results = results
	}
	resp.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// collectAll returns the id and score of every document matching q (up to
// MaxHitsPerLanguage). It drives bleve's searcher directly instead of
// SearchInContext: with all hits wanted, bleve's top-N collector would sort
// them, turn every phrase hit's term locations into maps and allocate per
// hit for stored fields that are not asked for, tripling the cost of broad
// queries. Scores are the same (TestCollectAllMatchesBleve).
func collectAll(ctx context.Context, idx bleve.Index, q query.Query, score bool) (map[string]float64, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	opts := blevesearch.SearcherOptions{}
	if !score {
		opts.Score = "none"
	}
	s, err := q.Searcher(ctx, r, idx.Mapping(), opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &blevesearch.SearchContext{
		DocumentMatchPool: blevesearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0),
		IndexReader:       r,
	}
	hits := map[string]float64{}
	for n := 0; n < MaxHitsPerLanguage; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		dm, err := s.Next(sctx)
		if err != nil {
			return nil, err
		}
		if dm == nil {
			break
		}
		id, err := r.ExternalID(dm.IndexInternalID)
		if err != nil {
			return nil, err
		}
		hits[id] = dm.Score
		sctx.DocumentMatchPool.Put(dm)
	}
	return hits, nil
}

// facets counts matching incidents per product, region, cause, year and
// matching language. Order: count descending, then term.
func facets(matches []*match) map[string][]FacetCount {
	counts := map[string]map[string]int{}
	for _, name := range []string{FacetProduct, FacetRegion, FacetCause, FacetYear, FacetLang} {
		counts[name] = map[string]int{}
	}
	for _, m := range matches {
		for _, v := range m.in.products {
			counts[FacetProduct][v]++
		}
		for _, v := range m.in.regions {
			counts[FacetRegion][v]++
		}
		for _, v := range m.in.causes {
			counts[FacetCause][v]++
		}
		if m.in.year != "" {
			counts[FacetYear][m.in.year]++
		}
		for _, ls := range m.langs {
			counts[FacetLang][ls.lang]++
		}
	}
	out := make(map[string][]FacetCount, len(counts))
	for name, c := range counts {
		fc := make([]FacetCount, 0, len(c))
		for term, n := range c {
			fc = append(fc, FacetCount{Term: term, Count: n})
		}
		slices.SortFunc(fc, func(a, b FacetCount) int {
			if c := cmp.Compare(b.Count, a.Count); c != 0 {
				return c
			}
			return strings.Compare(a.Term, b.Term)
		})
		if len(fc) > MaxFacetTerms {
			fc = fc[:MaxFacetTerms]
		}
		out[name] = fc
	}
	return out
}

// render turns the matches of one page into results: it picks the language
// to show, and highlights the matching document of each (one small bleve
// query per language).
func (ix *Index) render(ctx context.Context, page []*match, p *parsedQuery, queries map[string]query.Query, reader string, ranked bool) ([]Result, error) {
	results := make([]Result, len(page))
	fragLangs := make([]string, len(page))
	highlight := map[string][]string{} // lang → ids
	for i, m := range page {
		show := displayLang(m, p, reader)
		d := m.in.docs[show]
		results[i] = Result{
			ID:        m.in.id,
			Lang:      show,
			Title:     d.Title,
			URL:       d.URL,
			Date:      date(d.Begin, m.in.primary.Begin),
			Products:  nonNil(d.Products),
			Fragments: []string{},
		}
		if ranked {
			results[i].Score = m.score
			fl := show
			if !m.matched(show) {
				fl = m.bestLang()
			}
			fragLangs[i] = fl
			highlight[fl] = append(highlight[fl], m.in.id)
		}
	}

	frags := map[string]map[string][]string{} // lang → id → fragments
	for _, lang := range sortedKeys(highlight) {
		ids := highlight[lang]
		q := query.NewConjunctionQuery([]query.Query{queries[lang], query.NewDocIDQuery(ids)})
		req := bleve.NewSearchRequestOptions(q, len(ids), 0, false)
		req.Highlight = bleve.NewHighlightWithStyle(htmlhl.Name)
		res, err := ix.subs[lang].SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: highlight (%s): %w", lang, err)
		}
		frags[lang] = map[string][]string{}
		for _, h := range res.Hits {
			var fs []string
			for _, field := range []string{fSummary, fBody, fTimeline} {
				for _, fr := range h.Fragments[field] {
					if len(fs) < maxFragments && strings.Contains(fr, "<mark>") {
						fs = append(fs, fr)
					}
				}
			}
			frags[lang][h.ID] = fs
		}
	}

	// Results without highlighted fragments (matched in the title or a
	// product name only, or no text query) get the start of their summary.
	excerpt := map[string][]int{} // lang → result indexes
	for i := range results {
		if fs := frags[fragLangs[i]][results[i].ID]; len(fs) > 0 {
			results[i].Fragments = fs
			if fragLangs[i] != results[i].Lang {
				results[i].FragmentsLang = fragLangs[i]
			}
			continue
		}
		excerpt[results[i].Lang] = append(excerpt[results[i].Lang], i)
	}
	for _, lang := range sortedKeys(excerpt) {
		idxs := excerpt[lang]
		ids := make([]string, len(idxs))
		for j, i := range idxs {
			ids[j] = results[i].ID
		}
		req := bleve.NewSearchRequestOptions(query.NewDocIDQuery(ids), len(ids), 0, false)
		req.Fields = []string{fSummary}
		req.Score = "none"
		res, err := ix.subs[lang].SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search: excerpts (%s): %w", lang, err)
		}
		summaries := map[string]string{}
		for _, h := range res.Hits {
			if s, ok := h.Fields[fSummary].(string); ok {
				summaries[h.ID] = s
			}
		}
		for _, i := range idxs {
			if s := excerptOf(summaries[results[i].ID]); s != "" {
				results[i].Fragments = []string{s}
			}
		}
	}
	return results, nil
}

// displayLang chooses the language version to show: the reader's when it
// exists, else the original, else the best-matching one; languages the
// query excluded with lang: are never chosen.
func displayLang(m *match, p *parsedQuery, reader string) string {
	if reader != "" && m.in.docs[reader] != nil && p.allows(reader) {
		return reader
	}
	if o := m.in.orig; o != "" && m.in.docs[o] != nil && p.allows(o) {
		return o
	}
	return m.bestLang()
}

// excerptOf returns the escaped start of s, cut at a word boundary when
// there is one near the limit.
func excerptOf(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= fragmentRunes {
		return html.EscapeString(s)
	}
	cut := string([]rune(s)[:fragmentRunes])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return html.EscapeString(cut) + "…"
}

func date(t, fallback time.Time) string {
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
