//go:build !unix

package search

import (
	"testing"
	"time"
)

// cpuTime is not measured here: BenchmarkQuery reports zero.
func cpuTime(testing.TB) time.Duration { return 0 }
