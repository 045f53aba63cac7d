package search

// The bleve queries of one language: the clauses of a parsed query (package
// query) analysed with the language's analyzer.

import (
	"cmp"
	"context"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	bleveanalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	blevequery "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/cache"
	"github.com/postmortem-archive/gen/search/locate"
	"github.com/postmortem-archive/gen/search/query"
	"github.com/postmortem-archive/gen/search/schema"
)

// filters are the exact-match filters of a Request (facet links).
type filters struct {
	product, region, cause string
	org, severity          string
	year                   int
	lang                   string // only this language's documents match
	duration               string // a duration band, checked on the metadata
}

type fieldBoost struct {
	field string
	boost float64
}

// defaultFields are the fields a term without field: prefix searches,
// with their weights: the title most, then the summary and the names of
// the organization, products and causes, then the report's impact and
// root cause, and least the rest of the report, the regions and the
// timeline, so that a passing mention in one timeline item ranks below an
// incident about the word (TestPassingMentionRanksLower,
// TestAboutRanksAboveMentions, TestSectionWeights).
// Each field's score is BM25's (bm25.go), relative to that field's
// average length; a word's score is that of its best field plus a share
// of the others' (fields.go), which favours an incident that says the
// word in several places without counting a long report's many sections
// as many matches.
var defaultFields = []fieldBoost{
	{fTitle, 4}, {fSummary, 2}, {fOrgText, 2}, {fProductText, 2}, {fCauseText, 2},
	{fImpact, 1}, {fRootCause, 1},
	{fBody, 0.5}, {fRegionText, 0.5}, {fTimeline, 0.25},
}

// bodyFields are the fields of body:, the whole report.
var bodyFields = []fieldBoost{{fImpact, 1}, {fRootCause, 1}, {fBody, 1}, {fTimeline, 1}}

// langBuilder turns a parsedQuery into the bleve query for one language
// index, analysing every term with that index's analyzers. The leaves are
// term and phrase queries over final terms, so bleve never picks an
// analyzer itself.
type langBuilder struct {
	lang string
	kind analysis.Kind
	text bleveanalysis.Analyzer
	kw   bleveanalysis.Analyzer
	// dict, when set, is a reader of the index whose term dictionaries
	// expand a single CJK character to the bigrams that hold it.
	dict index.IndexReader
	// bigrams, for a read-only index, keeps what dict gave.
	bigrams *bigramCache
	// present, for a read-only index, says which fields have a term;
	// docCount is the number of documents BM25 counts (BM25Stats).
	present  *termPresence
	docCount float64
}

func newLangBuilder(lang string, m mapping.IndexMapping) (*langBuilder, error) {
	b := &langBuilder{
		lang: lang,
		kind: analysis.KindOf(lang),
		text: m.AnalyzerNamed(m.AnalyzerNameForPath(fTitle)),
		kw:   m.AnalyzerNamed(kwAnalyzer),
	}
	if b.text == nil || b.kw == nil {
		return nil, query.Errorf("index for %s lacks its analyzers", lang) // not reached with indexes we built
	}
	return b, nil
}

// langQueries are the bleve queries of one language.
type langQueries struct {
	// match finds the documents of this language that match; nil when
	// none can (every positive term analyses to nothing here, like an
	// English stop word).
	match blevequery.Query
	// exclude finds the documents with an excluded (-term) term, nil
	// without exclusions. An incident is excluded when any of its
	// language versions has one, not only the version that matched.
	exclude blevequery.Query
	// highlights are the words and phrases to highlight in the long
	// fields: those of the positive text terms.
	highlights []locate.Highlight
	// The phraseQuery nodes of match and exclude (phrase.go).
	matchNodes, excludeNodes []*phraseQuery
}

