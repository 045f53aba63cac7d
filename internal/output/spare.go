package output

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The spare: a build that carries most files over (Options.Spare) keeps
// the output it replaced beside the destination instead of deleting it,
// and the next such build takes it as its staging folder. Its folders
// exist already and most of its files are links to the files the new
// build carries over, so that build creates and links only what changed
// and deletes only what went: at 10,000 incidents, creating the 30,000
// folders of a fresh staging folder and deleting those of the previous
// output cost more than the rest of such a build.
//
// The spare's files are the previous output's, most of them the current
// output's too (hard links): a build never writes into one. WriteFile
// replaces a file of a taken spare, Carry replaces one that is not
// already the file carried over, and Prune removes the rest.

// SparePath is where the spare of the output at dest is kept.
func SparePath(dest string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(dest)), "."+filepath.Base(filepath.Clean(dest))+".spare")
}

// takeSpare claims the spare as the staging folder: renamed to a name of
// its own (only one build's rename succeeds) and locked. ok is false when
// there is none, or it could not be claimed; the build then starts from
// an empty folder.
func (s *Staging) takeSpare() (dir string, unlock func(), ok bool) {
	var b [8]byte
	rand.Read(b[:])
	dir = filepath.Join(filepath.Dir(s.dest), stagingPrefix(s.dest)+"spare-"+hex.EncodeToString(b[:]))
	if err := os.Rename(SparePath(s.dest), dir); err != nil {
		return "", nil, false
	}
	unlock, err := lock(dir)
	if err != nil {
		// Another build took it for a killed build's folder.
		return "", nil, false
	}
	if err := os.Remove(filepath.Join(dir, Marker)); err == nil || errors.Is(err, iofs.ErrNotExist) {
		if writeMarker(dir) == nil {
			return dir, unlock, true
		}
	}
	unlock()
	s.remove(dir, "the previous build's folder")
	return "", nil, false
}

// keepSpare makes the previous output, now at old, the spare; false when
// it cannot, and old is then removed as usual.
func (s *Staging) keepSpare(old string) bool {
	spare := SparePath(s.dest)
	// One left by a build that could not take it (another build took
	// the one before, or it was made by a cold build's predecessor).
	s.remove(spare, "an older spare output")
	return os.Rename(old, spare) == nil
}

// removeSpare removes the spare: a build that does not carry files over
// has no use for it, and it would hold on to an old output's bytes.
func (s *Staging) removeSpare() {
	if _, err := os.Lstat(SparePath(s.dest)); err == nil {
		s.remove(SparePath(s.dest), "the spare output")
	}
}

// Prune removes from a staging folder made from the spare every file the
// build neither wrote nor carried over, and the folders left empty. It
// does nothing to a staging folder that started empty.
func (s *Staging) Prune() error {
	f := s.Folder
	if !f.reused {
		return nil
	}
	emptied := map[string]bool{}
	err := filepath.WalkDir(f.dir, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(f.dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == Marker || f.kept[rel] {
			return nil
		}
		if err := os.Remove(p); err != nil {
			return err
		}
		emptied[filepath.Dir(p)] = true
		return nil
	})
	if err != nil {
		return err
	}
	for dir := range emptied {
		// Up to the first folder that is not empty.
		for ; strings.HasPrefix(dir, f.dir+string(filepath.Separator)); dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil {
				break
			}
		}
	}
	return nil
}
