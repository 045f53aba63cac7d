package importer

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/output"
)

// Action is what an import does with one incident's file.
type Action int

const (
	Create    Action = iota // a new incident
	Overwrite               // gen wrote it and the export has changed
	Unchanged               // gen wrote it and the export has not changed
	Edited                  // a person has changed it since: left alone
	Conflict                // it cannot be written where it belongs: left alone
	Leftover                // a file an import killed while writing left: removed
)

var actionNames = [...]string{"create", "update", "unchanged", "edited", "conflict", "leftover"}

func (a Action) String() string { return actionNames[a] }

// Change is one incident's file and what to do with it.
type Change struct {
	File
	Path   string // content/<id>/<lang>.md, relative to the site
	Action Action
	Why    string // for Edited and Conflict: what is in the way, what to do
}

// existing is an incident file already in the site.
type existing struct {
	rel      string // content/<id>/<lang>.md
	id, lang string
}

// tempPrefix begins the name of the file an incident is written to before
// it is renamed into place. The loader skips it (a dot file); one left
// behind is a killed import's.
const tempPrefix = ".import-"

// Lock takes the lock of the site's content folder, waiting while another
// import holds it: two imports planning at once would each take the
// other's new folders for a person's and give one incident two. A dry
// run (create false) does not make the folder when there is none.
func Lock(site string, create bool) (unlock func(), err error) {
	dir := filepath.Join(site, "content")
	if create {
		root, err := os.OpenRoot(site)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		if err := root.Mkdir("content", 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("creating the content folder: %w", err)
		}
	} else if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil // nothing to plan against
	}
	unlock, err = output.Lock(dir)
	if err != nil {
		return nil, fmt.Errorf("locking the content folder: %w", err)
	}
	return unlock, nil
}

// Plan decides what to do with each rendered file in the site folder
// site, for the original in language lang; it is called under Lock. An incident keeps the folder
// an earlier import gave it (found by its import_id), so a changed title
// or a different time zone never moves it; a new incident whose id is
// taken gets the export's id after its slug.
func Plan(site, lang string, files []File) ([]Change, error) {
	byImport, taken, leftovers, err := scan(site)
	if err != nil {
		return nil, err
	}
	// Later files win over earlier ones with the same id (an older and a
	// newer export of one page); then the order is the archive's.
	latest := map[string]int{}
	for i, f := range files {
		latest[f.ImportID] = i
	}
	var todo []File
	for i, f := range files {
		if latest[f.ImportID] == i {
			todo = append(todo, f)
		}
	}
	slices.SortStableFunc(todo, func(a, b File) int {
		return cmp.Or(a.Begin.Compare(b.Begin), strings.Compare(a.ImportID, b.ImportID))
	})
	var out []Change
	for _, rel := range leftovers {
		out = append(out, Change{Path: rel, Action: Leftover, Why: "left by an import that was stopped while writing"})
	}
	for _, f := range todo {
		c := place(site, lang, f, byImport, taken)
		taken[c.ID] = true
		out = append(out, c)
	}
	return out, nil
}

// place settles one file's folder and action.
func place(site, lang string, f File, byImport map[string]existing, taken map[string]bool) Change {
	date, _, _ := content.SplitID(f.ID)
	if prev, ok := byImport[f.ImportID]; ok {
		f.ID = prev.id
		c := Change{File: f, Path: prev.rel}
		switch {
		case prev.lang != lang:
			c.Action, c.Why = Conflict, fmt.Sprintf("already imported in %s as %s; import it with --lang %s", prev.lang, prev.rel, prev.lang)
		case !sameDate(prev.id, date):
			c.Action, c.Why = Conflict, fmt.Sprintf("the export now has it begin on %s, but its id %s, which is in its URLs, says otherwise; correct begin in the export or the folder name by hand", date, prev.id)
		default:
			c.Action, c.Why = compare(filepath.Join(site, filepath.FromSlash(prev.rel)), f.Text)
		}
		return c
	}
	if taken[f.ID] {
		f.ID += "-" + idPart(f.ImportID)
	}
	c := Change{File: f, Path: path.Join("content", f.ID, lang+".md"), Action: Create}
	if taken[f.ID] {
		c.Action, c.Why = Conflict, fmt.Sprintf("content/%s already holds another incident", f.ID)
	}
	return c
}

