package refcount

import (
	"errors"
	"slices"
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

// TestAfterClose: NewWith's function runs once, after the value is
// closed, and its error is Release's.
func TestAfterClose(t *testing.T) {
	c := &closer{}
	var after []int32
	r := NewWith(c, func() error {
		after = append(after, c.closed.Load())
		return errors.New("removing: gone already")
	})
	r.Acquire()
	if err := r.Release(); err != nil || len(after) != 0 {
		t.Fatalf("released by a user: %v, ran %d times", err, len(after))
	}
	if err := r.Release(); err == nil || err.Error() != "removing: gone already" {
		t.Errorf("the last release returned %v, want the function's error", err)
	}
	if !slices.Equal(after, []int32{1}) {
		t.Errorf("ran with the value closed %v times, want once, after it was closed", after)
	}
}
