// Package refcount closes a shared resource when its last user is done
// with it: a search index replaced by a newer one stays open for the
// searches still running on it, and no longer.
package refcount

import (
	"errors"
	"io"
	"sync/atomic"
)

// Ref is a counted reference to v. It starts with one reference, its
// creator's; v is closed when the last one is released.
type Ref[T io.Closer] struct {
	v     T
	n     atomic.Int64
	after func() error // run once v is closed; nil: nothing
}

// New returns a reference to v held by the caller.
func New[T io.Closer](v T) *Ref[T] {
	r := &Ref[T]{v: v}
	r.n.Store(1)
	return r
}

// NewWith is New, and then runs after once v is closed: to remove the
// files v was read from, say.
func NewWith[T io.Closer](v T, after func() error) *Ref[T] {
	r := New(v)
	r.after = after
	return r
}

// Value is the shared resource; use it only while holding a reference.
func (r *Ref[T]) Value() T { return r.v }

// Acquire adds a reference, unless the last one has already been released
// and v closed: then it reports false and v must not be used.
func (r *Ref[T]) Acquire() bool {
	for {
		n := r.n.Load()
		if n <= 0 {
			return false
		}
		if r.n.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// Release drops a reference; the last one closes v and returns its error.
func (r *Ref[T]) Release() error {
	switch n := r.n.Add(-1); {
	case n == 0:
		err := r.v.Close()
		if r.after != nil {
			err = errors.Join(err, r.after())
		}
		return err
	case n < 0:
		panic("refcount: released more often than acquired")
	}
	return nil
}
