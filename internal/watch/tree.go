package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"
)

const maxQueuedErrors = 64

var errNotDir = errors.New("not a folder")

// tree keeps fsnotify watching every folder under the roots as folders
// come, go and move, and turns fsnotify's events into the files that
// changed. It has no clock: the debouncer decides when changes are a
// batch. It is used by one goroutine at a time.
type tree struct {
	fsw     *fsnotify.Watcher
	roots   []string        // absolute and clean
	pending map[string]bool // roots that are not a folder (yet)
	anchors map[string]bool // folders watched only to see a pending root appear
	dirs    map[string]bool // folders watched as part of a root's tree
	files   map[string]bool // files known under the roots
	changed map[string]bool // files changed since the last take
	errs    []error         // errors the consumer has not taken, oldest first
}

// newTree watches roots, which are absolute, clean and unique, and
// records the files under them as the starting state. A root that does
// not exist yet is watched for via its nearest existing parent.
func newTree(fsw *fsnotify.Watcher, roots []string) (*tree, error) {
	t := &tree{
		fsw:     fsw,
		roots:   roots,
		pending: map[string]bool{},
		anchors: map[string]bool{},
		dirs:    map[string]bool{},
		files:   map[string]bool{},
		changed: map[string]bool{},
	}
	for _, r := range roots {
		if err := t.addTree(r, false); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			t.pending[r] = true
		}
	}
	t.resolvePending()
	if len(t.errs) > 0 {
		return nil, t.errs[0]
	}
	// Files found while setting up are the starting state, not changes.
	clear(t.changed)
	return t, nil
}

// take returns the files changed since the last take, in no order.
func (t *tree) take() []string {
	paths := slices.Collect(maps.Keys(t.changed))
	clear(t.changed)
	return paths
}

// handle updates the state for one fsnotify event and reports whether it
// was about the watched sources (and so counts as activity).
func (t *tree) handle(ev fsnotify.Event) bool {
	if !ev.Op.Has(fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename) {
		return false // Chmod only
	}
	p := filepath.Clean(ev.Name)
	relevant := false
	if root := t.rootOf(p); root != "" && !t.pending[root] && !hiddenBetween(root, p) {
		if ev.Op.Has(fsnotify.Remove | fsnotify.Rename) {
			relevant = t.gone(p, root) || relevant
		}
		if ev.Op.Has(fsnotify.Create) {
			relevant = t.created(p) || relevant
		} else if ev.Op.Has(fsnotify.Write) {
			relevant = t.written(p) || relevant
		}
	}
	if t.anchors[p] || t.leadsToPending(p) {
		t.resolvePending()
		relevant = true
	}
	return relevant
}

// gone handles p having been removed or renamed away.
func (t *tree) gone(p, root string) bool {
	if t.dirs[p] {
		t.removeTree(p)
		if p == root {
			t.pending[root] = true
		}
		return true
	}
	if p == root {
		t.pending[root] = true
		return true
	}
	if t.files[p] {
		delete(t.files, p)
		t.changed[p] = true
		return true
	}
	// Not known: ignored, created and removed before we could look, or a
	// folder already forgotten (a moved folder reports its move twice: from
	// its parent and from its own watch).
	return false
}

// created handles p having been created or renamed into the tree.
func (t *tree) created(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false // gone already; its removal follows
	}
	base := filepath.Base(p)
	if fi.IsDir() {
		if strings.HasPrefix(base, ".") {
			return false
		}
		if err := t.addTree(p, true); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.fail(err)
		}
		return true
	}
	if ignoredName(base) {
		return false
	}
	t.files[p] = true
	t.changed[p] = true
	return true
}

// written handles a write to p.
func (t *tree) written(p string) bool {
	if t.dirs[p] || ignoredName(filepath.Base(p)) {
		return false
	}
	t.files[p] = true
	t.changed[p] = true
	return true
}

// addTree watches dir and every folder under it that is not hidden, and
// records the files under it, adding them to the changes if report is set.
// Folders are watched before they are read, so a file created meanwhile is
// seen either by the walk or by an event.
func (t *tree) addTree(dir string, report bool) error {
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
				t.fail(fmt.Errorf("watch: %w", err))
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
			if err := t.fsw.Add(p); err != nil {
				err = fmt.Errorf("watch: %s: %w", p, err)
				if top {
					return err
				}
				if !errors.Is(err, fs.ErrNotExist) {
					t.fail(err)
				}
				return filepath.SkipDir
			}
			t.dirs[p] = true
			return nil
		}
		if ignoredName(d.Name()) {
			return nil
		}
		t.files[p] = true
		if report {
			t.changed[p] = true
		}
		return nil
	})
}

// removeTree forgets the folder dir: it drops the watches on it and the
// folders under it, and adds the files known under it to the changes.
func (t *tree) removeTree(dir string) {
	for d := range t.dirs {
		if within(d, dir) {
			t.unwatch(d)
		}
	}
	for f := range t.files {
		if within(f, dir) {
			delete(t.files, f)
			t.changed[f] = true
		}
	}
}

func (t *tree) unwatch(dir string) {
	delete(t.dirs, dir)
	if !t.anchors[dir] {
		// The kernel drops the watch of a removed folder by itself, so an
		// error here is expected and harmless.
		_ = t.fsw.Remove(dir)
	}
}

// resolvePending starts watching the pending roots that exist as folders
// now, and for the others watches their nearest existing parent.
func (t *tree) resolvePending() {
	need := map[string]bool{}
	for root := range t.pending {
		for range 64 { // bounded: folders may come and go while we look
			a := nearestDir(root)
			if a == root {
				err := t.addTree(root, true)
				if err == nil {
					delete(t.pending, root)
					break
				}
				if !errors.Is(err, fs.ErrNotExist) {
					t.fail(err)
					break
				}
				continue
			}
			need[a] = true
			// Always (re)add: an anchor removed and recreated under its
			// name, as by rm -rf and a checkout, is a new inode that the
			// old watch does not see.
			if err := t.fsw.Add(a); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				t.fail(fmt.Errorf("watch: %s: %w", a, err))
				break
			}
			t.anchors[a] = true
			// Something further down may have appeared before the watch
			// on a was in place.
			if nearestDir(root) == a {
				break
			}
		}
	}
	for a := range t.anchors {
		if !need[a] {
			delete(t.anchors, a)
			if !t.dirs[a] {
				_ = t.fsw.Remove(a)
			}
		}
	}
}

// rescan rebuilds the state from the disk after events were lost, and
// reports every file as changed.
func (t *tree) rescan() {
	for d := range t.dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.unwatch(d)
		}
	}
	old := t.files
	t.files = map[string]bool{}
	for _, r := range t.roots {
		if t.pending[r] {
			continue
		}
		if err := t.addTree(r, true); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				t.fail(err)
			}
			t.removeTree(r)
			t.pending[r] = true
		}
	}
	for f := range old {
		if !t.files[f] {
			t.changed[f] = true
		}
	}
	t.resolvePending()
}

func (t *tree) fail(err error) {
	if err == nil {
		return
	}
	if len(t.errs) >= maxQueuedErrors {
		t.errs = slices.Delete(t.errs, 0, 1)
	}
	t.errs = append(t.errs, err)
}

// rootOf returns the innermost root p is in, or "".
func (t *tree) rootOf(p string) string {
	best := ""
	for _, r := range t.roots {
		if within(p, r) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// leadsToPending reports whether p is a pending root or one of its parents.
func (t *tree) leadsToPending(p string) bool {
	for r := range t.pending {
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
