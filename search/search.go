// Package search opens the archive's search index and searches it.
//
// # Reading this package
//
// Search is split in rooms, each a package with one job:
//
//	search            opens an index and searches it (this package)
//	search/build      writes an index: whole (Create) or updated (Update)
//	search/schema     what an index holds: Document, the fields and their
//	                  analyzers, meta.json and lengths.json
//	search/query      parses what readers type (the syntax is documented there)
//	search/analysis   which analyzer each language gets, the fast analysis
//	                  used when indexing, phrase sketches, text flags
//	search/docstore   the stored text and metadata beside each language
//	                  index: file format, reader, writer
//	search/vocab      the words of each language as written, for completions
//	                  and corrections
//	search/locate     finds a query's words and phrases in a text as the
//	                  analyzer would, and highlights them
//
// In this package, opening: engine.go (what both kinds of open index
// share), index.go (Index, read-only, for the production server),
// editable.go (Editable, changed in place by Replace, for the authoring
// server), options.go, meta.go (the incidents in memory), bm25.go (BM25
// with true field lengths). Searching: search.go (Request, Response, the
// limits), execute.go (plan → collect → collapse → order → page),
// langquery.go (a parsed query as one language's bleve queries),
// fieldnames.go, langsearch.go (the search of one language), fields.go,
// phrase.go (phrases checked on the stored text), surface.go, order.go,
// facets.go, results.go, expand.go (completions and corrections),
// respell.go (corrections of Chinese and Japanese words by sound).
//
// # Layout
//
// An index is a directory holding, for each language, a directory named
// after the canonical BCP 47 tag ("en", "zh-TW", "ja") with a bleve
// (scorch) index, a document store (package docstore: the language's
// documents' metadata and the text of their long fields: summary,
// impact, root cause, body, timeline), a vocabulary (package vocab) and
// the fields' total lengths (lengths.json). meta.json, written last,
// lists the languages; a directory without it is an unfinished build and
// Open refuses it. Package schema has the details.
//
// The bleve indexes store nothing, keep no term vectors (positions) and
// have no _all field: with term vectors the index was three times larger
// than its text. Phrases are checked on the text of the document store
// instead (see "Phrases" below), and highlighting reads it too. An index
// is about as large as the text it indexes, or smaller. A program of its
// own can open a language index with bleve once the analyzers its
// mapping names are registered, and run match queries on its fields; it
// finds nothing for a bare word, a phrase or a stored field (see
// docs/search.md).
//
// # Why one index per language
//
// Every language index has exactly one text analyzer (analysis.For). The
// query is parsed once (package query) and then analysed separately for
// each language with that language's analyzer, producing term and phrase
// queries whose terms are already final. Bleve never chooses an analyzer
// for us, so the map-order nondeterminism of a single multi-analyzer index
// cannot happen, and a word that analyses to nothing in one language (an
// English stop word) is simply dropped there instead of making the whole
// query fail.
//
// # Results
//
// Every language version of an incident is its own bleve document; a match in
// any language counts. Search collects all matching documents of all
// languages, collapses them to one result per incident (score = best score of
// its documents; ties broken by id), and computes facets per incident from
// the metadata. Only the page being shown is highlighted, from the
// documents' text. A result shows the reader's language when that
// translation exists, otherwise the original.
//
// Results are ordered by relevance (ties by id). A query without positive
// words (empty, only filters, field:values or exclusions) lists the
// matching incidents newest first, with score 0; the empty query lists
// everything, which the search page can use for browsing by facet. A
// query left with nothing to search for is an ErrBadQuery.
//
// # Phrases
//
// A phrase (and a run of CJK characters, a phrase of bigrams) matches as a
// bleve phrase query over term vectors would, with the same score: bleve
// finds the documents that have all its terms in the field, which a phrase
// query scores the same way, and the phrase is then checked on the text,
// with the same analyzer (see phrase.go and package locate). Checking costs
// 10–40 µs a document, and the words of a common phrase occur together in
// thousands of documents, so a search checks every candidate only when
// there are few in a language (WithEagerChecks); otherwise it checks just
// the candidates that reach the page shown, best first, until the page
// holds only checked results. Results and their order are then exact,
// while the total and the facet counts also count the candidates left
// unchecked: they are an upper bound, within a few percent of the true
// counts for real phrases. A phrase in the names of products, regions,
// causes, organizations or severities is checked on every candidate as
// it is found, from the names, which costs a look-up.
//
// # Beyond the words typed
//
// The last word also matches the words it begins, and a word that finds
// nothing the words one or two letters away, with a suggestion
// (expand.go); a Chinese or Japanese word that finds nothing, its
// respelling with a character of the same sound, or its kana in kanji
// (respell.go). The index holds CJK bigrams, so a single Chinese or
// Japanese character matches the bigrams of the index that hold it
// (langquery.go).
//
// Known gaps: "OR" is an ordinary word; the total of a query with a
// common phrase may count a few candidates that lack it (see Phrases).
//
// # Limits
//
// Queries longer than MaxQueryRunes are rejected, not truncated. See the
// other constants below for terms, phrases, pages and time.
package search

