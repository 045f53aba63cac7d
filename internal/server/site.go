package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Snapshotter is the set of files being served.
type Snapshotter interface {
	// Snapshot returns one consistent version of the site; a request is
	// served from one snapshot from start to end.
	Snapshot() Snapshot
}

// Snapshot is one version of a site's files.
type Snapshot interface {
	// Open returns the file or folder at name: a slash-separated path
	// relative to the site's root ("" is the root itself, "en/index.html"
	// a page). Names that are not clean, or that have a segment starting
	// with a dot, do not exist. A missing file is an error for which
	// errors.Is(err, fs.ErrNotExist) holds. The caller closes the file.
	Open(name string) (*File, error)
	// Errors are the errors of the last build when it failed (its files
	// are then those of the last good build), nil otherwise.
	Errors() []diag.Error
	// Version counts the builds swapped in; it is 0 for a folder.
	Version() uint64
}

// File is one file of a snapshot, or a folder.
type File struct {
	Name    string    // the name it was opened by
	IsDir   bool      // a folder: only Name and ModTime are set
	Size    int64     // bytes
	ModTime time.Time // when its content last changed
	ETag    string    // a strong validator, quoted; "" when there is none
	Data    []byte    // the whole content, when it is in memory
	Body    io.ReadSeeker
	// Body is the content when Data is nil (a file on disk); Close
	// closes it.
}

