package search

// Search in named steps: plan the request (with the completions and
// corrections of its words, expand.go), build each language's queries, collect the matches of every language, collapse them to
// incidents, order them (checking the phrases of the page shown), and
// render the page.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/postmortem-archive/gen/search/locate"
	"github.com/postmortem-archive/gen/search/query"

	"github.com/postmortem-archive/gen/i18n"
)

// maxLangs bounds the number of language indexes one search combines
// (match.langs is a bit set).
const maxLangs = 64

// plan is a Request checked and parsed.
type plan struct {
	text          string // the query, trimmed
	query         *query.Query
	ranked        bool // ordered by relevance, else newest first
	page, perPage int
	filters       filters
	reader        string // canonical reader language, "" if unknown
	sort          string // Request.Sort, "" for relevance

	// alternatives are the other words a clause matches, by clause index
	// (expand.go); didYouMean is the query corrected, if a word was.
	alternatives map[int][]string
	// names are the names a clause's word begins, matched in their
	// keyword fields (expand.go).
	names      map[int][]facetName
	didYouMean string
	// short: the last word is too short to complete, and begins no name.
	short bool
	// from and to bound the local dates of the incidents (Request.From
	// and To), as typed; "" for no bound.
	from, to string

	// parts are the parts a clause's Chinese or Japanese word also
	// matches, a compound typed without a space (expand.go).
	parts map[int]compoundParts
}

// newPlan checks and parses a request.
func newPlan(r Request) (*plan, error) {
	p := &plan{text: strings.TrimSpace(r.Query), page: max(r.Page, 1), perPage: r.PerPage, alternatives: map[int][]string{}, names: map[int][]facetName{},
		parts: map[int]compoundParts{}}
	var err error
	if p.query, err = query.Parse(p.text); err != nil {
		return nil, err
	}
	if p.text != "" && p.query.Empty() {
		return nil, query.Problemf("search_error_nothing", "there is nothing to search for in “{value}”: type a word", "value", query.Clip(p.text))
	}
	p.ranked = p.query.Ranked()
	if p.perPage < 1 {
		p.perPage = DefaultPerPage
	}
	p.perPage = min(p.perPage, MaxPerPage)
	if p.page > MaxWindow/p.perPage {
		return nil, query.Problemf("search_error_page", "page {page} is too far: only the first {max} results can be shown", "page", p.page, "max", MaxWindow)
	}
	if r.Year < 0 || r.Year > 9999 {
		return nil, query.Problemf("search_error_year", "year:{value} is not a year (try year:2017)", "value", r.Year)
	}
	p.filters = filters{product: r.Product, region: r.Region, cause: r.Cause, org: r.Organization, severity: r.Severity, year: r.Year,
		duration: r.Duration}
	if err := p.browse(r); err != nil {
		return nil, err
	}
	p.reader, _ = i18n.Canonical(r.Lang) // an unknown reader language shows originals
	return p, nil
}

// browse checks and sets the filters and order of r that are not
// bleve queries: language, duration and sort.
func (p *plan) browse(r Request) error {
	if r.Language != "" {
		tag, err := i18n.Canonical(r.Language)
		if err != nil {
			return query.Problemf("search_error_language", "“{value}” is not a language tag", "value", query.Clip(r.Language))
		}
		p.filters.lang = tag
	}
	for _, d := range []struct{ name, v string }{{"from", r.From}, {"to", r.To}} {
		if d.v != "" && !isDateBound(d.v) {
			return query.Problemf("search_error_date", "{name}={value} is not a year-month or a date (try 2021-03 or 2021-03-15)", "name", d.name, "value", query.Clip(d.v))
		}
	}
	p.from, p.to = r.From, r.To
	if d := r.Duration; d != "" && d != DurationUnknown && !slices.ContainsFunc(DurationBands, func(b DurationBand) bool { return b.Name == d }) {
		return query.Problemf("search_error_duration", "“{value}” is not a duration band", "value", query.Clip(d))
	}
	switch r.Sort {
	case "", SortRelevance:
	case SortDate, SortOldest, SortDuration, SortSeverity:
		p.sort = r.Sort
	default:
		return query.Problemf("search_error_sort", "“{value}” is not an order of results", "value", query.Clip(r.Sort))
	}
	return nil
}

