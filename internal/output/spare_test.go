package output

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSpare: a build with Spare keeps the output it replaced beside the
// destination, the next such build starts from it (its folders and the
// files it carries over are already there; what it writes replaces, never
// writes into, a file the output being served shares; what it neither
// writes nor carries is pruned), and a build without Spare removes it.
func TestSpare(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	if err := build(t, dest, "v1", Options{}); err != nil {
		t.Fatal(err)
	}
	// v2 carries a page over from v1 and keeps v1 as the spare.
	s, err := writeBuild(t, dest, "v2", Options{Spare: true})
	if err != nil {
		t.Fatal(err)
	}
	carry(t, s, dest, "en/incidents/b/index.html", "v1 b")
	carry(t, s, dest, "en/incidents/c/index.html", "v1 c")
	if err := s.Prune(); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	spare := SparePath(dest)
	if got := read(t, filepath.Join(spare, "index.html")); got != "v1" {
		t.Fatalf("the spare holds %q, want the replaced output", got)
	}
	putFile(t, filepath.Join(spare, "stale.html"), "stale")
	// v3 starts from the spare: the carried page is the served one's
	// file, a page written replaces the spare's, a stale one is pruned.
	served := filepath.Join(dest, "en", "incidents", "b", "index.html")
	before, err := os.Stat(served)
	if err != nil {
		t.Fatal(err)
	}
	s, err = writeBuild(t, dest, "v3", Options{Spare: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Folder.reused {
		t.Fatal("the build did not start from the spare")
	}
	carry(t, s, dest, "en/incidents/b/index.html", "")
	if err := s.WriteFile("en/incidents/c/index.html", []byte("v3 c")); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := version(t, dest); got != "v3" {
		t.Fatalf("the output is %s, want v3", got)
	}
	if after, err := os.Stat(served); err != nil || !os.SameFile(before, after) {
		t.Errorf("the carried page is not the file served before: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dest, "stale.html")); err == nil {
		t.Error("a file of the spare neither written nor carried was not pruned")
	}
	if got := read(t, filepath.Join(spare, "en", "incidents", "c", "index.html")); got != "v1 c" {
		t.Errorf("a page v2 carried over and v3 wrote was written into, not replaced: %q", got)
	}
	// A build without Spare removes it.
	if err := build(t, dest, "v4", Options{}); err != nil {
		t.Fatal(err)
	}
	noLeftovers(t, dest)
}

// carry carries rel over from the output at dest, after writing it there
// as data when data is not empty.
func carry(t *testing.T, s *Staging, dest, rel, data string) {
	t.Helper()
	from := filepath.Join(dest, filepath.FromSlash(rel))
	if data != "" {
		putFile(t, from, data)
	}
	info, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Carry(rel, from, info); err != nil || !ok {
		t.Fatalf("carrying %s: %v, %v", rel, ok, err)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func putFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
