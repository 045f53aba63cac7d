package memory

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// tuned is the policy gen's main sets.
var tuned = Policy{Tune: true}

// TestLeanHeapForTheMerge: while the index's segments are merged the heap
// may grow to three times what is live, as gen build sets, not more, and
// the build's percentage comes back after; a lower one, or none
// (GOGC=off), is left as it is.
func TestLeanHeapForTheMerge(t *testing.T) {
	was := debug.SetGCPercent(200)
	t.Cleanup(func() { debug.SetGCPercent(was) })
	for _, tc := range []struct{ set, during int }{{200, 200}, {400, 200}, {100, 100}, {50, 50}, {-1, -1}} {
		debug.SetGCPercent(tc.set)
		restore := tuned.LeanHeap()
		if got := debug.SetGCPercent(tc.during); got != tc.during {
			t.Errorf("GOGC %d: %d while merging, want %d", tc.set, got, tc.during)
		}
		restore()
		if got := debug.SetGCPercent(tc.set); got != tc.set {
			t.Errorf("GOGC %d: %d after merging", tc.set, got)
		}
	}
}

// TestLeanHeapGivesBackOnlyALargeHeap: before the merge a heap holding
// more than half the soft memory limit is given back to the system (a
// forced collection), a smaller one is kept.
func TestLeanHeapGivesBackOnlyALargeHeap(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(was) })
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	held := int64(ms.HeapSys - ms.HeapReleased)
	for _, tc := range []struct {
		limit     int64
		givesBack bool
	}{{math.MaxInt64, false}, {8 * held, false}, {held * 3 / 2, true}} {
		debug.SetMemoryLimit(tc.limit)
		before := forced()
		tuned.LeanHeap()()
		if gave := forced() > before; gave != tc.givesBack {
			t.Errorf("heap of %d MB, limit %d MB: given back %t, want %t", held>>20, tc.limit>>20, gave, tc.givesBack)
		}
	}
}

// TestHeapToTheLimitForWaitingDocuments: while the documents that waited
// for the render are indexed, the heap grows to the soft limit (GOGC
// off), and the build's percentage comes back after; without a limit, or
// with a percentage lower than the merge's (or none), nothing changes.
func TestHeapToTheLimitForWaitingDocuments(t *testing.T) {
	was, wasLimit := debug.SetGCPercent(200), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(was); debug.SetMemoryLimit(wasLimit) })
	for _, tc := range []struct {
		limit       int64
		set, during int
	}{{1 << 30, 200, -1}, {1 << 30, 400, -1}, {1 << 30, 100, 100}, {1 << 30, -1, -1}, {math.MaxInt64, 200, 200}} {
		debug.SetMemoryLimit(tc.limit)
		debug.SetGCPercent(tc.set)
		restore := tuned.HeapToTheLimit()
		if got := debug.SetGCPercent(tc.during); got != tc.during {
			t.Errorf("GOGC %d, limit %d: %d while adding, want %d", tc.set, tc.limit, got, tc.during)
		}
		restore()
		if got := debug.SetGCPercent(tc.set); got != tc.set {
			t.Errorf("GOGC %d, limit %d: %d after adding", tc.set, tc.limit, got)
		}
	}
}

// TestUntunedChangesNoProcessSetting: without Tune (any build but gen's
// main's), the collector's percentage and heap are left as they are.
func TestUntunedChangesNoProcessSetting(t *testing.T) {
	was, wasLimit := debug.SetGCPercent(300), debug.SetMemoryLimit(1<<20)
	t.Cleanup(func() { debug.SetGCPercent(was); debug.SetMemoryLimit(wasLimit) })
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := forced()
	for _, step := range []func() func(){Policy{}.LeanHeap, Policy{}.HeapToTheLimit} {
		restore := step()
		if got := debug.SetGCPercent(300); got != 300 {
			t.Errorf("GOGC set to %d by an untuned policy", got)
		}
		restore()
	}
	if forced() != before {
		t.Error("an untuned policy forced a collection")
	}
}

// TestScratchOnlyNearTheLimit: the texts are moved out of memory, and
// the search documents wait in a file, when the collector's goal after
// linking nears the soft limit (a 100,000 incident build: 0.6–0.7 GB
// live, GOGC 200, 1.75 GiB), not when it is far below (10,000: about
// 100 MB live), nor without a limit.
func TestScratchOnlyNearTheLimit(t *testing.T) {
	const limit = 1792 << 20
	for _, c := range []struct {
		live, percent uint64
		limit         int64
		moved         bool
	}{
		{650 << 20, 200, limit, true},
		{100 << 20, 200, limit, false},
		{400 << 20, 100, limit, false},
		{650 << 20, 200, math.MaxInt64, false},
	} {
		if got := GoalPasses(c.live, c.percent, c.limit, ScratchAbove); got != c.moved {
			t.Errorf("%d MB live, GOGC %d, limit %d: moved %v, want %v", c.live>>20, c.percent, c.limit, got, c.moved)
		}
	}
}