// searchBufs are the buffers of a search, reused.
type searchBufs struct {
	slot    []int32
	matches []match
	langs   []*langBufs
}

// match is one incident that matched.
type match struct {
	ord   int32
	in    *incident
	score float64 // best score of its matching documents
	langs uint64  // bit i: the document in searches[i] matches
	// unchecked: a phrase of some of its documents has not been checked
	// yet, so score may be too high and the incident may not match.
	unchecked bool
	dropped   bool
	tier      uint8 // tierExact… (surface.go); 0 unless the query has CJK words
}

// bestLang is the search of the best-scoring matching language (ties: the
// smallest tag).
func (m *match) bestLang(searches []*langSearch) *langSearch {
	var best *langSearch
	for b := m.langs; b != 0; b &= b - 1 {
		ls := searches[bits.TrailingZeros64(b)]
		if best == nil || ls.score[m.ord] > best.score[m.ord] {
			best = ls
		}
	}
	return best
}

// search runs a request (Searcher.Search).
func (ix *engine) search(ctx context.Context, r Request) (resp *Response, err error) {
	start := time.Now()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	p, err := newPlan(r)
	if err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, errors.New("search: index is closed")
	}
	if err := ix.expand(ctx, p); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	bufs, _ := ix.bufs.Get().(*searchBufs)
	if bufs == nil {
		bufs = &searchBufs{}
	}
	defer ix.bufs.Put(bufs)

	// A compound some report holds whole is searched without its parts
	// first: the parts, searched in every field, were most of its cost,
	// and are searched only if the whole leaves the window of its tiers
	// unfilled (surface.go); else they would add reports ranked below
	// the whole's.
	parts := p.parts
	p.parts = wholeOnly(parts)
	searches, matches, err := ix.matches(ctx, p, bufs)
	if err == nil && len(p.parts) < len(parts) && len(matches) < surfaceWindow {
		if err = closeReaders(searches); err == nil {
			p.parts = parts
			searches, matches, err = ix.matches(ctx, p, bufs)
		}
	}
	defer func() {
		if cerr := closeReaders(searches); err == nil && cerr != nil {
			resp, err = nil, cerr
		}
	}()
	if err != nil {
		return nil, err
	}
	defer func() { bufs.matches = matches[:0] }()
	if forms := surfaces(p.query); len(forms) > 0 && p.ranked && p.sort == "" {
		if err := preferSurface(ctx, matches, forms, wholes(p), searches); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
	}
	if matches, err = orderPage(ctx, matches, p, ix.meta, searches); err != nil {
		return nil, err
	}
	resp = &Response{
		Query:      p.text,
		DidYouMean: p.didYouMean,
		Total:      len(matches),
		Results:    []Result{},
		KeepTyping: p.short && len(matches) == 0,
	}
	resp.Facets, resp.FacetTotals = facets(matches, searches, ix.meta, r.AllFacet)
	if from := (p.page - 1) * p.perPage; from < len(matches) {
		if resp.Results, err = ix.results(matches[from:min(from+p.perPage, len(matches))], p, searches); err != nil {
			return nil, err
		}
	}
	resp.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// matches runs the searches of p in every language and returns them
// with the matches, one per incident, filtered by duration and dates.
func (ix *engine) matches(ctx context.Context, p *plan, bufs *searchBufs) ([]*langSearch, []match, error) {
	searches, err := ix.langSearches(p, bufs)
	if err != nil {
		return nil, nil, err
	}
	if err := collect(ctx, searches); err != nil {
		return searches, nil, err
	}
	matches := keepDuration(collapse(ix.meta, searches, bufs, p.reader), ix.meta, p.filters.duration)
	return searches, keepDates(matches, p.from, p.to), nil
}

// wholeOnly returns the parts of the words of a plan without those of
// the compounds some report holds whole.
func wholeOnly(parts map[int]compoundParts) map[int]compoundParts {
	out := map[int]compoundParts{}
	for i, c := range parts {
		if c.least < 2 {
			out[i] = c
		}
	}
	return out
}

