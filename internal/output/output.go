// Package output is the write stage: it writes a build into a fresh folder
// beside the destination and swaps it in only when the whole build has
// succeeded, so a failed build leaves the previous output byte for byte and
// a finished one has no stale files.
//
// A build has two parts. The site (pages and assets) goes into the
// destination, say public/, which is what a static host gets. What a
// server of the site needs besides its pages (the search index, layouts,
// languages: package bundle) goes into a folder of its own beside it,
// public.gen/<key>/, where key names the site folder's inode: the swap
// moves the inode with the folder, so the path public always leads to the
// bundle of the build it holds, with no file in the site saying so.
//
// The order of the steps is what keeps the destination whole when a build
// is killed at any point: the bundle is complete before the swap; the
// swap exchanges the two folders in one rename (Linux, macOS); the
// previous build's bundle goes before the previous build's folder; and
// the next build removes what a killed one left, recognising it by
// gen's marker file and by nobody holding its lock. Builds running at
// once make and remove bundles only under the lock of the bundle folder,
// as a folder's inode number passes to a new folder once it is gone.
package output

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Marker is the file gen leaves in every output folder and bundle folder.
// Its presence is how gen knows a folder is its own to replace.
const Marker = ".gen-output"

const markerText = "built by gen; this folder is replaced on every build\n"

// Options adjust a build's output.
type Options struct {
	// Warn receives the problems that do not fail a build: a previous
	// output or a killed build's leftovers that could not be removed.
	Warn func(error)
	// Spare starts the build from the output an earlier build with Spare
	// replaced, when there is one, and keeps the output this build
	// replaces for the next (spare.go): for builds that carry most files
	// over (Folder.Carry). Without it, that spare is removed.
	Spare bool

	// Tests only: kill is called before each step of Commit; an error
	// stops Commit there, as if the process had been killed.
	kill func(step string) error
	// Tests only: replaces os.RemoveAll, to make removals fail.
	removeAll func(string) error
	// Tests only: swap with two renames, as where exchange is missing.
	twoRenames bool
}

// The steps of Commit, for tests that stop a build between them.
const (
	stepSwap         = "swap"          // the new output and bundle are complete
	stepAside        = "aside"         // fallback swap: the old output was moved aside
	stepRemoveBundle = "remove-bundle" // swapped: the old bundle goes next
	stepRemoveOld    = "remove-old"    // the old output goes next
	stepSweep        = "sweep"         // stray bundles go next
)

// Staging is a build being written: the site into a folder that replaces
// the destination on Commit, and the bundle into its own folder.
type Staging struct {
	*Folder         // the site, written beside the destination
	bundle  *Folder // the bundle, in its final place
	dest    string  // the destination folder
	opts    Options
	unlock  func() // releases the staging folder's lock
	swapped bool   // Commit got past the swap: nothing to abort
	aborted bool
	fails   *failures // files of either folder not written

	warnMu sync.Mutex
	warned []error // what Warn would have received, when it is nil
}

// BundleRoot is the folder beside dest that holds the bundles of its builds.
func BundleRoot(dest string) string { return filepath.Clean(dest) + ".gen" }

// stagingPrefix starts the name of every folder a build of dest writes
// beside it: hidden, and named after the destination.
func stagingPrefix(dest string) string { return "." + filepath.Base(dest) + ".new-" }

// Begin removes what killed builds of dest left, then creates a staging
// folder beside dest and the bundle folder it will be served with. It
// refuses a destination (or bundle folder) that exists, is not empty and
// was not made by gen: replacing it would delete somebody's files.
func Begin(dest string, opts Options) (*Staging, error) {
	dest = filepath.Clean(dest)
	if opts.removeAll == nil {
		opts.removeAll = os.RemoveAll
	}
	s := &Staging{dest: dest, opts: opts, fails: &failures{m: map[string]*failure{}}}
	for _, dir := range []string{dest, BundleRoot(dest)} {
		if err := checkReplaceable(dir); err != nil {
			return nil, err
		}
	}
	if err := checkBundles(BundleRoot(dest)); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(dest), err)
	}
	s.removeLeftovers()
	dir, unlock, reused := "", func() {}, false
	if opts.Spare {
		dir, unlock, reused = s.takeSpare()
	}
	if !reused {
		var err error
		if dir, unlock, err = s.makeStaging(); err != nil {
			return nil, err
		}
	}
	s.Folder, s.unlock = newFolder(dir, dest, s.fails), unlock
	if reused {
		s.Folder.reused, s.Folder.kept = true, map[string]bool{}
	}
	bundle, err := s.makeBundle(dir)
	if err != nil {
		s.Abort()
		return nil, err
	}
	s.bundle = newFolder(bundle, bundle, s.fails)
	return s, nil
}

