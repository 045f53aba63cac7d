package search

// What bleve indexes and the document store keeps of a Document, made in
// parallel by the Writer's workers and by Index.AddBatch.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

// newDocText returns the cleaned text of the long fields of d, as the
// document store keeps it, with its flags for an analyzer of kind k but
// for FoldHan, which analyse finds (analysed.complete).
func newDocText(d *Document, k analysis.Kind) *docstore.Text {
	var fields [docstore.NumFields]string
	for i, s := range [...]string{d.Summary, d.Impact, d.RootCause, d.Body, d.Timeline} {
		fields[i] = analysis.CleanText(s)
	}
	t := docstore.NewText(fields, 0)
	t.Flags = analysis.CharFlags(t.All(), k)
	return t
}

// bleveDoc converts a Document to the value bleve indexes. A plain map is
// used on purpose: there is a single document mapping per index, so no type
// detection is involved. The long fields must be the cleaned text that the
// document store keeps (see docstore.Text), so that positions found in one are
// the positions bleve indexed.
func bleveDoc(d *Document, t *docstore.Text) map[string]interface{} {
	m := map[string]interface{}{
		fTitle: analysis.CleanText(d.Title),
	}
	for i, f := range longFields {
		m[f] = t.Field(i)
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
	if d.Organization != "" {
		m[fOrg], m[fOrgText] = d.Organization, d.Organization
	}
	if d.Severity != "" {
		m[fSev], m[fSevText] = d.Severity, d.Severity
	}
	// The year the site lists the incident under: its local date's.
	if len(d.Date) >= 4 {
		m[fYear] = d.Date[:4]
	} else if !d.Begin.IsZero() {
		m[fYear] = strconv.Itoa(d.Begin.UTC().Year())
	}
	return m
}

// analysedField is a field analysed ahead of time: bleve's builder, which
// analyses every field of a batch on its own goroutine, finds nothing left
// to do.
type analysedField struct{ document.Field }

func (analysedField) Analyze() {}

// analysed is a document as bleve indexes it, with what the document
// store and the vocabulary keep of it.
type analysed struct {
	doc    *document.Document
	sketch []byte          // of its long fields; nil without a fast analysis
	flags  uint8           // analysis.FoldHan, or 0
	words  []string        // its distinct words as written (package vocab)
	terms  *analysis.Terms // the memory of its fields' terms, for a TermsPool once its segment is built
}

// complete gives t, the text a was analysed from, what the analysis found
// of it: its sketch and its flag FoldHan.
func (a *analysed) complete(t *docstore.Text) {
	t.Sketch = a.sketch
	t.Flags |= a.flags
}

// analyse maps and analyses a document for bleve, whose long fields'
// text is t.
func analyse(m *mapping.IndexMappingImpl, fast *analysis.Fast, pool *analysis.TermsPool, d *Document, t *docstore.Text) (*analysed, error) {
	doc := document.NewDocument(d.ID)
	if err := m.MapDocument(doc, bleveDoc(d, t)); err != nil {
		return nil, fmt.Errorf("search: index %s (%s): %w", d.ID, d.Lang, err)
	}
	a := &analysed{doc: doc}
	if fast == nil || !fast.Folds() {
		// The fold, if the language has one, is not seen: fold again.
		a.flags = analysis.TextFlags(t.All(), analysis.KindOf(d.Lang)) & analysis.FoldHan
	}
	sk := &analysis.SketchBuilder{}
	var words map[string]struct{}
	var mem *analysis.Terms
	if fast != nil {
		n := len(t.All()) + len(d.Title) + 64
		mem, words = pool.Get(fast, n), fast.NewWords(n)
		a.terms = mem
	}
	for i, f := range doc.Fields {
		if fast != nil && fastFields[f.Name()] && !f.Options().IncludeTermVectors() {
			var fsk *analysis.SketchBuilder
			if sk.Field = longField(f.Name()); sk.Field >= 0 {
				fsk = sk
			}
			r := fast.Analyze(f.Value(), fsk, words, mem)
			if r.Folded && sk.Field >= 0 {
				a.flags |= analysis.FoldHan
			}
			doc.Fields[i] = &fastField{Field: f, length: r.Length, freqs: r.Freqs}
			continue
		}
		f.Analyze()
		doc.Fields[i] = analysedField{f}
	}
	if fast == nil {
		return a, nil // no sketch: phrases checked on the text only
	}
	// The words are counted (vocab.Builder), in any order.
	a.sketch, a.words = sk.Bytes(), slices.Collect(maps.Keys(words))
	return a, nil
}

// fastFields are the fields analysed by an analysis.Fast: those of the
// language's text analyzer.
var fastFields = map[string]bool{
	fTitle: true, fSummary: true, fImpact: true, fRootCause: true, fBody: true, fTimeline: true,
	fProductText: true, fRegionText: true, fCauseText: true,
}

// fastField is a text field analysed by an analysis.Fast.
type fastField struct {
	document.Field
	length int
	freqs  index.TokenFrequencies
}

func (*fastField) Analyze()                                           {}
func (f *fastField) AnalyzedLength() int                              { return f.length }
func (f *fastField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }
