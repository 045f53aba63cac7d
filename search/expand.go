package search

// The words a query also matches beyond its own: while a reader types,
// the last word matches the words it begins (completions, "certifica" →
// "certificate", "certification"); a word that finds nothing matches the
// words one or two letters away (corrections, "certifcate" →
// "certificate"), a Chinese or Japanese word that finds nothing its
// respelling of the same sound (respell.go: 資料褲 → 資料庫), and the
// response suggests the query corrected. Both
// come from the vocabularies of the language indexes (package vocab): the
// words as written, before stemming, so that a prefix finds a word even
// where it is no prefix of the word's stem. Each word found is then
// analysed like any other, so that it matches every form of itself.

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bleveanalysis "github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/query"
	"github.com/postmortem-archive/gen/search/vocab"
)

const (
	// minPrefixRunes is the shortest last word completed: shorter ones
	// begin too many words.
	minPrefixRunes = 3
	// maxCompletions is the number of words a last word completes to at
	// most: those of the most documents. Many share a stem (connect,
	// connected, connection…), and at most maxAlternativeTerms distinct
	// terms of them are searched.
	maxCompletions = 128
	// maxAlternativeTerms bounds the terms a word's completions or
	// corrections add to a query, in each language.
	maxAlternativeTerms = 32
	// maxCorrections is the number of words a word with a typo matches at
	// most: the nearest, then those of the most documents.
	maxCorrections = 8
	// alternativeBoost scales the score of a match of a completion or a
	// correction, below a match of the word as typed.
	alternativeBoost = 0.5
)

