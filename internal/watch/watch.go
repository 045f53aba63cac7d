// Package watch reports changes to the site's sources: it watches folders
// recursively with fsnotify, ignores editor temp and swap files, and
// debounces bursts into one batch.
package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configures a Watcher.
type Options struct {
	Roots    []string      // folders to watch recursively, e.g. <site>/content, <site>/layouts, <site>/i18n; a root that does not exist yet is watched for creation via its parent
	Debounce time.Duration // quiet period that ends a burst; default 100ms
	MaxWait  time.Duration // a burst never delays a batch longer than this; default 1s
}

// Batch is one debounced set of changes.
type Batch struct {
	Paths []string // changed files (absolute, cleaned, sorted, unique), including removed ones; folders created are walked and their files included
}

const (
	defaultDebounce = 100 * time.Millisecond
	defaultMaxWait  = time.Second
	maxQueuedErrors = 64
)

var errNotDir = errors.New("not a folder")

// Watcher watches the roots of Options and sends a Batch on Batches after
// every burst of changes. It never blocks on a slow consumer: batches that
// were not taken yet are merged into one.
type Watcher struct {
	fsw      *fsnotify.Watcher
	batches  chan Batch
	errors   chan error
	done     chan struct{} // closed by Close
	loopDone chan struct{} // closed when the loop has returned

	closeOnce sync.Once
	closeErr  error

	// Everything below is owned by New until the loop starts, then by the
	// loop goroutine alone.
	debounce time.Duration
	maxWait  time.Duration
	roots    []string
	pending  map[string]bool // roots that are not a folder (yet)
	anchors  map[string]bool // folders watched only to see a pending root appear
	dirs     map[string]bool // folders watched as part of a root's tree
	files    map[string]bool // files known under the roots
	burst    map[string]bool // paths changed in the current burst
	ready    map[string]bool // paths of ended bursts the consumer has not taken
	errs     []error         // errors the consumer has not taken
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
	w := &Watcher{
		batches:  make(chan Batch),
		errors:   make(chan error),
		done:     make(chan struct{}),
		loopDone: make(chan struct{}),
		debounce: o.Debounce,
		maxWait:  o.MaxWait,
		pending:  map[string]bool{},
		anchors:  map[string]bool{},
		dirs:     map[string]bool{},
		files:    map[string]bool{},
		burst:    map[string]bool{},
		ready:    map[string]bool{},
	}
	for _, r := range o.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch: %w", err)
		}
		if !slices.Contains(w.roots, abs) {
			w.roots = append(w.roots, abs)
		}
	}
	for _, r := range w.roots {
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
	w.fsw = fsw
	for _, r := range w.roots {
		if err := w.addTree(r, false); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				fsw.Close()
				return nil, err
			}
			w.pending[r] = true
		}
	}
	w.resolvePending()
	if len(w.errs) > 0 {
		fsw.Close()
		return nil, w.errs[0]
	}
	// Files found while setting up are the starting state, not changes.
	clear(w.burst)

	go w.loop()
	return w, nil
}

// Batches delivers one Batch per burst of changes. It is closed by Close.
func (w *Watcher) Batches() <-chan Batch { return w.batches }

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
		w.closeErr = w.fsw.Close()
	})
	return w.closeErr
}

func (w *Watcher) loop() {
	defer close(w.loopDone)
	defer close(w.errors)
	defer close(w.batches)

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()

	var (
		inBurst    bool
		burstStart time.Time
		out        Batch
		outDirty   bool
	)
	for {
		var batchc chan<- Batch
		if len(w.ready) > 0 {
			if outDirty {
				out = Batch{Paths: sortedKeys(w.ready)}
				outDirty = false
			}
			batchc = w.batches
		}
		var errc chan<- error
		var firstErr error
		if len(w.errs) > 0 {
			errc, firstErr = w.errors, w.errs[0]
		}

		relevant := false
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			relevant = w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.fail(err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.rescan()
				relevant = true
			}
		case <-timer.C:
			inBurst = false
			if len(w.burst) > 0 {
				for p := range w.burst {
					w.ready[p] = true
				}
				clear(w.burst)
				outDirty = true
			}
		case batchc <- out:
			// The consumer owns out.Paths now.
			w.ready = map[string]bool{}
			out = Batch{}
		case errc <- firstErr:
			w.errs = w.errs[1:]
		}

		if relevant {
			now := time.Now()
			if !inBurst {
				inBurst, burstStart = true, now
			}
			d := w.debounce
			if left := burstStart.Add(w.maxWait).Sub(now); left < d {
				d = max(left, 0)
			}
			timer.Reset(d)
		}
	}
}

