package sitetest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// SameFiles compares the files under want with those at the same paths
// under got, byte for byte, reporting each that differs, and returns how
// many it compared. bleve's stores (folders named store) are skipped:
// they differ between two builds of the same documents, while an index's
// document stores, vocabularies and field lengths hold what was indexed.
func SameFiles(t *testing.T, want, got string) int {
	t.Helper()
	files := 0
	err := filepath.WalkDir(want, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if err == nil && d.Name() == "store" {
				err = filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(want, path)
		a, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs (%d bytes, want %d)", rel, len(b), len(a))
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