// makeStaging creates the staging folder and locks it before it gets its
// marker, so that a folder with a marker and no lock is a killed build's.
func (s *Staging) makeStaging() (string, func(), error) {
	dir, err := os.MkdirTemp(filepath.Dir(s.dest), stagingPrefix(s.dest))
	if err != nil {
		return "", nil, fmt.Errorf("creating a staging folder beside %s: %w", s.dest, err)
	}
	unlock, err := lock(dir)
	if err == nil {
		// MkdirTemp makes it private; the output is for a web server to read.
		err = os.Chmod(dir, 0o755)
	}
	if err == nil {
		err = writeMarker(dir)
	}
	if err != nil {
		if unlock != nil {
			unlock()
		}
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("creating a staging folder beside %s: %w", s.dest, err)
	}
	return dir, unlock, nil
}

// makeBundle creates the bundle folder of the staging folder dir, after
// dir exists: a build sweeping stray bundles lists the bundles before the
// staging folders, so it never takes this one for a stray.
func (s *Staging) makeBundle(dir string) (string, error) {
	root := BundleRoot(s.dest)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", root, err)
	}
	if err := writeMarker(root); err != nil {
		return "", err
	}
	// The lock of the bundles is held from reading the key to making
	// the bundle (see removeBundleOf).
	unlock, err := waitLock(root)
	if err != nil {
		return "", err
	}
	defer unlock()
	k, err := key(dir)
	if err != nil {
		return "", err
	}
	bundle := filepath.Join(root, k)
	// A bundle of a folder long gone whose inode number is reused.
	if err := s.opts.removeAll(bundle); err != nil {
		return "", fmt.Errorf("removing the stale bundle %s: %w", bundle, err)
	}
	if err := os.Mkdir(bundle, 0o755); err != nil {
		return "", fmt.Errorf("creating the bundle folder: %w", err)
	}
	return bundle, nil
}

// removeBundleOf removes the bundle of the folder dir, if it has one;
// what is removed is called what. It holds the lock of the bundle folder
// from reading dir's key to removing the bundle, as builds making theirs
// do: a key is an inode number, which the system gives a new folder once
// the old one is gone, so without the lock a build could read the key of
// a folder another build is about to remove, and then remove the bundle
// a third build has just made for a new folder of the same number.
func (s *Staging) removeBundleOf(dir, what string) {
	root := BundleRoot(s.dest)
	unlock, err := waitLock(root)
	if err != nil {
		if !errors.Is(err, iofs.ErrNotExist) {
			s.warn(fmt.Errorf("warning: could not remove %s of %s (delete it by hand): %w", what, dir, err))
		}
		return // no bundles, none to remove
	}
	defer unlock()
	if k, err := key(dir); err == nil {
		s.remove(filepath.Join(root, k), what)
	}
}

func writeMarker(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, Marker), []byte(markerText+markerID()), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, Marker), err)
	}
	return nil
}

func checkReplaceable(dir string) error {
	info, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s exists and is not a folder; remove it or choose another --dest", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	// Another build may have written the marker since the Stat.
	if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == Marker }) {
		return nil
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty and was not made by gen (no %s file); refusing to replace it: empty it or choose another --dest", dir, Marker)
	}
	return nil
}

