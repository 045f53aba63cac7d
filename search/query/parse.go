// Package query parses what readers type into the search box: words,
// "phrases", runs of Chinese or Japanese characters, -exclusions and
// field:value terms. It knows nothing of indexes or analyzers; package
// search analyses the parsed clauses for each language.
//
// A query is a sequence of terms separated by spaces. Every positive term
// must match (AND); a term matches when it occurs in the title, summary,
// body, timeline or in a product, region or cause name.
//
//	word            a word; punctuation inside it (Pub/Sub, europe-west2)
//	                makes it a phrase of its parts; a change between
//	                Latin letters or digits and Chinese or Japanese
//	                (NFS宕机, Webhook遅延) makes it words, as if typed
//	                with a space
//	資源耗盡         a run of Chinese or Japanese characters is a phrase:
//	                its bigrams must be adjacent
//	"a phrase"      words next to each other (also “…” and 「…」)
//	-word -"phrase" exclude incidents matching it (also -field:value)
//	title:word      only in titles; also summary:, body:, timeline:
//	title:"a b"     a phrase in titles
//	product:X       product named X (case-insensitive), or whose name
//	                contains the word or phrase X; also region:, cause:,
//	                organization: (org:), severity:
//	year:2017       incidents that began in 2017
//	lang:zh-TW      only documents in that language (repeatable; -lang:en)
//
// There are no wildcards, regular expressions or boolean operators: such
// characters are ordinary punctuation, so no user input can expand into an
// expensive query. A term made only of punctuation is ignored. The parser
// accepts any input (unbalanced quotes end at the end of the query,
// unknown "field:" prefixes are plain text); it never fails except for the
// limits (MaxQueryRunes, MaxClauses) and malformed year: and lang: values.
package query

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/search/analysis"
)

// Limits of a query, whatever a reader types.
const (
	// MaxQueryRunes is the longest query accepted; longer queries are
	// rejected with ErrBadQuery (not truncated, so that a reader never
	// gets results for a query they did not type).
	MaxQueryRunes = 512
	// MaxClauses is the maximum number of words, phrases and field:value
	// terms in one query.
	MaxClauses = 24
)

// Field names, as readers type them and as the index names its fields.
const (
	FieldTitle    = "title"
	FieldSummary  = "summary"
	FieldBody     = "body"
	FieldTimeline = "timeline"
	FieldProduct  = "product"
	FieldRegion   = "region"
	FieldCause    = "cause"
	// FieldOrganization and FieldSeverity are whose incident it is and
	// how severe ("unknown" when the report does not say).
	FieldOrganization = "organization"
	FieldSeverity     = "severity"
	FieldYear         = "year"
)

// ErrBadQuery is returned, wrapped with a human-readable message, for a
// query that cannot be searched. Test with errors.Is; the message
// (err.Error()) is fit to show to the reader.
var ErrBadQuery = errors.New("bad query")

// Errorf returns an error wrapping ErrBadQuery with a message for the
// reader.
func Errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadQuery, fmt.Sprintf(format, args...))
}

// Problem is a request that cannot be searched, said so that a page can
// say it in the reader's language: Key names the message in a site's
// language files, Args fill its {placeholders}. Its Error is the English
// message, and it wraps ErrBadQuery.
type Problem struct {
	Key  string // "search_error_too_long"…
	Args []any  // name, value pairs: "max", 512
	text string // English, with {placeholders}
}

// Problemf returns a Problem with English text, whose {name}
// placeholders args fill (name, value pairs).
func Problemf(key, text string, args ...any) error {
	return &Problem{Key: key, Args: args, text: text}
}

func (p *Problem) Error() string {
	pairs := make([]string, 0, len(p.Args))
	for i := 0; i+1 < len(p.Args); i += 2 {
		pairs = append(pairs, "{"+fmt.Sprint(p.Args[i])+"}", fmt.Sprint(p.Args[i+1]))
	}
	return ErrBadQuery.Error() + ": " + strings.NewReplacer(pairs...).Replace(p.text)
}

func (p *Problem) Unwrap() error { return ErrBadQuery }

// Kind is the kind of a clause.
type Kind uint8

const (
	Text Kind = iota // words or a phrase over text fields
	Meta             // product:, region:, cause:, organization:, severity:
	Year             // year:
)

// Clause is one term of a query.
type Clause struct {
	Kind  Kind
	Field string // Text: "" (all text fields) or one of them; Meta: FieldProduct, FieldRegion or FieldCause
	Value string // as typed (Year: the year, four digits)
	Neg   bool   // an exclusion: -term
	// Bare: a word typed as is, not quoted and without field:. Start and
	// End are then the rune offsets of Value in Query.Text, so that a
	// correction can replace it.
	Bare       bool
	Start, End int
}

// Query is a query parsed once, independent of language.
type Query struct {
	Text            string // the query parsed, invalid UTF-8 replaced
	Clauses         []Clause
	Langs, NotLangs []string // lang: and -lang:, canonical tags
}

// Empty reports whether the query restricts nothing.
func (p *Query) Empty() bool {
	return len(p.Clauses) == 0 && len(p.Langs) == 0 && len(p.NotLangs) == 0
}

// Ranked reports whether the query has positive text terms: results are
// then ordered by relevance and highlighted; otherwise (filters,
// exclusions only) they are listed newest first.
func (p *Query) Ranked() bool {
	for _, c := range p.Clauses {
		if c.Kind == Text && !c.Neg {
			return true
		}
	}
	return false
}

