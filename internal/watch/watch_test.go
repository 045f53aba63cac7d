package watch

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The machine running the tests is shared and noisy: an expected batch may
// take long, and absence is asserted over a shorter quiet period.
const (
	waitBatch = 5 * time.Second
	waitQuiet = 500 * time.Millisecond
)

func start(t *testing.T, o Options) *Watcher {
	t.Helper()
	w, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// next returns the next batch, or false after d. Errors from the watcher
// fail the test.
func next(t *testing.T, w *Watcher, d time.Duration) (Batch, bool) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatal("Batches closed")
			}
			return b, true
		case err, ok := <-w.Errors():
			if ok {
				t.Errorf("watch error: %v", err)
			}
		case <-deadline:
			return Batch{}, false
		}
	}
}

func expectBatch(t *testing.T, w *Watcher) Batch {
	t.Helper()
	b, ok := next(t, w, waitBatch)
	if !ok {
		t.Fatalf("no batch within %v", waitBatch)
	}
	checkBatch(t, b)
	return b
}

func expectNone(t *testing.T, w *Watcher) {
	t.Helper()
	if b, ok := next(t, w, waitQuiet); ok {
		t.Fatalf("unexpected batch %q", b.Paths)
	}
}

// collect gathers batches until every path in want was reported, then
// keeps gathering until the watcher has been quiet for waitQuiet. It
// returns the union of the paths and the number of batches.
func collect(t *testing.T, w *Watcher, want ...string) ([]string, int) {
	t.Helper()
	seen := map[string]bool{}
	n := 0
	missing := func() []string {
		var m []string
		for _, p := range want {
			if !seen[p] {
				m = append(m, p)
			}
		}
		return m
	}
	deadline := time.Now().Add(waitBatch)
	for len(missing()) > 0 {
		b, ok := next(t, w, time.Until(deadline))
		if !ok {
			t.Fatalf("not reported within %v: %q (seen %q)", waitBatch, missing(), sortedKeys(seen))
		}
		checkBatch(t, b)
		n++
		for _, p := range b.Paths {
			seen[p] = true
		}
	}
	for {
		b, ok := next(t, w, waitQuiet)
		if !ok {
			break
		}
		checkBatch(t, b)
		n++
		for _, p := range b.Paths {
			seen[p] = true
		}
	}
	return sortedKeys(seen), n
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
	same(t, expectBatch(t, w).Paths, p)
	expectNone(t, w)

	write(t, old, "changed")
	same(t, expectBatch(t, w).Paths, old)
	expectNone(t, w)
}

func TestRelativeRootGivesAbsolutePaths(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if err := os.Mkdir("content", 0o755); err != nil {
		t.Fatal(err)
	}
	w := start(t, Options{Roots: []string{"content/"}})
	write(t, filepath.Join("content", "a.md"), "a")
	same(t, expectBatch(t, w).Paths, filepath.Join(root, "content", "a.md"))
}

func TestBurstIsOneBatch(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}, Debounce: 150 * time.Millisecond})

	var want []string
	begin := time.Now()
	for i := range 50 {
		p := filepath.Join(root, "posts", "p"+string(rune('a'+i/26))+string(rune('a'+i%26))+".md")
		write(t, p, "x")
		want = append(want, p)
	}
	if d := time.Since(begin); d > 100*time.Millisecond {
		t.Logf("writing took %v (slow machine)", d)
	}
	same(t, expectBatch(t, w).Paths, want...)
	expectNone(t, w)
}

// Like git checkout: many files changed, added and removed at once.
func TestCheckoutIsOneBatch(t *testing.T) {
	root := t.TempDir()
	var keep, drop []string
	for i := range 20 {
		k := filepath.Join(root, "en", "k"+string(rune('a'+i))+".md")
		d := filepath.Join(root, "fr", "d"+string(rune('a'+i))+".md")
		write(t, k, "v1")
		write(t, d, "v1")
		keep, drop = append(keep, k), append(drop, d)
	}
	w := start(t, Options{Roots: []string{root}, Debounce: 150 * time.Millisecond})

	var want []string
	for i, k := range keep {
		write(t, k, "v2")
		if err := os.Remove(drop[i]); err != nil {
			t.Fatal(err)
		}
		n := filepath.Join(root, "de", "n"+string(rune('a'+i))+".md")
		write(t, n, "v2")
		want = append(want, k, drop[i], n)
	}
	same(t, expectBatch(t, w).Paths, want...)
	expectNone(t, w)
}

func TestMaxWaitBoundsABurst(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}, Debounce: 200 * time.Millisecond, MaxWait: 300 * time.Millisecond})

	stop := make(chan struct{})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				os.WriteFile(filepath.Join(root, "busy.md"), []byte{byte(i)}, 0o644)
			}
		}
	}()
	defer func() { close(stop); <-writerDone }()

	b := expectBatch(t, w) // the writer never pauses for 200ms
	same(t, b.Paths, filepath.Join(root, "busy.md"))
}

