package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	blevequery "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/query"
)

// eagerChecks: when the candidates of one language that a search accepted
// without checking their phrases (see phrase.go) are at most this many,
// they are all checked, and totals and facets are exact; otherwise only
// those that reach the page shown are, and totals and facets count the
// others as matches. Checking one costs 10–40 µs.
var eagerChecks = 100

// maxLangs bounds the number of language indexes one search combines
// (match.langs is a bit set).
const maxLangs = 64

// searchBufs are the buffers of a search, reused.
type searchBufs struct {
	slot []int32
	ms   []match
	runs []*runBufs
}

// match is one incident that matched.
type match struct {
	ord   int32
	in    *incident
	score float64 // best score of its matching documents
	langs uint64  // bit i: the document in runs[i] matches
	// unchecked: a phrase of some of its documents has not been checked
	// yet, so score may be too high and the incident may not match.
	unchecked bool
	dropped   bool
}

// bestLang is the run of the best-scoring matching language (ties: the
// smallest tag).
func (m *match) bestLang(runs []*langRun) *langRun {
	var best *langRun
	for b := m.langs; b != 0; b &= b - 1 {
		rn := runs[bits.TrailingZeros64(b)]
		if best == nil || rn.score[m.ord] > best.score[m.ord] {
			best = rn
		}
	}
	return best
}

// ordTable maps the document numbers of a read-only language index to
// incident ords (plus one; 0: not known yet), learnt as searches meet
// them, so that collecting hits does not read bleve's stored _id field.
type ordTable struct {
	t []atomic.Int32
}

// Bits of langRun.state.
const (
	stUnchecked = 1 << iota // a hit whose phrases are not checked yet
	stExclSure              // excluded
	stExclMaybe             // excluded by an unchecked phrase
)

// runBufs are the buffers of one language's search, reused from search to
// search (the garbage of broad searches otherwise cost more than their
// work).
type runBufs struct {
	score              []float64
	state              []uint8
	num                []uint64
	hits, hits2        []hitRec
	mdeferred, xdeferr []nodeSet
}

// langRun is the search of one language index.
type langRun struct {
	i      int // in runs
	lang   string
	idx    bleve.Index
	meta   *metaStore
	ords   *ordTable // nil for an in-memory index
	lq     langQueries
	texts  *textCache
	mchk   *phraseCheck // of lq.match
	xchk   *phraseCheck // of lq.exclude
	ranked bool
	reader index.IndexReader
	bufs   *runBufs

	// By incident ord.
	score []float64 // score of its document; NaN: no match
	state []uint8
	num   []uint64 // the document's number in the index

	hitOrds    []int32 // the ords with a score, in index order
	exclOrds   []int32 // the ords excluded
	nUnchecked int
	nXMaybe    int
	err        error
}

// ordOf returns the incident ord of a document of this index, -1 if the
// metadata does not know it (not possible unless the document store and
// the index disagree).
func (rn *langRun) ordOf(iid index.IndexInternalID) (int32, error) {
	n := iid.Value()
	cache := rn.ords != nil && n < uint64(len(rn.ords.t))
	if cache {
		if v := rn.ords.t[n].Load(); v > 0 {
			return v - 1, nil
		}
	}
	id, err := rn.reader.ExternalID(iid)
	if err != nil {
		return -1, err
	}
	in := rn.meta.incidents[id]
	if in == nil || in.docs[rn.lang] == nil {
		return -1, nil
	}
	if cache {
		rn.ords.t[n].Store(in.ord + 1)
	}
	return in.ord, nil
}

// splitDocs: a read-only language index with at least this many
// documents is searched by two goroutines, each over half of its document
// numbers (the two languages of a typical archive rarely match as many
// documents, so one core would otherwise idle).
var splitDocs = 2000

// hitRec is one hit of a searcher.
type hitRec struct {
	ord   int32
	score float64
	num   uint64 // document number
}

