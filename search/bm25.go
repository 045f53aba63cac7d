package search

// BM25 with the true average length of each field. bleve scores with
// BM25 when the index mapping's ScoringModel is "bm25" and the search's
// context says so (SearchInContext does that; gen drives bleve's
// searchers itself, so scoringContext does). Without more, bleve takes a
// field's average length to be the number of distinct terms in the
// field's dictionary over the number of documents, far below the average
// length of a long field, so that every body counted as many times longer
// than average and a word in it weighed next to nothing. Given BM25Stats in the context, it takes their
// "cardinality" instead: here the total number of tokens of the field,
// counted when the documents are analysed, which makes it the average
// length.

import (
	"context"
	"sync"

	blevesearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"
)

// bm25Stats returns the BM25 statistics of an index of lengths fl: every
// field the mapping has, so that bleve finds the field of any query (a
// field no document has counts one token, which no document matches
// anyway).
func bm25Stats(fl *schema.Lengths) *blevesearch.BM25Stats {
	s := &blevesearch.BM25Stats{DocCount: float64(max(fl.Docs, 1)), FieldCardinality: map[string]int{}}
	for _, f := range schema.MappedFields {
		s.FieldCardinality[f] = max(fl.Tokens[f], 1)
	}
	s.FieldCardinality["*"] = max(fl.Docs, 1) // a query of every document
	return s
}

// scoringContext returns ctx with what bleve's searchers need to score
// with BM25 over an index with these statistics.
func scoringContext(ctx context.Context, stats *blevesearch.BM25Stats) context.Context {
	ctx = context.WithValue(ctx, blevesearch.GetScoringModelCallbackKey,
		blevesearch.GetScoringModelCallbackFn(func() string { return index.BM25Scoring }))
	return context.WithValue(ctx, blevesearch.BM25StatsKey, stats)
}

// lengthNorm is the weight of a document's whole length in its score,
// BM25's b over the document rather than a field (lengthFactor), length
// being the bytes of its long fields' text (the document store's table
// has them), the average that of its language's documents. Each field's
// BM25 already favours a short field, but of two reports that say a word
// alike in their title and summary, the long one's other sections are
// about other things. It is chosen on the control set of the search
// evaluation (generated incidents of every length judged by their first
// cause, not the hand-written judged incidents, which are short): its
// best R-precision, 0.983, is at 0.25 and 0.3 (0.982 at 0.2, 0.981 at
// 0.35 and 0.13, 0.980 at 0.4).
const lengthNorm = 0.3

// lengthNorms returns the factor of each document of language lang, by
// incident ord (0 for an incident without a document in lang).
func lengthNorms(list []*incident, lang string, src docstore.Source) []float32 {
	out := make([]float32, len(list))
	total, docs := 0, 0
	for ord, in := range list {
		if in == nil || in.doc(lang) == nil { // nil: removed
			continue
		}
		n, _ := src.Length(in.id)
		out[ord] = float32(n)
		total += n
		docs++
	}
	avg := float64(max(total, 1)) / float64(max(docs, 1))
	for ord, n := range out {
		if in := list[ord]; in != nil && in.doc(lang) != nil {
			out[ord] = float32(lengthFactor(float64(n) / avg))
		}
	}
	return out
}

// lengthFactor is the factor of a document r times its language's
// average length: 1 / (1 − b + b·2r/(1+r)), b being lengthNorm. The
// ratio is saturated (2r/(1+r) is r at 1, and below 2 however long the
// document) so that the factor stays between 1/(1+b) and 1/(1−b): the
// factors of two documents differ by less than (1+b)/(1−b), 1.86, less
// than a step of the fields' weights (×2). It orders reports that say the
// words alike; with the ratio itself, a long report's title and summary
// fell below a short report's single mention of the word in its body.
func lengthFactor(r float64) float64 {
	return 1 / (1 - lengthNorm + lengthNorm*2*r/(1+r))
}

// normsCache keeps the length factors of the documents of an Editable
// index, by language, from one change of the index to the next: making
// them looks up every document's length, work in proportion to the
// archive that every search of the authoring server did again.
type normsCache struct {
	mu sync.Mutex
	m  map[string][]float32
}

// get returns the factors of language lang, made by compute the first
// time after a change.
func (c *normsCache) get(lang string, compute func() []float32) []float32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.m[lang]; ok {
		return n
	}
	if c.m == nil {
		c.m = map[string][]float32{}
	}
	c.m[lang] = compute()
	return c.m[lang]
}

// clear forgets the factors, after a change of the index.
func (c *normsCache) clear() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}