// Allows reports whether documents in lang may match.
func (p *Query) Allows(lang string) bool {
	if len(p.Langs) > 0 && !slices.Contains(p.Langs, lang) {
		return false
	}
	return !slices.Contains(p.NotLangs, lang)
}

type fieldSpec struct {
	kind  Kind
	field string
	lang  bool
}

var fieldNames = map[string]fieldSpec{
	"title":         {kind: Text, field: FieldTitle},
	"summary":       {kind: Text, field: FieldSummary},
	"body":          {kind: Text, field: FieldBody},
	"timeline":      {kind: Text, field: FieldTimeline},
	"product":       {kind: Meta, field: FieldProduct},
	"products":      {kind: Meta, field: FieldProduct},
	"region":        {kind: Meta, field: FieldRegion},
	"regions":       {kind: Meta, field: FieldRegion},
	"cause":         {kind: Meta, field: FieldCause},
	"causes":        {kind: Meta, field: FieldCause},
	"org":           {kind: Meta, field: FieldOrganization},
	"organization":  {kind: Meta, field: FieldOrganization},
	"organizations": {kind: Meta, field: FieldOrganization},
	"severity":      {kind: Meta, field: FieldSeverity},
	"year":          {kind: Year, field: FieldYear},
	"lang":          {lang: true},
	"language":      {lang: true},
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

// narrow turns full-width letters and digits (ＡＢＣ１２３, typed with a
// CJK input method) into ASCII ones, as the text they look for is
// usually written: every language's analyzer then finds the word, and
// the CJK tokenizer, which drops full-width digits, sees them.
func narrow(rs []rune) {
	for i, r := range rs {
		if r >= 0xFF10 && r <= 0xFF19 || r >= 0xFF21 && r <= 0xFF3A || r >= 0xFF41 && r <= 0xFF5A {
			rs[i] = r - 0xFEE0 // the same order as ASCII
		}
	}
}

// Parse parses the user syntax (see the package documentation). It
// accepts any text: it fails only for the limits and for malformed year:
// and lang: values, with an error wrapping ErrBadQuery.
func Parse(s string) (*Query, error) {
	s = strings.ToValidUTF8(s, " ")
	if n := utf8.RuneCountInString(s); n > MaxQueryRunes {
		return nil, Problemf("search_error_too_long", "the query is too long ({n} characters; at most {max})", "n", n, "max", MaxQueryRunes)
	}
	rs := []rune(s)
	narrow(rs)
	p := &Query{Text: s}
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
			if err := p.add(Clause{Kind: Text, Value: v, Neg: neg}); err != nil {
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
		if err := p.addWord(rs, start, i, neg); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addWord adds the bare word rs[start:end], a word for each of its runs
// of one script: the index cuts text where Latin letters or digits meet
// Chinese or Japanese (NFS宕机 as NFS 宕机), and a reader who writes them
// together, as those languages are written, means both words, not that
// they touch. An exclusion is left whole: -NFS宕机 excludes less than
// -NFS -宕机.
func (p *Query) addWord(rs []rune, start, end int, neg bool) error {
	from := start
	for i := start + 1; i <= end; i++ {
		if i < end && (neg || !scriptChange(rs[i-1], rs[i])) {
			continue
		}
		c := Clause{Kind: Text, Value: string(rs[from:i]), Neg: neg, Bare: true, Start: from, End: i}
		if err := p.add(c); err != nil {
			return err
		}
		from = i
	}
	return nil
}

// scriptChange reports whether a and b, adjacent in a word, are a Latin
// (or other alphabet's) letter or digit and a CJK character, in either
// order.
func scriptChange(a, b rune) bool {
	alnum := func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsNumber(r)) && !analysis.IsCJKRune(r)
	}
	return alnum(a) && analysis.IsCJKRune(b) || analysis.IsCJKRune(a) && alnum(b)
}

func (p *Query) add(c Clause) error {
	if !searchable(c.Value) {
		return nil
	}
	if len(p.Clauses) >= MaxClauses {
		return Problemf("search_error_too_many_terms", "the query has too many terms (at most {max})", "max", MaxClauses)
	}
	p.Clauses = append(p.Clauses, c)
	return nil
}

func (p *Query) addField(spec fieldSpec, val string, neg bool) error {
	val = strings.TrimSpace(val)
	switch {
	case val == "":
		return nil
	case spec.lang:
		l, err := i18n.Canonical(val)
		if err != nil {
			return Problemf("search_error_lang", "lang:{value} is not a language tag (try lang:en or lang:zh-TW)", "value", Clip(val))
		}
		if neg {
			p.NotLangs = append(p.NotLangs, l)
		} else {
			p.Langs = append(p.Langs, l)
		}
		return nil
	case spec.kind == Year:
		y, err := strconv.Atoi(val)
		if err != nil || y < 1000 || y > 9999 {
			return Problemf("search_error_year", "year:{value} is not a year (try year:2017)", "value", Clip(val))
		}
		val = strconv.Itoa(y)
	}
	return p.add(Clause{Kind: spec.kind, Field: spec.field, Value: val, Neg: neg})
}

// Clip shortens user input quoted back in an error message.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

// Replace returns the text of the query with the bare word of clause i
// replaced by word.
func (p *Query) Replace(i int, word string) string {
	c := p.Clauses[i]
	rs := []rune(p.Text)
	return string(rs[:c.Start]) + word + string(rs[c.End:])
}
