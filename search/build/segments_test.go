package build

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/schema"
)

// segmentDocs are n English documents, several segments' worth.
func segmentDocs(n int) []schema.Document {
	var docs []schema.Document
	begin := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		docs = append(docs, schema.Document{
			ID: fmt.Sprintf("inc-%04d", i), Lang: "en", OriginalLang: "en",
			Title:   fmt.Sprintf("Queue %d backed up", i),
			Summary: "Messages waited in the queue.",
			Body:    fmt.Sprintf("The consumer %d fell behind and the queue grew for %d minutes.", i, i%90),
			Begin:   begin.Add(time.Duration(i) * time.Hour),
			URL:     fmt.Sprintf("/en/incidents/inc-%04d/", i),
		})
	}
	return docs
}

// TestSegmentBuiltWhileDocumentsCome: a segment is built while the next
// documents are handed to the builder (bleve's builder built it in the
// call that handed over the batch's last document, and took the next
// only once it was written), and the index holds every document.
func TestSegmentBuiltWhileDocumentsCome(t *testing.T) {
	m, err := schema.Mapping("en")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "en")
	release := make(chan struct{})
	var first sync.Once
	opts := newOptions([]Option{WithWatchers(func() func() {
		first.Do(func() { <-release })
		return func() {}
	}, nil)})
	b, err := newSegmentBuilder(path, dir, m, make(chan struct{}, 1), make(chan struct{}, 1), nil, &opts)
	if err != nil {
		t.Fatal(err)
	}
	docs := segmentDocs(2*schema.SegmentDocs - 1)
	handed := make(chan error)
	go func() {
		for _, d := range docs {
			a, err := schema.Analyse(m, nil, nil, &d, schema.NewText(&d, analysis.KindOf("en")))
			if err == nil {
				err = b.Index(a.Doc, nil)
			}
			if err != nil {
				handed <- err
				return
			}
		}
		handed <- nil
	}()
	select {
	case err := <-handed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the documents after the first segment's waited for it to be built")
	}
	close(release)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if n, err := ix.DocCount(); err != nil || n != uint64(len(docs)) {
		t.Errorf("%d documents (%v), want %d", n, err, len(docs))
	}
}

// TestSegmentWrittenAsPersistWritesIt: writeSegment writes a segment
// without Persist's fsync, and must write the same bytes Persist does.
func TestSegmentWrittenAsPersistWritesIt(t *testing.T) {
	m, err := schema.Mapping("en")
	if err != nil {
		t.Fatal(err)
	}
	var docs []*document.Document
	for _, d := range segmentDocs(40) {
		a, err := schema.Analyse(m, nil, nil, &d, schema.NewText(&d, analysis.KindOf("en")))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, a.Doc)
	}
	seg, err := newSegment(docs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	written, persisted := filepath.Join(dir, "written.zap"), filepath.Join(dir, "persisted.zap")
	if err := writeSegment(seg, written); err != nil {
		t.Fatal(err)
	}
	if err := seg.(segment.UnpersistedSegment).Persist(persisted); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(persisted)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || len(got) < 1000 {
		t.Errorf("writeSegment wrote %d bytes; Persist writes %d, and not the same", len(got), len(want))
	}
	opened, err := segmentPlugin.Open(written)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	if opened.Count() != 40 {
		t.Errorf("the written segment holds %d documents; want 40", opened.Count())
	}
}
