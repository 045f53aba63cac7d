package build_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/server/published"
)

// Two valid incidents for the atomic-output tests; bravo has a product and
// a cause of its own, so removing it must remove their pages too.
func atomicSite(t *testing.T) (dir string) {
	t.Helper()
	bravo := errOrig
	bravo = with(t, bravo, "begin: 2021-06-01 10:00", "begin: 2021-07-01 10:00")
	bravo = with(t, bravo, "end: 2021-06-01 11:00", "end: 2021-07-01 11:00")
	bravo = with(t, bravo, "- 2021-06-01 10:00", "- 2021-07-01 10:00")
	bravo = with(t, bravo, "products: [BigQuery]", "products: [BigQuery, Cloud SQL]")
	bravo = with(t, bravo, "causes: [load-spike]", "causes: [load-spike, disk-full]")
	return writeSite(t, files{
		file(errID, "en"):              errOrig,
		file(errID, "ja"):              errJA,
		file("2021-07-01-bravo", "en"): bravo,
	})
}

func buildInto(src, dest string) error {
	_, err := build.Run(build.Options{Source: src, Dest: dest, BaseURL: "http://127.0.0.1:1313/"})
	return err
}

// tree maps every file and folder under dir (relative, slash-separated) to
// the SHA-256 of its bytes, or "dir" for a folder. In a folder of bundles,
// the files of the search indexes are only listed.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		if _, inBundle, _ := strings.Cut(rel, "/"); strings.HasPrefix(inBundle, bundle.IndexDir+"/") && strings.HasSuffix(dir, ".gen") {
			// The search index's store records when it was written:
			// rebuilds differ in bytes, not in what they hold.
			out[rel] = "index file"
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports every difference between two trees.
func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(before)) {
		switch v, ok := after[k]; {
		case !ok:
			t.Errorf("%s: %s was removed", what, k)
		case v != before[k]:
			t.Errorf("%s: %s changed", what, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(after)) {
		if _, ok := before[k]; !ok {
			t.Errorf("%s: %s appeared", what, k)
		}
	}
}

// leftovers lists what a build left beside dest: staging folders and moved
// aside previous outputs, but the spare a warm build keeps on purpose
// (output.SparePath).
func leftovers(t *testing.T, dest string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dest))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if name := e.Name(); name == filepath.Base(output.SparePath(dest)) {
			continue
		} else if strings.HasPrefix(name, "."+filepath.Base(dest)) || strings.Contains(name, ".new-") || strings.HasSuffix(name, ".old") {
			out = append(out, name)
		}
	}
	return out
}

// onlyBundle checks that the site folder dest holds no bundle, and that
// beside it there is exactly one, the one gen serve --dir opens.
func onlyBundle(t *testing.T, dest string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dest, ".gen")); err == nil {
		t.Errorf("the site folder holds a .gen folder")
	}
	want, err := output.BundleOf(dest)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	entries, err := os.ReadDir(output.BundleRoot(dest))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			got = append(got, e.Name())
		}
	}
	if len(got) != 1 || got[0] != filepath.Base(want) {
		t.Errorf("bundles beside the output: %v, want only %s", got, filepath.Base(want))
	}
	out, err := published.OpenSite(dest)
	if err != nil {
		t.Fatalf("opening the bundle of the output: %v", err)
	}
	out.Close()
}

func TestFailedBuildLeavesOutputUnchanged(t *testing.T) {
	src := atomicSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if err := buildInto(src, dest); err != nil {
		t.Fatalf("first build: %v", err)
	}
	before, bundlesBefore := tree(t, dest), tree(t, output.BundleRoot(dest))
	for _, want := range []string{".gen-output", "en/incidents/" + errID + "/index.html", "en/incidents/2021-07-01-bravo/index.html"} {
		if _, ok := before[want]; !ok {
			t.Fatalf("first build has no %s", want)
		}
	}
	onlyBundle(t, dest)

	breaks := []struct {
		name    string
		file    string // relative to the site
		text    string
		errFrag string
	}{
		// Fails in the load stage, before anything is written.
		{"content error", "content/2021-07-01-bravo/en.md", "---\ntitle: x\nsumary: y\n---\n", `did you mean "summary"?`},
		// Fails while parsing layouts: the staging folder exists by then.
		{"layout syntax error", "layouts/incident.html", `{{define "incident.html"}}{{if}}{{end}}`, "layouts/incident.html"},
		// Fails while rendering pages, after some have been written.
		{"layout execution error", "layouts/404.html", `{{define "404.html"}}{{template "base.html" .}}{{end}}{{define "main"}}{{.NoSuchField}}{{end}}`, "NoSuchField"},
	}
	for _, b := range breaks {
		t.Run(b.name, func(t *testing.T) {
			full := filepath.Join(src, filepath.FromSlash(b.file))
			old, readErr := os.ReadFile(full)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if readErr == nil {
					_ = os.WriteFile(full, old, 0o644)
				} else {
					_ = os.Remove(full)
				}
			}()
			err := buildInto(src, dest)
			if err == nil {
				t.Fatal("broken build succeeded")
			}
			if !strings.Contains(err.Error(), b.errFrag) {
				t.Errorf("error does not mention %q: %v", b.errFrag, err)
			}
			sameTree(t, "after a failed build", before, tree(t, dest))
			sameTree(t, "bundles after a failed build", bundlesBefore, tree(t, output.BundleRoot(dest)))
			if left := leftovers(t, dest); len(left) > 0 {
				t.Errorf("failed build left %v beside the output", left)
			}
		})
	}

	// The site builds again once fixed, to the same bytes.
	if err := buildInto(src, dest); err != nil {
		t.Fatalf("build after fixing: %v", err)
	}
	sameTree(t, "rebuild of the same site", before, tree(t, dest))
	onlyBundle(t, dest)
	if left := leftovers(t, dest); len(left) > 0 {
		t.Errorf("good build left %v beside the output", left)
	}
}

