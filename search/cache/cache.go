// Package cache is gen's one bounded cache: values by key up to a total
// cost, the least recently used going first when a new one needs room.
// The search index keeps term counts, the bigrams of CJK characters and
// decompressed texts in it, the server its compressed files. It sits
// under search/ because search imports nothing of internal/.
package cache

import (
	"container/list"
	"iter"
	"sync"
)

// Cache keeps values by key up to a total cost. It is safe for
// concurrent use.
type Cache[K comparable, V any] struct {
	max   int
	cost  func(V) int
	mu    sync.Mutex
	size  int
	order list.List // of *entry[K, V], most recently used first
	byKey map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	cost int
}

// New returns a cache that keeps values up to a total cost of max; cost
// says what a value costs (nil: 1 each).
func New[K comparable, V any](max int, cost func(V) int) *Cache[K, V] {
	if cost == nil {
		cost = func(V) int { return 1 }
	}
	return &Cache[K, V]{max: max, cost: cost, byKey: map[K]*list.Element{}}
}

// Get returns the value kept for k.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[K, V]).val, true
}

// Put keeps v for k, in place of what was kept for it, making room by
// letting the least recently used go. A value costing more than the
// whole cache is not kept.
func (c *Cache[K, V]) Put(k K, v V) {
	cost := c.cost(v)
	if cost > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.remove(e)
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{key: k, val: v, cost: cost})
	c.size += cost
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *Cache[K, V]) remove(e *list.Element) {
	old := c.order.Remove(e).(*entry[K, V])
	delete(c.byKey, old.key)
	c.size -= old.cost
}

// GetOrMake returns the value kept for k, or makes it with fill and keeps
// it. Two callers missing the same key at once may both make it.
func (c *Cache[K, V]) GetOrMake(k K, fill func() (V, error)) (V, error) {
	if v, ok := c.Get(k); ok {
		return v, nil
	}
	v, err := fill()
	if err != nil {
		return v, err
	}
	c.Put(k, v)
	return v, nil
}

// All yields the keys and values kept, most recently used first, as they
// are when it starts.
func (c *Cache[K, V]) All() iter.Seq2[K, V] {
	c.mu.Lock()
	kept := make([]*entry[K, V], 0, c.order.Len())
	for e := c.order.Front(); e != nil; e = e.Next() {
		kept = append(kept, e.Value.(*entry[K, V]))
	}
	c.mu.Unlock()
	return func(yield func(K, V) bool) {
		for _, e := range kept {
			if !yield(e.key, e.val) {
				return
			}
		}
	}
}
