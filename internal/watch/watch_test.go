package watch

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Every test here waits for events, never for time: what should not be
// reported is followed by a marker file, and since fsnotify's events come
// in order, anything reported wrongly comes before or with the marker.
// waitEvents only bounds how long a failing test hangs.
const waitEvents = 10 * time.Second

func start(t *testing.T, o Options) *Watcher {
	t.Helper()
	if o.Debounce == 0 {
		o.Debounce = 10 * time.Millisecond
	}
	w, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// collect gathers batches until every path in want was reported and
// returns the union of the paths. Errors from the watcher fail the test.
func collect(t *testing.T, w *Watcher, want ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	missing := func() []string {
		var m []string
		for _, p := range want {
			if !seen[p] {
				m = append(m, p)
			}
		}
		return m
	}
	deadline := time.After(waitEvents)
	for len(missing()) > 0 {
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatal("Batches closed")
			}
			checkBatch(t, b)
			for _, p := range b.Paths {
				seen[p] = true
			}
		case err, ok := <-w.Errors():
			if ok {
				t.Errorf("watch error: %v", err)
			}
		case <-deadline:
			t.Fatalf("not reported within %v: %q (seen %q)", waitEvents, missing(), slices.Sorted(maps.Keys(seen)))
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

var markers atomic.Int64

// expect checks that exactly want is reported from now until a marker
// file created in the watched folder dir: nothing missing, nothing more.
// Markers of earlier calls are left out: their own events may trail.
func expect(t *testing.T, w *Watcher, dir string, want ...string) {
	t.Helper()
	marker := filepath.Join(dir, fmt.Sprintf("marker-%d.md", markers.Add(1)))
	f, err := os.Create(marker)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	var got []string
	for _, p := range collect(t, w, append(slices.Clone(want), marker)...) {
		if p == marker || !strings.HasPrefix(filepath.Base(p), "marker-") {
			got = append(got, p)
		}
	}
	same(t, got, append(slices.Clone(want), marker)...)
}

// checkBatch checks the form of the paths: absolute, clean, sorted, unique.
func checkBatch(t *testing.T, b Batch) {
	t.Helper()
	if len(b.Paths) == 0 {
		t.Errorf("empty batch")
	}
	for i, p := range b.Paths {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			t.Errorf("path %q is not absolute and clean", p)
		}
		if i > 0 && b.Paths[i-1] >= p {
			t.Errorf("paths not sorted and unique: %q", b.Paths)
		}
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func same(t *testing.T, got []string, want ...string) {
	t.Helper()
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("paths\n got %q\nwant %q", got, want)
	}
}

func TestWriteFile(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, "old.md")
	write(t, old, "old")
	w := start(t, Options{Roots: []string{root}})

	p := filepath.Join(root, "new.md")
	write(t, p, "hello")
	expect(t, w, root, p)

	write(t, old, "changed")
	expect(t, w, root, old)
}

func TestRelativeRootGivesAbsolutePaths(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if err := os.Mkdir("content", 0o755); err != nil {
		t.Fatal(err)
	}
	w := start(t, Options{Roots: []string{"content/"}})
	write(t, filepath.Join("content", "a.md"), "a")
	expect(t, w, filepath.Join(root, "content"), filepath.Join(root, "content", "a.md"))
}

// Many files written at once in new folders, as by an unpacked archive:
// every one is reported, whatever the folders' race with their watches.
func TestManyNewFiles(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}})

	var want []string
	for i := range 50 {
		p := filepath.Join(root, "posts", fmt.Sprintf("g%d", i%5), fmt.Sprintf("p%02d.md", i))
		write(t, p, "x")
		want = append(want, p)
	}
	expect(t, w, root, want...)
}

// Like git checkout: many files changed, added and removed at once.
func TestCheckout(t *testing.T) {
	root := t.TempDir()
	var keep, drop []string
	for i := range 20 {
		k := filepath.Join(root, "en", fmt.Sprintf("k%02d.md", i))
		d := filepath.Join(root, "fr", fmt.Sprintf("d%02d.md", i))
		write(t, k, "v1")
		write(t, d, "v1")
		keep, drop = append(keep, k), append(drop, d)
	}
	w := start(t, Options{Roots: []string{root}})

	var want []string
	for i, k := range keep {
		write(t, k, "v2")
		if err := os.Remove(drop[i]); err != nil {
			t.Fatal(err)
		}
		n := filepath.Join(root, "de", fmt.Sprintf("n%02d.md", i))
		write(t, n, "v2")
		want = append(want, k, drop[i], n)
	}
	expect(t, w, root, want...)
}

