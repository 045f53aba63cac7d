package output

import (
	"errors"
	"io"
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

// A file written as it is made: its bytes, however many writes and
// buffers it takes, are counted; its maker's error is returned, not
// recorded; the file's own failures (not created, not written) are
// recorded once, like Collect's, and not returned.
func TestCollectStream(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	s, err := Begin(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	record := strings.Repeat("0123456789abcdef", 64) + "\n"
	const records = 1000 // past the buffer, several times
	err = s.CollectStream("sitemap.xml", func(w io.Writer) error {
		for range records {
			if _, err := io.WriteString(w, record); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir(), "sitemap.xml"))
	if err != nil || string(data) != strings.Repeat(record, records) || s.Size() != int64(len(data)) {
		t.Fatalf("wrote %d bytes (%v), counted %d; want %d", len(data), err, s.Size(), records*len(record))
	}

	broken := errors.New("a record that cannot be made")
	if err := s.CollectStream("incidents.json", func(w io.Writer) error { return broken }); !errors.Is(err, broken) {
		t.Errorf("the maker's error: %v, want it returned", err)
	}
	if err := s.Err(); err != nil {
		t.Errorf("the maker's error was recorded as a file's: %v", err)
	}

	if err := s.WriteFile("blocked", []byte("a file where a folder would be")); err != nil {
		t.Fatal(err)
	}
	made := false
	if err := s.CollectStream("blocked/sitemap-1.xml", func(w io.Writer) error { made = true; return nil }); err != nil || made {
		t.Errorf("a file that cannot be created: %v, made %t; want it recorded, not made", err, made)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if err := os.Symlink("/dev/full", filepath.Join(s.Dir(), "full.xml")); err != nil {
			t.Fatal(err)
		}
		err := s.CollectStream("full.xml", func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Repeat(record, records))
			return err
		})
		if err != nil {
			t.Errorf("a disk that fills up: %v, want it recorded, not returned", err)
		}
	}
	got := s.Err()
	if got == nil || !strings.Contains(got.Error(), "/blocked/sitemap-1.xml: ") {
		t.Errorf("Err() = %v, want the file that could not be created", got)
	}
	if _, err := os.Stat("/dev/full"); err == nil && !strings.Contains(got.Error(), "/full.xml: no space left on device; 1 file not written") {
		t.Errorf("Err() = %v, want the full disk once", got)
	}
}
