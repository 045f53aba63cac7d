package search

// One word (or phrase) in several fields. bleve's disjunction adds up the
// scores of the fields that match and multiplies the sum by the share of
// fields that match, so that a long report that says the word in its
// title, summary, impact, root cause and timeline counted several times
// over a short one that says it in its title and summary: the longer a
// report, the more of its fields say its subject. A fieldsQuery scores
// a document by its best field, plus a share (fieldsTie) of the others,
// as a dis_max query does: the word in the title counts as the title's
// weight says, and saying it again elsewhere adds, but less.

import (
	"context"
	"errors"

	"github.com/blevesearch/bleve/v2/mapping"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	blevequery "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// fieldsTie is the share of the score of the fields other than the best
// that counts.
const fieldsTie = 0.3

// formsTie is the share of the score of the forms of a word other than
// the best that counts: a tenth. The forms of one word typed (the word,
// the words it begins or is a typo of, the bigrams of a CJK character)
// are one word to the reader, and a bleve disjunction of them added up
// every form a text has and multiplied the sum by the share of forms it
// has: a long report whose certificate manager (憑證管理) follows thirty
// different characters matched thirty of the bigrams of 憑 and ranked far
// above a short report about an expired certificate (憑證過期). A tenth
// of the others lets a report that says two of the words a prefix begins
// (kubectl and Kubernetes for kube) rank above one that says only one of
// them as often.
const formsTie = 0.1

// fieldsQuery matches a document that any of its queries (one per field,
// or one per form of a word) matches.
type fieldsQuery struct {
	Fields []blevequery.Query `json:"fields"`
	Tie    float64            `json:"tie"` // the share of the others' score
}

// newFieldsQuery returns a query of qs, one per field, or qs[0] if it is
// the only one.
func newFieldsQuery(qs []blevequery.Query) blevequery.Query {
	return newBestQuery(qs, fieldsTie)
}

// newFormsQuery returns a query of qs, one per form of a word, or qs[0]
// if it is the only one.
func newFormsQuery(qs []blevequery.Query) blevequery.Query {
	return newBestQuery(qs, formsTie)
}

// newBestQuery scores a document by the best of qs that matches it plus
// tie of the others.
func newBestQuery(qs []blevequery.Query, tie float64) blevequery.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return &fieldsQuery{Fields: qs, Tie: tie}
}

func (q *fieldsQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options blevesearch.SearcherOptions) (blevesearch.Searcher, error) {
	s := &fieldsSearcher{tie: q.Tie, scale: make([]float64, len(q.Fields))}
	for k, fq := range q.Fields {
		if same, ok := fq.(*sameForm); ok && k > 0 && s.children[0] != nil {
			s.children = append(s.children, nil)
			s.scale[k] = same.Scale
			continue
		}
		c, err := fq.Searcher(ctx, i, m, options)
		if err != nil {
			return nil, errors.Join(err, s.Close())
		}
		s.children = append(s.children, c)
	}
	s.curr = make([]*blevesearch.DocumentMatch, len(s.children))
	return s, nil
}

// fieldsSearcher merges the documents of its children (in document
// order) and scores each by its best child plus tie of the others.
type fieldsSearcher struct {
	tie      float64
	children []blevesearch.Searcher       // nil: a sameForm of the first
	scale    []float64                    // of each sameForm, by child
	curr     []*blevesearch.DocumentMatch // each child's next document; nil: none left
	started  bool
}

