package search

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// Index is an open search index: read-only from Open, or in memory and
// updatable from NewMemory. All methods are safe for concurrent use.
type Index struct {
	mu        sync.RWMutex
	siteLangs []string
	subs      map[string]bleve.Index // one per language, by canonical tag
	meta      *metaStore
	readOnly  bool
	closed    bool
}

// NewMemory returns an empty in-memory index (for the live-preview server)
// with the same mapping as a built one. It uses the scorch engine with an
// empty path: bleve's old in-memory engine is unusably slow.
func NewMemory(langs []string) (*Index, error) {
	site, err := canonicalLangs(langs)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	ix := &Index{siteLangs: site, subs: map[string]bleve.Index{}, meta: newMetaStore()}
	for _, l := range site {
		if _, err := ix.memLang(l); err != nil {
			ix.Close()
			return nil, err
		}
	}
	return ix, nil
}

func (ix *Index) memLang(lang string) (bleve.Index, error) {
	if idx := ix.subs[lang]; idx != nil {
		return idx, nil
	}
	m, err := newMapping(lang)
	if err != nil {
		return nil, fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("search: in-memory index for %s: %w", lang, err)
	}
	ix.subs[lang] = idx
	return idx, nil
}

// Open opens an index built by a Writer, read-only. Opening takes
// milliseconds and any number of processes may hold the same index open.
func Open(dir string) (*Index, error) {
	meta, mj, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	ix := &Index{siteLangs: mj.SiteLangs, subs: map[string]bleve.Index{}, meta: meta, readOnly: true}
	for _, l := range mj.Indexes {
		if c, err := CanonicalLang(l); err != nil || c != l {
			ix.Close()
			return nil, fmt.Errorf("search: %s: bad language index %q", dir, l)
		}
		idx, err := bleve.OpenUsing(filepath.Join(dir, l), map[string]interface{}{"read_only": true})
		if err != nil {
			ix.Close()
			return nil, fmt.Errorf("search: open %s index: %w", l, err)
		}
		ix.subs[l] = idx
	}
	return ix, nil
}

// Add indexes a document, replacing the one with the same id and language.
// Only in-memory indexes can be updated.
func (ix *Index) Add(d Document) error {
	return ix.AddBatch([]Document{d})
}

// AddBatch indexes several documents at once, which is several times faster
// than calling Add for each (use it to load a whole site at start-up).
// Documents are checked before any is indexed; an indexing error may leave
// the documents of some languages added.
func (ix *Index) AddBatch(docs []Document) error {
	docs = slices.Clone(docs)
	for i := range docs {
		if err := normalize(&docs[i]); err != nil {
			return err
		}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.writable(); err != nil {
		return err
	}
	byLang := map[string][]*Document{}
	for i := range docs {
		byLang[docs[i].Lang] = append(byLang[docs[i].Lang], &docs[i])
	}
	for _, lang := range sortedKeys(byLang) {
		idx, err := ix.memLang(lang)
		if err != nil {
			return err
		}
		b := idx.NewBatch()
		for _, d := range byLang[lang] {
			if err := b.Index(d.ID, bleveDoc(d)); err != nil {
				return fmt.Errorf("search: index %s (%s): %w", d.ID, d.Lang, err)
			}
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("search: index %s documents: %w", lang, err)
		}
		for _, d := range byLang[lang] {
			ix.meta.put(newDocMeta(d))
		}
	}
	return nil
}

// Delete removes the incident id in language lang, or in every language
// when lang is "". Deleting what is not there is not an error.
func (ix *Index) Delete(id, lang string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.writable(); err != nil {
		return err
	}
	langs := sortedKeys(ix.subs)
	if lang != "" {
		c, err := CanonicalLang(lang)
		if err != nil {
			return fmt.Errorf("search: delete %s: %w", id, err)
		}
		langs = []string{c}
	}
	for _, l := range langs {
		if idx := ix.subs[l]; idx != nil {
			if err := idx.Delete(id); err != nil {
				return fmt.Errorf("search: delete %s (%s): %w", id, l, err)
			}
		}
		ix.meta.delete(id, l)
	}
	return nil
}

func (ix *Index) writable() error {
	if ix.closed {
		return errors.New("search: index is closed")
	}
	if ix.readOnly {
		return ErrReadOnly
	}
	return nil
}

// Languages returns the site languages the index was built for.
func (ix *Index) Languages() []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return slices.Clone(ix.siteLangs)
}

// Count returns the number of incidents and of documents (incident ×
// language) in the index.
func (ix *Index) Count() (incidents, documents int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, in := range ix.meta.incidents {
		documents += len(in.docs)
	}
	return len(ix.meta.incidents), documents
}

// Close releases the index. Searches after Close fail.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	var errs []error
	for _, l := range sortedKeys(ix.subs) {
		if err := ix.subs[l].Close(); err != nil {
			errs = append(errs, fmt.Errorf("search: close %s index: %w", l, err))
		}
	}
	return errors.Join(errs...)
}