// sameDate reports whether id is of an incident that begins on date.
func sameDate(id, date string) bool {
	d, _, ok := content.SplitID(id)
	return ok && d == date
}

// compare says whether a file gen wrote before needs the new text.
func compare(abs string, text []byte) (Action, string) {
	old, err := os.ReadFile(abs)
	switch {
	case err != nil:
		return Conflict, fmt.Sprintf("cannot read it: %v", err)
	case bytes.Equal(old, text):
		return Unchanged, ""
	case !Untouched(old):
		return Edited, "edited since gen import wrote it; left as it is (delete it to import it again)"
	}
	return Overwrite, ""
}

// scan finds the incidents already in the site: every folder name, and
// the files that carry an import_id, and the files killed imports left.
// Files that do not parse are not gen's to judge here (gen check does);
// they keep their folder taken. A folder holding nothing else than what a
// killed import left is not taken: that import meant it for the incident
// it was writing, which this one will write there again.
func scan(site string) (byImport map[string]existing, taken map[string]bool, leftovers []string, err error) {
	byImport, taken = map[string]existing{}, map[string]bool{}
	root := filepath.Join(site, "content")
	dirs, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return byImport, taken, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading the content folder: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			taken[d.Name()] = true
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading content/%s: %w", d.Name(), err)
		}
		for _, f := range files {
			rel := path.Join("content", d.Name(), f.Name())
			if strings.HasPrefix(f.Name(), tempPrefix) && f.Type().IsRegular() {
				leftovers = append(leftovers, rel)
				continue
			}
			taken[d.Name()] = true
			lang, ok := strings.CutSuffix(f.Name(), ".md")
			if !ok || !f.Type().IsRegular() {
				continue
			}
			if id := importID(filepath.Join(root, d.Name(), f.Name()), rel); id != "" {
				byImport[id] = existing{rel: rel, id: d.Name(), lang: lang}
			}
		}
	}
	return byImport, taken, leftovers, nil
}

// importID reads the import_id of a content file, if it has one.
func importID(abs, rel string) string {
	info, err := os.Stat(abs)
	if err != nil || info.Size() > content.MaxFileSize {
		return ""
	}
	src, err := os.ReadFile(abs)
	if err != nil || !bytes.Contains(src, []byte("import_id:")) {
		return ""
	}
	var ignored diag.List
	m, _ := content.ParseMeta(rel, src, &ignored)
	return m.ImportID.V
}

// Apply writes the files of the changes that create or update one, and
// removes the leftovers; it is called under Lock. Writes stay inside the
// site folder (a symbolic link cannot lead them out), and each goes
// through a temporary file renamed into place, so that a file is never
// half written.
func Apply(site string, changes []Change) error {
	root, err := os.OpenRoot(site)
	if err != nil {
		return err
	}
	defer root.Close()
	var errs diag.List
	for i, c := range changes {
		switch c.Action {
		case Leftover:
			if err := root.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs.Add(c.Path, 0, 0, "cannot remove: %v", err)
			}
		case Create, Overwrite:
			if err := writeFile(root, c.Path, c.Text, i); err != nil {
				errs.Add(c.Path, 0, 0, "cannot write: %v", err)
			}
		}
	}
	return errs.Err()
}

func writeFile(root *os.Root, rel string, text []byte, n int) error {
	if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return err
	}
	tmp := path.Join(path.Dir(rel), fmt.Sprintf("%s%d-%d", tempPrefix, os.Getpid(), n))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(text)
	if err := errors.Join(werr, f.Close()); err != nil {
		root.Remove(tmp)
		return err
	}
	return root.Rename(tmp, rel)
}
