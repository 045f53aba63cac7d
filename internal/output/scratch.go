package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Scratch makes a new folder in the system's temporary folder, its name
// pattern followed by a random number, for the files a process keeps
// while it runs (the authoring server's search indexes). The folder is
// locked until release, which removes it. Folders of the same pattern
// that processes killed before they could remove theirs left behind
// (marked as Scratch's, their lock free) are removed first.
func Scratch(pattern string) (dir string, release func() error, err error) {
	removeAbandoned(pattern)
	if dir, err = os.MkdirTemp("", pattern); err != nil {
		return "", nil, fmt.Errorf("making a temporary folder: %w", err)
	}
	unlock, err := lock(dir)
	if err == nil {
		// Marked once locked: another process's removeAbandoned never
		// takes a folder being made for one it has not locked yet.
		err = os.WriteFile(filepath.Join(dir, scratchMarker), nil, 0o644)
		if err != nil {
			unlock()
		}
	}
	if err != nil {
		return "", nil, errors.Join(fmt.Errorf("making a temporary folder: %w", err), os.RemoveAll(dir))
	}
	return dir, func() error {
		defer unlock()
		return os.RemoveAll(dir)
	}, nil
}

// scratchMarker marks a folder made by Scratch.
const scratchMarker = ".gen-scratch"

// removeAbandoned removes the folders of pattern in the temporary folder
// that Scratch made for a process that is gone.
func removeAbandoned(pattern string) {
	found, _ := filepath.Glob(filepath.Join(os.TempDir(), pattern+"*"))
	for _, dir := range found {
		if _, err := os.Stat(filepath.Join(dir, scratchMarker)); err != nil {
			continue
		}
		if unlock, ok := tryLock(dir); ok {
			os.RemoveAll(dir) // at worst, left for the next start
			unlock()
		}
	}
}
