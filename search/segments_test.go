package search

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/postmortem-archive/gen/search/analysis"
)

// segmentDocs are n English documents, several segments' worth.
func segmentDocs(n int) []Document {
	var docs []Document
	begin := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		docs = append(docs, Document{
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
	m, err := newMapping("en")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "en")
	b, err := newSegmentBuilder(path, dir, m, make(chan struct{}, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var first sync.Once
	buildStarted = func() func() {
		first.Do(func() { <-release })
		return func() {}
	}
	defer func() { buildStarted = nil }()
	docs := segmentDocs(2*builderBatch - 1)
	handed := make(chan error)
	go func() {
		for _, d := range docs {
			a, err := analyse(m, nil, nil, &d, newDocText(&d, analysis.KindOf("en")))
			if err == nil {
				err = b.Index(a.doc, nil)
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