// build returns the queries for this language. match is nil when lang: or
// -lang: leave this language out; exclude is not (exclusion is per
// incident, whatever languages are searched).
func (b *langBuilder) build(p *query.Query, f filters, alternatives map[int][]string, names map[int][]facetName, parts map[int]compoundParts) (langQueries, error) {
	var queries langQueries
	var must, mustNot, filter []blevequery.Query
	positives := 0
	for i, c := range p.Clauses {
		q, err := b.clause(c, alternatives[i], parts[i], &queries)
		if err != nil {
			return queries, err
		}
		if ns := names[i]; len(ns) > 0 && !c.Neg {
			q = b.names(q, ns, &queries)
		}
		if c.Neg {
			if q != nil {
				mustNot = append(mustNot, q)
			}
			continue
		}
		positives++
		if q != nil {
			must = append(must, q)
		}
	}
	if len(mustNot) > 0 {
		queries.exclude = blevequery.NewDisjunctionQuery(mustNot)
	}
	if !p.Allows(b.lang) || positives > 0 && len(must) == 0 {
		return queries, nil
	}
	for _, kf := range []struct{ field, value string }{
		{fProduct, f.product}, {fRegion, f.region}, {fCause, f.cause}, {fOrg, f.org}, {fSev, f.severity},
	} {
		if kf.value == "" {
			continue
		}
		filter = append(filter, b.keyword(kf.field, kf.value))
	}
	if f.year != 0 {
		filter = append(filter, term(fYear, strconv.Itoa(f.year), 1))
	}
	// Exclusions are not part of the match query: Search removes every
	// incident that any document of exclude matches, which is more.
	if len(must)+len(filter) == 0 {
		queries.match = blevequery.NewMatchAllQuery()
		return queries, nil
	}
	if len(must) == 0 {
		// Browsing (no words, so no scores): the filters alone are the
		// query, so that only their documents are visited; as a
		// boolean's filter, every document of the index was, each
		// allocated by bleve's match-all searcher.
		queries.match = blevequery.NewConjunctionQuery(filter)
		return queries, nil
	}
	boolean := &blevequery.BooleanQuery{Must: blevequery.NewConjunctionQuery(must)}
	if len(filter) > 0 {
		boolean.Filter = blevequery.NewConjunctionQuery(filter)
	}
	queries.match = boolean
	return queries, nil
}

// clause returns the query of one clause, nil if it can match nothing in
// this language; a word also matches its alternatives and its parts
// (expand.go).
func (b *langBuilder) clause(c query.Clause, alternatives []string, parts compoundParts, queries *langQueries) (blevequery.Query, error) {
	nodes := &queries.matchNodes
	if c.Neg {
		nodes = &queries.excludeNodes
	}
	switch c.Kind {
	case query.Meta:
		exact := b.keyword(c.Field, c.Value)
		exact.SetBoost(2)
		words, _, err := b.words(c.Value, []fieldBoost{{c.Field + textSuffix, 1}}, nodes)
		if err != nil || words == nil {
			return exact, err
		}
		return blevequery.NewDisjunctionQuery([]blevequery.Query{exact, words}), nil
	case query.Year:
		return term(fYear, c.Value, 1), nil
	}
	fields := defaultFields
	switch c.Field {
	case "":
	case fBody:
		fields = bodyFields
	default:
		fields = []fieldBoost{{c.Field, 1}}
	}
	q, pat, err := b.words(c.Value, fields, nodes)
	if err != nil {
		return nil, err
	}
	if q != nil && !c.Neg {
		queries.highlight(pat, fields)
	}
	if len(alternatives) == 0 && parts.words == nil {
		return q, nil
	}
	var exact []string
	if pat != nil && len(pat.Terms) == 1 {
		exact = pat.Terms[0]
	}
	alts, err := b.alternatives(alternatives, exact, fields, queries)
	if err != nil {
		return nil, err
	}
	// Names of several words (Blob Storage, europe-west2), and CJK phrases.
	more, err := b.phraseAlternatives(alternatives, pat, fields, nodes, queries)
	if err != nil {
		return nil, err
	}
	alts = append(alts, more...)
	if parts.words != nil {
		pq, err := b.partsQuery(parts, fields, nodes, queries)
		if err != nil {
			return nil, err
		}
		if pq != nil {
			alts = append(alts, pq)
		}
	}
	if len(alts) == 0 {
		return q, nil
	}
	if q != nil {
		alts = append([]blevequery.Query{q}, alts...)
	}
	return newFormsQuery(alts), nil
}

// names returns q, the query of a word, that also matches the names it
// begins in their keyword fields, at alternativeBoost, and adds the
// names' words to the highlights.
func (b *langBuilder) names(q blevequery.Query, names []facetName, queries *langQueries) blevequery.Query {
	alts := []blevequery.Query{}
	if q != nil {
		alts = append(alts, q)
	}
	for _, n := range names {
		k := b.keyword(n.field, n.value)
		k.SetBoost(2 * alternativeBoost) // as a name typed whole (field:value), halved
		alts = append(alts, k)
		if toks := b.text.Analyze([]byte(n.text)); len(toks) > 0 {
			queries.highlight(locate.NewPattern(toks, b.kind), defaultFields)
		}
	}
	return newFormsQuery(alts)
}