func TestEditorSaves(t *testing.T) {
	root := t.TempDir()
	x := filepath.Join(root, "x.md")
	write(t, x, "v1")
	w := start(t, Options{Roots: []string{root}})

	// vim: swap file, probe file, backup, write to a temp name, rename.
	swp := filepath.Join(root, ".x.md.swp")
	write(t, swp, "swap")
	write(t, filepath.Join(root, "4913"), "")
	os.Remove(filepath.Join(root, "4913"))
	write(t, filepath.Join(root, "x.md~"), "v1")
	tmp := filepath.Join(root, "x.md.tmp")
	write(t, tmp, "v2")
	if err := os.Rename(tmp, x); err != nil {
		t.Fatal(err)
	}
	os.Remove(swp)
	expect(t, w, root, x)

	// JetBrains: x.md___jb_tmp___ written, x.md moved to x.md___jb_old___,
	// the temp file moved to x.md, the old one removed.
	jbTmp, jbOld := x+"___jb_tmp___", x+"___jb_old___"
	write(t, jbTmp, "v3")
	if err := os.Rename(x, jbOld); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(jbTmp, x); err != nil {
		t.Fatal(err)
	}
	os.Remove(jbOld)
	expect(t, w, root, x)

	// emacs: a lock symlink, an auto-save file, then the file rewritten
	// in place.
	lock := filepath.Join(root, ".#x.md")
	if err := os.Symlink("user@host.1234", lock); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "#x.md#"), "v4")
	write(t, x, "v4")
	os.Remove(filepath.Join(root, "#x.md#"))
	os.Remove(lock)
	expect(t, w, root, x)
}

func TestNestedFolders(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}})

	f := filepath.Join(root, "a", "b", "c", "f.md")
	write(t, f, "f") // MkdirAll then write: the folders appear faster than they can be watched
	expect(t, w, root, f)

	c := filepath.Join(root, "a", "b", "c")
	g := filepath.Join(c, "g.md")
	write(t, g, "g")
	expect(t, w, c, g)
	write(t, f, "f2")
	expect(t, w, c, f)
}

// A tree made elsewhere and moved in has no events for its files at all.
func TestFolderMovedIn(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "t", "1.md"), "1")
	write(t, filepath.Join(outside, "t", "u", "2.md"), "2")
	write(t, filepath.Join(outside, "t", "u", ".2.md.swp"), "swap")
	write(t, filepath.Join(outside, "t", ".git", "HEAD"), "ref")
	w := start(t, Options{Roots: []string{root}})

	if err := os.Rename(filepath.Join(outside, "t"), filepath.Join(root, "t")); err != nil {
		t.Fatal(err)
	}
	one, two := filepath.Join(root, "t", "1.md"), filepath.Join(root, "t", "u", "2.md")
	expect(t, w, root, one, two)

	u := filepath.Join(root, "t", "u")
	three := filepath.Join(u, "3.md")
	write(t, three, "3")
	expect(t, w, u, three)
}

func TestRemoveFolder(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	d1 := filepath.Join(root, "d", "1.md")
	d2 := filepath.Join(root, "d", "sub", "2.md")
	e3 := filepath.Join(root, "e", "3.md")
	write(t, d1, "1")
	write(t, d2, "2")
	write(t, e3, "3")
	w := start(t, Options{Roots: []string{root}})

	if err := os.RemoveAll(filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	expect(t, w, root, d1, d2)

	// Moved out of the tree: only the folder's own event, no file events.
	if err := os.Rename(filepath.Join(root, "e"), filepath.Join(outside, "e")); err != nil {
		t.Fatal(err)
	}
	expect(t, w, root, e3)

	// Writes in the moved folder are not ours any more; a recreated
	// folder is watched again.
	write(t, filepath.Join(outside, "e", "4.md"), "4")
	expect(t, w, root)
	write(t, d1, "again")
	expect(t, w, root, d1)
	write(t, d2, "again")
	expect(t, w, filepath.Join(root, "d", "sub"), d2)
}

func TestRenameFolderWithinTree(t *testing.T) {
	root := t.TempDir()
	ax := filepath.Join(root, "a", "x.md")
	write(t, ax, "x")
	w := start(t, Options{Roots: []string{root}})

	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	bx := filepath.Join(root, "b", "x.md")
	expect(t, w, root, ax, bx)

	by := filepath.Join(root, "b", "y.md")
	write(t, by, "y")
	expect(t, w, filepath.Join(root, "b"), by)
}

// A file renamed within the tree is reported under both names.
func TestRenameFile(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "en", "a.md")
	write(t, a, "a")
	w := start(t, Options{Roots: []string{root}})

	b := filepath.Join(root, "ja", "b.md")
	if err := os.MkdirAll(filepath.Dir(b), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}
	expect(t, w, root, a, b)
}

