package search

// The query syntax is described in the package documentation (search.go).

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
)

type clauseKind uint8

const (
	kindText clauseKind = iota // words or a phrase over text fields
	kindMeta                   // product:, region:, cause:
	kindYear                   // year:
)

type clause struct {
	kind  clauseKind
	field string // kindText: "" (all text fields) or one field; kindMeta: keyword field
	value string
	neg   bool
}

// parsedQuery is a query parsed once, independent of language.
type parsedQuery struct {
	clauses         []clause
	langs, notLangs []string // lang: and -lang:
}

// empty reports whether the query restricts nothing.
func (p *parsedQuery) empty() bool {
	return len(p.clauses) == 0 && len(p.langs) == 0 && len(p.notLangs) == 0
}

// ranked reports whether the query has positive text terms: results are
// then ordered by relevance and highlighted; otherwise (filters,
// exclusions only) they are listed newest first.
func (p *parsedQuery) ranked() bool {
	for _, c := range p.clauses {
		if c.kind == kindText && !c.neg {
			return true
		}
	}
	return false
}

// allows reports whether documents in lang may match.
func (p *parsedQuery) allows(lang string) bool {
	if len(p.langs) > 0 && !slices.Contains(p.langs, lang) {
		return false
	}
	return !slices.Contains(p.notLangs, lang)
}

type fieldSpec struct {
	kind  clauseKind
	field string
	lang  bool
}

var fieldNames = map[string]fieldSpec{
	"title":    {kind: kindText, field: fTitle},
	"summary":  {kind: kindText, field: fSummary},
	"body":     {kind: kindText, field: fBody},
	"timeline": {kind: kindText, field: fTimeline},
	"product":  {kind: kindMeta, field: fProduct},
	"products": {kind: kindMeta, field: fProduct},
	"region":   {kind: kindMeta, field: fRegion},
	"regions":  {kind: kindMeta, field: fRegion},
	"cause":    {kind: kindMeta, field: fCause},
	"causes":   {kind: kindMeta, field: fCause},
	"year":     {kind: kindYear, field: fYear},
	"lang":     {lang: true},
	"language": {lang: true},
}

