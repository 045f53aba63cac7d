package search

// The search of one language index: collect the documents that match and
// those excluded, with the phrase checks deferred (phrase.go), then check
// the candidates that need it.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	blevequery "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// ordTable maps the document numbers of a read-only language index to
// incident ords (plus one; 0: not known yet), learnt as searches meet
// them, so that collecting hits does not read bleve's stored _id field.
type ordTable struct {
	t []atomic.Int32
	// sketches are the phrase sketches of the documents, read once when
	// the index is opened: a phrase looks up the sketch of every
	// candidate in each long field, and a lookup by id was half the cost
	// of a common phrase.
	sketches *sketchTable
	// norms are the documents' length factors, by incident ord
	// (lengthNorms).
	norms []float32
}

// States of an incident in a langSearch (bits of langSearch.state).
const (
	stateUnchecked     = 1 << iota // a hit whose phrases are not checked yet
	stateExcluded                  // excluded, certainly
	stateMaybeExcluded             // excluded by a phrase not checked yet
)

// langBufs are the buffers of one language's search, reused from search
// to search (the garbage of broad searches otherwise cost more than their
// work).
type langBufs struct {
	score                          []float64
	state                          []uint8
	num                            []uint64
	hits, hits2                    []hitRec
	hitOrds, exclOrds              []int32
	matchDeferred, excludeDeferred []nodeSet
}

// langSearch is the search of one language index.
type langSearch struct {
	i        int // in the search's list of language searches
	lang     string
	idx      bleve.Index
	meta     *metaStore
	ords     *ordTable // nil for an Editable
	queries  langQueries
	texts    *textCache
	ranked   bool
	opts     *options
	reader   index.IndexReader
	bm25     *blevesearch.BM25Stats // the index's, for scoring (bm25.go)
	norms    []float32              // the length factor of each document, by incident ord (lengthNorms)
	bufs     *langBufs
	matchChk *phraseCheck // of queries.match
	exclChk  *phraseCheck // of queries.exclude

	// By incident ord.
	score []float64 // score of its document; NaN: no match
	state []uint8
	num   []uint64 // the document's number in the index

	hitOrds    []int32 // the ords with a score, in index order
	exclOrds   []int32 // the ords excluded
	nUnchecked int     // hits with stateUnchecked
	nMaybeExcl int     // exclusions with stateMaybeExcluded
	err        error
}

// ordOf returns the incident ord of a document of this index, -1 if the
// metadata does not know it (not possible unless the document store and
// the index disagree).
func (ls *langSearch) ordOf(iid index.IndexInternalID) (int32, error) {
	n := iid.Value()
	cache := ls.ords != nil && n < uint64(len(ls.ords.t))
	if cache {
		if v := ls.ords.t[n].Load(); v > 0 {
			return v - 1, nil
		}
	}
	id, err := ls.reader.ExternalID(iid)
	if err != nil {
		return -1, err
	}
	in := ls.meta.incidents[id]
	if in == nil || in.doc(ls.lang) == nil {
		return -1, nil
	}
	if cache {
		ls.ords.t[n].Store(in.ord + 1)
	}
	return in.ord, nil
}

// hitRec is one hit of a searcher.
type hitRec struct {
	ord   int32
	score float64
	num   uint64 // document number
}

// newSearcher returns bleve's searcher of q over this index, scoring or
// not.
func (ls *langSearch) newSearcher(ctx context.Context, q blevequery.Query, score bool) (blevesearch.Searcher, *blevesearch.SearchContext, error) {
	opts := blevesearch.SearcherOptions{}
	if !score {
		opts.Score = "none"
	}
	ctx = scoringContext(ctx, ls.bm25)
	s, err := q.Searcher(ctx, ls.reader, ls.idx.Mapping(), opts)
	if err != nil {
		return nil, nil, err
	}
	pool, _ := matchPools.Get().(*blevesearch.DocumentMatchPool)
	if pool == nil {
		pool = blevesearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0)
	}
	sctx := &blevesearch.SearchContext{DocumentMatchPool: pool, IndexReader: ls.reader}
	return s, sctx, nil
}

// matchPools keeps bleve's pools of DocumentMatch from search to search:
// making one for each searcher was a tenth of what a query allocates. A
// pool that runs short makes more (and keeps them once they are Put).
var matchPools sync.Pool

// closeSearcher closes a searcher of newSearcher and keeps its pool.
func closeSearcher(s blevesearch.Searcher, sctx *blevesearch.SearchContext) error {
	err := s.Close()
	matchPools.Put(sctx.DocumentMatchPool)
	return err
}

