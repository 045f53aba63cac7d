package search

import (
	"errors"
	"fmt"
	"github.com/postmortem-archive/gen/search/vocab"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

// Index is an open search index: read-only from Open, or changed in
// place when opened WithUpdates. All methods are safe for concurrent use.
type Index struct {
	mu        sync.RWMutex
	dir       string // the folder it was opened from
	siteLangs []string
	subs      map[string]bleve.Index     // one per language, by canonical tag
	docs      map[string]docstore.Source // the document store of each language
	ords      map[string]*ordTable       // read-only indexes: document numbers to incidents
	bufs      sync.Pool                  // *searchBufs
	meta      *metaStore
	opts      options
	vocabs    map[string]*vocab.Vocab           // read-only indexes: the vocabulary of each language
	memWords  map[string]*memWords              // updatable indexes: the words of each language
	bm25      map[string]*blevesearch.BM25Stats // of each language (bm25.go)
	memLens   map[string]*memLengths            // updatable indexes: the field lengths of each language
	readOnly  bool
	closed    bool
	bigrams   bigramCache  // read-only indexes: the bigrams of a CJK character
	present   termPresence // read-only indexes: which fields have a term
	norms     normsCache   // updatable indexes: the length factors of the documents
}

// newLang starts the index of a language an updatable index has no
// document of yet, in a folder of its own beside the others.
func (ix *Index) newLang(lang string) (bleve.Index, error) {
	m, err := newMapping(lang)
	if err != nil {
		return nil, fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	idx, err := bleve.NewUsing(filepath.Join(ix.dir, lang), m, scorch.Name, scorch.Name, updatableConfig())
	if err != nil {
		return nil, fmt.Errorf("search: new %s index: %w", lang, err)
	}
	ix.subs[lang] = idx
	ix.docs[lang] = &overlay{added: docstore.Memory{}}
	ix.memWords[lang] = &memWords{byID: map[string][]string{}}
	ix.memLens[lang] = &memLengths{byID: map[string]map[string]int{}}
	ix.bm25[lang] = ix.memLens[lang].total.stats()
	return idx, nil
}

// memLengths keeps the field lengths of an updatable language index up
// to date, like memWords its words.
type memLengths struct {
	total fieldLengths
	byID  map[string]map[string]int
}

// set replaces the field lengths of document id (nil: deleted).
func (m *memLengths) set(id string, lengths map[string]int) {
	if old, ok := m.byID[id]; ok {
		m.total.add(old, -1)
	}
	if lengths == nil {
		delete(m.byID, id)
	} else {
		m.total.add(lengths, 1)
		m.byID[id] = lengths
	}
}

// memWords keeps the vocabulary of an updatable language index up to
// date: the words of each document, to uncount when it is replaced or
// deleted. The sorted vocabulary is made when a search first needs it
// after a change (10 ms for 30,000 words: not on every edit).
type memWords struct {
	counts vocab.Builder
	byID   map[string][]string
	// base is the vocabulary of an index opened WithUpdates, until its
	// first change makes counts of it.
	base *vocab.Vocab

	mu     sync.Mutex // searches share the index's read lock
	sorted *vocab.Vocab
}

// set replaces the words of document id (nil: deleted).
func (w *memWords) set(id string, words []string) {
	if w.base != nil {
		w.counts, w.base = *w.base.Builder(), nil
	}
	w.counts.Remove(w.byID[id])
	if words == nil {
		delete(w.byID, id)
	} else {
		w.counts.Add(words)
		w.byID[id] = words
	}
	w.sorted = nil
}

// vocab returns the vocabulary of the words counted.
func (w *memWords) vocab() *vocab.Vocab {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sorted == nil && w.base != nil {
		w.sorted = w.base
	} else if w.sorted == nil {
		w.sorted = w.counts.Vocab()
	}
	return w.sorted
}

// vocabulary returns the vocabulary of a language index.
func (ix *Index) vocabulary(lang string) *vocab.Vocab {
	if w := ix.memWords[lang]; w != nil {
		return w.vocab()
	}
	if v := ix.vocabs[lang]; v != nil {
		return v
	}
	return &vocab.Vocab{}
}

// Open opens an index built by a Writer, read-only (but WithUpdates).
// Opening takes milliseconds and any number of processes may hold the
// same index open.
func Open(dir string, opts ...Option) (*Index, error) {
	mj, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	o := newOptions(opts)
	ix := &Index{dir: dir, siteLangs: mj.SiteLangs, subs: map[string]bleve.Index{}, docs: map[string]docstore.Source{},
		ords: map[string]*ordTable{}, meta: newMetaStore(), readOnly: !o.updates, opts: o, vocabs: map[string]*vocab.Vocab{},
		bm25: map[string]*blevesearch.BM25Stats{}}
	if o.updates {
		ix.ords, ix.memWords, ix.memLens = nil, map[string]*memWords{}, map[string]*memLengths{}
	}
	for _, l := range mj.Indexes {
		if err := ix.openLang(dir, l); err != nil {
			ix.Close()
			return nil, err
		}
	}
	ix.meta.reindex()
	for l, t := range ix.ords {
		t.norms = lengthNorms(ix.meta.list, l, ix.docs[l])
		t.sketches = make([][]byte, len(ix.meta.list))
		for ord, in := range ix.meta.list {
			if in.docs[l] != nil {
				t.sketches[ord], _ = ix.docs[l].Sketch(in.id)
			}
		}
	}
	return ix, nil
}

// openLang opens the language index l of the index in dir.
func (ix *Index) openLang(dir, l string) error {
	if c, err := CanonicalLang(l); err != nil || c != l {
		return fmt.Errorf("search: %s: bad language index %q", dir, l)
	}
	docs, metas, err := docstore.Open(filepath.Join(dir, l, docstore.FileName))
	if err != nil {
		return err
	}
	ix.docs[l] = docs
	words, err := vocab.Read(filepath.Join(dir, l, vocab.FileName))
	if err != nil {
		return err
	}
	lengths, err := readLengths(filepath.Join(dir, l, lengthsFile))
	if err != nil {
		return err
	}
	ix.bm25[l] = lengths.stats()
	for _, m := range metas {
		if m.ID == "" || m.Lang != l {
			return fmt.Errorf("search: %s: document %q of language %q in the %s store", dir, m.ID, m.Lang, l)
		}
		ix.meta.put(m)
	}
	config := map[string]interface{}{"read_only": true}
	if ix.readOnly {
		ix.vocabs[l] = words
		ix.ords[l] = &ordTable{t: make([]atomic.Int32, len(metas))}
	} else {
		ix.docs[l] = &overlay{base: docs, added: docstore.Memory{}}
		ix.memWords[l] = &memWords{byID: map[string][]string{}, base: words}
		ix.memLens[l] = &memLengths{total: *lengths, byID: map[string]map[string]int{}}
		config = updatableConfig()
	}
	idx, err := bleve.OpenUsing(filepath.Join(dir, l), config)
	if err != nil {
		return fmt.Errorf("search: open %s index: %w", l, err)
	}
	ix.subs[l] = idx
	return nil
}

// Add indexes a document, replacing the one with the same id and language.
// Only updatable indexes can be changed.
func (ix *Index) Add(d Document) error {
	return ix.AddBatch([]Document{d})
}

// AddBatch indexes several documents at once, which is several times faster
// than calling Add for each (use it to load a whole site at start-up).
// Documents are checked before any is indexed; an indexing error may leave
// the documents of some languages added.
func (ix *Index) AddBatch(docs []Document) error {
	return ix.Replace(nil, docs)
}

// Replace removes every document of the incidents in ids and adds docs
// (an incident edited is in ids and in docs) in one step: a search sees
// the index as it was before or after, never in between. Only updatable
// indexes can be changed. Documents are checked before any is indexed;
// an indexing error may leave the changes of some languages made.
func (ix *Index) Replace(ids map[string]bool, docs []Document) error {
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
	defer ix.norms.clear()
	defer ix.meta.reindex()
	byLang := map[string][]*Document{}
	for i := range docs {
		byLang[docs[i].Lang] = append(byLang[docs[i].Lang], &docs[i])
	}
	// The documents of ids in each language that docs do not replace.
	gone := map[string][]string{}
	for id := range ids {
		in := ix.meta.incidents[id]
		if in == nil {
			continue
		}
		for lang := range in.docs {
			if !slices.ContainsFunc(byLang[lang], func(d *Document) bool { return d.ID == id }) {
				gone[lang] = append(gone[lang], id)
			}
		}
	}
	for _, lang := range sortedKeys(ix.subs) {
		if len(gone[lang]) > 0 && len(byLang[lang]) == 0 {
			byLang[lang] = nil
		}
	}
	for _, lang := range sortedKeys(byLang) {
		idx := ix.subs[lang]
		if idx == nil {
			var err error
			if idx, err = ix.newLang(lang); err != nil {
				return err
			}
		}
		if err := ix.indexMem(idx, lang, byLang[lang], gone[lang]); err != nil {
			return err
		}
	}
	return nil
}

// indexMem indexes the documents of one language into an updatable
// index and its document store, analysing them as the Writer does (in
// parallel, with sketches), and removes the documents gone, in one bleve
// batch.
func (ix *Index) indexMem(idx bleve.Index, lang string, docs []*Document, gone []string) error {
	m, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return fmt.Errorf("search: %s index has an unexpected mapping", lang)
	}
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	fast := analysis.NewFast(m.AnalyzerNamed(analysis.For(lang)))
	kind := analysis.KindOf(lang)
	texts := make([]*docstore.Text, len(docs))
	done := make([]*analysed, len(docs))
	errs := make([]error, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(docs); i = int(next.Add(1) - 1) {
				texts[i] = newDocText(docs[i], kind)
				if done[i], errs[i] = analyse(m, fast, nil, docs[i], texts[i]); errs[i] == nil {
					done[i].complete(texts[i])
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	// What the documents replaced counted, to count out.
	for _, id := range gone {
		if err := ix.countBase(m, fast, lang, id); err != nil {
			return err
		}
	}
	for _, d := range docs {
		if err := ix.countBase(m, fast, lang, d.ID); err != nil {
			return err
		}
	}
	b := index.NewBatch()
	for _, id := range gone {
		b.Delete(id)
	}
	for _, a := range done {
		b.Update(a.doc)
	}
	if err := adv.Batch(b); err != nil {
		return fmt.Errorf("search: index %s documents: %w", lang, err)
	}
	words, lengths := ix.memWords[lang], ix.memLens[lang]
	for _, id := range gone {
		ix.setText(lang, id, nil)
		words.set(id, nil)
		lengths.set(id, nil)
		ix.meta.delete(id, lang)
	}
	for i, d := range docs {
		ix.setText(lang, d.ID, texts[i])
		words.set(d.ID, done[i].words)
		lengths.set(d.ID, docLengths(done[i].doc))
		ix.meta.put(newDocMeta(d))
	}
	ix.bm25[lang] = lengths.total.stats()
	return nil
}

// Delete removes the incident id in language lang, or in every language
// when lang is "". Deleting what is not there is not an error.
func (ix *Index) Delete(id, lang string) error {
	if lang == "" {
		return ix.Replace(map[string]bool{id: true}, nil)
	}
	c, err := CanonicalLang(lang)
	if err != nil {
		return fmt.Errorf("search: delete %s: %w", id, err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.writable(); err != nil {
		return err
	}
	defer ix.norms.clear()
	defer ix.meta.reindex()
	idx := ix.subs[c]
	if in := ix.meta.incidents[id]; idx == nil || in == nil || in.docs[c] == nil {
		return nil
	}
	return ix.indexMem(idx, c, nil, []string{id})
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
	for _, l := range sortedKeys(ix.docs) {
		d, ok := ix.docs[l].(*docstore.Reader)
		if o, isOverlay := ix.docs[l].(*overlay); isOverlay {
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