// handle updates the state for one fsnotify event and reports whether it
// was about the watched sources (and so extends the current burst).
func (w *Watcher) handle(ev fsnotify.Event) bool {
	if !ev.Op.Has(fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename) {
		return false // Chmod only
	}
	p := filepath.Clean(ev.Name)
	relevant := false
	if root := w.rootOf(p); root != "" && !w.pending[root] && !hiddenBetween(root, p) {
		if ev.Op.Has(fsnotify.Remove | fsnotify.Rename) {
			relevant = w.gone(p, root) || relevant
		}
		if ev.Op.Has(fsnotify.Create) {
			relevant = w.created(p) || relevant
		} else if ev.Op.Has(fsnotify.Write) {
			relevant = w.written(p) || relevant
		}
	}
	if w.anchors[p] || w.leadsToPending(p) {
		w.resolvePending()
		relevant = true
	}
	return relevant
}

// gone handles p having been removed or renamed away.
func (w *Watcher) gone(p, root string) bool {
	if w.dirs[p] {
		w.removeTree(p)
		if p == root {
			w.pending[root] = true
		}
		return true
	}
	if p == root {
		w.pending[root] = true
		return true
	}
	if w.files[p] {
		delete(w.files, p)
		w.burst[p] = true
		return true
	}
	// Not known: ignored, created and removed before we could look, or a
	// folder already forgotten (a moved folder reports its move twice: from
	// its parent and from its own watch).
	return false
}

// created handles p having been created or renamed into the tree.
func (w *Watcher) created(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false // gone already; its removal follows
	}
	base := filepath.Base(p)
	if fi.IsDir() {
		if strings.HasPrefix(base, ".") {
			return false
		}
		if err := w.addTree(p, true); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.fail(err)
		}
		return true
	}
	if ignoredName(base) {
		return false
	}
	w.files[p] = true
	w.burst[p] = true
	return true
}

// written handles a write to p.
func (w *Watcher) written(p string) bool {
	if w.dirs[p] || ignoredName(filepath.Base(p)) {
		return false
	}
	w.files[p] = true
	w.burst[p] = true
	return true
}

// addTree watches dir and every folder under it that is not hidden, and
// records the files under it, adding them to the burst if report is set.
// Folders are watched before they are read, so a file created meanwhile is
// seen either by the walk or by an event.
func (w *Watcher) addTree(dir string, report bool) error {
	// WalkDir does not follow a symlink given as its start unless the path
	// ends in a separator; the paths below it are joined and so clean.
	start := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		start = dir + string(filepath.Separator)
	}
	return filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		top := p == start
		if top {
			p = dir
		}
		if err != nil {
			if top {
				return fmt.Errorf("watch: %w", err)
			}
			if !errors.Is(err, fs.ErrNotExist) { // else removed meanwhile; its event follows
				w.fail(fmt.Errorf("watch: %w", err))
			}
			return nil
		}
		if top && !d.IsDir() {
			return fmt.Errorf("watch: %s: %w", dir, errNotDir)
		}
		if d.IsDir() {
			if !top && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			// Always (re)add: a folder recreated under a known name is a
			// new inode.
			if err := w.fsw.Add(p); err != nil {
				err = fmt.Errorf("watch: %s: %w", p, err)
				if top {
					return err
				}
				if !errors.Is(err, fs.ErrNotExist) {
					w.fail(err)
				}
				return filepath.SkipDir
			}
			w.dirs[p] = true
			return nil
		}
		if ignoredName(d.Name()) {
			return nil
		}
		w.files[p] = true
		if report {
			w.burst[p] = true
		}
		return nil
	})
}

// removeTree forgets the folder dir: it drops the watches on it and the
// folders under it, and adds the files known under it to the burst.
func (w *Watcher) removeTree(dir string) {
	for d := range w.dirs {
		if within(d, dir) {
			w.unwatch(d)
		}
	}
	for f := range w.files {
		if within(f, dir) {
			delete(w.files, f)
			w.burst[f] = true
		}
	}
}

