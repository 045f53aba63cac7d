package search

// Phrases.
//
// No field has term vectors (positions) in bleve: in this archive they made
// the index three times larger than its text (zap spends 5–8 bytes on every
// position, and CJK text has a position per character). A phrase is a
// phraseQuery: bleve finds the documents that have every term of the
// phrase in the field, scored exactly as its phrase query would score them
// (a phrase query's score is the score of the conjunction of its terms),
// and a phraseCheck then decides which of those candidates have the terms
// where the phrase puts them, on the text of the document (package locate): the
// document store for the long fields, the metadata for the title and the
// product, region and cause names.
//
// Checking a long field costs 10–40 µs a document (mostly decompressing
// its text), and a common Chinese word is a phrase of bigrams that most
// documents are candidates for, so Search collects matches with the checks
// deferred (checkDefer), remembering which nodes accepted which documents
// unchecked; it then checks them all if there are few (WithEagerChecks) and
// otherwise only those that reach the page being shown, best first (see
// Search). A candidate whose phrases all hold keeps its score; one where
// some do not is searched again with its phrases checked (checkNow), for
// its exact score or to drop it. Unchecked candidates only ever make a
// score or a count too high, never too low, so the page is exact either
// way. A phrase in a name field is never deferred: its candidates' names
// are in the metadata, and checking them costs a look-up (namesHold).

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/mapping"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/locate"
	"github.com/postmortem-archive/gen/search/schema"
)

type checkMode uint8

const (
	checkDefer checkMode = iota // every candidate matches; remember it in deferred
	checkNow                    // check candidates (only those in only, when set)
)

// phraseCheck decides which candidates of the phraseQuery nodes of one
// query match, for the searchers made with it in their context (withCheck);
// searchers made without one accept every candidate. Searchers over
// disjoint ranges of document numbers may share it; otherwise it is used
// by one goroutine at a time.
type phraseCheck struct {
	mode  checkMode
	nodes []*phraseQuery // the phraseQuery nodes of the query; node i has bit i
	sets  *deferredSets
	// A searcher of the document numbers [from, to) (to 0: no end) only
	// records those: its children run ahead of it.
	from, to uint64
	only     map[uint64]struct{} // checkNow: reject other documents unchecked
	targets  []uint64            // the documents of only, in order
	texts    *textCache
	// names says, for a node in a name field, whether each value of
	// its facet holds the phrase (namesHold), by facet id.
	names [][]atomic.Int32
}

// deferredSets holds, by document number, the nodes that accepted a
// document unchecked; numbers beyond the slice, in extra.
type deferredSets struct {
	byNum   []nodeSet
	extraMu sync.Mutex
	extra   map[uint64]nodeSet
}

type checkKey struct{}

// withCheck returns a context in which phraseQuery searchers use c.
func withCheck(ctx context.Context, c *phraseCheck) context.Context {
	return context.WithValue(ctx, checkKey{}, c)
}

// newPhraseCheck returns a check of nodes for an index with about docs
// documents, using the buffer deferred if it is large enough.
func newPhraseCheck(nodes []*phraseQuery, texts *textCache, docs int, deferred []nodeSet) *phraseCheck {
	c := &phraseCheck{nodes: nodes, texts: texts, sets: &deferredSets{}}
	for i, q := range nodes {
		if q.field > titleField {
			if c.names == nil {
				c.names = make([][]atomic.Int32, len(nodes))
			}
			c.names[i] = make([]atomic.Int32, len(texts.meta.terms[nameKind(q.field)].names))
		}
	}
	if len(nodes) > 0 {
		if cap(deferred) >= docs {
			c.sets.byNum = deferred[:docs]
			clear(c.sets.byNum)
		} else {
			c.sets.byNum = make([]nodeSet, docs)
		}
	}
	return c
}

// part returns a view of c for a searcher of the document numbers
// [from, to).
func (c *phraseCheck) part(from, to uint64) *phraseCheck {
	v := *c
	v.from, v.to = from, to
	return &v
}

// nodeSet is a set of phraseQuery nodes (a query has at most MaxClauses
// words and phrases, each in up to numCheckedFields fields).
type nodeSet [(numCheckedFields*MaxClauses + 63) / 64]uint64