// checkBundles refuses a bundle folder (dest.gen) holding a folder that
// is not a bundle, by its name, and not gen's, by checkReplaceable: the
// sweep of stray bundles after the build would delete it.
func checkBundles(root string) error {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", root, err)
	}
	for _, e := range entries {
		if e.IsDir() && !isKey(e.Name()) {
			if err := checkReplaceable(filepath.Join(root, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// Bundle is the folder the build's bundle is written into.
func (s *Staging) Bundle() *Folder { return s.bundle }

// Warnings are the problems passed to Options.Warn, when it is nil.
func (s *Staging) Warnings() []error {
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
	return s.warned
}

func (s *Staging) warn(err error) {
	if s.opts.Warn != nil {
		s.opts.Warn(err)
		return
	}
	s.warnMu.Lock()
	s.warned = append(s.warned, err)
	s.warnMu.Unlock()
}

// Commit swaps the staging folder in for the destination, in one step
// where the system allows it, then removes the previous output and its
// bundle. Once the swap is done the build has succeeded: a previous output
// that cannot be removed is a warning, not an error.
func (s *Staging) Commit() error {
	if err := s.kill(stepSwap); err != nil {
		return err
	}
	if err := checkReplaceable(s.dest); err != nil {
		s.Abort()
		return err
	}
	old, err := s.swap()
	if err != nil {
		if !errors.Is(err, errKilled) {
			s.Abort()
		}
		return err
	}
	s.swapped = true
	if old != "" {
		if err := s.kill(stepRemoveBundle); err != nil {
			return err
		}
		// The bundle first: a bundle whose folder is gone could be
		// taken for that of a new folder given the same inode number.
		s.removeBundleOf(old, "the previous build's search bundle")
		if err := s.kill(stepRemoveOld); err != nil {
			return err
		}
		if !s.opts.Spare || !s.keepSpare(old) {
			s.remove(old, "the previous output")
		}
	}
	if !s.opts.Spare {
		s.removeSpare()
	}
	if err := s.kill(stepSweep); err != nil {
		return err
	}
	s.sweepBundles()
	s.unlock()
	return nil
}

// swap puts the staging folder at dest and returns where the previous
// output now is ("" when there was none).
func (s *Staging) swap() (string, error) {
	for range 3 {
		swap := exchange
		if s.opts.twoRenames {
			swap = noExchange
		}
		err := swap(s.dir, s.dest)
		switch {
		case err == nil:
			return s.dir, nil
		case errors.Is(err, os.ErrNotExist):
			// No previous output: a plain rename, which fails rather
			// than replace a folder another build has just put there.
			err = renameNoReplace(s.dir, s.dest)
			if err == nil {
				return "", nil
			}
			if !errors.Is(err, os.ErrExist) {
				return "", fmt.Errorf("moving the new output into place: %w", err)
			}
		case errors.Is(err, errNoExchange):
			return s.swapInTwo()
		default:
			return "", fmt.Errorf("swapping the new output in for %s: %w", s.dest, err)
		}
	}
	return "", fmt.Errorf("moving the new output into place: %s keeps appearing and disappearing", s.dest)
}

// swapInTwo is the swap where the system cannot exchange two folders:
// the previous output is moved aside, then the new one into place. A kill
// between the two leaves no destination; the next build still finds the
// previous output beside it and removes it.
func (s *Staging) swapInTwo() (string, error) {
	aside := s.dir + ".old"
	if err := os.Rename(s.dest, aside); err != nil {
		return "", fmt.Errorf("moving the previous output aside: %w", err)
	}
	if err := s.kill(stepAside); err != nil {
		return "", err
	}
	if err := os.Rename(s.dir, s.dest); err != nil {
		_ = os.Rename(aside, s.dest) // put the previous output back
		return "", fmt.Errorf("moving the new output into place: %w", err)
	}
	return aside, nil
}

var errKilled = errors.New("killed by a test")

// kill stops Commit before step when a test asks: the lock is released,
// as the kernel would on a real kill, and nothing else is cleaned up.
func (s *Staging) kill(step string) error {
	if s.opts.kill == nil {
		return nil
	}
	if err := s.opts.kill(step); err != nil {
		s.unlock()
		return fmt.Errorf("%w before %s: %w", errKilled, step, err)
	}
	return nil
}

// remove removes a folder gen no longer needs; failing is a warning.
func (s *Staging) remove(dir, what string) {
	if err := s.opts.removeAll(dir); err != nil {
		s.warn(fmt.Errorf("warning: could not remove %s %s (delete it by hand): %w", what, dir, err))
	}
}

// Abort removes the staging folder and its bundle; the destination is
// untouched.
func (s *Staging) Abort() {
	if s.swapped || s.aborted {
		return
	}
	s.aborted = true
	if s.bundle != nil {
		_ = s.opts.removeAll(s.bundle.dir)
	}
	_ = s.opts.removeAll(s.dir)
	s.unlock()
	s.removeEmptyBundleRoot()
}

// removeEmptyBundleRoot removes the bundle folder a failed first build
// made, when it holds nothing but the marker. A build starting meanwhile
// may put its bundle there: then the folder stays, and gets its marker
// back.
func (s *Staging) removeEmptyBundleRoot() {
	root := BundleRoot(s.dest)
	if _, err := os.Lstat(s.dest); err == nil {
		return
	}
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 1 || entries[0].Name() != Marker {
		return
	}
	if os.Remove(filepath.Join(root, Marker)) == nil && os.Remove(root) != nil {
		_ = writeMarker(root)
	}
}

// removeLeftovers removes what killed builds of the destination left
// beside it: staging folders (new outputs not swapped in, or previous
// outputs not yet removed) and their bundles. A folder is a killed build's
// when it carries gen's marker and its lock is free; a running build holds
// its own.
func (s *Staging) removeLeftovers() {
	for _, dir := range s.stagingFolders() {
		if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
			continue // not gen's, or made by a build in its first instant
		}
		unlock, ok := tryLock(dir)
		if !ok {
			continue
		}
		s.removeBundleOf(dir, "the search bundle of an interrupted build")
		s.remove(dir, "the folder of an interrupted build")
		unlock()
	}
}

// stagingFolders lists the folders beside dest that builds of it write.
func (s *Staging) stagingFolders() []string {
	parent := filepath.Dir(s.dest)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), stagingPrefix(s.dest)) {
			out = append(out, filepath.Join(parent, e.Name()))
		}
	}
	return out
}

