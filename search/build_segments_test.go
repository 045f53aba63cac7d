package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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
	m, err := schema.Mapping("en")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "en")
	release := make(chan struct{})
	var first sync.Once
	opts := defaultBuildOptions()
	opts.buildStarted = func() func() {
		first.Do(func() { <-release })
		return func() {}
	}
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
		if (n+schema.SegmentDocs-1)/schema.SegmentDocs != 4 {
			t.Fatalf("%s: %d documents; the test wants 4 segments", lang, n)
		}
	}
	build := func(most, atOnce int) (*Index, string) {
		opts := defaultBuildOptions()
		opts.unmergedMax, opts.mergeMax = most, atOnce
		dir := buildDirWith(t, docs, opts, nil)
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

// TestMergeRunsAtOnce: the runs of a merge pass are merged at once, as
// many as the writer's merge places allow, and the index left is the
// one merged run by run.
func TestMergeRunsAtOnce(t *testing.T) {
	docs := segmentDocs(4 * schema.SegmentDocs)     // 4 segments: with 2 at a time, 2 runs
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // two places to merge in
	merges := newAtOnce(10 * time.Second)           // the first merge waits for the second to start
	opts := defaultBuildOptions()
	opts.unmergedMax, opts.mergeMax, opts.mergeStarted = 2, 2, merges.start
	dir := buildDirWith(t, docs, opts, nil)
	if most := merges.most(); most != 2 {
		t.Errorf("at most %d merges ran at once; want the pass's 2 runs together", most)
	}
	zaps, err := filepath.Glob(filepath.Join(dir, "en", "store", "*.zap"))
	if err != nil || len(zaps) != 2 {
		t.Fatalf("%d segments (%v); want 2", len(zaps), err)
	}
	ix := openBuilt(t, dir)
	if incidents, documents := ix.Count(); incidents != len(docs) || documents != len(docs) {
		t.Errorf("%d incidents, %d documents; want %d", incidents, documents, len(docs))
	}
}

// TestSegmentsBuiltAtOnceOnceWidened: segments are built one at a time
// while the render runs beside the index, and two at once (on two
// cores) once Widen says the documents have the machine to themselves.
func TestSegmentsBuiltAtOnceOnceWidened(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	docs := segmentDocs(2 * schema.SegmentDocs)
	// A build waits for a second to start beside it: widened, until it
	// does; if not, a second, time for the next batch to be analysed even
	// under the race detector.
	for _, c := range []struct {
		widen bool
		wait  time.Duration
		want  int
	}{{false, time.Second, 1}, {true, 10 * time.Second, 2}} {
		builds := newAtOnce(c.wait)
		opts := defaultBuildOptions()
		opts.buildStarted = builds.start
		var before func(*Writer)
		if c.widen {
			before = (*Writer).Widen
		}
		dir := buildDirWith(t, docs, opts, before)
		if most := builds.most(); most != c.want {
			t.Errorf("widened %v: at most %d segments built at once, want %d", c.widen, most, c.want)
		}
		if _, n := openBuilt(t, dir).Count(); n != len(docs) {
			t.Errorf("widened %v: %d documents, want %d", c.widen, n, len(docs))
		}
	}
}

// atOnce counts how many of something run at once, through a hook
// called as each starts (start), which waits up to wait for a second to
// run beside it, and returns what is called as it ends.
type atOnce struct {
	wait   time.Duration
	both   chan struct{}
	second sync.Once

	mu            sync.Mutex
	running, peak int
}

func newAtOnce(wait time.Duration) *atOnce {
	return &atOnce{wait: wait, both: make(chan struct{})}
}

func (a *atOnce) start() (done func()) {
	a.mu.Lock()
	a.running++
	a.peak = max(a.peak, a.running)
	if a.running == 2 {
		a.second.Do(func() { close(a.both) })
	}
	a.mu.Unlock()
	select {
	case <-a.both:
	case <-time.After(a.wait):
	}
	return func() {
		a.mu.Lock()
		a.running--
		a.mu.Unlock()
	}
}

// most is the most that ran at once.
func (a *atOnce) most() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.peak
}
