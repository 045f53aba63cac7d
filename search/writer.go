package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2"
)

// writerBatch is the number of documents handed to a language's indexing
// goroutine at a time.
const writerBatch = 64

// Writer builds an index directory. Documents are indexed by one goroutine
// per language (bleve's offline builder analyses on the calling goroutine,
// so languages are what parallelises), each writing sorted segments that
// Close merges into a single segment per language: the fastest layout to
// query.
//
// Add must be called from one goroutine; Close must be called once.
type Writer struct {
	dir       string
	siteLangs []string
	langs     map[string]*langWriter
	meta      *metaStore
	closed    bool
}

type langWriter struct {
	lang    string
	pending []*Document
	ch      chan []*Document
	done    chan struct{}

	mu  sync.Mutex
	err error
}

func (lw *langWriter) setErr(err error) {
	lw.mu.Lock()
	if lw.err == nil {
		lw.err = err
	}
	lw.mu.Unlock()
}

func (lw *langWriter) getErr() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}

// Create starts building an index in dir, which must not exist yet (its
// parent is created if needed). langs are the site's languages; they are
// recorded in the index, and documents in other languages are accepted too.
func Create(dir string, langs []string) (*Writer, error) {
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("search: create %s: already exists", dir)
	} else if !os.IsNotExist(err) {
		return nil, fmt.Errorf("search: create: %w", err)
	}
	site, err := canonicalLangs(langs)
	if err != nil {
		return nil, fmt.Errorf("search: create: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("search: create: %w", err)
	}
	return &Writer{dir: dir, siteLangs: site, langs: map[string]*langWriter{}, meta: newMetaStore()}, nil
}

func canonicalLangs(langs []string) ([]string, error) {
	var out []string
	for _, l := range langs {
		c, err := CanonicalLang(l)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// normalize checks a document and canonicalises its language tags.
func normalize(d *Document) error {
	if d.ID == "" {
		return errors.New("search: document without ID")
	}
	if len(d.ID) > 512 {
		return fmt.Errorf("search: document ID too long: %.40q…", d.ID)
	}
	lang, err := CanonicalLang(d.Lang)
	if err != nil {
		return fmt.Errorf("search: document %s: %w", d.ID, err)
	}
	d.Lang = lang
	if d.OriginalLang == "" {
		d.OriginalLang = lang
	} else if d.OriginalLang, err = CanonicalLang(d.OriginalLang); err != nil {
		return fmt.Errorf("search: document %s: original language: %w", d.ID, err)
	}
	d.Begin = d.Begin.UTC()
	return nil
}

// Add queues one document (one incident in one language). Adding the same
// id and language twice is an error. Indexing errors of earlier batches are
// reported by a later Add or by Close.
func (w *Writer) Add(d Document) error {
	if w.closed {
		return errors.New("search: Add after Close")
	}
	if err := normalize(&d); err != nil {
		return err
	}
	if in := w.meta.incidents[d.ID]; in != nil && in.docs[d.Lang] != nil {
		return fmt.Errorf("search: document %s (%s) added twice", d.ID, d.Lang)
	}
	lw := w.langs[d.Lang]
	if lw == nil {
		var err error
		if lw, err = w.startLang(d.Lang); err != nil {
			return err
		}
	}
	if err := lw.getErr(); err != nil {
		return err
	}
	w.meta.put(newDocMeta(&d))
	lw.pending = append(lw.pending, &d)
	if len(lw.pending) >= writerBatch {
		lw.ch <- lw.pending
		lw.pending = nil
	}
	return nil
}

func (w *Writer) startLang(lang string) (*langWriter, error) {
	m, err := newMapping(lang)
	if err != nil {
		return nil, fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	path := filepath.Join(w.dir, lang)
	// The builder writes temporary segments under buildPathPrefix and
	// renames the result into place, so keep them on the same file system.
	b, err := bleve.NewBuilder(path, m, map[string]interface{}{
		"buildPathPrefix": w.dir,
	})
	if err != nil {
		return nil, fmt.Errorf("search: index for %s: %w", lang, err)
	}
	lw := &langWriter{lang: lang, ch: make(chan []*Document, 4), done: make(chan struct{})}
	w.langs[lang] = lw
	go func() {
		defer close(lw.done)
		for batch := range lw.ch {
			if lw.getErr() != nil {
				continue // drain
			}
			for _, d := range batch {
				if err := b.Index(d.ID, bleveDoc(d)); err != nil {
					lw.setErr(fmt.Errorf("search: index %s (%s): %w", d.ID, lang, err))
					break
				}
			}
		}
		if err := b.Close(); err != nil {
			lw.setErr(fmt.Errorf("search: finish index for %s: %w", lang, err))
		}
	}()
	return lw, nil
}

// Close flushes every language, merges each language index into a single
// segment, and writes meta.json. The index is usable with Open only after
// Close returned nil; after an error the directory is incomplete and should
// be removed.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("search: Writer closed twice")
	}
	w.closed = true
	var errs []error
	for _, lang := range sortedKeys(w.langs) {
		lw := w.langs[lang]
		if len(lw.pending) > 0 {
			lw.ch <- lw.pending
			lw.pending = nil
		}
		close(lw.ch)
	}
	for _, lang := range sortedKeys(w.langs) {
		lw := w.langs[lang]
		<-lw.done
		if err := lw.getErr(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := w.meta.write(w.dir, w.siteLangs, sortedKeys(w.langs)); err != nil {
		return fmt.Errorf("search: write %s: %w", metaFile, err)
	}
	return shareable(w.dir)
}

// shareable makes the built index readable by other users (bleve creates
// its directories 0700): the server that opens it read-only may run as a
// different user than the build.
func shareable(dir string) error {
	return filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		mode := info.Mode().Perm() | 0o044
		if e.IsDir() {
			mode |= 0o011
		}
		if mode == info.Mode().Perm() {
			return nil
		}
		return os.Chmod(path, mode)
	})
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