// runPart drives a searcher of q over the document numbers [from, to)
// (to 0: no end), up to MaxHitsPerLanguage hits. It drives bleve's
// searcher directly instead of SearchInContext: with all hits wanted,
// bleve's top-N collector would sort them and allocate per hit for stored
// fields that are not asked for, tripling the cost of broad queries.
// Scores are the same (TestCollectAllMatchesBleve).
func (rn *langRun) runPart(ctx context.Context, q blevequery.Query, score bool, from, to uint64, hits []hitRec) ([]hitRec, error) {
	opts := blevesearch.SearcherOptions{}
	if !score {
		opts.Score = "none"
	}
	s, err := q.Searcher(ctx, rn.reader, rn.idx.Mapping(), opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &blevesearch.SearchContext{
		DocumentMatchPool: blevesearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0),
		IndexReader:       rn.reader,
	}
	var dm *blevesearch.DocumentMatch
	if from > 0 {
		dm, err = s.Advance(sctx, index.NewIndexInternalID(nil, from))
	} else {
		dm, err = s.Next(sctx)
	}
	for n := 0; dm != nil && err == nil && n < MaxHitsPerLanguage; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		num := dm.IndexInternalID.Value()
		if to > 0 && num >= to {
			break
		}
		ord, err := rn.ordOf(dm.IndexInternalID)
		if err != nil {
			return nil, err
		}
		if ord >= 0 {
			hits = append(hits, hitRec{ord, dm.Score, num})
		}
		sctx.DocumentMatchPool.Put(dm)
		dm, err = s.Next(sctx)
	}
	return hits, err
}

// run collects the hits of q over the whole index with phrases deferred,
// into chk.
func (rn *langRun) run(ctx context.Context, q blevequery.Query, score bool, chk *phraseCheck) ([]hitRec, error) {
	var n uint64
	if rn.ords != nil {
		n, _ = rn.reader.DocCount()
	}
	if n < uint64(splitDocs) {
		return rn.runPart(withCheck(ctx, chk), q, score, 0, 0, rn.bufs.hits[:0])
	}
	// Two halves, with disjoint document numbers.
	var hits2 []hitRec
	var err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		hits2, err2 = rn.runPart(withCheck(ctx, chk.part(n/2, 0)), q, score, n/2, 0, rn.bufs.hits2[:0])
	}()
	hits, err := rn.runPart(withCheck(ctx, chk.part(0, n/2)), q, score, 0, n/2, rn.bufs.hits[:0])
	<-done
	if err == nil {
		err = err2
	}
	rn.bufs.hits2 = hits2
	return append(hits, hits2...), err
}

// collect runs the match and exclude queries with phrases unchecked, and
// checks them if there are few.
func (rn *langRun) collect(ctx context.Context) {
	adv, err := rn.idx.Advanced()
	if err != nil {
		rn.err = err
		return
	}
	if rn.reader, err = adv.Reader(); err != nil {
		rn.err = err
		return
	}
	docs, _ := rn.reader.DocCount()
	docs = docs*9/8 + 64 // a little room for the numbers of deleted documents
	b := rn.bufs
	rn.mchk = newPhraseCheck(rn.lq.matchNodes, rn.texts, int(docs), b.mdeferred)
	rn.xchk = newPhraseCheck(rn.lq.excludeNodes, rn.texts, int(docs), b.xdeferr)
	if rn.mchk.sets.byNum != nil {
		b.mdeferred = rn.mchk.sets.byNum
	}
	if rn.xchk.sets.byNum != nil {
		b.xdeferr = rn.xchk.sets.byNum
	}

	n := len(rn.meta.list)
	if cap(b.score) < n {
		b.score, b.state, b.num = make([]float64, n), make([]uint8, n), make([]uint64, n)
	}
	rn.score, rn.state, rn.num = b.score[:n], b.state[:n], b.num[:n]
	clear(rn.state)
	nan := math.NaN()
	for i := range rn.score {
		rn.score[i] = nan
	}
	if rn.lq.match != nil {
		hits, err := rn.run(ctx, rn.lq.match, rn.ranked, rn.mchk)
		b.hits = hits
		if err != nil {
			rn.err = err
			return
		}
		rn.hitOrds = make([]int32, len(hits))
		for i, h := range hits {
			rn.score[h.ord] = h.score
			rn.num[h.ord] = h.num
			rn.hitOrds[i] = h.ord
			if set := rn.mchk.unchecked(h.num); !set.empty() {
				rn.state[h.ord] |= stUnchecked
				rn.nUnchecked++
			}
		}
	}
	if rn.lq.exclude != nil {
		hits, err := rn.run(ctx, rn.lq.exclude, false, rn.xchk)
		b.hits = hits
		if err != nil {
			rn.err = err
			return
		}
		rn.exclOrds = make([]int32, len(hits))
		for i, h := range hits {
			rn.num[h.ord] = h.num
			rn.exclOrds[i] = h.ord
			if set := rn.xchk.unchecked(h.num); !set.empty() {
				rn.state[h.ord] |= stExclMaybe
				rn.nXMaybe++
			} else {
				rn.state[h.ord] |= stExclSure
			}
		}
	}
	if rn.nUnchecked+rn.nXMaybe <= eagerChecks {
		var hits, excl []int32
		for _, ord := range rn.hitOrds {
			if rn.state[ord]&stUnchecked != 0 {
				hits = append(hits, ord)
			}
		}
		for _, ord := range rn.exclOrds {
			if rn.state[ord]&stExclMaybe != 0 {
				excl = append(excl, ord)
			}
		}
		rn.err = rn.check(ctx, hits, excl)
	}
}