// sweepBundles removes the bundles that belong to no folder of this
// destination: neither the output nor a staging folder of a build still
// running. It holds the lock of the bundles, so no build makes one
// meanwhile.
func (s *Staging) sweepBundles() {
	root := BundleRoot(s.dest)
	unlock, err := waitLock(root)
	if err != nil {
		if !errors.Is(err, iofs.ErrNotExist) {
			s.warn(fmt.Errorf("warning: could not look for stray search bundles in %s: %w", root, err))
		}
		return // no bundles, none to sweep
	}
	defer unlock()
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	live := map[string]bool{}
	for _, dir := range append(s.stagingFolders(), s.dest) {
		if k, err := key(dir); err == nil {
			live[k] = true
		}
	}
	for _, e := range entries {
		if e.IsDir() && !live[e.Name()] {
			s.remove(filepath.Join(root, e.Name()), "a stray search bundle")
		}
	}
}

// BundleOf returns the bundle folder of the build that is at dest now.
// A site folder copied from elsewhere with its bundle folder (by rsync, to
// a server) has a new inode: then the bundle is the only one there is.
func BundleOf(dest string) (string, error) {
	root := BundleRoot(dest)
	k, err := key(filepath.Clean(dest))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(root, k)); err == nil {
		return filepath.Join(root, k), nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return "", fmt.Errorf("no search bundle for %s: %w", dest, err)
	}
	var only []string
	for _, e := range entries {
		if e.IsDir() {
			only = append(only, e.Name())
		}
	}
	if len(only) != 1 {
		return "", fmt.Errorf("%s holds %d search bundles and none is that of %s as it is now; build it again", root, len(only), dest)
	}
	return filepath.Join(root, only[0]), nil
}

// Folder is a folder being written: a build's site or its bundle.
type Folder struct {
	dir   string // where the files are written
	final string // where they will be once the output is in place
	fails *failures
	// write writes one file; tests replace it to fail on purpose.
	write func(name string, data []byte) error

	mu   sync.Mutex
	dirs map[string]bool
	size int64

	// reused is set on a staging folder made from the spare, whose files
	// may be links to the current output's: they are replaced, never
	// written into, and kept records what the build wrote or carried
	// (Staging.Prune removes the rest).
	reused bool
	kept   map[string]bool
}

func newFolder(dir, final string, fails *failures) *Folder {
	return &Folder{dir: dir, final: final, fails: fails, write: writeFile, dirs: map[string]bool{}}
}

func writeFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }

// Dir is the folder, for stages that write files themselves (the search
// index).
func (f *Folder) Dir() string { return f.dir }

// Size is the number of bytes written through WriteFile and
// CollectStream so far.
func (f *Folder) Size() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.size
}

// Path is where rel will be once the output is in place, for messages.
func (f *Folder) Path(rel string) string {
	return filepath.ToSlash(filepath.Join(f.final, filepath.FromSlash(rel)))
}

// WriteFile writes one file; rel uses forward slashes and must stay inside
// the folder. It is safe for concurrent use.
func (f *Folder) WriteFile(rel string, data []byte) error {
	full, err := f.prepare(rel)
	if err != nil {
		return err
	}
	f.add(int64(len(data)))
	if err := f.write(full, data); err != nil {
		return fmt.Errorf("writing %s: %w", rel, err)
	}
	return nil
}

