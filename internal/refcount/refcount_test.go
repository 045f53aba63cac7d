package refcount

import (
	"sync"
	"sync/atomic"
	"testing"
)

type closer struct{ closed atomic.Int32 }

func (c *closer) Close() error { c.closed.Add(1); return nil }

func TestClosedWhenLastReleased(t *testing.T) {
	c := &closer{}
	r := New(c)
	if !r.Acquire() {
		t.Fatal("Acquire failed on a live reference")
	}
	r.Release() // the creator's
	if c.closed.Load() != 0 {
		t.Fatal("closed while a user still held it")
	}
	r.Release() // the user's
	if c.closed.Load() != 1 {
		t.Fatalf("closed %d times after the last release, want 1", c.closed.Load())
	}
	if r.Acquire() {
		t.Fatal("Acquire succeeded on a closed value")
	}
}

// TestConcurrentUsers: users acquiring and releasing while the owner lets
// go never see a closed value, and it is closed exactly once.
func TestConcurrentUsers(t *testing.T) {
	for range 100 {
		c := &closer{}
		r := New(c)
		var wg sync.WaitGroup
		var usedClosed atomic.Bool
		for range 8 {
			wg.Go(func() {
				for range 100 {
					if !r.Acquire() {
						return
					}
					if c.closed.Load() != 0 {
						usedClosed.Store(true)
					}
					r.Release()
				}
			})
		}
		r.Release()
		wg.Wait()
		if usedClosed.Load() {
			t.Fatal("a user held a closed value")
		}
		if n := c.closed.Load(); n != 1 {
			t.Fatalf("closed %d times, want 1", n)
		}
	}
}