import (
	"context"
	"time"

	"github.com/postmortem-archive/gen/search/query"
)

// Limits applied to every request. They keep the cost of one query bounded
// whatever a user types.
const (
	// MaxQueryRunes is the longest query accepted; longer queries are
	// rejected with ErrBadQuery (not truncated, so that a user never gets
	// results for a query they did not type).
	MaxQueryRunes = query.MaxQueryRunes
	// MaxClauses is the maximum number of words, phrases and field:value
	// terms in one query.
	MaxClauses = query.MaxClauses
	// MaxPhraseTokens is the maximum number of analysed tokens in one word
	// or phrase (a long run of Chinese characters becomes many bigrams).
	MaxPhraseTokens = 64
	// DefaultPerPage and MaxPerPage bound Request.PerPage.
	DefaultPerPage = 10
	MaxPerPage     = 50
	// MaxWindow bounds page*perPage: results beyond the first MaxWindow
	// incidents cannot be paged to.
	MaxWindow = 1000
	// MaxHitsPerLanguage bounds how many matching documents are collected
	// from one language index. Totals and facets are exact below it; above
	// it, the documents beyond the first MaxHitsPerLanguage in index order
	// are ignored.
	MaxHitsPerLanguage = 100000
	// MaxFacetTerms is the number of terms returned per facet.
	MaxFacetTerms = 50
	// DefaultTimeout applies when the caller's context has no deadline.
	DefaultTimeout = 10 * time.Second
)

// ErrBadQuery is returned, wrapped with a human-readable message, for a
// request that cannot be searched: a query that is too long or has nothing
// to search for, a malformed year:, a page beyond the result window. Test
// with errors.Is; the message (err.Error()) is fit to show to the user.
var ErrBadQuery = query.ErrBadQuery

// Problem is a request that cannot be searched, by the key of its message
// in a site's language files and the values of its placeholders; it
// wraps ErrBadQuery. The query parser makes them, and so does a server
// for the parameters it reads (NewProblem).
type Problem = query.Problem

// NewProblem returns a Problem with English text, whose {name}
// placeholders args fill (name, value pairs).
func NewProblem(key, text string, args ...any) error { return query.Problemf(key, text, args...) }

// Searcher is what a server searches: an Index, or the authoring
// server's Editable.
type Searcher interface {
	// Search runs a request. It returns an error wrapping ErrBadQuery
	// for a request that cannot be searched (see the limits), the
	// context's error if it is cancelled or its deadline passes
	// (DefaultTimeout applies when it has none), and never panics on any
	// query text.
	Search(ctx context.Context, r Request) (*Response, error)
	// Close releases the index. Searches after Close fail.
	Close() error
}

// Request is one search as a reader asks it.
type Request struct {
	Query   string // user syntax, see the package documentation
	Lang    string // reader's language; results shown in it when that translation exists, else original
	Page    int    // 1-based; values < 1 mean 1
	PerPage int    // default DefaultPerPage, capped at MaxPerPage

	// Exact filters (facet links). Matching is case-insensitive on the
	// whole display name.
	Product, Region, Cause string
	Organization, Severity string
	Year                   int    // 0: any
	Language               string // only documents in this language (a canonical tag); "": all
	Duration               string // a duration band (DurationBands): how long the incident lasted
	// From and To bound the date an incident began (in its own zone, as
	// the site lists it), both included: a year-month ("2021-03", the
	// whole month) or a date ("2021-03-15"); "" for no bound.
	From, To string

	// AllFacet names a facet (FacetProduct…) whose values are all
	// listed, not only the MaxFacetTerms most frequent; another name
	// lists none in full.
	AllFacet string

	// Sort orders the results: SortRelevance (the default; newest first
	// when nothing is searched for), SortDate, SortOldest, SortDuration
	// or SortSeverity, each with the newest first among equals.
	Sort string
}

