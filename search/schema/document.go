package schema

// What bleve indexes and the document store keeps of a Document, made in
// parallel by a build's workers and by an Editable's Replace.

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

// NewText returns the cleaned text of the long fields of d, as the
// document store keeps it, with its flags for an analyzer of kind k but
// for FoldHan, which Analyse finds (Analysed.Complete).
func NewText(d *Document, k analysis.Kind) *docstore.Text {
	var fields [docstore.NumFields]string
	for i, s := range [...]string{d.Summary, d.Impact, d.RootCause, d.Body, d.Timeline} {
		fields[i] = analysis.CleanText(s)
	}
	t := docstore.NewText(fields, 0)
	t.Flags = analysis.CharFlags(t.All(), k)
	return t
}

// BleveDoc converts a Document to the value bleve indexes. A plain map is
// used on purpose: there is a single document mapping per index, so no type
// detection is involved. The long fields must be the cleaned text that the
// document store keeps (see docstore.Text), so that positions found in one are
// the positions bleve indexed.
func BleveDoc(d *Document, t *docstore.Text) map[string]interface{} {
	m := map[string]interface{}{
		Title: analysis.CleanText(d.Title),
	}
	for i, f := range LongFields {
		m[f] = t.Field(i)
	}
	if len(d.Products) > 0 {
		m[Product], m[ProductText] = d.Products, d.Products
	}
	if len(d.Regions) > 0 {
		m[Region], m[RegionText] = d.Regions, d.Regions
	}
	if len(d.Causes) > 0 {
		m[Cause], m[CauseText] = d.Causes, d.Causes
	}
	if d.Organization != "" {
		m[Organization], m[OrganizationText] = d.Organization, d.Organization
	}
	if d.Severity != "" {
		m[Severity], m[SeverityText] = d.Severity, d.Severity
	}
	// The year the site lists the incident under: its local date's.
	if len(d.Date) >= 4 {
		m[Year] = d.Date[:4]
	} else if !d.Begin.IsZero() {
		m[Year] = strconv.Itoa(d.Begin.UTC().Year())
	}
	return m
}

// analysedField is a field analysed ahead of time: bleve's builder, which
// analyses every field of a batch on its own goroutine, finds nothing left
// to do.
type analysedField struct{ document.Field }

func (analysedField) Analyze() {}

// Analysed is a document as bleve indexes it, with what the document
// store and the vocabulary keep of it.
type Analysed struct {
	Doc    *document.Document
	sketch []byte          // of its long fields; nil without a fast analysis
	flags  uint8           // analysis.FoldHan, or 0
	Words  []string        // its distinct words as written (package vocab)
	Terms  *analysis.Terms // the memory of its fields' terms, for a TermsPool once its segment is built
}

// Complete gives t, the text a was analysed from, what the analysis found
// of it: its sketch and its flag FoldHan.
func (a *Analysed) Complete(t *docstore.Text) {
	t.Sketch = a.sketch
	t.Flags |= a.flags
}

// Analyse maps and analyses a document for bleve, whose long fields'
// text is t; fast, if not nil, analyses the text fields, making their
// terms in pool's memory (nil: memory of their own).
func Analyse(m *mapping.IndexMappingImpl, fast *analysis.Fast, pool *analysis.TermsPool, d *Document, t *docstore.Text) (*Analysed, error) {
	doc := document.NewDocument(d.ID)
	if err := m.MapDocument(doc, BleveDoc(d, t)); err != nil {
		return nil, fmt.Errorf("search: index %s (%s): %w", d.ID, d.Lang, err)
	}
	a := &Analysed{Doc: doc}
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
		a.Terms = mem
	}
	for i, f := range doc.Fields {
		if fast != nil && fastFields[f.Name()] && !f.Options().IncludeTermVectors() {
			var fsk *analysis.SketchBuilder
			if sk.Field = LongField(f.Name()); sk.Field >= 0 {
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
	a.sketch, a.Words = sk.Bytes(), slices.Collect(maps.Keys(words))
	return a, nil
}

// fastFields are the fields analysed by an analysis.Fast: those of the
// language's text analyzer.
var fastFields = map[string]bool{
	Title: true, Summary: true, Impact: true, RootCause: true, Body: true, Timeline: true,
	ProductText: true, RegionText: true, CauseText: true,
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
