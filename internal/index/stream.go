package index

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/yuin/goldmark/ast"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/schema"
)

// streamWindow is how far ahead of the index the render may hand over
// pages: the texts waiting are bounded, whatever the size of the archive.
var streamWindow = 256

// Stream writes the search index of an archive from the Markdown trees
// the render stage parses (render.Options.Parsed), so that no page is
// parsed for the index alone. Pages arrive language by language, each the
// archive's incidents in order, give or take those rendering at once;
// they are added to the index in exactly that order. A page arriving more
// than streamWindow ahead of the next one to add waits.
//
// With a spill file, the documents wait in it, in that order, and are
// added once the render is done (Added, or Close): the index's memory
// (a few hundred documents analysed, the segment being built: 230–300
// MB at 100,000 incidents) is then never live beside the render's, and
// a large archive's render has that much more room under the soft
// memory limit.
type Stream struct {
	w        *build.Writer
	basePath string
	spill    io.ReadWriteSeeker // nil: documents are added as they come
	spillBuf *bufio.Writer
	spillEnc *gob.Encoder
	// seq is each document's place in the order, by language (as in
	// langs) and incident (Incident.Place); -1: none. Numbers, not keys
	// of a map: a map of 200,000 documents' names is that many more
	// pointers for the collector to follow at every cycle. nil once all
	// are added.
	langs []string
	seq   [][]int32
	total int
	ends  []int // where each language's documents end in the order

	mu      sync.Mutex
	changed *sync.Cond
	ready   map[int]schema.Document
	next    int   // the next document to add
	ended   bool  // no more pages will come
	err     error // the first error; the documents after it are dropped
	done    chan struct{}

	added  bool // Added was called, and returned addErr
	addErr error
}

// NewStream starts building the index of a in dir. langs are the site's
// languages in the order the render prints them; URLs carry basePath.
// spill, when not nil, is an empty file the documents wait in until Close.
func NewStream(dir string, a *archive.Archive, langs []string, basePath string, spill io.ReadWriteSeeker) (*Stream, error) {
	w, err := build.Create(dir, langs)
	if err != nil {
		return nil, err
	}
	s := &Stream{w: w, basePath: basePath, langs: langs, ready: map[int]schema.Document{}, done: make(chan struct{})}
	if spill != nil {
		s.spill, s.spillBuf = spill, bufio.NewWriterSize(spill, 1<<18)
		s.spillEnc = gob.NewEncoder(s.spillBuf)
	}
	s.changed = sync.NewCond(&s.mu)
	for _, lang := range langs {
		seq := make([]int32, len(a.Incidents))
		for i, inc := range a.Incidents {
			seq[i] = -1
			if _, ok := inc.Versions[lang]; ok {
				seq[i] = int32(s.total)
				s.total++
			}
		}
		s.seq = append(s.seq, seq)
		s.ends = append(s.ends, s.total)
	}
	go s.run()
	return s, nil
}

// Parsed takes the tree of the incident's page in lang, for
// render.Options.Parsed. It is safe for concurrent use.
func (s *Stream) Parsed(inc *archive.Incident, lang string, doc ast.Node, src []byte, err error) {
	s.mu.Lock()
	n := s.place(inc, lang)
	s.mu.Unlock()
	if n < 0 {
		return // not a version (the page shows the original), or the index stopped
	}
	var d schema.Document
	if err == nil {
		p := inc.Versions[lang]
		d = document(inc, lang, p, content.TreeSections(doc, src), s.basePath)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n >= s.next+streamWindow && s.err == nil && !s.ended {
		s.changed.Wait()
	}
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("indexing %s/%s: %w", inc.ID, lang, err)
	}
	if s.ready == nil {
		return // the index has stopped
	}
	s.ready[n] = d
	s.changed.Broadcast()
}

// place is the document's place in the order, or -1.
func (s *Stream) place(inc *archive.Incident, lang string) int {
	if i := slices.Index(s.langs, lang); i >= 0 && s.seq != nil && inc.Place() < len(s.seq[i]) {
		return int(s.seq[i][inc.Place()])
	}
	return -1
}

// lastOf reports whether document n is the last of its language.
func (s *Stream) lastOf(n int) bool { return slices.Contains(s.ends, n+1) }

// run adds the documents in order as they arrive.
func (s *Stream) run() {
	defer close(s.done)
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.next < s.total && s.err == nil {
		d, ok := s.ready[s.next]
		if !ok {
			if s.ended {
				s.err = fmt.Errorf("indexing: the render printed %d of the %d pages to index", s.next, s.total)
				break
			}
			s.changed.Wait()
			continue
		}
		delete(s.ready, s.next)
		n := s.next
		s.mu.Unlock()
		err := s.add(n, d)
		s.mu.Lock()
		if err != nil && s.err == nil {
			s.err = fmt.Errorf("indexing %s/%s: %w", d.ID, d.Lang, err)
		}
		s.next++
		s.changed.Broadcast()
	}
	s.ready, s.seq = nil, nil
	s.changed.Broadcast() // pages waiting for room go on, and are dropped
}

// add adds document n to the index, or to the spill file.
func (s *Stream) add(n int, d schema.Document) error {
	if s.spill != nil {
		return s.spillEnc.Encode(&d)
	}
	err := s.w.Add(d)
	if s.lastOf(n) {
		s.w.Finish(d.Lang)
	}
	return err
}

// addSpilled adds the n documents of the spill file to the index.
func (s *Stream) addSpilled(n int) error {
	if err := s.spillBuf.Flush(); err != nil {
		return fmt.Errorf("indexing: writing the documents to wait: %w", err)
	}
	if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("indexing: reading the documents back: %w", err)
	}
	dec := gob.NewDecoder(bufio.NewReaderSize(s.spill, 1<<18))
	s.spill = nil // add adds to the index from now on
	for i := range n {
		var d schema.Document
		if err := dec.Decode(&d); err != nil {
			return fmt.Errorf("indexing: reading document %d of %d back: %w", i+1, n, err)
		}
		if err := s.add(i, d); err != nil {
			return fmt.Errorf("indexing %s/%s: %w", d.ID, d.Lang, err)
		}
	}
	return nil
}

// wait returns once every document handed over is added to the index
// (or to the spill file), when the render is done.
func (s *Stream) wait() {
	s.mu.Lock()
	s.ended = true
	s.changed.Broadcast()
	s.mu.Unlock()
	<-s.done
}

// Added returns once every document handed over is added to the index
// (with a spill file, now, from it), the render being done, with the
// first error of the documents. Close calls it if it was not called.
func (s *Stream) Added() error {
	if s.added {
		return s.addErr
	}
	s.added = true
	s.wait()
	s.w.Widen() // the render is done
	s.mu.Lock()
	err, spilled := s.err, s.next
	s.mu.Unlock()
	if err == nil && s.spill != nil {
		err = s.addSpilled(spilled)
	}
	s.addErr = err
	return err
}

// Close waits for every document handed over to be added, once the
// render is done, and finishes the index.
func (s *Stream) Close() error {
	if err := s.Added(); err != nil {
		return errors.Join(err, s.w.Close())
	}
	return s.w.Close()
}
