package build

import (
	"context"
	"errors"
	"slices"
)

// Built is what one build of Follow made: the output (the files, made
// when asked for, as Session.Pages) and its summary, or the error that
// failed it (the output is then the last good one).
type Built struct {
	Pages  map[string]*Page
	Result *Result
	Err    error
}

// changes are the source files a build has to look at; all means every
// one (a nil batch, or a build that has not run yet).
type changes struct {
	paths []string
	all   bool
}

func (c *changes) add(paths []string) {
	if paths == nil {
		c.all = true
	}
	c.paths = append(c.paths, paths...)
}

// changed is what UpdateContext takes: nil for everything.
func (c changes) changed() []string {
	if c.all {
		return nil
	}
	if len(c.paths) == 0 {
		return []string{}
	}
	return slices.Compact(slices.Sorted(slices.Values(c.paths)))
}

// Follow rebuilds the session after every batch of changed source files
// (nil: everything) that arrives on batches, until batches is closed or
// ctx is done, and hands each finished build to publish, in order, from
// Follow's goroutine.
//
// A batch that arrives while a build runs gives that build up: a file
// saved again must not wait for a slow parse of its previous version. The
// next build covers the changes of both, so nothing is missed, and a given
// up build publishes nothing, so an older result never follows a newer
// one.
func (s *Session) Follow(ctx context.Context, batches <-chan []string, publish func(Built)) {
	var pending changes
	waiting := false // whether pending holds changes not yet built
	for {
		if !waiting {
			select {
			case <-ctx.Done():
				return
			case b, ok := <-batches:
				if !ok {
					return
				}
				pending.add(b)
			}
		}
		todo := pending
		pending, waiting = changes{}, false
		var open bool
		batches, open, waiting = s.buildOnce(ctx, todo, batches, &pending, publish)
		if !open && !waiting {
			return
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// buildOnce runs one build of todo while taking further batches into
// pending; a batch cancels the build. It reports the batches channel to
// read next (nil once closed), whether it is still open, and whether
// pending holds changes to build (a given up build's among them).
func (s *Session) buildOnce(ctx context.Context, todo changes, batches <-chan []string, pending *changes, publish func(Built)) (next <-chan []string, open, waiting bool) {
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan Built, 1)
	go func() {
		res, err := s.UpdateContext(bctx, todo.changed())
		done <- Built{Pages: s.Pages(), Result: res, Err: err}
	}()
	open = batches != nil
	for {
		select {
		case b := <-done:
			if b.Err != nil && bctx.Err() != nil && errors.Is(b.Err, bctx.Err()) {
				// Given up: its changes are built with the newer ones.
				pending.paths = append(pending.paths, todo.paths...)
				pending.all = pending.all || todo.all
				return batches, open, true
			}
			if ctx.Err() == nil {
				publish(b)
			}
			return batches, open, waiting
		case b, ok := <-batches:
			if !ok {
				batches, open = nil, false
				continue
			}
			pending.add(b)
			waiting = true
			cancel()
		}
	}
}
