package server

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestDirSiteAcrossASwap: a build replaces the folder, and removes the old
// one, after a lookup has found the folder but before it has found the
// file. The lookup finds the file in the new folder.
func TestDirSiteAcrossASwap(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "public")
	for _, d := range []string{dir, filepath.Join(parent, "next")} {
		if err := os.MkdirAll(filepath.Join(d, "en"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "en", "index.html"), []byte(filepath.Base(d)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	swap := func() {
		once.Do(func() {
			old := filepath.Join(parent, "old")
			if err := os.Rename(dir, old); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(parent, "next"), dir); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(old); err != nil {
				t.Fatal(err)
			}
		})
	}
	site := dirSite{dir: dir, opened: swap}
	f, err := site.Open("en/index.html")
	if err != nil {
		t.Fatalf("a request during a swap failed: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f.content())
	if err != nil || string(data) != "next" {
		t.Fatalf("read %q, %v; want the new folder's file", data, err)
	}
}
