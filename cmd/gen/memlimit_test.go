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