func isSep(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

func isQuote(r rune) bool {
	switch r {
	case '"', '“', '”', '„', '「', '」', '『', '』':
		return true
	}
	return false
}

// searchable reports whether s has anything an analyzer can index.
func searchable(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}

// readQuoted returns the text from rs[i] up to the next quote (or the end)
// and the index after that quote.
func readQuoted(rs []rune, i int) (string, int) {
	start := i
	for i < len(rs) && !isQuote(rs[i]) {
		i++
	}
	s := string(rs[start:i])
	if i < len(rs) {
		i++
	}
	return s, i
}

// parseQuery parses the user syntax. See the comment at the top of this file.
func parseQuery(s string) (*parsedQuery, error) {
	s = strings.ToValidUTF8(s, " ")
	if n := utf8.RuneCountInString(s); n > MaxQueryRunes {
		return nil, badQuery("the query is too long (%d characters; at most %d)", n, MaxQueryRunes)
	}
	rs := []rune(s)
	p := &parsedQuery{}
	for i := 0; i < len(rs); {
		if isSep(rs[i]) {
			i++
			continue
		}
		neg := false
		if rs[i] == '-' || rs[i] == '+' {
			neg = rs[i] == '-'
			i++
			if i >= len(rs) || isSep(rs[i]) {
				continue // a lone sign
			}
		}
		if isQuote(rs[i]) {
			var v string
			v, i = readQuoted(rs, i+1)
			if err := p.add(clause{kind: kindText, value: v, neg: neg}); err != nil {
				return nil, err
			}
			continue
		}
		start := i
		for i < len(rs) && !isSep(rs[i]) && !isQuote(rs[i]) {
			i++
		}
		word := string(rs[start:i])
		if name, val, ok := strings.Cut(word, ":"); ok && name != "" {
			if spec, known := fieldNames[strings.ToLower(name)]; known {
				if val == "" && i < len(rs) && isQuote(rs[i]) {
					val, i = readQuoted(rs, i+1)
				}
				if err := p.addField(spec, val, neg); err != nil {
					return nil, err
				}
				continue
			}
		}
		if err := p.add(clause{kind: kindText, value: word, neg: neg}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *parsedQuery) add(c clause) error {
	if !searchable(c.value) {
		return nil
	}
	if len(p.clauses) >= MaxClauses {
		return badQuery("the query has too many terms (at most %d)", MaxClauses)
	}
	p.clauses = append(p.clauses, c)
	return nil
}

func (p *parsedQuery) addField(spec fieldSpec, val string, neg bool) error {
	val = strings.TrimSpace(val)
	switch {
	case val == "":
		return nil
	case spec.lang:
		l, err := CanonicalLang(val)
		if err != nil {
			return badQuery("lang:%s is not a language tag (try lang:en or lang:zh-TW)", clip(val))
		}
		if neg {
			p.notLangs = append(p.notLangs, l)
		} else {
			p.langs = append(p.langs, l)
		}
		return nil
	case spec.kind == kindYear:
		y, err := strconv.Atoi(val)
		if err != nil || y < 1000 || y > 9999 {
			return badQuery("year:%s is not a year (try year:2017)", clip(val))
		}
		val = strconv.Itoa(y)
	}
	return p.add(clause{kind: spec.kind, field: spec.field, value: val, neg: neg})
}

// clip shortens user input quoted back in an error message.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

// filters are the exact-match filters of a Request (facet links).
type filters struct {
	product, region, cause string
	year                   int
}

type fieldBoost struct {
	field string
	boost float64
}

// defaultFields are the fields a term without field: prefix searches.
var defaultFields = []fieldBoost{
	{fTitle, 3}, {fSummary, 2}, {fBody, 1}, {fTimeline, 1},
	{fProductText, 2}, {fRegionText, 1}, {fCauseText, 1},
}

// langBuilder turns a parsedQuery into the bleve query for one language
// index, analysing every term with that index's analyzers. The leaves are
// term and phrase queries over final terms, so bleve never picks an
// analyzer itself.
type langBuilder struct {
	lang string
	kind analyzerKind
	text analysis.Analyzer
	kw   analysis.Analyzer
}

func newLangBuilder(lang string, m mapping.IndexMapping) (*langBuilder, error) {
	b := &langBuilder{
		lang: lang,
		kind: kindOf(lang),
		text: m.AnalyzerNamed(m.AnalyzerNameForPath(fTitle)),
		kw:   m.AnalyzerNamed(kwAnalyzer),
	}
	if b.text == nil || b.kw == nil {
		return nil, badQuery("index for %s lacks its analyzers", lang) // not reached with indexes we built
	}
	return b, nil
}

// langQueries are the bleve queries of one language.
type langQueries struct {
	// match finds the documents of this language that match; nil when
	// none can (every positive term analyses to nothing here, like an
	// English stop word).
	match query.Query
	// exclude finds the documents with an excluded (-term) term, nil
	// without exclusions. An incident is excluded when any of its
	// language versions has one, not only the version that matched.
	exclude query.Query
	// highlights are the words and phrases to highlight in the long
	// fields: those of the positive text terms.
	highlights []highlight
	// The phraseQuery nodes of match and exclude (phrase.go).
	matchNodes, excludeNodes []*phraseQuery
}

// highlight is a pattern to highlight and the long fields it applies to.
type highlight struct {
	p      *pattern
	fields uint8 // bit i: longFields[i]
}

// build returns the queries for this language. match is nil when lang: or
// -lang: leave this language out; exclude is not (exclusion is per
// incident, whatever languages are searched).
func (b *langBuilder) build(p *parsedQuery, f filters) (langQueries, error) {
	var lq langQueries
	var must, mustNot, filter []query.Query
	positives := 0
	for _, c := range p.clauses {
		q, err := b.clause(c, &lq)
		if err != nil {
			return lq, err
		}
		if c.neg {
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
		lq.exclude = query.NewDisjunctionQuery(mustNot)
	}
	if !p.allows(b.lang) || positives > 0 && len(must) == 0 {
		return lq, nil
	}
	for _, kf := range []struct{ field, value string }{
		{fProduct, f.product}, {fRegion, f.region}, {fCause, f.cause},
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
		lq.match = query.NewMatchAllQuery()
		return lq, nil
	}
	bq := &query.BooleanQuery{}
	if len(must) > 0 {
		bq.Must = query.NewConjunctionQuery(must)
	}
	if len(filter) > 0 {
		bq.Filter = query.NewConjunctionQuery(filter)
	}
	lq.match = bq
	return lq, nil
}

func (b *langBuilder) clause(c clause, lq *langQueries) (query.Query, error) {
	nodes := &lq.matchNodes
	if c.neg {
		nodes = &lq.excludeNodes
	}
	switch c.kind {
	case kindMeta:
		exact := b.keyword(c.field, c.value)
		exact.SetBoost(2)
		words, _, err := b.words(c.value, []fieldBoost{{c.field + "_text", 1}}, nodes)
		if err != nil || words == nil {
			return exact, err
		}
		return query.NewDisjunctionQuery([]query.Query{exact, words}), nil
	case kindYear:
		return term(fYear, c.value, 1), nil
	}
	fields := defaultFields
	if c.field != "" {
		fields = []fieldBoost{{c.field, 1}}
	}
	q, pat, err := b.words(c.value, fields, nodes)
	if q != nil && !c.neg {
		h := highlight{p: pat}
		for _, f := range fields {
			if i := longField(f.field); i >= 0 {
				h.fields |= 1 << i
			}
		}
		if h.fields != 0 {
			lq.highlights = append(lq.highlights, h)
		}
	}
	return q, err
}

// keyword is an exact, case-insensitive match of a whole keyword value.
func (b *langBuilder) keyword(field, value string) *query.TermQuery {
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
func (b *langBuilder) words(text string, fields []fieldBoost, nodes *[]*phraseQuery) (query.Query, *pattern, error) {
	toks := b.text.Analyze([]byte(text))
	if len(toks) == 0 {
		return nil, nil, nil
	}
	if len(toks) > MaxPhraseTokens {
		return nil, nil, badQuery("%q has too many words for one phrase (at most %d)", clip(text), MaxPhraseTokens)
	}
	pat := newPattern(toks, b.kind)
	qs := make([]query.Query, 0, len(fields))
	if len(toks) == 1 {
		for _, f := range fields {
			qs = append(qs, term(f.field, string(toks[0].Term), f.boost))
		}
	} else {
		for _, f := range fields {
			q := &phraseQuery{Terms: pat.terms, FieldVal: f.field, BoostVal: f.boost, field: checkedField(f.field), pat: pat, node: len(*nodes)}
			if q.field < len(longFields) {
				q.pairs = phrasePairs(pat.terms, q.field)
			}
			*nodes = append(*nodes, q)
			qs = append(qs, q)
		}
	}
	if len(qs) == 1 {
		return qs[0], pat, nil
	}
	return query.NewDisjunctionQuery(qs), pat, nil
}

func term(field, value string, boost float64) *query.TermQuery {
	q := query.NewTermQuery(value)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// toPhrase lays tokens out by position; a position with no token (a
// removed stop word) stays empty and matches any term.
func toPhrase(toks analysis.TokenStream) [][]string {
	first, last := toks[0].Position, toks[0].Position
	for _, t := range toks {
		first = min(first, t.Position)
		last = max(last, t.Position)
	}
	out := make([][]string, last-first+1)
	for _, t := range toks {
		out[t.Position-first] = append(out[t.Position-first], string(t.Term))
	}
	return out
}
