package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// writeBuild writes a build labelled version: two pages and a bundle file
// that all say which build they are from.
func writeBuild(t *testing.T, dest, version string, opts Options) (*Staging, error) {
	t.Helper()
	s, err := Begin(dest, opts)
	if err != nil {
		return nil, err
	}
	for _, w := range []struct {
		f   *Folder
		rel string
	}{{s.Folder, "index.html"}, {s.Folder, "en/incidents/a/index.html"}, {s.Bundle(), "site.json"}, {s.Bundle(), "index/meta.json"}} {
		if err := w.f.WriteFile(w.rel, []byte(version)); err != nil {
			t.Fatal(err)
		}
	}
	return s, nil
}

func build(t *testing.T, dest, version string, opts Options) error {
	t.Helper()
	s, err := writeBuild(t, dest, version, opts)
	if err != nil {
		return err
	}
	return s.Commit()
}

// version reads which build dest holds, failing unless every page and the
// bundle that dest's path leads to are of that one build.
func version(t *testing.T, dest string) string {
	t.Helper()
	bundle, err := BundleOf(dest)
	if err != nil {
		t.Fatalf("no output at %s: %v", dest, err)
	}
	var seen []string
	for _, p := range []string{filepath.Join(dest, "index.html"), filepath.Join(dest, "en", "incidents", "a", "index.html"), filepath.Join(bundle, "site.json"), filepath.Join(bundle, "index", "meta.json")} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("output incomplete: %v", err)
		}
		seen = append(seen, string(data))
	}
	if _, err := os.Stat(filepath.Join(dest, Marker)); err != nil {
		t.Fatalf("output without its marker: %v", err)
	}
	if seen[0] != seen[1] || seen[0] != seen[2] || seen[0] != seen[3] {
		t.Fatalf("output mixes builds: pages and bundle say %q", seen)
	}
	return seen[0]
}

// leftovers lists what is beside dest besides dest and its bundle folder,
// and the bundles that are not dest's.
func leftovers(t *testing.T, dest string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dest))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if p := filepath.Join(filepath.Dir(dest), e.Name()); p != dest && p != BundleRoot(dest) {
			out = append(out, e.Name())
		}
	}
	want, _ := BundleOf(dest)
	bundles, _ := os.ReadDir(BundleRoot(dest))
	for _, b := range bundles {
		if p := filepath.Join(BundleRoot(dest), b.Name()); b.IsDir() && p != want {
			out = append(out, "bundle "+b.Name())
		}
	}
	return out
}

func noLeftovers(t *testing.T, dest string) {
	t.Helper()
	if left := leftovers(t, dest); len(left) > 0 {
		t.Errorf("left beside the output: %v", left)
	}
}

func TestBuildAndRebuild(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	for _, v := range []string{"v1", "v2", "v3"} {
		if err := build(t, dest, v, Options{}); err != nil {
			t.Fatalf("build %s: %v", v, err)
		}
		if got := version(t, dest); got != v {
			t.Fatalf("after build %s the output is %s", v, got)
		}
		noLeftovers(t, dest)
	}
}

