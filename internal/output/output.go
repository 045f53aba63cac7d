// Package output is the write stage: it writes a build into a fresh folder
// beside the destination and swaps it in only when the whole build has
// succeeded, so a failed build leaves the previous output byte for byte and
// a finished one has no stale files.
package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Marker is the file gen leaves in every output folder. Its presence is how
// gen knows a folder is its own to replace.
const Marker = ".gen-output"

// Staging is a build being written.
type Staging struct {
	dest string // the destination folder
	dir  string // the staging folder beside it
	mu   sync.Mutex
	dirs map[string]bool
	size int64
	// failed groups the files that could not be written by cause: a full
	// disk fails every file after the first, and one message says so.
	failed map[string]*failure
	// write writes one file; tests replace it to fail on purpose.
	write func(name string, data []byte) error
}

// failure is the files one cause kept from being written.
type failure struct {
	first string // the first file, relative to the output
	cause error
	n     int
}

// Begin creates a staging folder beside dest. It refuses a destination
// that exists, is not empty and was not made by gen: replacing it would
// delete somebody's files.
func Begin(dest string) (*Staging, error) {
	dest = filepath.Clean(dest)
	if err := checkReplaceable(dest); err != nil {
		return nil, err
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", parent, err)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(dest)+".new-")
	if err != nil {
		return nil, fmt.Errorf("creating a staging folder beside %s: %w", dest, err)
	}
	// MkdirTemp makes it private; the output is for a web server to read.
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("creating a staging folder beside %s: %w", dest, err)
	}
	if err := os.WriteFile(filepath.Join(dir, Marker), []byte("built by gen; this folder is replaced on every build\n"), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("writing %s: %w", Marker, err)
	}
	return &Staging{dest: dest, dir: dir, dirs: map[string]bool{}, failed: map[string]*failure{}, write: writeFile}, nil
}

func writeFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }

// Collect writes one output file like WriteFile, but a failure is recorded
// for Err instead of returned: the render goes on, and the build reports
// each cause once with the number of files it kept out.
func (s *Staging) Collect(rel string, data []byte) error {
	if err := s.WriteFile(rel, data); err != nil {
		s.Failed(rel, err)
	}
	return nil
}

// Failed records that rel could not be written because of err.
func (s *Staging) Failed(rel string, err error) {
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err // the path is said once, in the message
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.matchLocked(err)
	if f == nil {
		f = &failure{first: rel, cause: cause}
		s.failed[cause.Error()] = f
	}
	f.n++
}

// matchLocked finds the recorded failure whose cause err is, or nil.
func (s *Staging) matchLocked(err error) *failure {
	for _, f := range s.failed {
		// Libraries that write files (bleve) often keep only the text of
		// the error they met.
		if errors.Is(err, f.cause) || strings.Contains(err.Error(), f.cause.Error()) {
			return f
		}
	}
	return nil
}

// Path is where rel will be once the output is in place, for messages.
func (s *Staging) Path(rel string) string {
	return filepath.ToSlash(filepath.Join(s.dest, filepath.FromSlash(rel)))
}

// Err reports the files that could not be written, one line per cause:
// "public/en/index.html: no space left on device; 105 files not written".
// It is nil when every file was written.
func (s *Staging) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs diag.List
	for _, f := range s.failed {
		files := "1 file"
		if f.n != 1 {
			files = fmt.Sprintf("%d files", f.n)
		}
		errs.Add(s.Path(f.first), 0, 0, "%v; %s not written", f.cause, files)
	}
	return errs.Err()
}

// Cause reports whether err is one of the causes already recorded, so a
// stage that wrote beside the staging's files (the search index) is not
// reported twice for the same full disk.
func (s *Staging) Cause(err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.matchLocked(err) != nil
}

func checkReplaceable(dest string) error {
	info, err := os.Lstat(dest)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", dest, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s exists and is not a folder; remove it or choose another --dest", dest)
	}
	if _, err := os.Stat(filepath.Join(dest, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dest)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dest, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty and was not made by gen (no %s file); refusing to replace it: empty it or choose another --dest", dest, Marker)
	}
	return nil
}

// Dir is the staging folder, for stages that write files themselves (the
// search index).
func (s *Staging) Dir() string { return s.dir }

// Size is the number of bytes written through WriteFile so far.
func (s *Staging) Size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// WriteFile writes one output file; rel uses forward slashes and must stay
// inside the output. It is safe for concurrent use.
func (s *Staging) WriteFile(rel string, data []byte) error {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf("output path %q leaves the output folder", rel)
	}
	full := filepath.Join(s.dir, clean)
	dir := filepath.Dir(full)
	s.mu.Lock()
	made := s.dirs[dir]
	s.size += int64(len(data))
	s.mu.Unlock()
	if !made {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", rel, err)
		}
		s.mu.Lock()
		s.dirs[dir] = true
		s.mu.Unlock()
	}
	if err := s.write(full, data); err != nil {
		return fmt.Errorf("writing %s: %w", rel, err)
	}
	return nil
}

// Commit swaps the staging folder in for the destination. The old output
// is moved aside first and removed only after the new one is in place.
func (s *Staging) Commit() error {
	old := ""
	if _, err := os.Lstat(s.dest); err == nil {
		if err := checkReplaceable(s.dest); err != nil {
			s.Abort()
			return err
		}
		old = s.dir + ".old"
		if err := os.Rename(s.dest, old); err != nil {
			s.Abort()
			return fmt.Errorf("moving the previous output aside: %w", err)
		}
	}
	if err := os.Rename(s.dir, s.dest); err != nil {
		if old != "" {
			_ = os.Rename(old, s.dest) // put the previous output back
		}
		s.Abort()
		return fmt.Errorf("moving the new output into place: %w", err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("removing the previous output %s: %w", old, err)
		}
	}
	return nil
}

// Abort removes the staging folder; the destination is untouched.
func (s *Staging) Abort() {
	_ = os.RemoveAll(s.dir)
}
