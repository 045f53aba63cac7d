package schema

import (
	"slices"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/postmortem-archive/gen/search/query"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

// Field names of the bleve documents: those a reader can type are
// spelled once, in package query.
const (
	Title    = query.FieldTitle
	Summary  = query.FieldSummary
	Body     = query.FieldBody // the report but for its impact, root cause and timeline
	Timeline = query.FieldTimeline
	// The sections of the report weighed apart from the rest.
	Impact    = "impact"
	RootCause = "root_cause"

	Product      = query.FieldProduct // keyword: whole display name, lower-cased
	Region       = query.FieldRegion
	Cause        = query.FieldCause
	Organization = query.FieldOrganization
	Severity     = query.FieldSeverity

	ProductText      = Product + TextSuffix // the same names, analysed as text
	RegionText       = Region + TextSuffix
	CauseText        = Cause + TextSuffix
	OrganizationText = Organization + TextSuffix
	SeverityText     = Severity + TextSuffix

	Year = query.FieldYear // keyword "2017"
)

// TextSuffix names the text field of a keyword field.
const TextSuffix = "_text"

// LongFields are the text fields kept in the document store (package docstore)
// instead of bleve's term vectors: highlighting reads them there, and so
// does the check of phrases in them (package search). Their order is the order
// of fragments in a result.
var LongFields = [docstore.NumFields]string{Summary, Impact, RootCause, Body, Timeline}

// LongField returns the index of a long field in LongFields, or -1.
func LongField(name string) int {
	for i, f := range LongFields {
		if f == name {
			return i
		}
	}
	return -1
}

// TextFields and KeywordFields are the fields of the mapping.
var (
	TextFields    = []string{Title, Summary, Impact, RootCause, Body, Timeline, ProductText, RegionText, CauseText, OrganizationText, SeverityText}
	KeywordFields = []string{Product, Region, Cause, Organization, Severity, Year}
	MappedFields  = append(slices.Clone(TextFields), KeywordFields...)
)

// KeywordAnalyzer is the analyzer of the keyword fields: the whole value as one
// token, lower-cased, so "product:cloud sql" finds "Cloud SQL".
const KeywordAnalyzer = "gen_keyword"

// Mapping returns the mapping of one language's index. No dynamic
// fields, no _all field, no doc values, nothing stored (results and
// excerpts come from the metadata and the document store), and no term
// vectors, the positions that bleve's phrase search needs: they made the
// index three times larger than its text; phrases are checked on the text
// instead (package search).
func Mapping(lang string) (*mapping.IndexMappingImpl, error) {
	textAnalyzer := analysis.For(lang)

	im := mapping.NewIndexMapping()
	if err := im.AddCustomAnalyzer(KeywordAnalyzer, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     single.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = textAnalyzer
	im.ScoringModel = index.BM25Scoring // with the statistics of Lengths
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	field := func(analyzer string) func() *mapping.FieldMapping {
		return func() *mapping.FieldMapping {
			f := mapping.NewTextFieldMapping()
			f.Analyzer = analyzer
			f.Store = false
			f.IncludeTermVectors = false
			f.IncludeInAll = false
			f.DocValues = false
			return f
		}
	}
	text, keyword := field(textAnalyzer), field(KeywordAnalyzer)

	dm := mapping.NewDocumentStaticMapping()
	for _, name := range TextFields {
		dm.AddFieldMappingsAt(name, text())
	}
	for _, name := range KeywordFields {
		dm.AddFieldMappingsAt(name, keyword())
	}
	dm.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping())

	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return im, nil
}