func (s *nodeSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s *nodeSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s *nodeSet) empty() bool    { return *s == nodeSet{} }

// accepted records that node i accepted document num unchecked.
func (c *phraseCheck) accepted(num uint64, i int) {
	if num < c.from || c.to > 0 && num >= c.to {
		return
	}
	d := c.sets
	if num < uint64(len(d.byNum)) {
		d.byNum[num].add(i)
		return
	}
	d.extraMu.Lock()
	if d.extra == nil {
		d.extra = map[uint64]nodeSet{}
	}
	set := d.extra[num]
	set.add(i)
	d.extra[num] = set
	d.extraMu.Unlock()
}

// unchecked returns the nodes that accepted document num unchecked.
func (c *phraseCheck) unchecked(num uint64) nodeSet {
	d := c.sets
	if num < uint64(len(d.byNum)) {
		return d.byNum[num]
	}
	if len(c.nodes) == 0 {
		// No phrase: asked of every hit of a query of words, and the
		// lock below was a hundredth of the CPU of the benchmark's
		// queries.
		return nodeSet{}
	}
	d.extraMu.Lock()
	defer d.extraMu.Unlock()
	return d.extra[num]
}

// holds reports whether the phrase of node q occurs in its field of the
// document id.
func (c *phraseCheck) holds(q *phraseQuery, id string) (bool, error) {
	if q.field < len(schema.LongFields) {
		f, err := c.texts.field(id, q.field)
		if err != nil || f == nil {
			return false, err
		}
		return len(c.texts.loc.Find(q.pat, f, true)) > 0, nil
	}
	d := c.texts.doc(id)
	if d == nil {
		return false, nil
	}
	if q.field == titleField {
		t := analysis.CleanText(d.Title)
		f := locate.Field{Text: t, Flags: analysis.TextFlags(t, c.texts.loc.Kind)}
		return len(c.texts.loc.Find(q.pat, &f, true)) > 0, nil
	}
	return c.texts.inNames(q, d), nil
}

// inNames reports whether the phrase of node q, in a name field (a
// product, region, cause, organization or severity), occurs in the
// document d's names of that field.
func (c *textCache) inNames(q *phraseQuery, d *docstore.Meta) bool {
	var values []string
	switch q.field {
	case productField:
		values = d.Products
	case regionField:
		values = d.Regions
	case causeField:
		values = d.Causes
	case orgField:
		values = []string{d.Organization}
	case sevField:
		values = []string{d.Severity}
	}
	// A phrase occurs within one value of a list.
	for _, v := range values {
		if c.inValue(q.pat, v) {
			return true
		}
	}
	return false
}

// namesHold is holds for a node in a name field, of the document iid,
// while its candidates are collected (accept); unknown reports that it
// cannot tell (no table of the index's documents), and the check is
// deferred. It reads the incident's facet values, in the metadata's flat
// arrays, and whether each holds the phrase, kept by value: reading each
// candidate's own metadata missed the cache at every step and was a
// third of the cost of a name begun (europe-w), whose region_text has
// thousands of candidates.
func (c *phraseCheck) namesHold(q *phraseQuery, iid index.IndexInternalID) (ok, unknown bool, err error) {
	if c.texts.ordOf == nil {
		return false, true, nil
	}
	ord, err := c.texts.ordOf(iid)
	if err != nil || ord < 0 {
		return false, false, err
	}
	m := c.texts.meta
	if m.ownNames[ord] {
		d := m.list[ord].doc(c.texts.lang)
		return d != nil && c.texts.inNames(q, d), false, nil
	}
	kind, held := nameKind(q.field), c.names[q.node]
	for _, e := range m.facetData[m.facetOff[ord]:m.facetOff[ord+1]] {
		if int(e>>24) != kind {
			continue
		}
		id := e & (1<<24 - 1)
		switch held[id].Load() {
		case nameHolds:
			return true, false, nil
		case nameLacks:
			continue
		}
		if c.texts.inValue(q.pat, m.terms[kind].names[id]) {
			held[id].Store(nameHolds)
			return true, false, nil
		}
		held[id].Store(nameLacks)
	}
	return false, false, nil
}

