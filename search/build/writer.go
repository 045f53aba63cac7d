// Package build writes search indexes (package search opens them): a
// whole index from an archive's documents (Create and the Writer), or a
// new one from a previous index and the documents that changed (Update).
// What an index holds is package schema's.
package build

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"
	"github.com/postmortem-archive/gen/search/vocab"

	"github.com/postmortem-archive/gen/i18n"
)

// Tuning of the offline build (see search.BenchmarkIndexBuild).
const (
	// sampleBytes is how much text of its first documents a language
	// collects to make the dictionary of its document store.
	sampleBytes = docstore.DictSize
)

// Writer builds an index directory.
//
// Documents are analysed and compressed by a pool of goroutines (one per
// CPU), shared by all languages; each language then has one goroutine that
// hands the analysed documents, in the order they were added, to its
// segmentBuilder (which builds a segment of every schema.SegmentDocs documents
// in the background and, at Close, merges them until no more than
// unmergedMax are left) and appends their text to the language's
// document store. Memory stays bounded: at most a few batches of
// documents are in flight.
//
// Add must be called from one goroutine; Close must be called once.
type Writer struct {
	dir       string
	siteLangs []string
	langs     map[string]*langWriter
	closed    bool
	opts      options

	jobs    chan *writeJob
	workers sync.WaitGroup
	// building holds the place of each segment being built, of any
	// language: one at a time beside the analysis and the render (two
	// at once took more memory for no less time); once Widen says the
	// render is done, as many as merges. The places not yet given are
	// held by the Writer itself.
	building chan struct{}
	widened  bool
	// merging holds the place of each merge of segments running at the
	// end, of any language: one per core, but no more than two, what the
	// two languages' merges held before a language's runs were merged at
	// once (each merge holds up to builderMergeMax segments open, which
	// costs memory).
	merging chan struct{}
}

type writeJob struct {
	lw   *langWriter
	seq  int
	d    *schema.Document
	text *docstore.Text
}

type analysedDoc struct {
	seq   int
	id    string
	words []string
	doc   *document.Document
	terms *analysis.Terms // doc's terms, for lw.terms once its segment is built
	rec   *docstore.Record
	err   error
}