// Orders of results, the values of Request.Sort.
const (
	SortRelevance = "relevance"
	SortDate      = "date"     // newest first
	SortOldest    = "oldest"   // oldest first
	SortDuration  = "duration" // longest first
	SortSeverity  = "severity" // most severe first
)

// Sorts lists the orders of results.
var Sorts = []string{SortRelevance, SortDate, SortOldest, SortDuration, SortSeverity}

// DurationBands are the values of the duration facet, shortest first (the
// bands of the archive's overview chart); an incident without a known end
// is in DurationUnknown.
var DurationBands = []DurationBand{
	{"under-1h", time.Hour}, {"1-4h", 4 * time.Hour}, {"4-12h", 12 * time.Hour}, {"12-24h", 24 * time.Hour}, {"over-1d", 0},
}

// DurationUnknown is the duration facet value of incidents whose
// duration is not known.
const DurationUnknown = "unknown"

// DurationBand is one value of the duration facet: incidents shorter than
// Below and not shorter than the band before (Below 0: no upper bound).
type DurationBand struct {
	Name  string
	Below time.Duration
}

// durationBand is the duration facet value of d.
func durationBand(d time.Duration) string {
	if d <= 0 {
		return DurationUnknown
	}
	for _, b := range DurationBands {
		if b.Below == 0 || d < b.Below {
			return b.Name
		}
	}
	return DurationUnknown
}

// Response is the answer to a Request, in the JSON shape of the search API.
type Response struct {
	Query string `json:"query"`
	// DidYouMean is the query with the words that found nothing
	// corrected, when some were (their corrections are searched too).
	DidYouMean string `json:"did_you_mean,omitempty"`
	Total      int    `json:"total"` // number of matching incidents
	// KeepTyping says that nothing matches a last word too short to
	// complete (a letter or two): not that nothing will.
	KeepTyping bool     `json:"keep_typing,omitempty"`
	TookMS     float64  `json:"took_ms"`
	Results    []Result `json:"results"`
	// Facets are keyed by facet name (FacetProduct…). Years are newest
	// first, durations shortest first, severities most severe first,
	// the others by count.
	Facets map[string][]FacetCount `json:"facets"`
	// FacetTotals are the number of values of each facet among the
	// matches: more than len(Facets[name]) when some are not listed.
	FacetTotals map[string]int `json:"facet_totals"`
}

// Result is one incident in a Response.
type Result struct {
	ID    string `json:"id"`
	Lang  string `json:"lang"` // language of Title and URL
	Title string `json:"title"`
	URL   string `json:"url"`
	Date  string `json:"date"` // begin date, YYYY-MM-DD (UTC)
	// Begin is the begin in the incident's own zone (RFC 3339), Zone
	// that zone's IANA name; Duration is in seconds, 0 when the end is
	// not stated, and Ongoing says the incident was not over when reported.
	Begin    string `json:"begin,omitempty"`
	Zone     string `json:"zone,omitempty"`
	Duration int64  `json:"duration_s,omitempty"`
	Ongoing  bool   `json:"ongoing,omitempty"`

	Organization string   `json:"organization,omitempty"`
	Severity     string   `json:"severity,omitempty"`
	Products     []string `json:"products"`

	// Fragments are HTML: matches wrapped in <mark>…</mark>, everything
	// else escaped. They come from the document that matched; when the
	// reader's language version did not match but another did, they are in
	// that other language, named by FragmentsLang.
	Fragments     []string `json:"fragments"`
	FragmentsLang string   `json:"fragments_lang,omitempty"` // set only when different from Lang

	Score float64 `json:"score"`
}

// FacetCount is one facet value and the number of matching incidents with it.
type FacetCount struct {
	Term  string `json:"term"`
	Count int    `json:"count"`
}

// Facet names, the keys of Response.Facets.
const (
	FacetProduct      = "product"
	FacetRegion       = "region"
	FacetCause        = "cause"
	FacetOrganization = "organization"
	FacetSeverity     = "severity"
	FacetYear         = "year"
	FacetDuration     = "duration"
	FacetLang         = "lang"
)
