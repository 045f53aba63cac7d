package search

import (
	"fmt"
	"path/filepath"
	"reflect"
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

// TestIndexLeftInFewSegments: the segments of a language are merged,
// up to builderMergeMax at a time, until no more than unmergedMax are
// left, and however many are left, a query finds the same documents
// with the same scores, facets and excerpts as in the index merged
// whole.
func TestIndexLeftInFewSegments(t *testing.T) {
	docs := genArchive(600) // 4 segments of English, 4 of Chinese
	perLang := map[string]int{}
	for _, d := range docs {
		perLang[d.Lang]++
	}
	for lang, n := range perLang {
		if (n+builderBatch-1)/builderBatch != 4 {
			t.Fatalf("%s: %d documents; the test wants 4 segments", lang, n)
		}
	}
	build := func(most, atOnce int) (*Index, string) {
		savedMost, savedAtOnce := unmergedMax, builderMergeMax
		unmergedMax, builderMergeMax = most, atOnce
		defer func() { unmergedMax, builderMergeMax = savedMost, savedAtOnce }()
		dir := buildDir(t, docs)
		return openBuilt(t, dir), dir
	}
	whole, _ := build(1, 100)
	for _, c := range []struct{ most, atOnce, want int }{
		{10, 100, 4}, // left as built
		{4, 100, 4},
		{3, 100, 1},
		{2, 3, 2}, // one pass: 2 + 2
		{1, 3, 1}, // two passes
		{1, 2, 1},
	} {
		ix, dir := build(c.most, c.atOnce)
		for lang := range perLang {
			zaps, err := filepath.Glob(filepath.Join(dir, lang, "store", "*.zap"))
			if err != nil {
				t.Fatal(err)
			}
			if len(zaps) != c.want {
				t.Errorf("%s, at most %d left, %d merged at once: %d segments, want %d", lang, c.most, c.atOnce, len(zaps), c.want)
			}
		}
		incidents, documents := ix.Count()
		wantIncidents, wantDocuments := whole.Count()
		if incidents != wantIncidents || documents != wantDocuments {
			t.Errorf("%d incidents, %d documents in segments; %d, %d merged whole", incidents, documents, wantIncidents, wantDocuments)
		}
		for _, q := range benchQueries {
			got, want := search(t, ix, q.req), search(t, whole, q.req)
			got.TookMS, want.TookMS = 0, 0
			if got.Total == 0 {
				t.Errorf("%s %q: nothing found", q.kind, q.req.Query)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d segments: %s %q: %d results %v; merged whole %d %v", c.want, q.kind, q.req.Query, got.Total, ids(got), want.Total, ids(want))
			}
		}
	}
}
