package cache

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func TestLeastRecentlyUsedGoesFirst(t *testing.T) {
	c := New[string, string](6, func(v string) int { return len(v) })
	c.Put("a", "aa")
	c.Put("b", "bb")
	c.Get("a") // b is now the least recently used
	c.Put("c", "cc")
	c.Put("d", "dd") // 8 > 6: b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b kept: the least recently used should have gone")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s dropped", k)
		}
	}
	c.Put("big", "1234567") // more than the whole cache: not kept, nothing dropped
	if _, ok := c.Get("big"); ok {
		t.Error("a value over the bound was kept")
	}
	if _, ok := c.Get("a"); !ok {
		t.Error("a value over the bound made others go")
	}
	var order []string
	for k := range c.All() {
		order = append(order, k)
	}
	if fmt.Sprint(order) != "[a d c]" {
		t.Errorf("kept %v, most recent first; want [a d c]", order)
	}
	c.Put("a", "a") // replaced: its cost is the new one
	if v, _ := c.Get("a"); v != "a" || c.size != 5 {
		t.Errorf("after replacing a: %q, size %d; want \"a\", 5", v, c.size)
	}
}

func TestGetOrMake(t *testing.T) {
	c := New[int, int](2, nil)
	made := 0
	square := func(k int) func() (int, error) {
		return func() (int, error) { made++; return k * k, nil }
	}
	for _, k := range []int{1, 2, 1, 2, 3, 1} {
		if v, err := c.GetOrMake(k, square(k)); err != nil || v != k*k {
			t.Fatalf("GetOrMake(%d) = %d, %v", k, v, err)
		}
	}
	if made != 4 { // 1, 2, 3, then 1 again after 3 pushed it out
		t.Errorf("made %d values, want 4", made)
	}
	failed := errors.New("no")
	if _, err := c.GetOrMake(9, func() (int, error) { return 0, failed }); err != failed {
		t.Errorf("error %v, want %v", err, failed)
	}
	if _, ok := c.Get(9); ok {
		t.Error("a value that failed to be made was kept")
	}
}

func TestConcurrentUseStaysBounded(t *testing.T) {
	c := New[string, int](100, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				k := fmt.Sprint(g, "-", i%150)
				c.GetOrMake(k, func() (int, error) { return i, nil })
			}
		})
	}
	wg.Wait()
	if c.size > 100 || len(c.byKey) != c.order.Len() || c.size != len(c.byKey) {
		t.Errorf("size %d, %d keys, %d in order", c.size, len(c.byKey), c.order.Len())
	}
}
