package search

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/postmortem-archive/gen/search/docstore"
)

// TestMetaHeapObjects bounds the heap objects the metadata of an index
// holds per incident, beyond its documents' docstore.Meta: the collector
// marks every one of them at each cycle, and a cycle during a query was
// its p99 (docs/performance.md).
func TestMetaHeapObjects(t *testing.T) {
	dir := buildDir(t, genArchive(300))
	var metas []*docstore.Meta
	for _, lang := range []string{"en", "zh-TW"} { // genArchive's
		r, ms, err := docstore.Open(filepath.Join(dir, lang, docstore.FileName))
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		metas = append(metas, ms...)
	}
	objects := func() int64 {
		runtime.GC()
		runtime.GC() // and what finalizers freed
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapObjects)
	}
	before := objects()
	s := newMetaStore()
	for _, m := range metas {
		s.put(m)
	}
	s.reindex()
	held := float64(objects()-before) / float64(len(s.list))
	runtime.KeepAlive(s)
	t.Logf("%.1f objects per incident", held)
	if held > 4 {
		t.Errorf("the metadata holds %.1f heap objects per incident, want at most 4", held)
	}
}
