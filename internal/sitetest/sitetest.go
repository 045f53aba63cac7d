// Package sitetest helps tests work on a copy of a site, so that they can
// edit, break and rebuild it without touching the repository.
package sitetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Copy copies the site sources under root (content/, i18n/, layouts/)
// into a temporary folder removed after the test, and returns it.
func Copy(t testing.TB, root string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"content", "i18n", "layouts"} {
		err := filepath.WalkDir(filepath.Join(root, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
		})
		if err != nil {
			t.Fatalf("copying the site: %v", err)
		}
	}
	return dir
}

// SkipUnderRace skips a test that builds a thousand-incident archive when
// the race detector is on: it makes such a build ten times slower and the
// test's point is the pages, not concurrency. .ci/run runs these tests
// again without -race.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if raceDetector {
		t.Skip("a thousand-incident build under -race; .ci/run runs it without")
	}
}