func TestRebuildRemovesStaleFiles(t *testing.T) {
	src := atomicSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if err := buildInto(src, dest); err != nil {
		t.Fatalf("first build: %v", err)
	}
	gone := []string{
		"en/incidents/2021-07-01-bravo/index.html",
		"ja/incidents/2021-07-01-bravo/index.html",
		"zh-TW/incidents/2021-07-01-bravo/index.html",
		"en/products/cloud-sql/index.html",
		"en/causes/disk-full/index.html",
	}
	first := tree(t, dest)
	for _, g := range gone {
		if _, ok := first[g]; !ok {
			t.Fatalf("first build has no %s; the test expects it", g)
		}
	}
	// A file somebody put into the output by hand is not gen's either.
	if err := os.WriteFile(filepath.Join(dest, "en", "stray.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	if err := os.RemoveAll(filepath.Join(src, "content", "2021-07-01-bravo")); err != nil {
		t.Fatal(err)
	}
	if err := buildInto(src, dest); err != nil {
		t.Fatalf("second build: %v", err)
	}
	second := tree(t, dest)
	for _, g := range append(gone, "en/stray.txt", "en/incidents/2021-07-01-bravo", "en/products/cloud-sql") {
		if _, ok := second[g]; ok {
			t.Errorf("stale %s survived the rebuild", g)
		}
	}
	// The output is exactly what a build into a fresh folder makes.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if err := buildInto(src, fresh); err != nil {
		t.Fatalf("fresh build: %v", err)
	}
	sameTree(t, "rebuild vs fresh build", tree(t, fresh), second)
	onlyBundle(t, dest)
	if left := leftovers(t, dest); len(left) > 0 {
		t.Errorf("rebuild left %v beside the output", left)
	}
}

func TestRefusesForeignDest(t *testing.T) {
	src := atomicSite(t)

	t.Run("non-empty folder without marker", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "public")
		if err := os.MkdirAll(filepath.Join(dest, "photos"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"notes.txt": "mine", "photos/cat.jpg": "\xff\xd8meow"} {
			if err := os.WriteFile(filepath.Join(dest, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := tree(t, dest)
		err := buildInto(src, dest)
		if err == nil {
			t.Fatal("build replaced a folder gen did not make")
		}
		for _, frag := range []string{"refusing", ".gen-output", dest} {
			if !strings.Contains(err.Error(), frag) {
				t.Errorf("error does not mention %q: %v", frag, err)
			}
		}
		sameTree(t, "foreign folder", before, tree(t, dest))
		if left := leftovers(t, dest); len(left) > 0 {
			t.Errorf("refused build left %v beside the output", left)
		}
	})

	t.Run("empty folder without marker", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "public")
		if err := os.Mkdir(dest, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := buildInto(src, dest); err != nil {
			t.Fatalf("build into an empty folder: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dest, ".gen-output")); err != nil {
			t.Errorf("no marker after the build: %v", err)
		}
	})

	t.Run("a file, not a folder", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "public")
		if err := os.WriteFile(dest, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := buildInto(src, dest); err == nil {
			t.Fatal("build replaced a file")
		}
		if data, err := os.ReadFile(dest); err != nil || string(data) != "keep me" {
			t.Errorf("the file was changed: %q, %v", data, err)
		}
		if left := leftovers(t, dest); len(left) > 0 {
			t.Errorf("refused build left %v", left)
		}
	})

	t.Run("own output is replaced", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "public")
		if err := buildInto(src, dest); err != nil {
			t.Fatal(err)
		}
		if err := buildInto(src, dest); err != nil {
			t.Fatalf("second build into gen's own output: %v", err)
		}
	})
}

// TestOutputFolderPermissions: the output folder is as readable as the
// folders inside it, so a web server running as another user can serve it.
func TestOutputFolderPermissions(t *testing.T) {
	src := atomicSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if err := buildInto(src, dest); err != nil {
		t.Fatal(err)
	}
	root, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := os.Stat(filepath.Join(dest, "en"))
	if err != nil {
		t.Fatal(err)
	}
	if root.Mode().Perm() != sub.Mode().Perm() {
		t.Errorf("output folder mode %v, but its en/ folder %v", root.Mode().Perm(), sub.Mode().Perm())
	}
}
