package search

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/search/build"
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

// TestIndexLeftInFewSegments: the segments of a language are merged,
// up to so many at a time (build.WithMerges), until no more than so many are
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
		dir := buildDirWith(t, docs, []build.Option{build.WithMerges(atOnce, most)}, nil)
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

// TestMergeRunsAtOnce: the runs of a merge pass are merged at once, as
// many as the writer's merge places allow, and the index left is the
// one merged run by run.
func TestMergeRunsAtOnce(t *testing.T) {
	docs := segmentDocs(4 * schema.SegmentDocs)     // 4 segments: with 2 at a time, 2 runs
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // two places to merge in
	merges := newAtOnce(10 * time.Second)           // the first merge waits for the second to start
	dir := buildDirWith(t, docs, []build.Option{build.WithMerges(2, 2), build.WithWatchers(nil, merges.start)}, nil)
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
		var before func(*build.Writer)
		if c.widen {
			before = (*build.Writer).Widen
		}
		dir := buildDirWith(t, docs, []build.Option{build.WithWatchers(builds.start, nil)}, before)
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