// check checks the phrases of the unchecked hits and exclusions of some
// incidents. A hit whose phrases all occur where its conjunctions matched
// keeps its score, which is then exact; the others are searched again with
// their phrases checked (rare: most candidates have the phrase), for their
// exact score or to drop them. Likewise an exclusion is certain when one of
// its phrases occurs.
func (rn *langRun) check(ctx context.Context, hits, excl []int32) error {
	var again []int32
	for _, ord := range hits {
		all, _, err := rn.mchk.verify(rn.num[ord], rn.meta.list[ord].id)
		if err != nil {
			return err
		}
		if all {
			rn.state[ord] &^= stUnchecked
			rn.nUnchecked--
		} else {
			again = append(again, ord)
		}
	}
	if len(again) > 0 {
		found, err := rn.recheck(ctx, rn.lq.match, rn.mchk, rn.ranked, again)
		if err != nil {
			return err
		}
		for _, ord := range again {
			if score, ok := found[ord]; ok {
				rn.score[ord] = score
			} else {
				rn.score[ord] = math.NaN()
			}
			rn.state[ord] &^= stUnchecked
			rn.nUnchecked--
		}
	}
	again = again[:0]
	for _, ord := range excl {
		_, any, err := rn.xchk.verify(rn.num[ord], rn.meta.list[ord].id)
		if err != nil {
			return err
		}
		if any {
			rn.state[ord] = rn.state[ord]&^stExclMaybe | stExclSure
			rn.nXMaybe--
		} else {
			again = append(again, ord)
		}
	}
	if len(again) > 0 {
		found, err := rn.recheck(ctx, rn.lq.exclude, rn.xchk, false, again)
		if err != nil {
			return err
		}
		for _, ord := range again {
			rn.state[ord] &^= stExclMaybe
			if _, ok := found[ord]; ok {
				rn.state[ord] |= stExclSure
			}
			rn.nXMaybe--
		}
	}
	return nil
}

