// Package sitefs reads the author's own files of a site — layouts,
// language files — as content reads its Markdown: regular files inside
// the site folder only. A symbolic link or a named pipe under layouts/
// would otherwise put a host file into the published site, or hang the
// build on open.
package sitefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Kind names what a file of mode is when it is not a regular file or a
// folder ("a symbolic link", "a named pipe"), and is "" when it is one.
func Kind(mode fs.FileMode) string {
	switch t := mode.Type(); {
	case t == 0 || t == fs.ModeDir:
		return ""
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	default:
		return "a special file"
	}
}

// Check adds to errs every symbolic link and other non-regular file
// under the folder name of the site in dir ("layouts"), the folder itself
// included, each at its path from the site. Hidden names are skipped, as
// the build and the watcher skip them: an editor's lock file may be a
// symbolic link. A missing folder is not an error: the defaults apply.
func Check(dir, name string, errs *diag.List) {
	top := filepath.Join(dir, name)
	err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		rel := name
		if p != top {
			r, rerr := filepath.Rel(dir, p)
			if rerr != nil {
				return rerr
			}
			rel = filepath.ToSlash(r)
			if strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
		}
		if err != nil {
			if p == top && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			errs.Add(rel, 0, 0, "cannot read: %v", unwrapPath(err))
			return nil
		}
		switch kind := Kind(d.Type()); {
		case kind != "" && p == top:
			errs.Add(rel, 0, 0, "is %s, not a folder; make %s/ a real folder in the site (links are not followed)", kind, name)
		case kind != "":
			errs.Add(rel, 0, 0, "is %s, not a regular file; put the file itself inside %s/ (links are not followed)", kind, name)
		}
		return nil
	})
	if err != nil {
		errs.Add(name, 0, 0, "cannot read: %v", err)
	}
}

// unwrapPath drops the absolute path an *fs.PathError repeats: the error
// is already placed at the file's path from the site.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Dir is the folder dir as an fs.FS that opens only regular files and
// folders inside it: a symbolic link, even one pointing inside, and a
// named pipe are refused without being opened, and left out of folder
// listings. Check reports them with their places; Dir keeps them, and one
// made after the check, from being read.
func Dir(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	root, err := d.root(name)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.Open(name)
}

// ReadDir lists the folder name without the entries Open refuses, so
// that fs.Glob does not offer them.
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	root, err := d.root(name)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: unwrapPath(err)}
	}
	list = slices.DeleteFunc(list, func(e fs.DirEntry) bool { return Kind(e.Type()) != "" })
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, nil
}

// root opens the folder after checking that name and every folder on
// the way to it are regular: the root refuses a link that leads out, the
// checks one that stays inside.
func (d dirFS) root(name string) (*os.Root, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	for p := name; p != "."; p = path.Dir(p) {
		info, err := root.Lstat(p)
		if err == nil && Kind(info.Mode()) != "" {
			err = &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("is %s, not a regular file", Kind(info.Mode()))}
		}
		if err != nil {
			root.Close()
			return nil, err
		}
	}
	return root, nil
}