func (w *Watcher) unwatch(dir string) {
	delete(w.dirs, dir)
	if !w.anchors[dir] {
		// The kernel drops the watch of a removed folder by itself, so an
		// error here is expected and harmless.
		_ = w.fsw.Remove(dir)
	}
}

// resolvePending starts watching the pending roots that exist as folders
// now, and for the others watches their nearest existing parent.
func (w *Watcher) resolvePending() {
	need := map[string]bool{}
	for root := range w.pending {
		for range 64 { // bounded: folders may come and go while we look
			a := nearestDir(root)
			if a == root {
				err := w.addTree(root, true)
				if err == nil {
					delete(w.pending, root)
					break
				}
				if !errors.Is(err, fs.ErrNotExist) {
					w.fail(err)
					break
				}
				continue
			}
			need[a] = true
			if !w.anchors[a] {
				if err := w.fsw.Add(a); err != nil {
					if errors.Is(err, fs.ErrNotExist) {
						continue
					}
					w.fail(fmt.Errorf("watch: %s: %w", a, err))
					break
				}
				w.anchors[a] = true
			}
			// Something further down may have appeared before the watch
			// on a was in place.
			if nearestDir(root) == a {
				break
			}
		}
	}
	for a := range w.anchors {
		if !need[a] {
			delete(w.anchors, a)
			if !w.dirs[a] {
				_ = w.fsw.Remove(a)
			}
		}
	}
}

// rescan rebuilds the state from the disk after events were lost, and
// reports every file as changed.
func (w *Watcher) rescan() {
	for d := range w.dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			w.unwatch(d)
		}
	}
	old := w.files
	w.files = map[string]bool{}
	for _, r := range w.roots {
		if w.pending[r] {
			continue
		}
		if err := w.addTree(r, true); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.fail(err)
			}
			w.removeTree(r)
			w.pending[r] = true
		}
	}
	for f := range old {
		if !w.files[f] {
			w.burst[f] = true
		}
	}
	w.resolvePending()
}

func (w *Watcher) fail(err error) {
	if err == nil {
		return
	}
	if len(w.errs) >= maxQueuedErrors {
		w.errs = slices.Delete(w.errs, 0, 1)
	}
	w.errs = append(w.errs, err)
}

// rootOf returns the innermost root p is in, or "".
func (w *Watcher) rootOf(p string) string {
	best := ""
	for _, r := range w.roots {
		if within(p, r) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// leadsToPending reports whether p is a pending root or one of its parents.
func (w *Watcher) leadsToPending(p string) bool {
	for r := range w.pending {
		if within(r, p) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// hiddenBetween reports whether a folder between root and p (both
// excluded) is hidden.
func hiddenBetween(root, p string) bool {
	if p == root {
		return false
	}
	rel, err := filepath.Rel(root, filepath.Dir(p))
	if err != nil || rel == "." {
		return false
	}
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// nearestDir returns p if it is a folder, else its nearest parent that is.
func nearestDir(p string) string {
	for {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
	}
}

// ignoredName reports whether a file named name is an editor's or a
// browser's temporary, swap, backup or lock file.
func ignoredName(name string) bool {
	switch {
	case name == "4913", // vim's probe whether it may write in the folder
		name == ".DS_Store",
		strings.HasSuffix(name, "~"),
		strings.HasPrefix(name, ".#"), // emacs lock
		strings.HasPrefix(name, ".~"), // LibreOffice lock and others
		len(name) > 1 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"), // emacs auto-save
		hasSuffixFold(name, ".tmp"),
		hasSuffixFold(name, ".crdownload"),
		strings.HasSuffix(name, "___jb_tmp___"),
		strings.HasSuffix(name, "___jb_old___"):
		return true
	}
	// vim swap files: .name.swp, then .swo, .swn ... .swa, and .swx.
	if strings.HasPrefix(name, ".") && len(name) > 4 {
		ext := name[len(name)-4:]
		if strings.HasPrefix(ext, ".sw") && (ext[3] == 'x' || (ext[3] >= 'a' && ext[3] <= 'p')) {
			return true
		}
	}
	return false
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