type langWriter struct {
	lang       string
	reuseTerms bool // options.reuseTerms
	m          *mapping.IndexMappingImpl
	fast       *analysis.Fast // nil: bleve analyses
	kind       analysis.Kind
	b          *segmentBuilder
	docs       *docstore.Writer

	// Until the dictionary of the document store is made, documents are
	// held back in sample.
	sample      []*writeJob
	sampleBytes int
	dict        []byte
	compressors sync.Pool // *docstore.Compressor with dict
	// terms keeps the memory of the terms of documents whose segment is
	// built.
	terms analysis.TermsPool

	seq     int
	words   vocab.Builder
	lengths schema.Lengths // of the documents indexed, for BM25
	dir     string         // of the language's index

	results chan analysedDoc
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
func Create(dir string, langs []string, opts ...Option) (*Writer, error) {
	return create(dir, langs, opts)
}

func create(dir string, langs []string, opts []Option) (*Writer, error) {
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
	w := &Writer{dir: dir, siteLangs: site, langs: map[string]*langWriter{}, opts: newOptions(opts)}
	n := runtime.GOMAXPROCS(0)
	w.jobs = make(chan *writeJob, 4*n)
	w.merging = make(chan struct{}, min(n, 2))
	w.building = make(chan struct{}, cap(w.merging))
	for range cap(w.building) - 1 {
		w.building <- struct{}{}
	}
	for range n {
		w.workers.Add(1)
		go w.work()
	}
	return w, nil
}

func canonicalLangs(langs []string) ([]string, error) {
	var out []string
	for _, l := range langs {
		c, err := i18n.Canonical(l)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Add queues one document (one incident in one language). Adding the same
// id and language twice is an error. Indexing errors of earlier documents
// are reported by a later Add or by Close.
func (w *Writer) Add(d schema.Document) error {
	if w.closed {
		return errors.New("search: Add after Close")
	}
	if err := schema.Normalize(&d); err != nil {
		return err
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
	// The store refuses an id added twice.
	if err := lw.docs.AddMeta(schema.NewMeta(&d)); err != nil {
		return fmt.Errorf("search: document %s (%s): %w", d.ID, d.Lang, err)
	}
	j := &writeJob{lw: lw, seq: lw.seq, d: &d, text: schema.NewText(&d, lw.kind)}
	lw.seq++
	if lw.dict != nil {
		w.jobs <- j
		return nil
	}
	lw.sample = append(lw.sample, j)
	lw.sampleBytes += min(len(j.text.All()), 2048)
	if lw.sampleBytes >= sampleBytes {
		w.flushSample(lw)
	}
	return nil
}

// Finish says that no more documents of lang are to come: the memory
// kept to analyse its next documents is let go (at 100,000 incidents,
// 40 MB the collector would keep marking while the next language is
// indexed). A document of lang added after it is analysed in new memory.
// Finish is called from the goroutine that calls Add.
func (w *Writer) Finish(lang string) {
	if lw := w.langs[lang]; lw != nil {
		lw.terms.Drop()
	}
}

// Widen says that the documents still to come have the machine to
// themselves (the render is done): their segments are built as many at
// once as merges run. At 100,000 incidents, whose documents are indexed
// after the render, one segment built at a time kept the analysis
// waiting: 100 of the index's 150 s ran on 1.8 of the 2 cores.
// Widen is called from the goroutine that calls Add.
func (w *Writer) Widen() {
	if w.widened {
		return
	}
	w.widened = true
	for range cap(w.building) - 1 {
		<-w.building
	}
}

// flushSample makes the dictionary of a language from the documents held
// back and queues them.
func (w *Writer) flushSample(lw *langWriter) {
	texts := make([]*docstore.Text, len(lw.sample))
	for i, j := range lw.sample {
		texts[i] = j.text
	}
	lw.dict = docstore.SampleDict(texts)
	lw.docs.SetDict(lw.dict)
	for _, j := range lw.sample {
		w.jobs <- j
	}
	lw.sample = nil
}

// work is an analysis goroutine: it maps and analyses documents for bleve
// and compresses their text, the expensive part of indexing.
func (w *Writer) work() {
	defer w.workers.Done()
	for j := range w.jobs {
		lw := j.lw
		out := analysedDoc{seq: j.seq, id: j.d.ID}
		if lw.getErr() == nil {
			var a *schema.Analysed
			if a, out.rec, out.err = lw.prepare(j); a != nil {
				out.doc, out.words, out.terms = a.Doc, a.Words, a.Terms
			}
		}
		lw.results <- out
	}
}

// prepare analyses a document for bleve and compresses its text with its
// sketch for the document store.
func (lw *langWriter) prepare(j *writeJob) (*schema.Analysed, *docstore.Record, error) {
	pool := &lw.terms
	if !lw.reuseTerms {
		pool = nil
	}
	a, err := schema.Analyse(lw.m, lw.fast, pool, j.d, j.text)
	if err != nil {
		return nil, nil, err
	}
	a.Complete(j.text)
	c, _ := lw.compressors.Get().(*docstore.Compressor)
	if c == nil {
		if c, err = docstore.NewCompressor(lw.dict); err != nil {
			return nil, nil, fmt.Errorf("search: %s documents: %w", lw.lang, err)
		}
	}
	defer lw.compressors.Put(c)
	rec, err := c.Compress(j.text)
	if err != nil {
		return nil, nil, fmt.Errorf("search: compress %s (%s): %w", j.d.ID, lw.lang, err)
	}
	return a, rec, nil
}

func (w *Writer) startLang(lang string) (*langWriter, error) {
	m, err := schema.Mapping(lang)
	if err != nil {
		return nil, fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	path := filepath.Join(w.dir, lang)
	lw := &langWriter{
		lang: lang, reuseTerms: w.opts.reuseTerms, m: m, kind: analysis.KindOf(lang), dir: path,
		fast:    analysis.NewFast(m.AnalyzerNamed(analysis.For(lang))),
		results: make(chan analysedDoc, 2*cap(w.jobs)),
		done:    make(chan struct{}),
	}
	if lw.b, err = newSegmentBuilder(path, w.dir, m, w.building, w.merging, &lw.terms, &w.opts); err != nil {
		return nil, fmt.Errorf("search: index for %s: %w", lang, err)
	}
	if lw.docs, err = docstore.Create(filepath.Join(path, docstore.FileName)); err != nil {
		return nil, err
	}
	w.langs[lang] = lw
	go lw.run()
	return lw, nil
}

// run hands the analysed documents of one language to its segment
// builder and the document store, in the order they were added.
func (lw *langWriter) run() {
	defer close(lw.done)
	next := 0
	held := map[int]analysedDoc{}
	for r := range lw.results {
		held[r.seq] = r
		for {
			r, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			next++
			if lw.getErr() != nil {
				continue // drain
			}
			if r.err != nil {
				lw.setErr(r.err)
				continue
			}
			lw.lengths.Add(schema.DocLengths(r.doc), 1)
			if err := lw.b.Index(r.doc, r.terms); err != nil {
				lw.setErr(fmt.Errorf("search: index for %s: %w", lw.lang, err))
				continue
			}
			lw.docs.Add(r.id, r.rec)
			lw.words.Add(r.words)
		}
	}
	if err := lw.getErr(); err != nil {
		lw.b.Abort()
		lw.docs.Abort()
		return
	}
	if err := lw.b.Close(); err != nil {
		lw.setErr(fmt.Errorf("search: finish index for %s: %w", lw.lang, err))
		lw.docs.Abort()
		return
	}
	if err := lw.docs.Finish(); err != nil {
		lw.setErr(err)
		return
	}
	if err := vocab.Write(filepath.Join(lw.dir, vocab.FileName), lw.words.Vocab()); err != nil {
		lw.setErr(err)
	}
	if err := schema.WriteLengths(filepath.Join(lw.dir, schema.LengthsFile), &lw.lengths); err != nil {
		lw.setErr(err)
	}
}

// Close flushes every language, merges each language index into a single
// segment, finishes the document stores and writes meta.json. The index is
// usable with search.Open only after Close returned nil; after an error the
// directory is incomplete and should be removed.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("search: Writer closed twice")
	}
	w.closed = true
	for _, lang := range slices.Sorted(maps.Keys(w.langs)) {
		if lw := w.langs[lang]; lw.dict == nil {
			w.flushSample(lw)
		}
	}
	close(w.jobs)
	w.workers.Wait()
	for _, lang := range slices.Sorted(maps.Keys(w.langs)) {
		close(w.langs[lang].results)
	}
	var errs []error
	for _, lang := range slices.Sorted(maps.Keys(w.langs)) {
		lw := w.langs[lang]
		<-lw.done
		if err := lw.getErr(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := schema.WriteMeta(w.dir, schema.Meta{SiteLangs: w.siteLangs, Indexes: slices.Sorted(maps.Keys(w.langs))}); err != nil {
		return fmt.Errorf("search: write %s: %w", schema.MetaFile, err)
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