// Whether a facet value holds a phrase (phraseCheck.names); 0: not known
// yet.
const (
	nameHolds = 1 + iota
	nameLacks
)

// nameKind is the facet kind of the names of a name field.
func nameKind(field int) int {
	switch field {
	case productField:
		return facetKindProduct
	case regionField:
		return facetKindRegion
	case causeField:
		return facetKindCause
	case orgField:
		return facetKindOrg
	}
	return facetKindSev
}

// verify checks, on its text, the phrases of the nodes that accepted the
// document num (the incident id) unchecked: all reports whether every one
// holds, so that the document's score is exact, any whether one does.
func (c *phraseCheck) verify(num uint64, id string) (all, any bool, err error) {
	set := c.unchecked(num)
	all = true
	var held nodeSet // of the nodes checked, those that hold
	for i, q := range c.nodes {
		if !set.has(i) {
			continue
		}
		var ok bool
		if q.twin >= 0 && set.has(q.twin) {
			ok = held.has(q.twin)
		} else if ok, err = c.holds(q, id); err != nil {
			return false, false, err
		}
		if ok {
			held.add(i)
		}
		all = all && ok
		any = any || ok
	}
	return all, any, nil
}

// textCache reads and keeps the texts of one language's documents for one
// search.
type textCache struct {
	src   docstore.Source
	loc   *locate.Locator
	meta  *metaStore
	lang  string
	texts map[string]*docstore.Text
	// fields keeps the long fields checked, so that a field's folds
	// (locate.Field) are made once for all the phrases checked in it.
	fields map[fieldKey]*locate.Field
	// values keeps whether a phrase occurs in a name (a product, region,
	// cause, organization or severity): candidates share a few dozen
	// names, and analysing the name again for each was a sixth of what
	// a query of two names allocated. Names are checked as candidates
	// are collected, by the two halves of a split search at once
	// (langSearch.hits): valuesMu guards values and loc there.
	valuesMu sync.Mutex
	values   map[valueKey]bool
	// ordOf gives the incident of a document of the search's reader.
	ordOf func(index.IndexInternalID) (int32, error)
	// sketches are the sketches of a read-only index
	// (ordTable.sketches); nil: ask src.
	sketches *sketchTable
}

// sketchTable holds the phrase sketches of one language's documents by
// incident ord, one after the other in one run of bytes: a phrase looks
// up the sketch of every candidate, and reading each candidate's slice
// from a table of slices (24 bytes an incident) missed the cache, a
// third of the cost of the look-up.
type sketchTable struct {
	data []byte
	ends []uint64 // by ord: where its sketch ends in data, and hasSketch
}

// hasSketch marks the ends of the documents that have a sketch.
const hasSketch = 1 << 63

// newSketchTable reads the sketches of the documents of language lang.
func newSketchTable(list []*incident, lang string, src docstore.Source) *sketchTable {
	t := &sketchTable{ends: make([]uint64, len(list))}
	for ord, in := range list {
		if in != nil && in.doc(lang) != nil {
			if sk, ok := src.Sketch(in.id); ok && sk != nil {
				t.data = append(t.data, sk...)
				t.ends[ord] = uint64(len(t.data)) | hasSketch
				continue
			}
		}
		t.ends[ord] = uint64(len(t.data))
	}
	return t
}

// of returns the sketch of ord, nil if it has none.
func (t *sketchTable) of(ord int32) []byte {
	end := t.ends[ord]
	if end&hasSketch == 0 {
		return nil
	}
	var start uint64
	if ord > 0 {
		start = t.ends[ord-1] &^ hasSketch
	}
	end &^= hasSketch
	if start == end {
		return []byte{} // a sketch of no pairs, which lacks every pair
	}
	return t.data[start:end:end]
}

// sketchRejects reports whether the sketch of document iid shows that it
// lacks one of the pairs of adjacent words hs.
func (c *textCache) sketchRejects(iid index.IndexInternalID, hs []uint64) (bool, error) {
	if c.ordOf == nil {
		return false, nil
	}
	ord, err := c.ordOf(iid)
	if err != nil || ord < 0 {
		return false, err
	}
	var sk []byte
	if c.sketches != nil {
		sk = c.sketches.of(ord)
	} else {
		sk, _ = c.src.Sketch(c.meta.list[ord].id)
	}
	if sk == nil {
		return false, nil // no sketch: checked on the text
	}
	for _, h := range hs {
		if !analysis.SketchHas(sk, h) {
			return true, nil
		}
	}
	return false, nil
}