// langSearches builds the queries of each language index; a language
// the query cannot match or exclude anything in is left out.
func (ix *engine) langSearches(p *plan, bufs *searchBufs) (searches []*langSearch, err error) {
	defer func() { // on error, close the readers opened
		if err != nil {
			err = errors.Join(err, closeReaders(searches))
			searches = nil
		}
	}()
	for _, lang := range sortedKeys(ix.subs) {
		idx := ix.subs[lang]
		b, err := newLangBuilder(lang, idx.Mapping())
		if err != nil {
			return searches, err
		}
		reader, err := openReader(idx)
		if err != nil {
			return searches, fmt.Errorf("search: %s index: %w", lang, err)
		}
		b.dict = reader
		if st := ix.bm25[lang]; st != nil {
			b.docCount = st.DocCount
		}
		if ix.readOnly {
			b.bigrams = &ix.bigrams
			if ix.bm25[lang] != nil && !ix.opts.allFields {
				b.present = &ix.present
			}
		}
		queries, err := b.build(p.query, p.filters, p.alternatives, p.names, p.parts)
		if p.filters.lang != "" && lang != p.filters.lang {
			queries.match = nil // its exclusions still count
		}
		if err != nil || queries.match == nil && queries.exclude == nil {
			if cerr := reader.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return searches, err
			}
			continue
		}
		texts := newTextCache(ix.docs[lang], &locate.Locator{Analyzer: b.text, Kind: b.kind}, ix.meta, lang)
		ls := &langSearch{i: len(searches), lang: lang, idx: idx, meta: ix.meta, ords: ix.ords[lang],
			queries: queries, texts: texts, ranked: p.ranked, opts: &ix.opts, reader: reader, bm25: ix.bm25[lang]}
		texts.ordOf = ls.ordOf
		if ls.ords != nil {
			texts.sketches = ls.ords.sketches
			ls.norms = ls.ords.norms
		} else {
			ls.norms = ix.norms.get(lang, func() []float32 { return lengthNorms(ix.meta.list, lang, ix.docs[lang]) })
		}
		if len(bufs.langs) <= len(searches) {
			bufs.langs = append(bufs.langs, &langBufs{})
		}
		ls.bufs = bufs.langs[len(searches)]
		searches = append(searches, ls)
	}
	if len(searches) > maxLangs {
		return searches, fmt.Errorf("search: more than %d languages", maxLangs)
	}
	return searches, nil
}

