package output

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestScratch: a scratch folder is locked while its process holds it, so
// another Scratch leaves it; release removes it; a marked folder whose
// lock is free (its process killed) is removed by the next Scratch, and
// a folder of the same name that Scratch did not mark is left alone.
func TestScratch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	t.Setenv("TMPDIR", t.TempDir())
	held, release, err := Scratch("gen-test-")
	if err != nil {
		t.Fatal(err)
	}
	abandoned := filepath.Join(os.TempDir(), "gen-test-killed")
	foreign := filepath.Join(os.TempDir(), "gen-test-someone-elses")
	for _, dir := range []string{abandoned, foreign} {
		if err := os.MkdirAll(filepath.Join(dir, "index"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(abandoned, scratchMarker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other, releaseOther, err := Scratch("gen-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer releaseOther()
	for dir, want := range map[string]bool{held: true, other: true, abandoned: false, foreign: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: there %v, want %v (%v)", dir, err == nil, want, err)
		}
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(held); !os.IsNotExist(err) {
		t.Errorf("%s is still there after release (%v)", held, err)
	}
}