type fieldKey struct {
	id    string
	field int
}

// field returns long field i of the document id, nil if it has no text.
func (c *textCache) field(id string, i int) (*locate.Field, error) {
	k := fieldKey{id, i}
	if f, ok := c.fields[k]; ok {
		return f, nil
	}
	t, err := c.get(id)
	if err != nil || t == nil {
		return nil, err
	}
	f := locate.TextField(t, i)
	if c.fields == nil {
		c.fields = map[fieldKey]*locate.Field{}
	}
	c.fields[k] = f
	return f, nil
}

type valueKey struct {
	pat   *locate.Pattern
	value string
}

// inValue reports whether the phrase pat occurs in the name v.
func (c *textCache) inValue(pat *locate.Pattern, v string) bool {
	c.valuesMu.Lock()
	defer c.valuesMu.Unlock()
	k := valueKey{pat, v}
	if ok, known := c.values[k]; known {
		return ok
	}
	f := locate.Field{Text: v, Flags: analysis.TextFlags(v, c.loc.Kind)}
	ok := len(c.loc.Find(pat, &f, true)) > 0
	if c.values == nil {
		c.values = map[valueKey]bool{}
	}
	c.values[k] = ok
	return ok
}

func newTextCache(src docstore.Source, loc *locate.Locator, meta *metaStore, lang string) *textCache {
	return &textCache{src: src, loc: loc, meta: meta, lang: lang, texts: map[string]*docstore.Text{}}
}

func (c *textCache) get(id string) (*docstore.Text, error) {
	if t, ok := c.texts[id]; ok {
		return t, nil
	}
	t, err := c.src.Text(id)
	if err != nil {
		return nil, err
	}
	c.texts[id] = t
	return t, nil
}

// doc returns the metadata of a document.
func (c *textCache) doc(id string) *docstore.Meta {
	if in := c.meta.incidents[id]; in != nil {
		return in.doc(c.lang)
	}
	return nil
}

// phraseQuery is a phrase in a field without term vectors (see the top of
// the file).
type phraseQuery struct {
	Terms    [][]string `json:"terms"`
	FieldVal string     `json:"field"`
	BoostVal float64    `json:"boost"`

	field int // checkedField
	pat   *locate.Pattern
	node  int // in its query's nodes
	// twin is an earlier node of the same phrase in the same field (a
	// name typed whole is also its own alternative: Pub/Sub of Cloud
	// Pub/Sub), whose check stands for this one's; -1: none.
	twin  int
	pairs []uint64 // its pairs of adjacent words, in the sketches of long fields
}

func (q *phraseQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options blevesearch.SearcherOptions) (blevesearch.Searcher, error) {
	// The conjunction bleve's NewMultiPhraseSearcher makes, without term
	// vectors.
	var subs []blevesearch.Searcher
	closeAll := func() {
		for _, s := range subs {
			s.Close()
		}
	}
	for _, terms := range q.Terms {
		var ts []blevesearch.Searcher
		for _, t := range terms {
			if t == "" {
				continue
			}
			s, err := searcher.NewTermSearcher(ctx, i, t, q.FieldVal, q.BoostVal, options)
			if err != nil {
				for _, s := range ts {
					s.Close()
				}
				closeAll()
				return nil, err
			}
			ts = append(ts, s)
		}
		switch len(ts) {
		case 0:
		case 1:
			subs = append(subs, ts[0])
		default:
			d, err := searcher.NewDisjunctionSearcher(ctx, i, ts, 1, options)
			if err != nil {
				for _, s := range ts {
					s.Close()
				}
				closeAll()
				return nil, err
			}
			subs = append(subs, d)
		}
	}
	must, err := searcher.NewConjunctionSearcher(ctx, i, subs, options)
	if err != nil {
		closeAll()
		return nil, err
	}
	s := &phraseSearcher{must: must, q: q}
	s.chk, _ = ctx.Value(checkKey{}).(*phraseCheck)
	// As bleve's PhraseSearcher: its own query norm, until a parent sets
	// another.
	s.must.SetQueryNorm(1.0 / math.Sqrt(s.must.Weight()))
	return s, nil
}