// TestKilledAtEveryStep stops a rebuild before each step of Commit, as a
// kill would, then checks that the output is whole (the old build or the
// new one) and that the next build cleans up after the killed one.
func TestKilledAtEveryStep(t *testing.T) {
	for _, two := range []bool{false, true} {
		steps := []string{stepSwap, stepRemoveBundle, stepRemoveOld, stepSweep}
		if two {
			steps = append(steps, stepAside)
		}
		for _, step := range steps {
			t.Run(fmt.Sprintf("%s/two-renames=%v", step, two), func(t *testing.T) {
				dest := filepath.Join(t.TempDir(), "public")
				if err := build(t, dest, "old", Options{twoRenames: two}); err != nil {
					t.Fatal(err)
				}
				var reached bool
				kill := func(at string) error {
					if at == step {
						reached = true
						return errors.New("SIGKILL")
					}
					return nil
				}
				if err := build(t, dest, "new", Options{kill: kill, twoRenames: two}); !errors.Is(err, errKilled) {
					t.Fatalf("the build was not stopped: %v", err)
				}
				if !reached {
					t.Fatalf("the build never reached step %s", step)
				}
				if step == stepAside {
					// Two renames cannot avoid this: no output until the
					// next build, which removes the moved-aside one.
					if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
						t.Fatalf("expected no output between the two renames: %v", err)
					}
				} else {
					want := "new"
					if step == stepSwap {
						want = "old"
					}
					if got := version(t, dest); got != want {
						t.Fatalf("killed before %s: output is %q, want %q", step, got, want)
					}
				}
				if err := build(t, dest, "next", Options{twoRenames: two}); err != nil {
					t.Fatalf("build after the killed one: %v", err)
				}
				if got := version(t, dest); got != "next" {
					t.Fatalf("output is %q after the next build", got)
				}
				noLeftovers(t, dest)
			})
		}
	}
}

// TestLeftoversOfOthersKept: a running build's folders, and folders
// beside the output that are not gen's, survive another build.
func TestLeftoversOfOthersKept(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "v1", Options{}); err != nil {
		t.Fatal(err)
	}
	running, err := writeBuild(t, dest, "running", Options{})
	if err != nil {
		t.Fatal(err)
	}
	notOurs := filepath.Join(filepath.Dir(dest), stagingPrefix(dest)+"mine")
	if err := os.MkdirAll(filepath.Join(notOurs, "photos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := build(t, dest, "v2", Options{}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{running.Dir(), running.Bundle().Dir(), filepath.Join(notOurs, "photos")} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("another build removed %s: %v", dir, err)
		}
	}
	if err := running.Commit(); err != nil {
		t.Fatalf("the running build could not finish: %v", err)
	}
	if got := version(t, dest); got != "running" {
		t.Fatalf("output is %q", got)
	}
	if err := os.RemoveAll(notOurs); err != nil {
		t.Fatal(err)
	}
	noLeftovers(t, dest)
}

// TestConcurrentBuilds: builds of one destination running at once all
// succeed, and the output ends whole, with one bundle and nothing else.
func TestConcurrentBuilds(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs, warnings []error
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				opts := Options{Warn: func(err error) { mu.Lock(); warnings = append(warnings, err); mu.Unlock() }}
				s, err := Begin(dest, opts)
				if err == nil {
					v := fmt.Sprintf("w%d-%d", w, i)
					for _, rel := range []string{"index.html", "en/incidents/a/index.html"} {
						err = errors.Join(err, s.WriteFile(rel, []byte(v)))
					}
					for _, rel := range []string{"site.json", "index/meta.json"} {
						err = errors.Join(err, s.Bundle().WriteFile(rel, []byte(v)))
					}
					err = errors.Join(err, s.Commit())
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d builds failed, the first: %v", len(errs), errs[0])
	}
	for _, w := range warnings {
		t.Logf("warning: %v", w)
	}
	if v := version(t, dest); !strings.HasPrefix(v, "w") {
		t.Fatalf("output is %q", v)
	}
	noLeftovers(t, dest)
}

// TestOldOutputNotRemovable: once the new output is in place, a previous
// output that cannot be deleted is a warning naming it, not a failure.
func TestOldOutputNotRemovable(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "old", Options{}); err != nil {
		t.Fatal(err)
	}
	oldBundle, _ := BundleOf(dest)
	var warnings []error
	refuse := func(dir string) error {
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err == nil {
			return &os.PathError{Op: "unlinkat", Path: filepath.Join(dir, "index.html"), Err: os.ErrPermission}
		}
		return os.RemoveAll(dir)
	}
	s, err := writeBuild(t, dest, "new", Options{removeAll: refuse, Warn: func(err error) { warnings = append(warnings, err) }})
	if err != nil {
		t.Fatal(err)
	}
	staging := s.Dir()
	if err := s.Commit(); err != nil {
		t.Fatalf("the build failed after its swap: %v", err)
	}
	if got := version(t, dest); got != "new" {
		t.Fatalf("output is %q", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), staging) {
		t.Fatalf("warnings %v, want one naming %s", warnings, staging)
	}
	if _, err := os.Stat(oldBundle); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old bundle was kept: %v", err)
	}
	// The next build removes it.
	if err := build(t, dest, "next", Options{}); err != nil {
		t.Fatal(err)
	}
	noLeftovers(t, dest)
}