// hitsIn drives a searcher of q over the document numbers [from, to)
// (to 0: no end), up to MaxHitsPerLanguage hits. It drives bleve's
// searcher directly instead of SearchInContext: with all hits wanted,
// bleve's top-N collector would sort them and allocate per hit for stored
// fields that are not asked for, tripling the cost of broad queries.
// Scores are the same (TestCollectAllMatchesBleve).
func (ls *langSearch) hitsIn(ctx context.Context, q blevequery.Query, score bool, from, to uint64, hits []hitRec) ([]hitRec, error) {
	s, sctx, err := ls.newSearcher(ctx, q, score)
	if err != nil {
		return nil, err
	}
	defer closeSearcher(s, sctx)
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
		ord, err := ls.ordOf(dm.IndexInternalID)
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

// hits collects the hits of q over the whole index with phrases deferred,
// into chk: a read-only index of at least opts.splitAt documents in two
// halves searched in parallel.
func (ls *langSearch) hits(ctx context.Context, q blevequery.Query, score bool, chk *phraseCheck) ([]hitRec, error) {
	var n uint64
	if ls.ords != nil {
		var err error
		if n, err = ls.reader.DocCount(); err != nil {
			return nil, err
		}
	}
	if n < uint64(ls.opts.splitAt) {
		return ls.hitsIn(withCheck(ctx, chk), q, score, 0, 0, ls.bufs.hits[:0])
	}
	// Two halves, with disjoint document numbers.
	var hits2 []hitRec
	var err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		hits2, err2 = ls.hitsIn(withCheck(ctx, chk.part(n/2, 0)), q, score, n/2, 0, ls.bufs.hits2[:0])
	}()
	hits, err := ls.hitsIn(withCheck(ctx, chk.part(0, n/2)), q, score, 0, n/2, ls.bufs.hits[:0])
	<-done
	if err == nil {
		err = err2
	}
	ls.bufs.hits2 = hits2
	return append(hits, hits2...), err
}

// collect runs the match and exclude queries with phrases unchecked, and
// checks them if there are few. The error is left in ls.err.
func (ls *langSearch) collect(ctx context.Context) {
	ls.err = ls.collectErr(ctx)
}

func (ls *langSearch) collectErr(ctx context.Context) error {
	if err := ls.open(); err != nil {
		return err
	}
	if ls.queries.match != nil {
		if err := ls.collectMatches(ctx); err != nil {
			return err
		}
	}
	if ls.queries.exclude != nil {
		if err := ls.collectExclusions(ctx); err != nil {
			return err
		}
	}
	if ls.nUnchecked+ls.nMaybeExcl > ls.opts.eagerChecks {
		return nil // the page shown is checked later (Search)
	}
	var hits, excl []int32
	for _, ord := range ls.hitOrds {
		if ls.state[ord]&stateUnchecked != 0 {
			hits = append(hits, ord)
		}
	}
	for _, ord := range ls.exclOrds {
		if ls.state[ord]&stateMaybeExcluded != 0 {
			excl = append(excl, ord)
		}
	}
	return ls.check(ctx, hits, excl)
}

