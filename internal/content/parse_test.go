package content

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestParsesOverlapOnOneCore: parses run more at once than there are
// cores, so that one waiting for its file to be read leaves the core to
// another.
func TestParsesOverlapOnOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var mu sync.Mutex
	running, most := 0, 0
	both := make(chan struct{})
	var second sync.Once
	parsed := make([]bool, 6)
	err := parseAll(context.Background(), len(parsed), func(i int) {
		mu.Lock()
		running++
		most = max(most, running)
		if running == 2 {
			second.Do(func() { close(both) })
		}
		mu.Unlock()
		select { // the first parse waits for a second to start beside it
		case <-both:
		case <-time.After(10 * time.Second):
		}
		mu.Lock()
		running--
		parsed[i] = true
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if most < 2 {
		t.Errorf("at most %d parse at once on one core, want 2", most)
	}
	for i, ok := range parsed {
		if !ok {
			t.Errorf("file %d not parsed", i)
		}
	}
}