// phraseSearcher filters the candidates of its conjunction by the check.
type phraseSearcher struct {
	must blevesearch.Searcher
	q    *phraseQuery
	chk  *phraseCheck
}

func (s *phraseSearcher) accept(ctx *blevesearch.SearchContext, dm *blevesearch.DocumentMatch) (bool, error) {
	c := s.chk
	if c == nil {
		return true, nil
	}
	if len(s.q.pairs) > 0 {
		if no, err := c.texts.sketchRejects(dm.IndexInternalID, s.q.pairs); no || err != nil {
			return false, err
		}
	}
	if s.q.field > titleField && c.mode == checkDefer {
		// A name field: its names are in the metadata, and checking
		// them costs a look-up, so the node is never left unchecked: a
		// candidate it would reject (europe-west4 and us-west2 for
		// europe-west2) has the exact score of what else it matches, and
		// is not searched again when checked.
		ok, unknown, err := c.namesHold(s.q, dm.IndexInternalID)
		if !unknown || err != nil {
			return ok, err
		}
	}
	switch c.mode {
	case checkDefer:
		c.accepted(dm.IndexInternalID.Value(), s.q.node)
		return true, nil
	case checkNow:
		if c.only != nil {
			if _, ok := c.only[dm.IndexInternalID.Value()]; !ok {
				return false, nil
			}
		}
		id, err := ctx.IndexReader.ExternalID(dm.IndexInternalID)
		if err != nil {
			return false, err
		}
		return c.holds(s.q, id)
	}
	return true, nil
}

// next returns dm if it passes the check, else the next candidate that
// does. Checking only some documents, it skips to the next of them: a
// common word's conjunction has thousands of candidates between two.
func (s *phraseSearcher) next(ctx *blevesearch.SearchContext, dm *blevesearch.DocumentMatch, err error) (*blevesearch.DocumentMatch, error) {
	for dm != nil && err == nil {
		var ok bool
		if ok, err = s.accept(ctx, dm); ok && err == nil {
			return dm, nil
		}
		num := dm.IndexInternalID.Value()
		ctx.DocumentMatchPool.Put(dm)
		if err != nil {
			break
		}
		t, skip := s.chk.nextTarget(num)
		switch {
		case !skip:
			dm, err = s.must.Next(ctx)
		case t == 0:
			return nil, nil // none left to check
		default:
			dm, err = s.must.Advance(ctx, index.NewIndexInternalID(nil, t))
		}
	}
	return nil, err
}

// nextTarget returns, when c checks only some documents, the first of
// them after num, 0 if none.
func (c *phraseCheck) nextTarget(num uint64) (t uint64, skip bool) {
	if c == nil || c.mode != checkNow || c.only == nil {
		return 0, false
	}
	i, _ := slices.BinarySearch(c.targets, num+1)
	if i == len(c.targets) {
		return 0, true
	}
	return c.targets[i], true
}

func (s *phraseSearcher) Next(ctx *blevesearch.SearchContext) (*blevesearch.DocumentMatch, error) {
	dm, err := s.must.Next(ctx)
	return s.next(ctx, dm, err)
}

func (s *phraseSearcher) Advance(ctx *blevesearch.SearchContext, ID index.IndexInternalID) (*blevesearch.DocumentMatch, error) {
	dm, err := s.must.Advance(ctx, ID)
	return s.next(ctx, dm, err)
}

func (s *phraseSearcher) Weight() float64            { return s.must.Weight() }
func (s *phraseSearcher) SetQueryNorm(qnorm float64) { s.must.SetQueryNorm(qnorm) }
func (s *phraseSearcher) Count() uint64              { return s.must.Count() }
func (s *phraseSearcher) Min() int                   { return 0 }
func (s *phraseSearcher) Close() error               { return s.must.Close() }
func (s *phraseSearcher) Size() int                  { return s.must.Size() + 16 }
func (s *phraseSearcher) DocumentMatchPoolSize() int { return s.must.DocumentMatchPoolSize() + 1 }