func TestMissingRoot(t *testing.T) {
	tmp := t.TempDir()
	site := filepath.Join(tmp, "site")
	content := filepath.Join(site, "content")
	layouts := filepath.Join(site, "layouts")
	write(t, filepath.Join(layouts, "base.html"), "<html>")
	w := start(t, Options{Roots: []string{content, filepath.Join(tmp, "other", "i18n")}})

	// Outside the roots: nothing.
	write(t, filepath.Join(site, "config.yaml"), "x")
	write(t, filepath.Join(site, "contents", "a.md"), "x")
	a := filepath.Join(content, "en", "a.md")
	write(t, a, "a") // creates content and content/en
	expect(t, w, content, a)

	b := filepath.Join(content, "en", "b.md")
	write(t, b, "b")
	expect(t, w, content, b)

	// The root and its parent go away and come back.
	if err := os.RemoveAll(site); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(content, "c.md")
	write(t, c, "c")
	expect(t, w, content, a, b, c)

	// The second root, two levels missing.
	i18n := filepath.Join(tmp, "other", "i18n", "fr.yaml")
	write(t, i18n, "x")
	expect(t, w, filepath.Dir(i18n), i18n)
}

func TestIgnored(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}})

	for _, name := range []string{
		".a.md.swp", ".a.md.swx", ".a.md.swo", "a.md~", "4913", ".#a.md", "#a.md#",
		"a.md.tmp", "a.TMP", ".DS_Store", "page.html.crdownload", ".~lock.a.md#",
		"a.md___jb_tmp___", "a.md___jb_old___",
	} {
		write(t, filepath.Join(root, "sub", name), "x")
	}
	write(t, filepath.Join(root, ".git", "objects", "ab", "cdef"), "x")
	write(t, filepath.Join(root, "sub", ".cache", "x.md"), "x")
	real := filepath.Join(root, "sub", "real.md")
	write(t, real, "x")
	expect(t, w, root, real)

	// Still ignored once their folders are watched.
	write(t, filepath.Join(root, "sub", ".b.md.swp"), "x")
	write(t, filepath.Join(root, "sub", "b.md~"), "x")
	write(t, filepath.Join(root, ".git", "index"), "x")
	expect(t, w, root)

	// Chmod only is no change.
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	expect(t, w, root)
}

func TestIgnoredName(t *testing.T) {
	for _, name := range []string{
		".x.md.swp", ".x.md.swx", ".x.md.swn", "x.md~", "4913", ".#x.md", "#x.md#",
		"x.tmp", "x.md.TMP", ".DS_Store", "x.crdownload", ".~lock.x#", ".~x",
		"x.md___jb_tmp___", "x.md___jb_old___",
	} {
		if !ignoredName(name) {
			t.Errorf("%q not ignored", name)
		}
	}
	for _, name := range []string{
		"x.md", ".htaccess", "x.swp.md", "#", "49130", "tmp", "x.tmpl", ".x.swz", "index.html", "_index.fr.md",
	} {
		if ignoredName(name) {
			t.Errorf("%q ignored", name)
		}
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("New without roots: no error")
	}
	f := filepath.Join(t.TempDir(), "file")
	write(t, f, "x")
	if _, err := New(Options{Roots: []string{f}}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("New with a file as root: %v", err)
	}
}

func TestOptionsReachTheDebouncer(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}, Debounce: 0, MaxWait: 0})
	if w.debounce.quiet != 10*time.Millisecond || w.debounce.maxWait != defaultMaxWait {
		t.Errorf("debouncer %v, %v; want 10ms, %v", w.debounce.quiet, w.debounce.maxWait, defaultMaxWait)
	}
	w2, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if w2.debounce.quiet != defaultDebounce || w2.debounce.maxWait != defaultMaxWait {
		t.Errorf("defaults %v, %v; want %v, %v", w2.debounce.quiet, w2.debounce.maxWait, defaultDebounce, defaultMaxWait)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	root := t.TempDir()
	w, err := New(Options{Roots: []string{root, filepath.Join(root, "missing", "x")}, Debounce: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a.md")
	write(t, a, "a")
	collect(t, w, a)
	write(t, filepath.Join(root, "b.md"), "b") // pending when closed

	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// Close returns once its goroutines have closed the channels.
	select {
	case b, ok := <-w.Batches():
		if ok {
			t.Errorf("batch %q after Close", b.Paths)
		}
	default:
		t.Error("Batches not closed by Close")
	}
	select {
	case err, ok := <-w.Errors():
		if ok {
			t.Errorf("error %v after Close", err)
		}
	default:
		t.Error("Errors not closed by Close")
	}
	// fsnotify's reader has signalled its end but may still be returning.
	deadline := time.Now().Add(waitEvents)
	for {
		left := watchGoroutines()
		if left == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines left after Close:\n%s", left)
		}
		runtime.Gosched()
	}
}

// watchGoroutines returns the stacks of the goroutines running this
// package's or fsnotify's code.
func watchGoroutines() string {
	buf := make([]byte, 1<<20)
	var left []string
	for g := range strings.SplitSeq(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "fsnotify.") || (strings.Contains(g, "gen/internal/watch.") && !strings.Contains(g, "gen/internal/watch.Test")) {
			left = append(left, g)
		}
	}
	return strings.Join(left, "\n\n")
}
