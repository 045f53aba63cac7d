// Package watch reports changes to the site's sources: it watches folders
// recursively with fsnotify, ignores editor temp and swap files, and
// debounces bursts into one batch.
//
// Two parts: a tree (tree.go) follows the folders under the roots as they
// come, go and move and turns fsnotify's events into changed files; a
// debouncer (debounce.go) turns those into settled batches on its own
// clock. The Watcher runs the one and feeds the other.
package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configures a Watcher.
type Options struct {
	Roots    []string      // folders to watch recursively, e.g. <site>/content, <site>/layouts, <site>/i18n; a root that does not exist yet is watched for creation via its parent
	Debounce time.Duration // quiet period that ends a burst; default 20ms
	MaxWait  time.Duration // a burst never delays a batch longer than this; default 1s
}

// Batch is one debounced set of changes.
type Batch struct {
	Paths []string // changed files (absolute, cleaned, sorted, unique), including removed ones; folders created are walked and their files included
}

// An editor's save is a burst of events well under a millisecond apart
// (truncate and write, or write a temporary file and rename it over the
// old one): 20 ms without an event is a save that is done, and a
// rebuild that starts on a save still being written is given up by the
// next batch. (fsnotify's close-write event would be exact, but it is
// not part of its portable API.)
const (
	defaultDebounce = 20 * time.Millisecond
	defaultMaxWait  = time.Second
)

// Watcher watches the roots of Options and sends a Batch on Batches after
// every burst of changes. It never blocks on a slow consumer: batches that
// were not taken yet are merged into one.
type Watcher struct {
	tree     *tree // owned by loop once it runs
	debounce *debouncer
	errors   chan error
	done     chan struct{} // closed by Close
	loopDone chan struct{} // closed when the loop has returned

	closeOnce sync.Once
	closeErr  error
}

// New starts watching o.Roots. Relative roots are made absolute. A root
// that exists must be a folder; a root that does not exist yet is watched
// for via its nearest existing parent and watched recursively once it is
// created. New fails if a folder under the roots cannot be read or watched
// (for example when the system's limit on watches is reached).
func New(o Options) (*Watcher, error) {
	if len(o.Roots) == 0 {
		return nil, errors.New("watch: no roots")
	}
	if o.Debounce <= 0 {
		o.Debounce = defaultDebounce
	}
	if o.MaxWait <= 0 {
		o.MaxWait = defaultMaxWait
	}
	var roots []string
	for _, r := range o.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch: %w", err)
		}
		if !slices.Contains(roots, abs) {
			roots = append(roots, abs)
		}
	}
	for _, r := range roots {
		fi, err := os.Stat(r)
		switch {
		case err == nil && !fi.IsDir():
			return nil, fmt.Errorf("watch: root %s is not a folder", r)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("watch: %w", err)
		}
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	t, err := newTree(fsw, roots)
	if err != nil {
		fsw.Close()
		return nil, err
	}
	w := &Watcher{
		tree:     t,
		debounce: newDebouncer(o.Debounce, o.MaxWait),
		errors:   make(chan error),
		done:     make(chan struct{}),
		loopDone: make(chan struct{}),
	}
	go w.loop()
	return w, nil
}

// Batches delivers one Batch per burst of changes. It is closed by Close.
func (w *Watcher) Batches() <-chan Batch { return w.debounce.batches() }

// Errors delivers errors from the watch (for example a folder that could
// not be watched, or lost events after which every file is reported). It is
// closed by Close. Errors the consumer does not take are queued, and the
// oldest are dropped when the queue is full.
func (w *Watcher) Errors() <-chan error { return w.errors }

// Close stops watching, ends the goroutines and closes Batches and Errors.
// A batch not taken yet is dropped. Calling Close again returns the first
// result.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		<-w.loopDone
		w.debounce.stop()
		w.closeErr = w.tree.fsw.Close()
	})
	return w.closeErr
}

// loop applies fsnotify's events to the tree and hands what changed to
// the debouncer.
func (w *Watcher) loop() {
	defer close(w.loopDone)
	defer close(w.errors)
	t := w.tree
	for {
		var errc chan<- error
		var firstErr error
		if len(t.errs) > 0 {
			errc, firstErr = w.errors, t.errs[0]
		}
		active := false
		select {
		case <-w.done:
			return
		case ev, ok := <-t.fsw.Events:
			if !ok {
				return
			}
			active = t.handle(ev)
		case err, ok := <-t.fsw.Errors:
			if !ok {
				return
			}
			t.fail(err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				t.rescan()
				active = true
			}
		case errc <- firstErr:
			t.errs = t.errs[1:]
		}
		if active {
			w.debounce.add(t.take())
		}
	}
}