// recheck runs q again, checking its phrases, over the documents of ords
// only, and returns those that match with their scores.
func (rn *langRun) recheck(ctx context.Context, q blevequery.Query, chk *phraseCheck, score bool, ords []int32) (map[int32]float64, error) {
	targets := make([]uint64, 0, len(ords))
	byNum := make(map[uint64]int32, len(ords))
	chk.only = make(map[uint64]struct{}, len(ords))
	for _, ord := range ords {
		n := rn.num[ord]
		targets = append(targets, n)
		byNum[n] = ord
		chk.only[n] = struct{}{}
	}
	slices.Sort(targets)
	chk.mode = checkNow
	defer func() { chk.mode, chk.only = checkDefer, nil }()
	opts := blevesearch.SearcherOptions{}
	if !score {
		opts.Score = "none"
	}
	s, err := q.Searcher(withCheck(ctx, chk), rn.reader, rn.idx.Mapping(), opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &blevesearch.SearchContext{
		DocumentMatchPool: blevesearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0),
		IndexReader:       rn.reader,
	}
	found := map[int32]float64{}
	var cur *blevesearch.DocumentMatch
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cur == nil || cur.IndexInternalID.Value() < t {
			if cur != nil {
				sctx.DocumentMatchPool.Put(cur)
			}
			if cur, err = s.Advance(sctx, index.NewIndexInternalID(nil, t)); err != nil {
				return nil, err
			}
			if cur == nil {
				break
			}
		}
		if cur.IndexInternalID.Value() == t {
			found[byNum[t]] = cur.Score
		}
	}
	return found, nil
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
	p, err := query.Parse(qtext)
	if err != nil {
		return nil, err
	}
	if qtext != "" && p.Empty() {
		return nil, query.Errorf("there is nothing to search for in %q: type a word", query.Clip(qtext))
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
		return nil, query.Errorf("page %d is too far: only the first %d results can be shown", page, MaxWindow)
	}
	if r.Year < 0 || r.Year > 9999 {
		return nil, query.Errorf("year %d is not a year", r.Year)
	}
	f := filters{product: r.Product, region: r.Region, cause: r.Cause, year: r.Year}
	reader, _ := CanonicalLang(r.Lang) // an unknown reader language shows originals

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, errors.New("search: index is closed")
	}

	// Build the queries of each language, then run them in parallel.
	ranked := p.Ranked()
	var runs []*langRun
	sb, _ := ix.bufs.Get().(*searchBufs)
	if sb == nil {
		sb = &searchBufs{}
	}
	defer func() {
		for _, rn := range runs {
			if rn.reader != nil {
				rn.reader.Close()
			}
		}
		ix.bufs.Put(sb)
	}()
	for _, lang := range sortedKeys(ix.subs) {
		idx := ix.subs[lang]
		b, err := newLangBuilder(lang, idx.Mapping())
		if err != nil {
			return nil, err
		}
		texts := newTextCache(ix.docs[lang], &locator{an: b.text, kind: b.kind}, ix.meta, lang)
		rn := &langRun{i: len(runs), lang: lang, idx: idx, meta: ix.meta, ords: ix.ords[lang], texts: texts, ranked: ranked}
		texts.ordOf = rn.ordOf
		if rn.lq, err = b.build(p, f); err != nil {
			return nil, err
		}
		if rn.lq.match != nil || rn.lq.exclude != nil {
			if len(sb.runs) <= len(runs) {
				sb.runs = append(sb.runs, &runBufs{})
			}
			rn.bufs = sb.runs[len(runs)]
			runs = append(runs, rn)
		}
	}
	if len(runs) > maxLangs {
		return nil, fmt.Errorf("search: more than %d languages", maxLangs)
	}
	var wg sync.WaitGroup
	for _, rn := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rn.collect(ctx)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, rn := range runs {
		if rn.err != nil {
			return nil, fmt.Errorf("search: %s index: %w", rn.lang, rn.err)
		}
	}

	// Collapse to incidents.
	list := ix.meta.list
	if cap(sb.slot) < len(list) {
		sb.slot = make([]int32, len(list))
	}
	slot := sb.slot[:len(list)] // index in ms, plus one
	clear(slot)
	ms := sb.ms[:0]
	defer func() { sb.ms = ms[:0] }()
	for i, rn := range runs { // in tag order
		for _, ord := range rn.hitOrds {
			score := rn.score[ord]
			if math.IsNaN(score) {
				continue
			}
			k := slot[ord]
			if k == 0 {
				ms = append(ms, match{ord: ord, in: list[ord], score: score})
				k = int32(len(ms))
				slot[ord] = k
			}
			m := &ms[k-1]
			m.langs |= 1 << i
			m.score = max(m.score, score)
			if rn.state[ord]&stUnchecked != 0 {
				m.unchecked = true
			}
		}
	}
	for _, rn := range runs {
		for _, ord := range rn.exclOrds {
			k := slot[ord]
			if k == 0 {
				continue
			}
			switch st := rn.state[ord]; {
			case st&stExclSure != 0:
				ms[k-1].dropped = true
			case st&stExclMaybe != 0:
				ms[k-1].unchecked = true
			}
		}
	}
	ms = slices.DeleteFunc(ms, func(m match) bool { return m.dropped })
	order := func(a, b *match) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.in.id, b.in.id)
	}
	if !ranked {
		sec, nsec := ix.meta.beginSec, ix.meta.beginNsec
		order = func(a, b *match) int {
			x, y := a.ord, b.ord
			if c := cmp.Compare(sec[y], sec[x]); c != 0 {
				return c
			}
			if c := cmp.Compare(nsec[y], nsec[x]); c != 0 {
				return c
			}
			return strings.Compare(a.in.id, b.in.id)
		}
	}

	// Order the page and what precedes it, checking the unchecked
	// incidents there until none is left.
	from := (page - 1) * perPage
	for {
		to := min(from+perPage, len(ms))
		orderTop(ms, to, order)
		var todo []*match
		for i := range ms[:to] {
			if ms[i].unchecked {
				todo = append(todo, &ms[i])
			}
		}
		if len(todo) == 0 {
			break
		}
		if err := checkMatches(ctx, runs, todo); err != nil {
			return nil, err
		}
		ms = slices.DeleteFunc(ms, func(m match) bool { return m.dropped })
	}

	resp := &Response{
		Query:   qtext,
		Total:   len(ms),
		Results: []Result{},
		Facets:  facets(ms, runs, ix.meta),
	}
	if from < len(ms) {
		results, err := ix.render(ms[from:min(from+perPage, len(ms))], p, runs, reader, ranked)
		if err != nil {
			return nil, err
		}
		resp.Results = results
	}
	resp.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// orderTop reorders ms so that ms[:k] holds, sorted, the first k of ms in
