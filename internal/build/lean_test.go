package build_test

import (
	"runtime/debug"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
)

// TestLeanHeapForTheMerge: while the index's segments are merged the heap
// may grow to three times what is live, as gen build sets, not more, and
// the build's percentage comes back after; a lower one, or none
// (GOGC=off), is left as it is.
func TestLeanHeapForTheMerge(t *testing.T) {
	was := debug.SetGCPercent(200)
	t.Cleanup(func() { debug.SetGCPercent(was) })
	for _, tc := range []struct{ set, during int }{{200, 200}, {400, 200}, {100, 100}, {50, 50}, {-1, -1}} {
		debug.SetGCPercent(tc.set)
		restore := build.LeanHeap()
		if got := debug.SetGCPercent(tc.during); got != tc.during {
			t.Errorf("GOGC %d: %d while merging, want %d", tc.set, got, tc.during)
		}
		restore()
		if got := debug.SetGCPercent(tc.set); got != tc.set {
			t.Errorf("GOGC %d: %d after merging", tc.set, got)
		}
	}
}