// openReader opens a reader of a bleve index.
func openReader(idx bleve.Index) (index.IndexReader, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// open readies the buffers for the documents of the reader.
func (ls *langSearch) open() error {
	docs, err := ls.reader.DocCount()
	if err != nil {
		return err
	}
	docs = docs*9/8 + 64 // a little room for the numbers of deleted documents
	b := ls.bufs
	ls.matchChk = newPhraseCheck(ls.queries.matchNodes, ls.texts, int(docs), b.matchDeferred)
	ls.exclChk = newPhraseCheck(ls.queries.excludeNodes, ls.texts, int(docs), b.excludeDeferred)
	if ls.matchChk.sets.byNum != nil {
		b.matchDeferred = ls.matchChk.sets.byNum
	}
	if ls.exclChk.sets.byNum != nil {
		b.excludeDeferred = ls.exclChk.sets.byNum
	}
	n := len(ls.meta.list)
	if cap(b.score) < n {
		b.score, b.state, b.num = make([]float64, n), make([]uint8, n), make([]uint64, n)
	}
	ls.score, ls.state, ls.num = b.score[:n], b.state[:n], b.num[:n]
	clear(ls.state)
	nan := math.NaN()
	for i := range ls.score {
		ls.score[i] = nan
	}
	return nil
}

// collectMatches collects the documents that match.
func (ls *langSearch) collectMatches(ctx context.Context) error {
	hits, err := ls.hits(ctx, ls.queries.match, ls.ranked, ls.matchChk)
	ls.bufs.hits = hits
	if err != nil {
		return err
	}
	ls.hitOrds = slices.Grow(ls.bufs.hitOrds[:0], len(hits))[:len(hits)]
	ls.bufs.hitOrds = ls.hitOrds
	for i, h := range hits {
		ls.score[h.ord] = h.score * float64(ls.norms[h.ord])
		ls.num[h.ord] = h.num
		ls.hitOrds[i] = h.ord
		if set := ls.matchChk.unchecked(h.num); !set.empty() {
			ls.state[h.ord] |= stateUnchecked
			ls.nUnchecked++
		}
	}
	return nil
}

// collectExclusions collects the documents that an exclusion matches.
func (ls *langSearch) collectExclusions(ctx context.Context) error {
	hits, err := ls.hits(ctx, ls.queries.exclude, false, ls.exclChk)
	ls.bufs.hits = hits
	if err != nil {
		return err
	}
	ls.exclOrds = slices.Grow(ls.bufs.exclOrds[:0], len(hits))[:len(hits)]
	ls.bufs.exclOrds = ls.exclOrds
	for i, h := range hits {
		ls.num[h.ord] = h.num
		ls.exclOrds[i] = h.ord
		if set := ls.exclChk.unchecked(h.num); !set.empty() {
			ls.state[h.ord] |= stateMaybeExcluded
			ls.nMaybeExcl++
		} else {
			ls.state[h.ord] |= stateExcluded
		}
	}
	return nil
}

// check checks the phrases of the unchecked hits and exclusions of some
// incidents. A hit whose phrases all occur where its conjunctions matched
// keeps its score, which is then exact; the others are searched again with
// their phrases checked (rare: most candidates have the phrase), for their
// exact score or to drop them. Likewise an exclusion is certain when one of
// its phrases occurs.
func (ls *langSearch) check(ctx context.Context, hits, excl []int32) error {
	if err := ls.checkHits(ctx, hits); err != nil {
		return err
	}
	return ls.checkExclusions(ctx, excl)
}

func (ls *langSearch) checkHits(ctx context.Context, hits []int32) error {
	var again []int32
	for _, ord := range hits {
		all, _, err := ls.matchChk.verify(ls.num[ord], ls.meta.list[ord].id)
		if err != nil {
			return err
		}
		if all {
			ls.state[ord] &^= stateUnchecked
			ls.nUnchecked--
		} else {
			again = append(again, ord)
		}
	}
	if len(again) == 0 {
		return nil
	}
	found, err := ls.recheck(ctx, ls.queries.match, ls.matchChk, ls.ranked, again)
	if err != nil {
		return err
	}
	for _, ord := range again {
		if score, ok := found[ord]; ok {
			ls.score[ord] = score * float64(ls.norms[ord])
		} else {
			ls.score[ord] = math.NaN()
		}
		ls.state[ord] &^= stateUnchecked
		ls.nUnchecked--
	}
	return nil
}

func (ls *langSearch) checkExclusions(ctx context.Context, excl []int32) error {
	var again []int32
	for _, ord := range excl {
		_, any, err := ls.exclChk.verify(ls.num[ord], ls.meta.list[ord].id)
		if err != nil {
			return err
		}
		if any {
			ls.state[ord] = ls.state[ord]&^stateMaybeExcluded | stateExcluded
			ls.nMaybeExcl--
		} else {
			again = append(again, ord)
		}
	}
	if len(again) == 0 {
		return nil
	}
	found, err := ls.recheck(ctx, ls.queries.exclude, ls.exclChk, false, again)
	if err != nil {
		return err
	}
	for _, ord := range again {
		ls.state[ord] &^= stateMaybeExcluded
		if _, ok := found[ord]; ok {
			ls.state[ord] |= stateExcluded
		}
		ls.nMaybeExcl--
	}
	return nil
}

// recheck runs q again, checking its phrases, over the documents of ords
// only, and returns those that match with their scores.
func (ls *langSearch) recheck(ctx context.Context, q blevequery.Query, chk *phraseCheck, score bool, ords []int32) (map[int32]float64, error) {
	targets := make([]uint64, 0, len(ords))
	byNum := make(map[uint64]int32, len(ords))
	chk.only = make(map[uint64]struct{}, len(ords))
	for _, ord := range ords {
		n := ls.num[ord]
		targets = append(targets, n)
		byNum[n] = ord
		chk.only[n] = struct{}{}
	}
	slices.Sort(targets)
	chk.mode, chk.targets = checkNow, targets
	defer func() { chk.mode, chk.only, chk.targets = checkDefer, nil, nil }()
	s, sctx, err := ls.newSearcher(withCheck(ctx, chk), q, score)
	if err != nil {
		return nil, err
	}
	defer closeSearcher(s, sctx)
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

// closeReaders closes the index readers of searches.
func closeReaders(searches []*langSearch) error {
	var first error
	for _, ls := range searches {
		if ls.reader != nil {
			if err := ls.reader.Close(); err != nil && first == nil {
				first = fmt.Errorf("search: close %s reader: %w", ls.lang, err)
			}
		}
	}
	return first
}
