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

// inWordSeparators join the pieces of a name typed as one word:
// europe-west2, Pub/Sub, us-east-1, v2.3, my_table.
const inWordSeparators = "-/._"

// compound reports whether clause c is a bare word of letters and digits
// joined by inWordSeparators (one at its end too, as typed: "europe-").
func compound(c query.Clause) bool {
	if c.Kind != query.Text || c.Neg || !c.Bare {
		return false
	}
	seps, pieces := 0, 0
	prevSep := true
	for _, r := range c.Value {
		switch {
		case strings.ContainsRune(inWordSeparators, r):
			if prevSep {
				return false // a separator first, or two in a row
			}
			seps, prevSep = seps+1, true
		case (unicode.IsLetter(r) || unicode.IsNumber(r)) && !analysis.IsCJKRune(r):
			if prevSep {
				pieces++
			}
			prevSep = false
		default:
			return false
		}
	}
	return seps > 0 && pieces > 0
}

// maxNames bounds the names (of products, regions, causes and
// organizations) a last word completes to.
const maxNames = 8

// facetName is a value of a keyword field a word completes to, matched
// exactly there: a term query, where its words in the text would be a
// phrase checked in every report that has them.
type facetName struct {
	field string // fProduct…
	value string // as the facet has it: "Gmail (Google Cloud)"
	text  string // as a reader reads it: "Gmail"
}

// nameKinds are the facets whose names a word completes to, and their
// keyword fields.
var nameKinds = []struct {
	kind  int
	field string
}{{facetKindProduct, fProduct}, {facetKindRegion, fRegion}, {facetKindCause, fCause}, {facetKindOrg, fOrg}}

