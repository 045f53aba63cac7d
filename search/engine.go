package search

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	blevesearch "github.com/blevesearch/bleve/v2/search"

	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"
	"github.com/postmortem-archive/gen/search/vocab"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/search/cache"
)

// engine is what an Index and an Editable share: the language indexes
// of a folder a build.Writer wrote, their document stores and BM25
// statistics, the incidents' metadata, and the search over them
// (execute.go and the files it calls).
type engine struct {
	mu     sync.RWMutex               // searches read under it; Editable.Replace and Close write
	subs   map[string]bleve.Index     // one per language, by canonical tag
	docs   map[string]docstore.Source // the document store of each language
	bm25   map[string]*blevesearch.BM25Stats
	meta   *metaStore
	opts   options
	bufs   sync.Pool // *searchBufs
	closed bool

	// An Index's tables, made once as it is opened (readOnly).
	readOnly bool
	ords     map[string]*ordTable    // document numbers to incidents
	vocabs   map[string]*vocab.Vocab // the vocabulary of each language
	bigrams  bigramCache             // the bigrams of a CJK character
	present  termPresence            // which fields have a term

	// What an Editable's changes keep up to date, by language.
	memWords map[string]*memWords
	memLens  map[string]*memLengths
	norms    normsCache // the length factors of the documents
}

// openEngine opens the index in dir: read-only, or to be changed in
// place (editable).
func openEngine(dir string, o options, editable bool) (*engine, error) {
	mj, err := schema.ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	e := &engine{subs: map[string]bleve.Index{}, docs: map[string]docstore.Source{}, bm25: map[string]*blevesearch.BM25Stats{},
		meta: newMetaStore(), opts: o, readOnly: !editable,
		bigrams: bigramCache{memo: cache.New[bigramKey, map[string]uint64](maxCachedChars, nil)},
		present: termPresence{memo: cache.New[presenceKey, uint64](maxPresence, nil)}}
	if editable {
		e.memWords, e.memLens = map[string]*memWords{}, map[string]*memLengths{}
	} else {
		e.ords, e.vocabs = map[string]*ordTable{}, map[string]*vocab.Vocab{}
	}
	for _, l := range mj.Indexes {
		if err := e.openLang(dir, l); err != nil {
			return nil, errors.Join(err, e.close())
		}
	}
	e.meta.reindex()
	return e, nil
}

// openLang opens the language index l of the index in dir.
func (e *engine) openLang(dir, l string) error {
	if c, err := i18n.Canonical(l); err != nil || c != l {
		return fmt.Errorf("search: %s: bad language index %q", dir, l)
	}
	docs, metas, err := docstore.Open(filepath.Join(dir, l, docstore.FileName))
	if err != nil {
		return err
	}
	e.docs[l] = docs
	words, err := vocab.Read(filepath.Join(dir, l, vocab.FileName))
	if err != nil {
		return err
	}
	lengths, err := schema.ReadLengths(filepath.Join(dir, l, schema.LengthsFile))
	if err != nil {
		return err
	}
	e.bm25[l] = bm25Stats(lengths)
	for _, m := range metas {
		if m.ID == "" || m.Lang != l {
			return fmt.Errorf("search: %s: document %q of language %q in the %s store", dir, m.ID, m.Lang, l)
		}
		e.meta.put(m)
	}
	config := map[string]interface{}{"read_only": true}
	if e.readOnly {
		e.vocabs[l] = words
		e.ords[l] = &ordTable{t: make([]atomic.Int32, len(metas))}
	} else {
		e.docs[l] = &overlay{base: docs, added: docstore.Memory{}}
		e.memWords[l] = &memWords{byID: map[string][]string{}, base: words}
		e.memLens[l] = &memLengths{total: *lengths, byID: map[string]map[string]int{}}
		config = editableConfig()
	}
	idx, err := bleve.OpenUsing(filepath.Join(dir, l), config)
	if err != nil {
		return fmt.Errorf("search: open %s index: %w", l, err)
	}
	e.subs[l] = idx
	return nil
}

// vocabulary returns the vocabulary of a language index.
func (e *engine) vocabulary(lang string) *vocab.Vocab {
	if w := e.memWords[lang]; w != nil {
		return w.vocab()
	}
	if v := e.vocabs[lang]; v != nil {
		return v
	}
	return &vocab.Vocab{}
}

// close releases the language indexes and document stores. Searches
// after it fail.
func (e *engine) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var errs []error
	for _, l := range sortedKeys(e.subs) {
		if err := e.subs[l].Close(); err != nil {
			errs = append(errs, fmt.Errorf("search: close %s index: %w", l, err))
		}
	}
	for _, l := range sortedKeys(e.docs) {
		d, ok := e.docs[l].(*docstore.Reader)
		if o, isOverlay := e.docs[l].(*overlay); isOverlay {
			d, ok = o.base, o.base != nil
		}
		if ok {
			if err := d.Close(); err != nil {
				errs = append(errs, fmt.Errorf("search: close %s documents: %w", l, err))
			}
		}
	}
	return errors.Join(errs...)
}

// sortedKeys returns the keys of m in order: languages, searched in
// the order of their tags.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