func TestWriteRenameSave(t *testing.T) {
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
	got, _ := collect(t, w, x)
	same(t, got, x)

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
	got, _ = collect(t, w, x)
	same(t, got, x)
}

func TestNestedFolders(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}})

	f := filepath.Join(root, "a", "b", "c", "f.md")
	write(t, f, "f") // MkdirAll then write: the folders appear faster than they can be watched
	got, _ := collect(t, w, f)
	same(t, got, f)

	g := filepath.Join(root, "a", "b", "c", "g.md")
	write(t, g, "g")
	same(t, expectBatch(t, w).Paths, g)
	write(t, f, "f2")
	same(t, expectBatch(t, w).Paths, f)
	expectNone(t, w)
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
	got, _ := collect(t, w, one, two)
	same(t, got, one, two)

	three := filepath.Join(root, "t", "u", "3.md")
	write(t, three, "3")
	same(t, expectBatch(t, w).Paths, three)
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
	got, _ := collect(t, w, d1, d2)
	same(t, got, d1, d2)

	// Moved out of the tree: only the folder's own event, no file events.
	if err := os.Rename(filepath.Join(root, "e"), filepath.Join(outside, "e")); err != nil {
		t.Fatal(err)
	}
	got, _ = collect(t, w, e3)
	same(t, got, e3)

	// Writes in the moved folder are not ours any more; a recreated
	// folder is watched again.
	write(t, filepath.Join(outside, "e", "4.md"), "4")
	expectNone(t, w)
	write(t, d1, "again")
	got, _ = collect(t, w, d1)
	same(t, got, d1)
	write(t, d2, "again")
	got, _ = collect(t, w, d2)
	same(t, got, d2)
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
	got, _ := collect(t, w, ax, bx)
	same(t, got, ax, bx)

	by := filepath.Join(root, "b", "y.md")
	write(t, by, "y")
	same(t, expectBatch(t, w).Paths, by)
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
	expectNone(t, w)

	a := filepath.Join(content, "en", "a.md")
	write(t, a, "a") // creates content and content/en
	got, _ := collect(t, w, a)
	same(t, got, a)

	b := filepath.Join(content, "en", "b.md")
	write(t, b, "b")
	same(t, expectBatch(t, w).Paths, b)

	// The root and its parent go away and come back.
	if err := os.RemoveAll(site); err != nil {
		t.Fatal(err)
	}
	got, _ = collect(t, w, a, b)
	same(t, got, a, b)
	c := filepath.Join(content, "c.md")
	write(t, c, "c")
	got, _ = collect(t, w, c)
	same(t, got, c)

	// The second root, two levels missing.
	i18n := filepath.Join(tmp, "other", "i18n", "fr.yaml")
	write(t, i18n, "x")
	got, _ = collect(t, w, i18n)
	same(t, got, i18n)
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
	got, _ := collect(t, w, real)
	same(t, got, real)

	// Still ignored once their folders are watched.
	write(t, filepath.Join(root, "sub", ".b.md.swp"), "x")
	write(t, filepath.Join(root, "sub", "b.md~"), "x")
	write(t, filepath.Join(root, ".git", "index"), "x")
	expectNone(t, w)

	// Chmod only is no change.
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	expectNone(t, w)
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

// A consumer that does not read gets the pending batches merged into one.
func TestSlowConsumerCoalesces(t *testing.T) {
	root := t.TempDir()
	w := start(t, Options{Roots: []string{root}, Debounce: 50 * time.Millisecond})

	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	write(t, a, "a")
	time.Sleep(600 * time.Millisecond) // the first burst ends; nobody reads
	write(t, b, "b")
	time.Sleep(600 * time.Millisecond)
	same(t, expectBatch(t, w).Paths, a, b)
	expectNone(t, w)
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

func TestCloseEndsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	root := t.TempDir()
	w, err := New(Options{Roots: []string{root, filepath.Join(root, "missing", "x")}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "a.md"), "a")
	expectBatch(t, w)
	write(t, filepath.Join(root, "b.md"), "b") // pending when closed

	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for name, c := range map[string]<-chan struct{}{"Batches": drained(w.Batches()), "Errors": drained(w.Errors())} {
		select {
		case <-c:
		case <-time.After(waitBatch):
			t.Errorf("%s not closed", name)
		}
	}
	deadline := time.Now().Add(waitBatch)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines after Close, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// drained returns a channel closed once c is closed.
func drained[T any](c <-chan T) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for range c {
		}
		close(done)
	}()
	return done
}