// names returns the names of products, regions, causes and
// organizations a word of which begins with prefix (lower-case), those
// of the most incidents first: what a reader typing a name's first
// letters expects.
func (ix *engine) names(prefix string) []facetName {
	if prefix == "" {
		return nil
	}
	type found struct {
		facetName
		n int
	}
	var all []found
	for _, k := range nameKinds {
		for id, v := range ix.meta.terms[k.kind].names {
			text := v
			if k.kind == facetKindProduct {
				text = productName(v)
			}
			if n := ix.meta.termDocs(k.kind, int32(id)); n > 0 && beginsWord(strings.ToLower(text), prefix) {
				all = append(all, found{facetName{k.field, v, text}, n})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b found) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	out := make([]facetName, 0, min(len(all), maxNames))
	for _, f := range all[:min(len(all), maxNames)] {
		out = append(out, f.facetName)
	}
	return out
}

// beginsWord reports whether a word of name (after a space: "Pub/Sub"
// of "Cloud Pub/Sub") begins with prefix.
func beginsWord(name, prefix string) bool {
	return strings.HasPrefix(name, prefix) || strings.Contains(name, " "+prefix)
}

// wordBeginning is the word of name (between spaces) that begins with
// prefix (lower-case), as name writes it; "" if none does.
func wordBeginning(name, prefix string) string {
	for _, w := range strings.Fields(name) {
		if strings.HasPrefix(strings.ToLower(w), prefix) {
			return w
		}
	}
	return ""
}

// productName is a product facet value without its organization:
// "Gmail" of "Gmail (Google Cloud)".
func productName(v string) string {
	if i := strings.LastIndex(v, " ("); i > 0 && strings.HasSuffix(v, ")") {
		return v[:i]
	}
	return v
}

// compoundCompletions are the words a last word of pieces completes to
// when it begins no name: the word with its last piece completed from
// the words of the text ("v2." → "v2.3"), those whose every piece some
// index has. Each is a phrase to check, so there are few.
func (ix *engine) compoundCompletions(ctx context.Context, word string) []string {
	var out []string
	head, piece := splitLastPiece(word)
	if piece == "" {
		return nil
	}
	// Each candidate checked costs a look-up in every language index:
	// the most used pieces only.
	for k, w := range ix.completions(piece) {
		if k == 2*maxNames || len(out) == maxNames {
			break
		}
		if found, err := ix.finds(ctx, head+w); err == nil && found {
			out = append(out, head+w)
		}
	}
	return out
}

// splitLastPiece splits a word of pieces before its last piece: "europe-"
// and "w" of "europe-w". A separator at the end belongs to the last
// piece ("v2." of "v2."), since a tokenizer may keep it inside a word
// ("v2.3").
func splitLastPiece(word string) (head, piece string) {
	end := strings.TrimRight(word, inWordSeparators)
	i := strings.LastIndexAny(end, inWordSeparators)
	return word[:i+1], word[i+1:]
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
		var others []string
		if c.Kind == query.Text && !c.Neg {
			// Words the other side of the strait writes otherwise
			// (analysis.OtherWordings).
			others = analysis.OtherWordings(c.Value)
			p.alternatives[i] = append(p.alternatives[i], others...)
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
			// A compound, not a typo, also finds its parts: a typo's
			// parts are mostly what was typed right.
			if word == "" {
				if p.parts[i], err = ix.compoundParts(ctx, c.Value, others); err != nil {
					return err
				}
			}
			continue
		}
		if i == last && compound(c) {
			ix.completeCompound(ctx, p, i, c.Value)
			continue
		}
		if !expandable(c) {
			continue
		}
		word := strings.ToLower(c.Value)
		n := utf8.RuneCountInString(word)
		if i == last && n >= minPrefixRunes {
			if words := ix.completions(word); len(words) > 0 {
				p.alternatives[i] = append(p.alternatives[i], words...)
				continue
			}
		}
		if i == last && n < minPrefixRunes {
			// Too short to complete from the words of the text: the
			// names that begin with it (BigQuery for "b"), else the
			// reader is told to keep typing.
			p.names[i] = ix.names(word)
			p.short = len(p.names[i]) == 0
			continue
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

// completeCompound sets the alternatives of clause i, the last word,
// which holds a hyphen, slash or dot (europe-w, Pub/S, v2.): the names
// that begin with it, else the whole word as the index analysed it, its
// last piece completed.
func (ix *engine) completeCompound(ctx context.Context, p *plan, i int, value string) {
	word := strings.ToLower(value)
	p.names[i] = ix.names(word)
	for _, n := range p.names[i] {
		// The name's word in the text too (Pub/Sub of Cloud Pub/Sub):
		// reports that mention it without naming it.
		if w := wordBeginning(n.text, word); w != "" && !slices.Contains(p.alternatives[i], w) {
			p.alternatives[i] = append(p.alternatives[i], w)
		}
	}
	if len(p.names[i]) == 0 {
		p.alternatives[i] = ix.compoundCompletions(ctx, word)
	}
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

// compoundParts are the parts of a word (analysis.Parts) and how many
// of them a report must have to match.
type compoundParts struct {
	words []string
	least int
}

// compoundParts returns the parts of word, a run of Chinese or Japanese
// typed without a space. A report may write the compound's words apart
// (硬盘相继故障 for 硬碟故障), and the index cuts a run into bigrams,
// not words: so a report that has more than half of the parts matches,
// as many as a compound of words of two characters or more keeps when
// written apart (硬碟 and 故障, not 碟故), and one with a single part
// (故障 alone) does not. When no index holds the word whole, nor in one
// of its other wordings (others), a report with any part matches, so
// that the reader is never shown nothing while the parts find something.
// A run of three ideographs has two parts that overlap: no report writes
// them apart, and it has none.
func (ix *engine) compoundParts(ctx context.Context, word string, others []string) (compoundParts, error) {
	parts := analysis.Parts(word)
	if parts == nil {
		return compoundParts{}, nil
	}
	for _, w := range append([]string{word}, others...) {
		found, err := ix.finds(ctx, w)
		if err != nil {
			return compoundParts{}, err
		}
		if found {
			if n := utf8.RuneCountInString; len(parts) == 2 && n(parts[0])+n(parts[1]) > n(word) {
				return compoundParts{}, nil // 資料庫: 資料 and 料庫
			}
			return compoundParts{parts, len(parts)/2 + 1}, nil
		}
	}
	return compoundParts{parts, 1}, nil
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
