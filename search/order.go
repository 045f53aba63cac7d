package search

// The order of results: by relevance (ties by id) for a query with
// positive words, else newest first, unless the request asks for
// another (Request.Sort); only the page shown and what
// precedes it are sorted.

import (
	"cmp"
	"sort"
	"strings"
)

// byRelevance orders by tier (surface.go), then by score, best first,
// then by id.
func byRelevance(a, b *match) int {
	if c := cmp.Compare(a.tier, b.tier); c != 0 {
		return c
	}
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return strings.Compare(a.in.id, b.in.id)
}

// newestFirst orders by the begin time of the incidents, newest first,
// then by id.
func newestFirst(meta *metaStore) func(a, b *match) int {
	sec, nsec := meta.beginSec, meta.beginNsec
	return func(a, b *match) int {
		x, y := a.ord, b.ord
		if c := cmp.Compare(sec[y], sec[x]); c != 0 {
			return c
		}
		if c := cmp.Compare(nsec[y], nsec[x]); c != 0 {
			return c
		}
		return strings.Compare(a.in.id, b.in.id)
	}
}

// byMeta orders by a number of the incidents, highest first, then
// newest first.
func byMeta[T int8 | int64](meta *metaStore, v []T) func(a, b *match) int {
	newest := newestFirst(meta)
	return func(a, b *match) int {
		if c := cmp.Compare(v[b.ord], v[a.ord]); c != 0 {
			return c
		}
		return newest(a, b)
	}
}

// orderOf is the order of results a plan asks for.
func orderOf(p *plan, meta *metaStore) func(a, b *match) int {
	switch p.sort {
	case SortDate:
		return newestFirst(meta)
	case SortOldest:
		newest := newestFirst(meta)
		return func(a, b *match) int { return newest(b, a) }
	case SortDuration:
		return byMeta(meta, meta.duration)
	case SortSeverity:
		return byMeta(meta, meta.severity)
	}
	if p.ranked {
		return byRelevance
	}
	return newestFirst(meta)
}

// orderTop reorders ms so that ms[:k] holds, sorted, the first k of ms in
// that order (the rest stays unsorted), in place: quickselect, then a sort
// of the k, O(n + k log k) instead of O(n log n).
// matchOrder sorts matches in place by order; comparing copies of them
// (slices.SortFunc) put both on the heap for every comparison.
type matchOrder struct {
	ms    []match
	order func(a, b *match) int
}

func (o matchOrder) Len() int           { return len(o.ms) }
func (o matchOrder) Less(i, j int) bool { return o.order(&o.ms[i], &o.ms[j]) < 0 }
func (o matchOrder) Swap(i, j int)      { o.ms[i], o.ms[j] = o.ms[j], o.ms[i] }

func orderTop(ms []match, k int, order func(a, b *match) int) {
	k = min(k, len(ms))
	if k <= 0 {
		return
	}
	sortAll := func(ms []match) { sort.Sort(matchOrder{ms, order}) }
	lo, hi := 0, len(ms)
	for depth := 0; hi-lo > 32; depth++ {
		if depth > 64 {
			sortAll(ms[lo:hi])
			lo = hi
			break
		}
		// Median of three as pivot.
		a, b, c := lo, lo+(hi-lo)/2, hi-1
		if order(&ms[b], &ms[a]) < 0 {
			a, b = b, a
		}
		if order(&ms[c], &ms[b]) < 0 {
			b = c
			if order(&ms[b], &ms[a]) < 0 {
				b = a
			}
		}
		pivot := ms[b]
		// Three-way partition: [lo, lt) before pivot, [lt, gt) equal,
		// [gt, hi) after.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch c := order(&ms[i], &pivot); {
			case c < 0:
				ms[lt], ms[i] = ms[i], ms[lt]
				lt++
				i++
			case c > 0:
				gt--
				ms[i], ms[gt] = ms[gt], ms[i]
			default:
				i++
			}
		}
		switch {
		case k <= lt:
			hi = lt
		case k <= gt:
			lo, hi = k, k
		default:
			lo = gt
		}
	}
	if lo < hi {
		sortAll(ms[lo:hi])
	}
	sortAll(ms[:k])
}