// Close releases the file.
func (f *File) Close() error {
	if c, ok := f.Body.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// content returns a reader over the whole file.
func (f *File) content() io.ReadSeeker {
	if f.Data != nil || f.Body == nil {
		return bytes.NewReader(f.Data)
	}
	return f.Body
}

// validName reports whether name is a clean relative path (fs.ValidPath)
// with no segment starting with a dot and no backslash or control
// character: the only names a Site ever opens.
func validName(name string) bool {
	if name == "" {
		return true
	}
	if !fs.ValidPath(name) || strings.ContainsFunc(name, func(c rune) bool { return c < 0x20 || c == 0x7f || c == '\\' }) {
		return false
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg[0] == '.' {
			return false
		}
	}
	return true
}

func notExist(name string) error {
	return &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// NewDirSite serves the files in the folder dir, read only. Nothing
// outside dir is ever opened: names are resolved with os.Root, so neither
// ".." nor a symbolic link pointing out of the folder escapes it; files and
// folders whose name starts with a dot are never served. The folder is
// looked up afresh for every request, so a build that replaces it whole
// is picked up at once.
func NewDirSite(dir string) Snapshotter {
	return dirSite{dir: dir}
}

type dirSite struct {
	dir    string
	opened func() // tests only: called between finding the folder and looking in it
}

func (d dirSite) Snapshot() Snapshot   { return d }
func (d dirSite) Errors() []diag.Error { return nil }
func (d dirSite) Version() uint64      { return 0 }

// open opens rel in the folder. A build swaps a new folder in at the path
// and then removes the old one, possibly while a lookup that began in the
// old one is under way: a file missing there is looked up again in the
// folder now at the path, so that the swap fails no request.
func (d dirSite) open(rel string) (*os.File, error) {
	for try := 0; ; try++ {
		root, err := os.OpenRoot(d.dir)
		if err != nil {
			return nil, err
		}
		if d.opened != nil {
			d.opened()
		}
		f, err := root.Open(rel)
		if err != nil && errors.Is(err, fs.ErrNotExist) && try < 3 && d.replaced(root) {
			root.Close()
			continue
		}
		root.Close()
		return f, err
	}
}

// replaced reports whether the folder at d.dir is no longer root.
func (d dirSite) replaced(root *os.Root) bool {
	was, err := root.Stat(".")
	if err != nil {
		return true
	}
	now, err := os.Stat(d.dir)
	return err == nil && !os.SameFile(was, now)
}

func (d dirSite) Open(name string) (*File, error) {
	if !validName(name) {
		return nil, notExist(name)
	}
	rel := name
	if rel == "" {
		rel = "."
	}
	f, err := d.open(rel)
	if errors.Is(err, syscall.ENOTDIR) {
		return nil, notExist(name) // "file.html/x"
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.IsDir() {
		f.Close()
		return &File{Name: name, IsDir: true, ModTime: info.ModTime()}, nil
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, notExist(name)
	}
	mod := info.ModTime()
	etag := `"` + strconv.FormatInt(info.Size(), 36) + "-" + strconv.FormatInt(mod.UnixNano(), 36) + `"`
	return &File{Name: name, Size: info.Size(), ModTime: mod, ETag: etag, Body: f}, nil
}

// MemSite is a build kept in memory while authoring. Each rebuild is
// swapped in whole with Swap: a request sees either the previous build or
// the next one, never a mix. A failed build keeps the last good files
// and records its errors, which the handler shows over every page.
type MemSite struct {
	mu  sync.Mutex // serializes Swap
	cur atomic.Pointer[memSnapshot]
}

// Change is what one or more swaps changed, as told to a live page.
type Change struct {
	Version uint64
	Kind    string       // ChangeReload, ChangeCSS or ChangeErrors
	Errors  []diag.Error // the build's errors, for ChangeErrors
}

// The kinds of Change; they are also the names of the events sent to
// live pages.
const (
	ChangeReload = "reload" // pages changed: reload
	ChangeCSS    = "css"    // only stylesheets changed: swap them in place
	ChangeErrors = "errors" // the build failed: show its errors
)

type memSnapshot struct {
	version uint64
	files   map[string]*memFile
	dirs    map[string]bool
	errors  []diag.Error
	pageGen uint64        // bumped when anything but a stylesheet changed
	cssGen  uint64        // bumped when a stylesheet changed
	next    chan struct{} // closed when this snapshot is replaced
}

type memFile struct {
	data    []byte
	lazy    Lazy // makes data when first opened, when not nil
	modTime time.Time
	once    sync.Once
	etag    string
	err     error // from lazy
}

// Lazy is a file made when it is first asked for (an authoring server
// renders most pages on request rather than keeping them all). Bytes
// returns the same content every time and is safe for concurrent use.
type Lazy interface {
	Bytes() ([]byte, error)
}

// load makes a lazy file's content once, and its validator.
func (f *memFile) load() error {
	f.once.Do(func() {
		if f.lazy != nil {
			f.data, f.err = f.lazy.Bytes()
		}
		if f.err == nil {
			f.etag = hashETag(f.data)
		}
	})
	return f.err
}

// hashETag is a strong validator computed from content.
func hashETag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// NewMemSite returns an empty in-memory site, at version 0.
func NewMemSite() *MemSite {
	m := &MemSite{}
	m.cur.Store(&memSnapshot{
		files: map[string]*memFile{},
		dirs:  map[string]bool{"": true},
		next:  make(chan struct{}),
	})
	return m
}

// Swap replaces the site with a new build. files maps slash-separated
// paths relative to the site root ("index.html", "en/style.css") to their
// content. Swap copies the map but not the contents, which must not be
// modified afterwards; names that are not clean paths, or have a segment
// starting with a dot, are dropped. When buildErrors is not empty, or
// files is nil, the build failed: the last good files keep being served,
// with these errors (none for a nil files with no errors). Every Swap
// increments the version and wakes watchers.
func (m *MemSite) Swap(files map[string][]byte, buildErrors []diag.Error) {
	m.SwapLazy(files, nil, buildErrors)
}

// SwapLazy is Swap with some files made when first asked for: a file
// given as the same Lazy as in the previous swap is unchanged, another is
// changed. lazy may be nil.
func (m *MemSite) SwapLazy(files map[string][]byte, lazy map[string]Lazy, buildErrors []diag.Error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev := m.cur.Load()
	next := &memSnapshot{
		version: prev.version + 1,
		files:   prev.files,
		dirs:    prev.dirs,
		errors:  slices.Clone(buildErrors),
		pageGen: prev.pageGen,
		cssGen:  prev.cssGen,
		next:    make(chan struct{}),
	}
	if len(next.errors) == 0 {
		next.errors = nil
	}
	if files != nil && len(buildErrors) == 0 {
		now := time.Now()
		next.files = make(map[string]*memFile, len(files)+len(lazy))
		pages, css, names := false, false, false
		changed := func(name string) {
			if path.Ext(name) == ".css" {
				css = true
			} else {
				pages = true
			}
		}
		add := func(name string, f *memFile, same func(old *memFile) bool) {
			if strings.HasPrefix(name, "/") || name != path.Clean(name) {
				name = strings.TrimPrefix(path.Clean("/"+name), "/")
			}
			if name == "" || !validName(name) {
				return
			}
			old, ok := prev.files[name]
			switch {
			case ok && same(old):
				next.files[name] = old
			case ok:
				next.files[name] = f
				changed(name)
			default:
				next.files[name] = f
				changed(name)
				names = true
			}
		}
		for name, data := range files {
			add(name, &memFile{data: data, modTime: now}, func(old *memFile) bool { return old.lazy == nil && bytes.Equal(old.data, data) })
		}
		for name, l := range lazy {
			add(name, &memFile{lazy: l, modTime: now}, func(old *memFile) bool { return old.lazy == l })
		}
		if names || len(next.files) != len(prev.files) {
			// Files came or went: find the folders again.
			for name := range prev.files {
				if _, ok := next.files[name]; !ok {
					changed(name)
				}
			}
			next.dirs = map[string]bool{"": true}
			for name := range next.files {
				for d := path.Dir(name); d != "." && !next.dirs[d]; d = path.Dir(d) {
					next.dirs[d] = true
				}
			}
		}
		// An identical build still counts as a change of pages: every
		// swap reloads, unless only stylesheets changed.
		if pages || !css {
			next.pageGen++
		}
		if css {
			next.cssGen++
		}
	}
	m.cur.Store(next)
	close(prev.next)
}

// Version is the number of swaps so far.
func (m *MemSite) Version() uint64 { return m.cur.Load().version }

// Errors are the current build's errors, nil when it succeeded.
func (m *MemSite) Errors() []diag.Error { return m.cur.Load().errors }

// Snapshot returns the current build.
func (m *MemSite) Snapshot() Snapshot { return m.cur.Load() }

// Watch reports swaps after version since until ctx is done, then closes
// the channel. When the site is already past since, the first Change
// brings a page that was served at since up to date. Swaps that happen
// while a Change waits to be received are merged into the next one.
func (m *MemSite) Watch(ctx context.Context, since uint64) <-chan Change {
	ch := make(chan Change)
	last := m.cur.Load()
	go func() {
		defer close(ch)
		send := func(c Change) bool {
			select {
			case ch <- c:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if last.version != since {
			c := Change{Version: last.version, Kind: ChangeReload}
			if len(last.errors) > 0 {
				c.Kind, c.Errors = ChangeErrors, last.errors
			}
			if !send(c) {
				return
			}
		}
		for {
			select {
			case <-last.next:
			case <-ctx.Done():
				return
			}
			cur := m.cur.Load()
			if !send(changeBetween(last, cur)) {
				return
			}
			last = cur
		}
	}()
	return ch
}

// changeBetween tells a page showing snapshot a what to do to show b.
func changeBetween(a, b *memSnapshot) Change {
	c := Change{Version: b.version, Kind: ChangeReload}
	switch {
	case len(b.errors) > 0:
		c.Kind, c.Errors = ChangeErrors, b.errors
	case len(a.errors) > 0:
		// The page shows an overlay that only a reload removes.
	case a.pageGen == b.pageGen && a.cssGen != b.cssGen:
		c.Kind = ChangeCSS
	}
	return c
}

func (s *memSnapshot) Errors() []diag.Error { return s.errors }
func (s *memSnapshot) Version() uint64      { return s.version }

func (s *memSnapshot) Open(name string) (*File, error) {
	if !validName(name) {
		return nil, notExist(name)
	}
	if f, ok := s.files[name]; ok {
		if err := f.load(); err != nil {
			return nil, err
		}
		return &File{Name: name, Size: int64(len(f.data)), ModTime: f.modTime, ETag: f.etag, Data: f.data}, nil
	}
	if s.dirs[name] {
		return &File{Name: name, IsDir: true}, nil
	}
	return nil, notExist(name)
}
