package output

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
)

// Previous is the output a build replaces, when gen made it: a build that
// changes a few pages carries the others over from it (Folder.Carry).
type Previous struct {
	Dir    string // the output folder
	Bundle string // its bundle folder
	key    string
}

// FindPrevious returns the output at dest and the bundle built with it,
// or an error saying why there is none to carry files over from. A
// folder copied from elsewhere (a new inode) is not taken: its bundle may
// be another build's.
func FindPrevious(dest string) (*Previous, error) {
	dest = filepath.Clean(dest)
	if _, err := os.Stat(filepath.Join(dest, Marker)); err != nil {
		return nil, fmt.Errorf("no previous build of gen in %s", dest)
	}
	k, err := key(dest)
	if err != nil {
		return nil, err
	}
	bundle := filepath.Join(BundleRoot(dest), k)
	if info, err := os.Stat(bundle); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%s has no bundle of its own in %s", dest, BundleRoot(dest))
	}
	return &Previous{Dir: dest, Bundle: bundle, key: k}, nil
}

// Current reports whether the output at its path is still this one:
// another build may have replaced it since FindPrevious.
func (p *Previous) Current() bool {
	k, err := key(p.Dir)
	return err == nil && k == p.key
}

// Carry puts the previous output's file from (an absolute path, whose
// info is given) into the folder as rel: a hard link, so that an
// unchanged page costs no bytes and no write, or a copy where the file
// system cannot link. A file the build has already written is left as it
// is, and carried is false: a link never replaces a file, and a write
// never goes into a linked one (the build renders first, then carries).
// In a folder made from the spare, a file that is already the one
// carried over stays, and another is replaced.
func (f *Folder) Carry(rel, from string, info iofs.FileInfo) (carried bool, err error) {
	clean := filepath.FromSlash(rel)
	if !filepath.IsLocal(clean) {
		return false, fmt.Errorf("output path %q leaves the output folder", rel)
	}
	full := filepath.Join(f.dir, clean)
	if f.reused {
		f.mu.Lock()
		written := f.kept[rel]
		f.kept[rel] = true
		f.mu.Unlock()
		if written {
			return false, nil
		}
		if have, err := os.Lstat(full); err == nil {
			if os.SameFile(have, info) {
				f.add(info.Size())
				return true, nil
			}
			if err := os.Remove(full); err != nil {
				return false, fmt.Errorf("carrying %s over: %w", rel, err)
			}
		}
	}
	if err := f.mkdir(filepath.Dir(full)); err != nil {
		return false, fmt.Errorf("carrying %s over: %w", rel, err)
	}
	err = os.Link(from, full)
	if errors.Is(err, iofs.ErrExist) {
		return false, nil
	}
	if err != nil {
		var le *os.LinkError
		if !errors.As(err, &le) || errors.Is(err, iofs.ErrNotExist) {
			return false, fmt.Errorf("carrying %s over: %w", rel, err)
		}
		// Another file system, or one without hard links.
		if err := copyFile(from, full); err != nil {
			if errors.Is(err, iofs.ErrExist) {
				return false, nil
			}
			return false, fmt.Errorf("carrying %s over: %w", rel, err)
		}
	}
	f.add(info.Size())
	return true, nil
}

func (f *Folder) add(size int64) {
	f.mu.Lock()
	f.size += size
	f.mu.Unlock()
}

// mkdir creates dir and its parents once per build.
func (f *Folder) mkdir(dir string) error {
	f.mu.Lock()
	made := f.dirs[dir]
	f.mu.Unlock()
	if made {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f.mu.Lock()
	f.dirs[dir] = true
	f.mu.Unlock()
	return nil
}

// copyFile copies from into a new file to, which must not exist: where a
// hard link cannot be made (another file system), the copy stands in.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		return errors.Join(err, dst.Close())
	}
	return dst.Close()
}
