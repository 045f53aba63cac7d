package search

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk" // every program opening an index needs it registered
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/mapping"
	"golang.org/x/text/language"
)

// Field names of the bleve documents.
const (
	fTitle    = "title"
	fSummary  = "summary"
	fBody     = "body"
	fTimeline = "timeline"

	fProduct = "product" // keyword: whole display name, lower-cased
	fRegion  = "region"
	fCause   = "cause"

	fProductText = "product_text" // the same names, analysed as text
	fRegionText  = "region_text"
	fCauseText   = "cause_text"

	fLang     = "lang" // keyword
	fOrigLang = "orig_lang"
	fBegin    = "begin"    // datetime
	fDuration = "duration" // number, seconds
	fYear     = "year"     // keyword "2017"
)

// kwAnalyzer is the analyzer of the keyword fields: the whole value as one
// token, lower-cased, so "product:cloud sql" finds "Cloud SQL".
const kwAnalyzer = "gen_keyword"

// analyzerFor returns the bleve analyzer name for a language tag.
func analyzerFor(lang string) string {
	t, err := language.Parse(lang)
	if err != nil {
		return standard.Name
	}
	base, _ := t.Base()
	switch base.String() {
	case "en":
		return en.AnalyzerName
	case "zh", "ja", "ko", "yue":
		return cjk.AnalyzerName
	}
	return standard.Name
}

// newMapping returns the mapping of one language's index. No dynamic
// fields, no _all field, no doc values (nothing is sorted or faceted inside
// bleve). Only summary, body and timeline are stored: they are what the
// highlighter cuts fragments from. Every text field keeps term vectors,
// which phrase queries and highlighting need.
func newMapping(lang string) (*mapping.IndexMappingImpl, error) {
	textAnalyzer := analyzerFor(lang)

	im := mapping.NewIndexMapping()
	if err := im.AddCustomAnalyzer(kwAnalyzer, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     single.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = textAnalyzer
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	text := func(store bool) *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = textAnalyzer
		f.Store = store
		f.IncludeTermVectors = true
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
	dm.AddFieldMappingsAt(fTitle, text(false))
	dm.AddFieldMappingsAt(fSummary, text(true))
	dm.AddFieldMappingsAt(fBody, text(true))
	dm.AddFieldMappingsAt(fTimeline, text(true))
	for _, name := range []string{fProductText, fRegionText, fCauseText} {
		dm.AddFieldMappingsAt(name, text(false))
	}
	for _, name := range []string{fProduct, fRegion, fCause, fLang, fOrigLang, fYear} {
		dm.AddFieldMappingsAt(name, keyword())
	}
	begin := mapping.NewDateTimeFieldMapping()
	begin.Store, begin.IncludeInAll, begin.DocValues = false, false, false
	dm.AddFieldMappingsAt(fBegin, begin)
	dur := mapping.NewNumericFieldMapping()
	dur.Store, dur.IncludeInAll, dur.DocValues = false, false, false
	dm.AddFieldMappingsAt(fDuration, dur)
	dm.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping())

	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return im, nil
}

// bleveDoc converts a Document to the value bleve indexes. A plain map is
// used on purpose: there is a single document mapping per index, so no type
// detection is involved.
func bleveDoc(d *Document) map[string]interface{} {
	m := map[string]interface{}{
		fTitle:    cleanText(d.Title),
		fSummary:  cleanText(d.Summary),
		fBody:     cleanText(d.Body),
		fTimeline: cleanText(d.Timeline),
		fLang:     d.Lang,
		fOrigLang: d.OriginalLang,
	}
	if len(d.Products) > 0 {
		m[fProduct], m[fProductText] = d.Products, d.Products
	}
	if len(d.Regions) > 0 {
		m[fRegion], m[fRegionText] = d.Regions, d.Regions
	}
	if len(d.Causes) > 0 {
		m[fCause], m[fCauseText] = d.Causes, d.Causes
	}
	if !d.Begin.IsZero() {
		m[fBegin] = d.Begin.UTC()
		m[fYear] = strconv.Itoa(d.Begin.UTC().Year())
	}
	if d.Duration > 0 {
		m[fDuration] = d.Duration.Seconds()
	}
	return m
}

// cleanText makes text safe for the highlighter, whose fragmenter gives up
// on a fragment at the first utf8.RuneError: invalid UTF-8 and U+FFFD
// become spaces (same byte length is not needed; offsets are computed on
// the stored text).
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	if strings.ContainsRune(s, utf8.RuneError) {
		s = strings.ReplaceAll(s, string(utf8.RuneError), " ")
	}
	return s
}
