package main

import (
	"runtime/debug"
	"testing"
)

// TestSoftMemoryLimit: build and serve set their limit, unless GOMEMLIMIT
// names one.
func TestSoftMemoryLimit(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(was) })
	t.Setenv("GOMEMLIMIT", "")
	softMemoryLimit(serveMemoryLimit)
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Errorf("limit %d, want %d", got, serveMemoryLimit)
	}
	t.Setenv("GOMEMLIMIT", "3GiB")
	softMemoryLimit(buildMemoryLimit)
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Errorf("with GOMEMLIMIT set the limit changed to %d", got)
	}
}

// TestGCPercent: a build sets how far the heap grows between
// collections, unless GOGC says.
func TestGCPercent(t *testing.T) {
	was := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(was) })
	t.Setenv("GOGC", "")
	gcPercent(buildGCPercent)
	if got := debug.SetGCPercent(100); got != buildGCPercent {
		t.Errorf("GC percent %d, want %d", got, buildGCPercent)
	}
	t.Setenv("GOGC", "50")
	gcPercent(buildGCPercent)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the percent changed to %d", got)
	}
}