// maxTypoDistance returns the edit distance a correction of a word of n
// letters may have: none below four letters (too many words are that
// near), one up to seven, two from eight.
func maxTypoDistance(n int) int {
	switch {
	case n < 4:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// expandable reports whether clause c is a word that may be completed or
// corrected: a bare word of letters and digits, outside CJK scripts.
func expandable(c query.Clause) bool {
	if c.Kind != query.Text || c.Neg || !c.Bare {
		return false
	}
	for _, r := range c.Value {
		if !(unicode.IsLetter(r) || unicode.IsNumber(r)) || analysis.IsCJKRune(r) {
			return false
		}
	}
	return true
}

// expand sets the alternatives and the suggestion of a plan.
func (ix *engine) expand(ctx context.Context, p *plan) (err error) {
	last := len(p.query.Clauses) - 1
	suggestion := p.query
	corrected := false
	var rs *respeller // opened for the first CJK word
	defer func() {
		if rs != nil {
			err = errors.Join(err, rs.close())
		}
	}()
	for i, c := range p.query.Clauses {
		if c.Kind == query.Text && !c.Neg {
			// Words the other side of the strait writes otherwise
			// (analysis.OtherWordings).
			p.alternatives[i] = append(p.alternatives[i], analysis.OtherWordings(c.Value)...)
		}
		if respellable(c) {
			if rs == nil {
				if rs, err = ix.newRespeller(ctx, p.reader); err != nil {
					return err
				}
			}
			word, err := rs.respell(c.Value)
			if err != nil {
				return err
			}
			if word != "" {
				p.alternatives[i] = append(p.alternatives[i], word)
				suggestion = withWord(suggestion, i, word)
				corrected = true
			}
			continue
		}
		if !expandable(c) {
			continue
		}
		word := strings.ToLower(c.Value)
		n := utf8.RuneCountInString(word)
		if i == last && n >= minPrefixRunes {
			if words := ix.completions(word); len(words) > 0 {
				p.alternatives[i] = words
				continue
			}
		}
		dist := maxTypoDistance(n)
		if dist == 0 {
			continue
		}
		found, err := ix.finds(ctx, c.Value)
		if err != nil || found {
			if err != nil {
				return err
			}
			continue
		}
		entries := ix.corrections(word, dist)
		if len(entries) == 0 {
			continue
		}
		for _, e := range entries {
			p.alternatives[i] = append(p.alternatives[i], e.Word)
		}
		suggestion = withWord(suggestion, i, entries[0].Word)
		corrected = true
	}
	if corrected {
		p.didYouMean = suggestion.Text
	}
	return nil
}

// withWord returns a copy of q with the word of clause i replaced.
func withWord(q *query.Query, i int, word string) *query.Query {
	text := q.Replace(i, word)
	out, err := query.Parse(text)
	if err != nil || len(out.Clauses) != len(q.Clauses) {
		return &query.Query{Text: text, Clauses: q.Clauses} // not reached: a word for a word
	}
	return out
}

// completions returns the words of every language that begin with
// prefix, those of the most documents first.
func (ix *engine) completions(prefix string) []string {
	return mergeEntries(ix.vocabularies(), func(v *vocab.Vocab) []vocab.Entry {
		return v.Completions(prefix, maxCompletions)
	}, maxCompletions)
}

// vocabularies returns the vocabulary of each language index.
func (ix *engine) vocabularies() []*vocab.Vocab {
	var out []*vocab.Vocab
	for _, lang := range sortedKeys(ix.subs) {
		out = append(out, ix.vocabulary(lang))
	}
	return out
}

// corrections returns the words of every language within dist of word,
// the nearest first, then those of the most documents.
func (ix *engine) corrections(word string, dist int) []vocab.Entry {
	var all []vocab.Entry
	for _, v := range ix.vocabularies() {
		all = append(all, v.Corrections(word, dist, maxCorrections)...)
	}
	return sortMerged(all, maxCorrections)
}

// mergeEntries merges the entries get finds in each vocabulary and
// returns at most limit words.
func mergeEntries(vocabs []*vocab.Vocab, get func(*vocab.Vocab) []vocab.Entry, limit int) []string {
	var all []vocab.Entry
	for _, v := range vocabs {
		all = append(all, get(v)...)
	}
	var words []string
	for _, e := range sortMerged(all, limit) {
		words = append(words, e.Word)
	}
	return words
}

// sortMerged adds up the documents of a word found in several
// languages, and returns the limit best: nearest, then most documents,
// then in byte order.
func sortMerged(all []vocab.Entry, limit int) []vocab.Entry {
	slices.SortFunc(all, func(a, b vocab.Entry) int { return strings.Compare(a.Word, b.Word) })
	var merged []vocab.Entry
	for _, e := range all {
		if k := len(merged) - 1; k >= 0 && merged[k].Word == e.Word {
			merged[k].Docs += e.Docs
			merged[k].Dist = min(merged[k].Dist, e.Dist)
			continue
		}
		merged = append(merged, e)
	}
	slices.SortStableFunc(merged, func(a, b vocab.Entry) int {
		if c := cmp.Compare(a.Dist, b.Dist); c != 0 {
			return c
		}
		return cmp.Compare(b.Docs, a.Docs)
	})
	return merged[:min(len(merged), limit)]
}

// finds reports whether word, analysed for each language, has a term in
// one of the fields a word searches in some language index. A word that
// analyses to nothing (a stop word) counts as found: it is no typo.
func (ix *engine) finds(ctx context.Context, word string) (bool, error) {
	for _, lang := range sortedKeys(ix.subs) {
		idx := ix.subs[lang]
		b, err := newLangBuilder(lang, idx.Mapping())
		if err != nil {
			return false, err
		}
		toks := b.text.Analyze([]byte(word))
		if len(toks) == 0 {
			return true, nil
		}
		found, err := hasTerms(ctx, idx, toks)
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// hasTerms reports whether every token has a term in one of the fields
// a word searches.
func hasTerms(ctx context.Context, idx bleve.Index, toks bleveanalysis.TokenStream) (found bool, err error) {
	adv, err := idx.Advanced()
	if err != nil {
		return false, err
	}
	r, err := adv.Reader()
	if err != nil {
		return false, err
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	for _, t := range toks {
		any := false
		for _, f := range defaultFields {
			n, err := termCount(ctx, r, t.Term, f.field)
			if err != nil {
				return false, err
			}
			if n > 0 {
				any = true
				break
			}
		}
		if !any {
			return false, nil
		}
	}
	return true, nil
}

// termCount returns the number of documents with term in field.
func termCount(ctx context.Context, r index.IndexReader, term []byte, field string) (uint64, error) {
	tfr, err := r.TermFieldReader(ctx, term, field, false, false, false)
	if err != nil {
		return 0, err
	}
	n := tfr.Count()
	return n, tfr.Close()
}