// alternatives returns the term queries of the words, analysed, in the
// fields, leaving out the terms of the word itself (exact); it adds them
// to the highlights.
func (b *langBuilder) alternatives(words, exact []string, fields []fieldBoost, queries *langQueries) ([]blevequery.Query, error) {
	var qs []blevequery.Query
	seen := map[string]bool{}
	for _, t := range exact {
		seen[t] = true
	}
	for _, w := range words {
		if len(seen)-len(exact) >= maxAlternativeTerms {
			break
		}
		toks := b.text.Analyze([]byte(w))
		if len(toks) != 1 || seen[string(toks[0].Term)] {
			continue // a stop word, several tokens, or a term already searched
		}
		t := string(toks[0].Term)
		seen[t] = true
		q, err := b.termInFields(t, fields, alternativeBoost)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
		queries.highlight(locate.NewPattern(toks, b.kind), fields)
	}
	return qs, nil
}

// partsQuery matches the parts of a compound, at least parts.least of
// them, at alternativeBoost, their scores adding up as the words of a
// query do, times the share of the parts matched: the report that has
// the most of them comes first.
func (b *langBuilder) partsQuery(parts compoundParts, fields []fieldBoost, nodes *[]*phraseQuery, queries *langQueries) (blevequery.Query, error) {
	scaled := make([]fieldBoost, len(fields))
	for i, f := range fields {
		scaled[i] = fieldBoost{f.field, f.boost * alternativeBoost}
	}
	var qs []blevequery.Query
	for _, part := range parts.words {
		q, pat, err := b.words(part, scaled, nodes)
		if err != nil {
			return nil, err
		}
		if q != nil {
			qs = append(qs, q)
			queries.highlight(pat, fields)
		}
	}
	if len(qs) < parts.least {
		return nil, nil
	}
	d := blevequery.NewDisjunctionQuery(qs)
	d.SetMin(float64(parts.least))
	return d, nil
}

// phraseAlternatives returns the queries of the alternatives that are
// phrases here (a Taiwan word for a Mainland one: 記憶體 for 内存; a
// respelling of three characters or more: 伺服器 for 伺服氣; load
// balancer for ロードバランサー), in the fields, at alternativeBoost,
// and adds them to the highlights. An alternative that analyses to the
// word's own pattern (own) is a sameForm.
func (b *langBuilder) phraseAlternatives(words []string, own *locate.Pattern, fields []fieldBoost, nodes *[]*phraseQuery, queries *langQueries) ([]blevequery.Query, error) {
	scaled := make([]fieldBoost, len(fields))
	for i, f := range fields {
		scaled[i] = fieldBoost{f.field, f.boost * alternativeBoost}
	}
	var qs []blevequery.Query
	for _, w := range words {
		toks := b.text.Analyze([]byte(w))
		if len(toks) < 2 {
			continue // a word: alternatives
		}
		if p := locate.NewPattern(toks, b.kind); own != nil && samePattern(p, own) {
			qs = append(qs, &sameForm{Scale: alternativeBoost})
			queries.highlight(p, fields)
			continue
		}
		q, pat, err := b.words(w, scaled, nodes)
		if err != nil || q == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		qs = append(qs, q)
		queries.highlight(pat, fields)
	}
	return qs, nil
}

// samePattern reports whether two patterns match the same.
func samePattern(p, q *locate.Pattern) bool {
	return p.Run == q.Run && slices.EqualFunc(p.Terms, q.Terms, slices.Equal)
}

// highlight adds the pattern of a word or phrase matched in fields to the
// highlights, if fields has a long field.
func (queries *langQueries) highlight(pat *locate.Pattern, fields []fieldBoost) {
	h := locate.Highlight{Pattern: pat}
	for _, f := range fields {
		if i := schema.LongField(f.field); i >= 0 {
			h.Fields |= 1 << i
		}
	}
	if h.Fields == 0 {
		return
	}
	// A pattern highlighted already (a name typed whole is also the
	// word of the name it begins, and the name's text) is searched once
	// in each field of a result, not once for each time.
	for i, o := range queries.highlights {
		if samePattern(o.Pattern, pat) {
			queries.highlights[i].Fields |= h.Fields
			return
		}
	}
	queries.highlights = append(queries.highlights, h)
}