// prepare makes the folder of the file rel and, in a reused folder,
// removes the file it replaces (never written into: it may be a link to
// a file being served); it returns where to write it.
func (f *Folder) prepare(rel string) (string, error) {
	clean := filepath.FromSlash(rel)
	if !filepath.IsLocal(clean) {
		return "", fmt.Errorf("output path %q leaves the output folder", rel)
	}
	full := filepath.Join(f.dir, clean)
	f.mu.Lock()
	if f.reused {
		f.kept[filepath.ToSlash(clean)] = true
	}
	f.mu.Unlock()
	if err := f.mkdir(filepath.Dir(full)); err != nil {
		return "", fmt.Errorf("writing %s: %w", rel, err)
	}
	if f.reused {
		if err := os.Remove(full); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return "", fmt.Errorf("writing %s: %w", rel, err)
		}
	}
	return full, nil
}

// CollectStream writes one file as write makes it, through a buffer, for
// files too large to hold whole (hundreds of megabytes). What write
// returns is returned, but a failure of the file itself (created,
// written or closed) is recorded like Collect's and not returned.
func (f *Folder) CollectStream(rel string, write func(io.Writer) error) error {
	full, err := f.prepare(rel)
	if err != nil {
		f.Failed(rel, err)
		return nil
	}
	file, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		f.Failed(rel, fmt.Errorf("writing %s: %w", rel, err))
		return nil
	}
	fw := &fileWriter{f: file}
	bw := bufio.NewWriterSize(fw, streamBuffer)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	closed := file.Close()
	f.add(fw.n)
	if failed := cmp.Or(fw.err, closed); failed != nil {
		f.Failed(rel, fmt.Errorf("writing %s: %w", rel, failed))
		if err == nil || errors.Is(err, failed) {
			return nil // the file's own failure, recorded
		}
	}
	return err
}

// streamBuffer is how much of a streamed file is held before it is
// written: a few large writes rather than one per record.
const streamBuffer = 256 << 10

// fileWriter counts the bytes written to a file and keeps the first
// error, telling the file's failures from its maker's.
type fileWriter struct {
	f   *os.File
	n   int64
	err error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	w.n += int64(n)
	w.err = err
	return n, err
}

// Collect writes one file like WriteFile, but a failure is recorded for
// the staging's Err instead of returned: the render goes on, and the build
// reports each cause once with the number of files it kept out.
func (f *Folder) Collect(rel string, data []byte) error {
	if err := f.WriteFile(rel, data); err != nil {
		f.Failed(rel, err)
	}
	return nil
}

// Failed records that rel could not be written because of err.
func (f *Folder) Failed(rel string, err error) { f.fails.add(f.Path(rel), err) }

// failures groups the files of a build that could not be written by
// cause: a full disk fails every file after the first, and one message
// says so.
type failures struct {
	mu sync.Mutex
	m  map[string]*failure
}

// failure is the files one cause kept from being written.
type failure struct {
	first string // the first file, where it would have been
	cause error
	n     int
}

func (fs *failures) add(path string, err error) {
	cause := err
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err // the path is said once, in the message
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.matchLocked(err)
	if f == nil {
		f = &failure{first: path, cause: cause}
		fs.m[cause.Error()] = f
	}
	f.n++
}

// matchLocked finds the recorded failure whose cause err is, or nil.
func (fs *failures) matchLocked(err error) *failure {
	for _, f := range fs.m {
		// Libraries that write files (bleve) often keep only the text of
		// the error they met.
		if errors.Is(err, f.cause) || strings.Contains(err.Error(), f.cause.Error()) {
			return f
		}
	}
	return nil
}

// Err reports the files that could not be written, one line per cause:
// "public/en/index.html: no space left on device; 105 files not written".
// It is nil when every file was written.
func (s *Staging) Err() error {
	s.fails.mu.Lock()
	defer s.fails.mu.Unlock()
	var errs diag.List
	for _, f := range s.fails.m {
		files := "1 file"
		if f.n != 1 {
			files = fmt.Sprintf("%d files", f.n)
		}
		errs.Add(f.first, 0, 0, "%v; %s not written", f.cause, files)
	}
	return errs.Err()
}

// Cause reports whether err is one of the causes already recorded, so a
// stage that wrote beside the staging's files (the search index) is not
// reported twice for the same full disk.
func (s *Staging) Cause(err error) bool {
	s.fails.mu.Lock()
	defer s.fails.mu.Unlock()
	return s.fails.matchLocked(err) != nil
}
