package published

import (
	"sync"
	"sync/atomic"

	"github.com/postmortem-archive/gen/internal/output"
)

// Follower keeps the bundle of the site built at a folder open, and opens
// the new one when a build replaces the folder: the swap gives the path a
// new inode, and so a new published.
type Follower struct {
	dest     string
	onChange func(*Output)
	mu       sync.Mutex // held while opening a new bundle
	cur      atomic.Pointer[Output]
	failed   string // the bundle folder that last failed to open
}

// Follow opens the bundle of the site at dest. onChange is called with
// every bundle opened, this first one included, before Current returns it.
func Follow(dest string, onChange func(*Output)) (*Follower, error) {
	out, err := OpenSite(dest)
	if err != nil {
		return nil, err
	}
	f := &Follower{dest: dest, onChange: onChange}
	onChange(out)
	f.cur.Store(out)
	return f, nil
}

// Current returns the bundle of the build at the folder now. When a build
// has replaced the folder since the last call, it opens the new bundle,
// calls onChange and releases the previous bundle's index, which closes
// when its last search ends; callers arriving meanwhile wait for it. When
// the new bundle cannot be opened, the previous one is returned with the
// error, once per bundle folder. The check costs one stat.
func (f *Follower) Current() (*Output, error) {
	cur := f.cur.Load()
	dir, err := output.BundleOf(f.dest)
	if err != nil || dir == cur.dir {
		return cur, nil // no folder at all: keep serving the last build
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if cur = f.cur.Load(); dir == cur.dir || dir == f.failed {
		return cur, nil
	}
	out, err := OpenSite(f.dest)
	if err != nil {
		f.failed = dir
		return cur, err
	}
	f.onChange(out)
	f.cur.Store(out)
	cur.Close()
	return out, nil
}

// Close releases the current published.
func (f *Follower) Close() error { return f.cur.Load().Close() }