// TestReadOnlyOldOutput is TestOldOutputNotRemovable with real
// permissions, which do not stop root.
func TestReadOnlyOldOutput(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root deletes read-only folders; TestOldOutputNotRemovable injects the failure instead")
	}
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "old", Options{}); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dest, "en", "incidents")
	if err := os.Chmod(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(filepath.Dir(dest), func(p string, d os.DirEntry, err error) error { os.Chmod(p, 0o755); return nil })
	})
	s, err := writeBuild(t, dest, "new", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatalf("the build failed after its swap: %v", err)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0].Error(), s.Dir()) {
		t.Fatalf("warnings %v, want one naming %s", w, s.Dir())
	}
	if got := version(t, dest); got != "new" {
		t.Fatalf("output is %q", got)
	}
}

// TestBundleFollowsTheFolder: the bundle is found from the folder itself,
// whatever its path was when it was written.
func TestBundleFollowsTheFolder(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "v1", Options{}); err != nil {
		t.Fatal(err)
	}
	before, _ := BundleOf(dest)
	if err := build(t, dest, "v2", Options{}); err != nil {
		t.Fatal(err)
	}
	after, _ := BundleOf(dest)
	if before == after {
		t.Fatalf("a rebuild kept the bundle folder %s", before)
	}
	if version(t, dest) != "v2" {
		t.Fatal("wrong build")
	}
}

func TestRefusesForeignBundleFolder(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := os.MkdirAll(filepath.Join(BundleRoot(dest), "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := build(t, dest, "v1", Options{}); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("a build took over %s: %v", BundleRoot(dest), err)
	}
	if _, err := os.Stat(filepath.Join(BundleRoot(dest), "notes")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("refused build made %s", dest)
	}
}

// A folder of somebody's put into gen's own bundle folder after a build
// is not swept away with the stray bundles by the next: it is refused,
// as in the output folder.
func TestRefusesForeignFolderInBundles(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "v1", Options{}); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(BundleRoot(dest), "notes")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notes, "todo.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := build(t, dest, "v2", Options{}); err == nil || !strings.Contains(err.Error(), notes+" is not empty and was not made by gen") {
		t.Fatalf("a build with %s: %v", notes, err)
	}
	if _, err := os.Stat(filepath.Join(notes, "todo.txt")); err != nil {
		t.Fatal(err)
	}
	if version(t, dest) != "v1" {
		t.Error("a refused build replaced the output")
	}
}

func TestWriteFileStaysInside(t *testing.T) {
	s, err := Begin(filepath.Join(t.TempDir(), "public"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	for _, rel := range []string{"../x", "/etc/x", "a/../../x", ""} {
		if err := s.WriteFile(rel, nil); err == nil {
			t.Errorf("WriteFile(%q) succeeded", rel)
		}
	}
}

// TestBundleOfACopy: a site folder and its bundle folder copied elsewhere
// (new inodes) still find each other, as long as there is one bundle.
func TestBundleOfACopy(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "v1", Options{}); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "public")
	if err := os.CopyFS(copied, os.DirFS(dest)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(BundleRoot(copied), os.DirFS(BundleRoot(dest))); err != nil {
		t.Fatal(err)
	}
	if got := version(t, copied); got != "v1" {
		t.Fatalf("the copy is %q", got)
	}
	// Two bundles and neither is the folder's: which one is a guess.
	if err := os.Mkdir(filepath.Join(BundleRoot(copied), "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, err := BundleOf(copied); err == nil {
		t.Fatalf("BundleOf guessed %s", dir)
	}
}