// keyword is an exact, case-insensitive match of a whole keyword value.
func (b *langBuilder) keyword(field, value string) *blevequery.TermQuery {
	v := strings.TrimSpace(value)
	if toks := b.kw.Analyze([]byte(v)); len(toks) == 1 {
		v = string(toks[0].Term)
	}
	return term(field, v, 1)
}

// words analyses text and matches it in each field: one token is a term,
// several are a phrase (positions kept, so removed stop words leave gaps).
// A phrase is a phraseQuery (fields have no term vectors), added to nodes.
// It also returns the pattern of the words, to highlight.
func (b *langBuilder) words(text string, fields []fieldBoost, nodes *[]*phraseQuery) (blevequery.Query, *locate.Pattern, error) {
	toks := b.text.Analyze([]byte(text))
	if len(toks) == 0 {
		return nil, nil, nil
	}
	if len(toks) > MaxPhraseTokens {
		return nil, nil, query.Problemf("search_error_phrase_too_long", "“{value}” has too many words for one phrase (at most {max})", "value", query.Clip(text), "max", MaxPhraseTokens)
	}
	pat := locate.NewPattern(toks, b.kind)
	if len(toks) == 1 {
		q, err := b.termInFields(string(toks[0].Term), fields, 1)
		if err != nil {
			return nil, nil, err
		}
		c, ok := singleCJK(toks[0].Term)
		if !ok || b.dict == nil {
			return q, pat, nil
		}
		more, err := b.bigramsWith(c, fields)
		if err != nil {
			return nil, nil, err
		}
		pat.Run = c // highlight the character, not the bigrams
		return newFormsQuery(append([]blevequery.Query{q}, more...)), pat, nil
	}
	qs := make([]blevequery.Query, 0, len(fields))
	for _, f := range fields {
		if w, absent, err := b.absentPhrase(pat.Terms, f); err != nil {
			return nil, nil, err
		} else if absent {
			qs = append(qs, &absentQuery{Weight: w})
			continue
		}
		q := &phraseQuery{Terms: pat.Terms, FieldVal: f.field, BoostVal: f.boost, field: checkedField(f.field), pat: pat, node: len(*nodes), twin: -1}
		for _, o := range *nodes {
			if o.field == q.field && samePattern(o.pat, pat) {
				q.twin = o.node
				break
			}
		}
		if q.field < len(schema.LongFields) {
			q.pairs = analysis.PhrasePairs(pat.Terms, q.field)
		}
		*nodes = append(*nodes, q)
		qs = append(qs, q)
	}
	return newFieldsQuery(qs), pat, nil
}

// termInFields is a term in each of the fields, with their weights
// times boost; of a read-only index, only in the fields that have it.
func (b *langBuilder) termInFields(t string, fields []fieldBoost, boost float64) (blevequery.Query, error) {
	qs := make([]blevequery.Query, 0, len(fields))
	for _, f := range fields {
		if b.present != nil {
			n, err := b.present.count(b.dict, b.lang, f.field, t)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				qs = append(qs, &absentQuery{Weight: b.termWeight(f.boost*boost, 0)})
				continue
			}
		}
		qs = append(qs, term(f.field, t, f.boost*boost))
	}
	return newFieldsQuery(qs), nil
}

// termWeight is the weight bleve's TermQueryScorer gives a term of n
// documents searched with boost: BM25's idf times the boost, squared.
func (b *langBuilder) termWeight(boost float64, n uint64) float64 {
	w := boost * bm25IDF(b.docCount, float64(n))
	return w * w
}

// absentPhrase reports whether the phrase terms cannot match in field f
// of a read-only index because a word of it is in no document's f, and
// if so returns the weight bleve gives the phrase there, so that an
// absentQuery stands for it and scores stay the same to the last bit: a
// phrase is searched in ten fields, each a searcher per word, and most
// fields lack one of its words. The weight is that of the conjunction of
// phraseQuery.Searcher: the sum of its words' weights in the order of
// bleve's OrderedSearcherList (sorted by document count with sort.Sort;
// the same Less gives the same order). A position with several terms (a
// disjunction, whose own order and count would have to be followed too)
// is searched as it is.
func (b *langBuilder) absentPhrase(terms [][]string, f fieldBoost) (float64, bool, error) {
	if b.present == nil {
		return 0, false, nil
	}
	var ws wordWeights
	absent := false
	for _, ts := range terms {
		var word string
		for _, t := range ts {
			if t == "" {
				continue
			}
			if word != "" {
				return 0, false, nil
			}
			word = t
		}
		if word == "" {
			continue // a removed stop word
		}
		n, err := b.present.count(b.dict, b.lang, f.field, word)
		if err != nil {
			return 0, false, err
		}
		absent = absent || n == 0
		ws = append(ws, wordWeight{n, b.termWeight(f.boost, n)})
	}
	if !absent {
		return 0, false, nil
	}
	sort.Sort(ws)
	var sum float64
	for _, w := range ws {
		sum += w.weight
	}
	return sum, true, nil
}

