package output

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A disk that fills up fails every file after the first: the staging says
// so once per cause, with the first file and how many were not written.
func TestWriteFailuresReportedOncePerCause(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	s, err := Begin(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	written := 0
	s.write = func(name string, data []byte) error {
		if strings.Contains(name, "secret") {
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		if written == 2 {
			return &fs.PathError{Op: "open", Path: name, Err: syscall.ENOSPC}
		}
		written++
		return os.WriteFile(name, data, 0o644)
	}
	for _, rel := range []string{"index.html", "en/index.html", "ja/products/storage/index.html", "ja/index.html", "zh-TW/index.html", "secret/index.html"} {
		if err := s.Collect(rel, []byte("x")); err != nil {
			t.Fatalf("Collect(%s) = %v; failures are kept for Err", rel, err)
		}
	}
	err = s.Err()
	if err == nil {
		t.Fatal("Err() = nil after failed writes")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		filepath.ToSlash(dest) + "/ja/products/storage/index.html: no space left on device; 3 files not written",
		filepath.ToSlash(dest) + "/secret/index.html: permission denied; 1 file not written",
	}
	if len(lines) != len(want) {
		t.Fatalf("Err() has %d lines, want %d:\n%s", len(lines), len(want), err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("Err() lacks %q; got:\n%s", w, err)
		}
	}
	if !s.Cause(&fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}) {
		t.Error("Cause(ENOSPC) = false after a full disk was recorded")
	}
	if s.Cause(syscall.EIO) {
		t.Error("Cause(EIO) = true; it was never recorded")
	}
}

func TestNoFailureNoError(t *testing.T) {
	s, err := Begin(filepath.Join(t.TempDir(), "public"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	if err := s.Collect("en/index.html", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("Err() = %v after every write succeeded", err)
	}
}