// that order (the rest stays unsorted), in place: quickselect, then a sort
// of the k, O(n + k log k) instead of O(n log n).
func orderTop(ms []match, k int, order func(a, b *match) int) {
	k = min(k, len(ms))
	if k <= 0 {
		return
	}
	sortAll := func(ms []match) { slices.SortFunc(ms, func(a, b match) int { return order(&a, &b) }) }
	lo, hi := 0, len(ms)
	for depth := 0; hi-lo > 32; depth++ {
		if depth > 64 {
			sortAll(ms[lo:hi])
			lo = hi
			break
		}
		// Median of three as pivot.
		a, b, c := lo, lo+(hi-lo)/2, hi-1
		if order(&ms[b], &ms[a]) < 0 {
			a, b = b, a
		}
		if order(&ms[c], &ms[b]) < 0 {
			b = c
			if order(&ms[b], &ms[a]) < 0 {
				b = a
			}
		}
		pivot := ms[b]
		// Three-way partition: [lo, lt) before pivot, [lt, gt) equal,
		// [gt, hi) after.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch c := order(&ms[i], &pivot); {
			case c < 0:
				ms[lt], ms[i] = ms[i], ms[lt]
				lt++
				i++
			case c > 0:
				gt--
				ms[i], ms[gt] = ms[gt], ms[i]
			default:
				i++
			}
		}
		switch {
		case k <= lt:
			hi = lt
		case k <= gt:
			lo, hi = k, k
		default:
			lo = gt
		}
	}
	if lo < hi {
		sortAll(ms[lo:hi])
	}
	sortAll(ms[:k])
}

// checkMatches checks the unchecked documents of the incidents ms in every
// language and updates their scores and languages; those that no longer
// match are marked dropped.
func checkMatches(ctx context.Context, runs []*langRun, ms []*match) error {
	var wg sync.WaitGroup
	for _, rn := range runs {
		var hits, excl []int32
		for _, m := range ms {
			if rn.state[m.ord]&stUnchecked != 0 {
				hits = append(hits, m.ord)
			}
			if rn.state[m.ord]&stExclMaybe != 0 {
				excl = append(excl, m.ord)
			}
		}
		if len(hits)+len(excl) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rn.err = rn.check(ctx, hits, excl)
		}()
	}
	wg.Wait()
	for _, rn := range runs {
		if rn.err != nil {
			return fmt.Errorf("search: %s index: %w", rn.lang, rn.err)
		}
	}
	for _, m := range ms {
		ord := m.in.ord
		m.langs, m.score, m.unchecked = 0, 0, false
		for i, rn := range runs {
			if rn.state[ord]&stExclSure != 0 {
				m.dropped = true
			}
			if !math.IsNaN(rn.score[ord]) {
				m.langs |= 1 << i
				m.score = max(m.score, rn.score[ord])
			}
		}
		if m.langs == 0 {
			m.dropped = true
		}
	}
	return nil
}