// wordWeight is a word of a phrase: its document count in a field and its
// weight there.
type wordWeight struct {
	count  uint64
	weight float64
}

// wordWeights sorts as bleve's OrderedSearcherList sorts term searchers.
type wordWeights []wordWeight

func (ws wordWeights) Len() int           { return len(ws) }
func (ws wordWeights) Less(i, j int) bool { return ws[i].count < ws[j].count }
func (ws wordWeights) Swap(i, j int)      { ws[i], ws[j] = ws[j], ws[i] }

// termPresence keeps the number of documents whose field has a term in a
// read-only index, by language, field and term: a word is searched in
// ten fields, and bleve readies a searcher (a dictionary lookup and a few
// allocations) for each, which was a third of what a common query
// allocated; a word is in four or five of them.
type termPresence struct {
	memo *cache.Cache[presenceKey, uint64]
}

type presenceKey struct{ lang, field, term string }

// maxPresence bounds the entries of a termPresence; when full, the least
// recently used go.
const maxPresence = 1 << 16

// count returns the number of documents whose field has term in the
// index of r, as bleve's term searcher counts them.
func (tp *termPresence) count(r index.IndexReader, lang, field, term string) (uint64, error) {
	return tp.memo.GetOrMake(presenceKey{lang, field, term}, func() (uint64, error) {
		return termCount(context.Background(), r, []byte(term), field)
	})
}

// maxBigrams is the number of bigrams a single CJK character expands to
// at most: those of the most documents.
const maxBigrams = 64

// singleCJK returns the character of a term that is one CJK character.
func singleCJK(term []byte) (string, bool) {
	r, size := utf8.DecodeRune(term)
	return string(term), size == len(term) && analysis.IsCJKRune(r)
}

