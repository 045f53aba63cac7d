package search

import (
	"maps"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	blevesearch "github.com/blevesearch/bleve/v2/search"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/schema"
)

// wantStats analyses the documents of lang with bleve's own analysis and
// counts their fields' tokens.
func wantStats(t *testing.T, docs []Document, lang string) *blevesearch.BM25Stats {
	t.Helper()
	m, err := schema.Mapping(lang)
	if err != nil {
		t.Fatal(err)
	}
	var fl schema.Lengths
	for _, d := range docs {
		if d.Lang != lang {
			continue
		}
		doc := document.NewDocument(d.ID)
		if err := m.MapDocument(doc, schema.BleveDoc(&d, schema.NewText(&d, analysis.KindOf(lang)))); err != nil {
			t.Fatal(err)
		}
		for _, f := range doc.Fields {
			f.Analyze()
		}
		fl.Add(schema.DocLengths(doc), 1)
	}
	return bm25Stats(&fl)
}

func sameStats(a, b *blevesearch.BM25Stats) bool {
	return a.DocCount == b.DocCount && maps.Equal(a.FieldCardinality, b.FieldCardinality)
}

// The BM25 statistics of a language index are the number of its documents
// and the total number of tokens of each field, as bleve's analysis
// counts them: in a built index, and in an in-memory one as documents
// come and go.
func TestBM25Statistics(t *testing.T) {
	t.Parallel()
	docs := fixtures()
	disk, mem := mustOpen(t, buildDir(t, docs)), editableOf(t, docs)
	for _, lang := range siteLangs {
		want := wantStats(t, docs, lang)
		if want.FieldCardinality[fBody] < 10 || want.FieldCardinality[fTitle] < 3 {
			t.Fatalf("%s: too few tokens counted: %v", lang, want)
		}
		for name, ix := range map[string]*engine{"disk": disk.engine, "editable": mem.engine} {
			if got := ix.bm25[lang]; !sameStats(got, want) {
				t.Errorf("%s %s: %+v, want %+v", name, lang, got, want)
			}
		}
	}
	// Delete the English Gmail incident, then add it back, then replace
	// it with a longer text.
	if err := mem.Delete(idGmail, "en"); err != nil {
		t.Fatal(err)
	}
	var rest []Document
	for _, d := range docs {
		if d.ID != idGmail || d.Lang != "en" {
			rest = append(rest, d)
		}
	}
	if got, want := mem.bm25["en"], wantStats(t, rest, "en"); !sameStats(got, want) {
		t.Errorf("after delete: %+v, want %+v", got, want)
	}
	for _, d := range docs {
		if d.ID == idGmail && d.Lang == "en" {
			if err := mem.Add(d); err != nil {
				t.Fatal(err)
			}
			d.Body += " The quota servers were restarted twice."
			if err := mem.Add(d); err != nil {
				t.Fatal(err)
			}
			rest = append(rest, d)
		}
	}
	if got, want := mem.bm25["en"], wantStats(t, rest, "en"); !sameStats(got, want) {
		t.Errorf("after add and replace: %+v, want %+v", got, want)
	}
}
