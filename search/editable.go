package search

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"
	"github.com/postmortem-archive/gen/search/vocab"
)

// Editable is a built index the authoring server (gen serve) changes in
// place as the writer saves: bleve's index is changed in its folder (and
// merges the segments of the changes, in the background); the texts,
// words, field lengths and metadata of the documents changed since it
// was built are kept in memory over those the folder holds. The folder
// then no longer holds an index Open can read: it must be the caller's
// own, removed once the Editable is closed. Its searches cost more than
// an Index's (no tables of document numbers). All methods are safe for
// concurrent use.
type Editable struct {
	*engine
	dir string // where a language it had no document of is started
}

// OpenEditable opens the index a build.Writer left in dir to be changed.
func OpenEditable(dir string, opts ...Option) (*Editable, error) {
	e, err := openEngine(dir, newOptions(opts), true)
	if err != nil {
		return nil, err
	}
	return &Editable{engine: e, dir: dir}, nil
}

// Search runs a request (see Searcher).
func (ix *Editable) Search(ctx context.Context, r Request) (*Response, error) {
	return ix.search(ctx, r)
}

// Close releases the index. Searches after Close fail.
func (ix *Editable) Close() error { return ix.close() }

// Replace removes every document of the incidents in ids and adds docs
// (an incident edited is in ids and in docs) in one step: a search sees
// the index as it was before or after, never in between. Documents are
// checked before any is indexed; an indexing error may leave the changes
// of some languages made. A document in a language the index has none of
// starts that language's index in the index's folder.
func (ix *Editable) Replace(ids map[string]bool, docs []schema.Document) error {
	docs = slices.Clone(docs)
	for i := range docs {
		if err := schema.Normalize(&docs[i]); err != nil {
			return err
		}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return errors.New("search: index is closed")
	}
	defer ix.norms.clear()
	defer ix.meta.reindex()
	byLang := map[string][]*schema.Document{}
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
		for _, d := range in.docs {
			if lang := d.Lang; !slices.ContainsFunc(byLang[lang], func(d *schema.Document) bool { return d.ID == id }) {
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

// indexMem indexes the documents of one language into the index
// and its document store, analysing them as a build does (in
// parallel, with sketches), and removes the documents gone, in one bleve
// batch.
func (ix *Editable) indexMem(idx bleve.Index, lang string, docs []*schema.Document, gone []string) error {
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
	done := make([]*schema.Analysed, len(docs))
	errs := make([]error, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(docs); i = int(next.Add(1) - 1) {
				texts[i] = schema.NewText(docs[i], kind)
				if done[i], errs[i] = schema.Analyse(m, fast, nil, docs[i], texts[i]); errs[i] == nil {
					done[i].Complete(texts[i])
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
		b.Update(a.Doc)
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
		words.set(d.ID, done[i].Words)
		lengths.set(d.ID, schema.DocLengths(done[i].Doc))
		ix.meta.put(schema.NewMeta(d))
	}
	ix.bm25[lang] = bm25Stats(&lengths.total)
	return nil
}

// newLang starts the index of a language the Editable has no
// document of yet, in a folder of its own beside the others.
func (ix *Editable) newLang(lang string) (bleve.Index, error) {
	m, err := schema.Mapping(lang)
	if err != nil {
		return nil, fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	idx, err := bleve.NewUsing(filepath.Join(ix.dir, lang), m, scorch.Name, scorch.Name, editableConfig())
	if err != nil {
		return nil, fmt.Errorf("search: new %s index: %w", lang, err)
	}
	ix.subs[lang] = idx
	ix.docs[lang] = &overlay{added: docstore.Memory{}}
	ix.memWords[lang] = &memWords{byID: map[string][]string{}}
	ix.memLens[lang] = &memLengths{byID: map[string]map[string]int{}}
	ix.bm25[lang] = bm25Stats(&ix.memLens[lang].total)
	return idx, nil
}

// memLengths keeps the field lengths of an Editable's language up
// to date, like memWords its words.
type memLengths struct {
	total schema.Lengths
	byID  map[string]map[string]int
}

// set replaces the field lengths of document id (nil: deleted).
func (m *memLengths) set(id string, lengths map[string]int) {
	if old, ok := m.byID[id]; ok {
		m.total.Add(old, -1)
	}
	if lengths == nil {
		delete(m.byID, id)
	} else {
		m.total.Add(lengths, 1)
		m.byID[id] = lengths
	}
}

// memWords keeps the vocabulary of an Editable's language up to
// date: the words of each document, to uncount when it is replaced or
// deleted. The sorted vocabulary is made when a search first needs it
// after a change (10 ms for 30,000 words: not on every edit).
type memWords struct {
	counts vocab.Builder
	byID   map[string][]string
	// base is the vocabulary of the folder an Editable was opened from, until its
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

// editableConfig returns bleve's configuration of an Editable's
// language indexes. A change waits for bleve to take it, not for the disk: the
// folder is thrown away with the index. bleve merges the small segments
// of the changes in the background (those under half of MaxSegmentSize
// documents), but none of a build's segments: merged with the few
// documents of an edit, they would be written again, whole, every few
// edits. At 1,000 (eight segments a language, unmergedMax), merging
// those under 500 made an edit cost three times the CPU (55–62 ms
// against 18–19), under 128 a third more (a last batch of 104). A new
// map each time: bleve writes the path of the index it creates into it.
func editableConfig() map[string]interface{} {
	return map[string]interface{}{
		"unsafe_batch":           true,
		"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentSize": schema.SegmentDocs / 2},
	}
}

// overlay is the document store of a language of an Editable: the store it was opened with (nil for a language it had
// no document of), under the texts of the documents changed since (nil:
// removed).
type overlay struct {
	base  *docstore.Reader
	added docstore.Memory
}

// Text returns the text of document id.
func (o *overlay) Text(id string) (*docstore.Text, error) {
	if t, ok := o.added[id]; ok || o.base == nil {
		return t, nil
	}
	return o.base.Text(id)
}

// Sketch returns the sketch of document id.
func (o *overlay) Sketch(id string) ([]byte, bool) {
	if _, ok := o.added[id]; ok || o.base == nil {
		return o.added.Sketch(id)
	}
	return o.base.Sketch(id)
}

// Length returns the length of the text of document id.
func (o *overlay) Length(id string) (int, bool) {
	if _, ok := o.added[id]; ok || o.base == nil {
		return o.added.Length(id)
	}
	return o.base.Length(id)
}

// setText records the text of document id of a language
// index (nil: removed).
func (ix *Editable) setText(lang, id string, t *docstore.Text) {
	ix.docs[lang].(*overlay).added[id] = t
}

// countBase makes the words and field lengths of document id of the
// folder an index was opened from known to its language's counts (they
// are in the totals, but not by document), so that replacing or
// removing it counts them out: its stored text is analysed again, as
// build.Update does. Documents added since are known already.
func (ix *Editable) countBase(m *mapping.IndexMappingImpl, fast *analysis.Fast, lang, id string) error {
	o := ix.docs[lang].(*overlay)
	if _, changed := o.added[id]; changed || o.base == nil {
		return nil
	}
	in := ix.meta.incidents[id]
	if in == nil || in.doc(lang) == nil {
		return nil
	}
	t, err := o.base.Text(id)
	if err != nil {
		return err
	}
	if t == nil {
		return fmt.Errorf("search: %s (%s) has no text in the document store", id, lang)
	}
	a, err := schema.Analyse(m, fast, nil, schema.DocumentOf(in.doc(lang)), t)
	if err != nil {
		return err
	}
	ix.memWords[lang].byID[id] = a.Words
	ix.memLens[lang].byID[id] = schema.DocLengths(a.Doc)
	return nil
}