// bigramsWith returns the term queries, in fields, of the bigrams of the
// index that begin or end with the character c: the index holds bigrams,
// so a character alone matches only where it stands alone, and a reader
// who types one character means the words that have it. The character is
// one word to the reader, so each bigram weighs in each field as rare as
// the character is there (the documents with any of its bigrams), not as
// rare as itself: else a bigram that one report happens to have (解決 in
// a ja index of payments, whose every report says 決済) outweighed the
// character's common use; and of a document's bigrams the best counts
// (newFormsQuery).
func (b *langBuilder) bigramsWith(c string, fields []fieldBoost) ([]blevequery.Query, error) {
	counts := map[string]uint64{}
	perField := make([]map[string]uint64, len(fields))
	for i, f := range fields {
		in := map[string]uint64{}
		if b.bigrams == nil {
			if err := dictTerms(b.dict, f.field, c, in); err != nil {
				return nil, err
			}
		} else {
			var err error
			if in, err = b.bigrams.terms(b.dict, b.lang, f.field, c); err != nil {
				return nil, err
			}
		}
		delete(in, c)
		if b.kind == analysis.Chinese {
			var err error
			if in, err = b.phraseBigrams(c, f.field, in); err != nil {
				return nil, err
			}
		}
		perField[i] = in
		for t, n := range in {
			counts[t] += n
		}
	}
	bigrams := slices.SortedFunc(maps.Keys(counts), func(x, y string) int {
		if c := cmp.Compare(counts[y], counts[x]); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	var qs []blevequery.Query
	for _, bg := range bigrams[:min(len(bigrams), maxBigrams)] {
		weighed := make([]fieldBoost, len(fields))
		for i, f := range fields {
			weighed[i] = fieldBoost{f.field, f.boost * b.asRareAs(perField[i], perField[i][bg])}
		}
		q, err := b.termInFields(bg, weighed, alternativeBoost)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// phraseBigrams returns in with the bigrams of field in which the fold
// writes c otherwise (analysis.PhraseBigrams: 宕 in 宕機 is folded as 死,
// so a report saying 宕机 holds only 死机), with their numbers of
// documents; in itself, which a cache may hold, is left as it is.
func (b *langBuilder) phraseBigrams(c, field string, in map[string]uint64) (map[string]uint64, error) {
	more := analysis.PhraseBigrams(c)
	if len(more) == 0 {
		return in, nil
	}
	in = maps.Clone(in)
	for _, bg := range more {
		n, err := termCount(context.Background(), b.dict, []byte(bg), field)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			in[bg] = n
		}
	}
	return in, nil
}

// asRareAs returns the boost that makes a term of df documents in a
// field weigh as BM25 weighs a term of the documents of all of bigrams
// (at most every document): bleve weighs a term by its idf squared (the
// score's, times the query weight's), so the square of the ratio of
// their idf. Without the number of documents, or for a term the field
// lacks, it is 1.
func (b *langBuilder) asRareAs(bigrams map[string]uint64, df uint64) float64 {
	if b.docCount <= 0 || df == 0 {
		return 1
	}
	var all float64
	for _, n := range bigrams {
		all += float64(n)
	}
	all = min(all, b.docCount)
	r := bm25IDF(b.docCount, all) / bm25IDF(b.docCount, float64(df))
	return r * r
}

// bm25IDF is the inverse document frequency of BM25 as bleve computes it.
func bm25IDF(docs, df float64) float64 {
	return math.Log(1 + (docs-df+0.5)/(df+0.5))
}

// bigramCache keeps the bigrams of a read-only index's term dictionaries
// that hold a CJK character, by language, field and character: finding
// them walks each dictionary with a regular expression, a third of the
// cost of a one-character query.
type bigramCache struct {
	memo *cache.Cache[bigramKey, map[string]uint64]
}

type bigramKey struct{ lang, field, c string }

// maxCachedChars bounds the entries of a bigramCache (a few kilobytes
// each at most); when full, the least recently used go.
const maxCachedChars = 4096

// terms returns the bigrams of field that begin or end with c, with
// their numbers of documents.
func (bc *bigramCache) terms(r index.IndexReader, lang, field, c string) (map[string]uint64, error) {
	return bc.memo.GetOrMake(bigramKey{lang, field, c}, func() (map[string]uint64, error) {
		counts := map[string]uint64{}
		if err := dictTerms(r, field, c, counts); err != nil {
			return nil, err
		}
		return counts, nil
	})
}

// dictTerms adds to counts the terms of field that begin or end with c,
// with their numbers of documents.
func dictTerms(r index.IndexReader, field, c string, counts map[string]uint64) error {
	dicts := []func() (index.FieldDict, error){
		func() (index.FieldDict, error) { return r.FieldDictPrefix(field, []byte(c)) },
	}
	if rr, ok := r.(index.IndexReaderRegexp); ok {
		dicts = append(dicts, func() (index.FieldDict, error) { return rr.FieldDictRegexp(field, "."+regexp.QuoteMeta(c)) })
	}
	// A dictionary counts the documents deleted from a segment too (an
	// index updated, or an Editable): then each term is counted
	// again, so that an updated index picks the bigrams a fresh one does.
	live := hasDeletions(r)
	for _, open := range dicts {
		d, err := open()
		if err != nil {
			return err
		}
		err = eachTerm(d, func(e *index.DictEntry) error {
			if utf8.RuneCountInString(e.Term) != 2 {
				return nil
			}
			n := e.Count
			if live || n == 0 {
				// A term of deleted documents only is not there; a
				// count the dictionary omits (bleve's regexp iterator
				// gives 0) is looked up, since it weighs the bigram
				// (bigramsWith).
				m, err := termCount(context.Background(), r, []byte(e.Term), field)
				if err != nil || m == 0 {
					return err
				}
				n = m
			}
			counts[e.Term] += n
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// hasDeletions reports whether some segment of the index r reads has
// documents marked deleted (true when it cannot tell).
func hasDeletions(r index.IndexReader) bool {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return true
	}
	for _, seg := range snap.Segments() {
		if d := seg.Deleted(); d != nil && !d.IsEmpty() {
			return true
		}
	}
	return false
}

func term(field, value string, boost float64) *blevequery.TermQuery {
	q := blevequery.NewTermQuery(value)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// eachTerm calls fn with each of d's entries, then closes d; it returns
// the first error of the dictionary, of fn or of closing it.
func eachTerm(d index.FieldDict, fn func(e *index.DictEntry) error) error {
	for {
		e, err := d.Next()
		if err == nil && e != nil {
			err = fn(e)
		}
		if err != nil || e == nil {
			if cerr := d.Close(); err == nil {
				err = cerr
			}
			return err
		}
	}
}
