package search

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
	fTitle    = query.FieldTitle
	fSummary  = query.FieldSummary
	fBody     = query.FieldBody // the report but for its impact, root cause and timeline
	fTimeline = query.FieldTimeline
	// The sections of the report weighed apart from the rest.
	fImpact    = "impact"
	fRootCause = "root_cause"

	fProduct = query.FieldProduct // keyword: whole display name, lower-cased
	fRegion  = query.FieldRegion
	fCause   = query.FieldCause
	fOrg     = query.FieldOrganization
	fSev     = query.FieldSeverity

	fProductText = fProduct + textSuffix // the same names, analysed as text
	fRegionText  = fRegion + textSuffix
	fCauseText   = fCause + textSuffix
	fOrgText     = fOrg + textSuffix
	fSevText     = fSev + textSuffix

	fYear = query.FieldYear // keyword "2017"
)

// textSuffix names the text field of a keyword field.
const textSuffix = "_text"

// longFields are the text fields kept in the document store (package docstore)
// instead of bleve's term vectors: highlighting reads them there, and so
// does the check of phrases in them (phrase.go). Their order is the order
// of fragments in a result.
var longFields = [docstore.NumFields]string{fSummary, fImpact, fRootCause, fBody, fTimeline}

// longField returns the index of a long field in longFields, or -1.
func longField(name string) int {
	for i, f := range longFields {
		if f == name {
			return i
		}
	}
	return -1
}

// The fields without term vectors whose phrases are checked on their text
// (phrase.go) are numbered: the long fields, whose text is in the
// document store, then these, whose text is in the metadata.
const (
	titleField = len(longFields) + iota
	productField
	regionField
	causeField
	orgField
	sevField
	numCheckedFields
)

// checkedField returns the number of a field whose phrases are checked:
// every text field.
func checkedField(name string) int {
	switch name {
	case fTitle:
		return titleField
	case fProductText:
		return productField
	case fRegionText:
		return regionField
	case fCauseText:
		return causeField
	case fOrgText:
		return orgField
	case fSevText:
		return sevField
	}
	return longField(name)
}

// textFields and keywordFields are the fields of the mapping.
var (
	textFields    = []string{fTitle, fSummary, fImpact, fRootCause, fBody, fTimeline, fProductText, fRegionText, fCauseText, fOrgText, fSevText}
	keywordFields = []string{fProduct, fRegion, fCause, fOrg, fSev, fYear}
	mappedFields  = append(slices.Clone(textFields), keywordFields...)
)

// kwAnalyzer is the analyzer of the keyword fields: the whole value as one
// token, lower-cased, so "product:cloud sql" finds "Cloud SQL".
const kwAnalyzer = "gen_keyword"

// newMapping returns the mapping of one language's index. No dynamic
// fields, no _all field, no doc values, nothing stored (results and
// excerpts come from the metadata and the document store), and no term
// vectors, the positions that bleve's phrase search needs: they made the
// index three times larger than its text; phrases are checked on the text
// instead (see phrase.go).
func newMapping(lang string) (*mapping.IndexMappingImpl, error) {
	textAnalyzer := analysis.For(lang)

	im := mapping.NewIndexMapping()
	if err := im.AddCustomAnalyzer(kwAnalyzer, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     single.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = textAnalyzer
	im.ScoringModel = index.BM25Scoring // with the statistics of bm25.go
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	text := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = textAnalyzer
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	keyword := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = kwAnalyzer
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}

	dm := mapping.NewDocumentStaticMapping()
	for _, name := range textFields {
		dm.AddFieldMappingsAt(name, text())
	}
	for _, name := range keywordFields {
		dm.AddFieldMappingsAt(name, keyword())
	}
	dm.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping())

	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return im, nil
}