// collect runs the searches of every language in parallel.
func collect(ctx context.Context, searches []*langSearch) error {
	var wg sync.WaitGroup
	for _, ls := range searches {
		wg.Go(func() { ls.collect(ctx) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for _, ls := range searches {
		if ls.err != nil {
			return fmt.Errorf("search: %s index: %w", ls.lang, ls.err)
		}
	}
	return nil
}

// otherLanguageWeight scales the score of an incident not written in the
// reader's language (neither original nor translation): found through
// its version in another language, it counts half, like a completion or
// a correction of a word, since the reader may not read it. A Japanese
// reader who types 冷 gets the Japanese report of a cooling failure
// before Chinese ones that say 冷卻 as often.
const otherLanguageWeight = 0.5

// readerScore is the score of incident ord whose documents' best is
// best, for a reader whose language's documents are has
// (metaStore.readerDocs; nil: unknown).
func readerScore(has []bool, ord int32, best float64) float64 {
	if has != nil && !has[ord] {
		return best * otherLanguageWeight
	}
	return best
}

// collapse makes one match per incident from the hits of every language
// (score: the best of its documents, for the reader: readerScore),
// without the incidents an exclusion certainly removes.
func collapse(meta *metaStore, searches []*langSearch, bufs *searchBufs, reader string) []match {
	list := meta.list
	if cap(bufs.slot) < len(list) {
		bufs.slot = make([]int32, len(list))
	}
	slot := bufs.slot[:len(list)] // index in matches, plus one
	clear(slot)
	matches := bufs.matches[:0]
	for i, ls := range searches { // in tag order
		for _, ord := range ls.hitOrds {
			score := ls.score[ord]
			if math.IsNaN(score) {
				continue
			}
			k := slot[ord]
			if k == 0 {
				matches = append(matches, match{ord: ord, in: list[ord], score: score})
				k = int32(len(matches))
				slot[ord] = k
			}
			m := &matches[k-1]
			m.langs |= 1 << i
			m.score = max(m.score, score)
			if ls.state[ord]&stateUnchecked != 0 {
				m.unchecked = true
			}
		}
	}
	for _, ls := range searches {
		for _, ord := range ls.exclOrds {
			k := slot[ord]
			if k == 0 {
				continue
			}
			switch st := ls.state[ord]; {
			case st&stateExcluded != 0:
				matches[k-1].dropped = true
			case st&stateMaybeExcluded != 0:
				matches[k-1].unchecked = true
			}
		}
	}
	has := meta.readerDocs(reader)
	for i := range matches {
		matches[i].score = readerScore(has, matches[i].ord, matches[i].score)
	}
	return slices.DeleteFunc(matches, func(m match) bool { return m.dropped })
}

// keepDuration keeps the matches in the duration band named band ("":
// all).
func keepDuration(ms []match, meta *metaStore, band string) []match {
	if band == "" {
		return ms
	}
	id, ok := meta.terms[facetKindDur].ids[band]
	want := int32(facetKindDur)<<24 | id
	return slices.DeleteFunc(ms, func(m match) bool {
		return !ok || !slices.Contains(meta.facetData[meta.facetOff[m.ord]:meta.facetOff[m.ord+1]], want)
	})
}

// isDateBound reports whether s is a year-month (2021-03) or a date
// (2021-03-15).
func isDateBound(s string) bool {
	for _, layout := range []string{"2006-01", time.DateOnly} {
		if _, err := time.Parse(layout, s); err == nil && len(s) == len(layout) {
			return true
		}
	}
	return false
}

// keepDates keeps the matches whose local date is within from and to,
// both included; a year-month bound is its whole month. The dates are
// YYYY-MM-DD, so a bound compares with as many of their characters.
func keepDates(ms []match, from, to string) []match {
	if from == "" && to == "" {
		return ms
	}
	return slices.DeleteFunc(ms, func(m match) bool {
		d := m.in.date()
		return d == "" || from != "" && d[:len(from)] < from || to != "" && d[:len(to)] > to
	})
}

// orderPage orders the page shown and what precedes it, checking the
// unchecked incidents there until none is left; the rest stays unordered.
func orderPage(ctx context.Context, matches []match, p *plan, meta *metaStore, searches []*langSearch) ([]match, error) {
	order := orderOf(p, meta)
	end := p.page * p.perPage
	for {
		to := min(end, len(matches))
		orderTop(matches, to, order)
		var todo []*match
		for i := range matches[:to] {
			if matches[i].unchecked {
				todo = append(todo, &matches[i])
			}
		}
		if len(todo) == 0 {
			return matches, nil
		}
		if err := checkMatches(ctx, searches, todo, meta.readerDocs(p.reader)); err != nil {
			return nil, err
		}
		matches = slices.DeleteFunc(matches, func(m match) bool { return m.dropped })
	}
}

// checkMatches checks the unchecked documents of the incidents ms in every
// language and updates their scores (for reader: readerScore) and
// languages; those that no longer match are marked dropped. has is
// metaStore.readerDocs of the reader.
func checkMatches(ctx context.Context, searches []*langSearch, ms []*match, has []bool) error {
	var wg sync.WaitGroup
	for _, ls := range searches {
		var hits, excl []int32
		for _, m := range ms {
			if ls.state[m.ord]&stateUnchecked != 0 {
				hits = append(hits, m.ord)
			}
			if ls.state[m.ord]&stateMaybeExcluded != 0 {
				excl = append(excl, m.ord)
			}
		}
		if len(hits)+len(excl) == 0 {
			continue
		}
		wg.Go(func() { ls.err = ls.check(ctx, hits, excl) })
	}
	wg.Wait()
	for _, ls := range searches {
		if ls.err != nil {
			return fmt.Errorf("search: %s index: %w", ls.lang, ls.err)
		}
	}
	for _, m := range ms {
		ord := m.in.ord
		m.langs, m.score, m.unchecked = 0, 0, false
		for i, ls := range searches {
			if ls.state[ord]&stateExcluded != 0 {
				m.dropped = true
			}
			if !math.IsNaN(ls.score[ord]) {
				m.langs |= 1 << i
				m.score = max(m.score, ls.score[ord])
			}
		}
		m.score = readerScore(has, ord, m.score)
		if m.langs == 0 {
			m.dropped = true
		}
	}
	return nil
}