func (s *fieldsSearcher) start(ctx *blevesearch.SearchContext) error {
	s.started = true
	for i, c := range s.children {
		if c == nil {
			continue
		}
		var err error
		if s.curr[i], err = c.Next(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (s *fieldsSearcher) Next(ctx *blevesearch.SearchContext) (*blevesearch.DocumentMatch, error) {
	if !s.started {
		if err := s.start(ctx); err != nil {
			return nil, err
		}
	}
	low, found := uint64(0), false
	for _, dm := range s.curr {
		if dm != nil && (!found || dm.IndexInternalID.Value() < low) {
			low, found = dm.IndexInternalID.Value(), true
		}
	}
	if !found {
		return nil, nil
	}
	var rv *blevesearch.DocumentMatch
	var best, sum, first float64
	matchedFirst := false
	for i, dm := range s.curr {
		if s.children[i] == nil {
			// The first child again, in its place among the forms, so
			// that the sum is added up in the same order.
			if matchedFirst {
				v := first * s.scale[i]
				sum += v
				best = max(best, v)
			}
			continue
		}
		if dm == nil || dm.IndexInternalID.Value() != low {
			continue
		}
		if i == 0 {
			first, matchedFirst = dm.Score, true
		}
		sum += dm.Score
		best = max(best, dm.Score)
		if rv == nil {
			rv = dm
		} else {
			ctx.DocumentMatchPool.Put(dm)
		}
		var err error
		if s.curr[i], err = s.children[i].Next(ctx); err != nil {
			return nil, err
		}
	}
	rv.Score = best + s.tie*(sum-best)
	return rv, nil
}

func (s *fieldsSearcher) Advance(ctx *blevesearch.SearchContext, id index.IndexInternalID) (*blevesearch.DocumentMatch, error) {
	if !s.started {
		s.started = true // each child is advanced below
		for i := range s.curr {
			s.curr[i] = nil
		}
		for i, c := range s.children {
			if c == nil {
				continue
			}
			var err error
			if s.curr[i], err = c.Advance(ctx, id); err != nil {
				return nil, err
			}
		}
		return s.Next(ctx)
	}
	target := id.Value()
	for i, dm := range s.curr {
		if dm == nil || dm.IndexInternalID.Value() >= target {
			continue
		}
		ctx.DocumentMatchPool.Put(dm)
		var err error
		if s.curr[i], err = s.children[i].Advance(ctx, id); err != nil {
			return nil, err
		}
	}
	return s.Next(ctx)
}

func (s *fieldsSearcher) Close() error {
	var err error
	for _, c := range s.children {
		if c == nil {
			continue
		}
		if cerr := c.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	return err
}

// Weight, Count and the rest count a sameForm as the searcher it
// repeats would count itself (its weight scales with the square of its
// boost), so that scores and the order bleve gives a conjunction's
// children stay the same.
func (s *fieldsSearcher) Weight() float64 {
	var w float64
	for i, c := range s.children {
		if c == nil {
			w += s.children[0].Weight() * (s.scale[i] * s.scale[i])
			continue
		}
		w += c.Weight()
	}
	return w
}

func (s *fieldsSearcher) SetQueryNorm(qnorm float64) {
	for _, c := range s.children {
		if c != nil {
			c.SetQueryNorm(qnorm)
		}
	}
}

func (s *fieldsSearcher) Count() uint64 {
	var n uint64
	for _, c := range s.children {
		if c == nil {
			c = s.children[0]
		}
		n += c.Count()
	}
	return n
}

func (s *fieldsSearcher) Min() int { return 0 }

func (s *fieldsSearcher) Size() int {
	n := 64
	for _, c := range s.children {
		if c != nil {
			n += c.Size()
		}
	}
	return n
}

func (s *fieldsSearcher) DocumentMatchPoolSize() int {
	n := 1
	for _, c := range s.children {
		if c != nil {
			n += c.DocumentMatchPoolSize()
		}
	}
	return n
}

// sameForm is, among the forms of a word (newFormsQuery), the first form
// again at a scale: an alternative that analyses to the word itself (a
// name typed whole is also the word of the name it begins, Pub/Sub of
// Cloud Pub/Sub; a Traditional word and the Simplified one it folds to).
// Searching the same phrase again at a lower boost scored each document
// by exactly the first form's score times that scale, and walked the
// phrase's postings in every field a second time: half the cost of a name
// typed whole.
type sameForm struct {
	Scale float64 `json:"same_scale"`
}

func (q *sameForm) Searcher(context.Context, index.IndexReader, mapping.IndexMapping, blevesearch.SearcherOptions) (blevesearch.Searcher, error) {
	return nil, errors.New("search: a repeated form of a word outside the forms of the word") // not reached
}

// absentQuery is a term query in a field that lacks the term
// (termPresence): it matches nothing, but bleve normalises every score by
// the weights of all of a query's terms, so it keeps the weight the term
// query has (that of a term of no document), and scores stay the same to
// the last bit.
type absentQuery struct {
	Weight float64 `json:"absent_weight"`
}

func (q *absentQuery) Searcher(context.Context, index.IndexReader, mapping.IndexMapping, blevesearch.SearcherOptions) (blevesearch.Searcher, error) {
	return absentSearcher{q.Weight}, nil
}

// absentSearcher is the searcher of an absentQuery.
type absentSearcher struct{ weight float64 }

func (absentSearcher) Next(*blevesearch.SearchContext) (*blevesearch.DocumentMatch, error) {
	return nil, nil
}

func (absentSearcher) Advance(*blevesearch.SearchContext, index.IndexInternalID) (*blevesearch.DocumentMatch, error) {
	return nil, nil
}

func (absentSearcher) Close() error               { return nil }
func (s absentSearcher) Weight() float64          { return s.weight }
func (absentSearcher) SetQueryNorm(float64)       {}
func (absentSearcher) Count() uint64              { return 0 }
func (absentSearcher) Min() int                   { return 0 }
func (absentSearcher) Size() int                  { return 16 }
func (absentSearcher) DocumentMatchPoolSize() int { return 0 }