// collectAll returns the id and score of every document matching q (up to
// MaxHitsPerLanguage), phrases in long fields unchecked. Search does the
// same by incident number (langRun.run).
func collectAll(ctx context.Context, idx bleve.Index, q blevequery.Query, score bool) (map[string]float64, error) {
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
func facets(ms []match, runs []*langRun, meta *metaStore) map[string][]FacetCount {
	var counts [numFacetKinds][]int32
	for k := range counts {
		counts[k] = make([]int32, len(meta.terms[k].names))
	}
	langCounts := make([]int32, len(runs))
	off, data := meta.facetOff, meta.facetData
	for i := range ms {
		ord := ms[i].ord
		for _, v := range data[off[ord]:off[ord+1]] {
			counts[v>>24][v&(1<<24-1)]++
		}
		for b := ms[i].langs; b != 0; b &= b - 1 {
			langCounts[bits.TrailingZeros64(b)]++
		}
	}
	list := func(names []string, counts []int32) []FacetCount {
		fc := []FacetCount{}
		for id, n := range counts {
			if n > 0 {
				fc = append(fc, FacetCount{Term: names[id], Count: int(n)})
			}
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
		return fc
	}
	langs := make([]string, len(runs))
	for i, rn := range runs {
		langs[i] = rn.lang
	}
	return map[string][]FacetCount{
		FacetProduct: list(meta.terms[facetKindProduct].names, counts[facetKindProduct]),
		FacetRegion:  list(meta.terms[facetKindRegion].names, counts[facetKindRegion]),
		FacetCause:   list(meta.terms[facetKindCause].names, counts[facetKindCause]),
		FacetYear:    list(meta.terms[facetKindYear].names, counts[facetKindYear]),
		FacetLang:    list(langs, langCounts),
	}
}

// render turns the matches of one page into results: it picks the language
// to show, and highlights the matching document of each.
func (ix *Index) render(page []match, p *query.Query, runs []*langRun, reader string, ranked bool) ([]Result, error) {
	byLang := make(map[string]*langRun, len(runs))
	for _, rn := range runs {
		byLang[rn.lang] = rn
	}
	results := make([]Result, len(page))
	for i := range page {
		m := &page[i]
		show := displayLang(m, runs, p, reader)
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
			rn := byLang[show]
			if rn == nil || m.langs&(1<<rn.i) == 0 {
				rn = m.bestLang(runs)
			}
			if len(rn.lq.highlights) > 0 {
				t, err := rn.texts.get(m.in.id)
				if err != nil {
					return nil, fmt.Errorf("search: highlight (%s): %w", rn.lang, err)
				}
				if t != nil {
					if fs := fragments(rn.texts.loc, t, rn.lq.highlights); len(fs) > 0 {
						results[i].Fragments = fs
						if rn.lang != show {
							results[i].FragmentsLang = rn.lang
						}
						continue
					}
				}
			}
		}
		// Without highlighted fragments (matched in the title or a
		// product name only, or no text query): the start of the
		// summary.
		var t *docstore.Text
		var err error
		if rn := byLang[show]; rn != nil {
			t, err = rn.texts.get(m.in.id)
		} else if src := ix.docs[show]; src != nil {
			t, err = src.Text(m.in.id)
		}
		if err != nil {
			return nil, fmt.Errorf("search: excerpt (%s): %w", show, err)
		}
		if t != nil {
			if s := excerptOf(t.Field(0)); s != "" {
				results[i].Fragments = []string{s}
			}
		}
	}
	return results, nil
}

// displayLang chooses the language version to show: the reader's when it
// exists, else the original, else the best-matching one; languages the
// query excluded with lang: are never chosen.
func displayLang(m *match, runs []*langRun, p *query.Query, reader string) string {
	if reader != "" && m.in.docs[reader] != nil && p.Allows(reader) {
		return reader
	}
	if o := m.in.orig; o != "" && m.in.docs[o] != nil && p.Allows(o) {
		return o
	}
	return m.bestLang(runs).lang
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
