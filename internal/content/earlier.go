package content

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
)

// Earlier is what an earlier build parsed of each content file, saved
// with its output (WriteEarlier), so that the next build parses only the
// files whose bytes changed. After a one-line edit to an archive of
// 10,000 incidents, parsing the other 19,999 files was most of the build;
// reading back what they gave is a tenth of that.
//
// A page is taken only for the file it was parsed from, and only when
// the file's SHA-256 is the same: its modification time is not trusted.
// Only a build without errors saves its pages, so a page taken has
// nothing to report.
type Earlier struct {
	pages map[string]*Page // by File
	taken atomic.Int64
}

// earlierFormat changes whenever a Page's saved fields do.
const earlierFormat = 1

// earlierHeader starts the saved stream: the pages follow one by one.
type earlierHeader struct {
	Format int
	Key    string // the parser's identity: pages parsed by another gen are not used
	Pages  int
}

// WriteEarlier saves pages, parsed by the gen key names, for a later
// build: the pages must be whole, as Load returned them (a build drops
// what only linking reads once its archive is linked).
func WriteEarlier(w io.Writer, key string, pages []*Page) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := gob.NewEncoder(bw)
	if err := enc.Encode(earlierHeader{Format: earlierFormat, Key: key, Pages: len(pages)}); err != nil {
		return err
	}
	for _, p := range pages {
		if err := enc.Encode(p); err != nil {
			return fmt.Errorf("saving the page of %s: %w", p.File, err)
		}
	}
	return bw.Flush()
}

// ErrOtherParser is returned by ReadEarlier for pages saved by another
// gen, or in another format.
var ErrOtherParser = errors.New("saved by another gen")

// ReadEarlier reads what WriteEarlier wrote with the same key.
func ReadEarlier(r io.Reader, key string) (*Earlier, error) {
	dec := gob.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	var h earlierHeader
	if err := dec.Decode(&h); err != nil {
		return nil, err
	}
	if h.Format != earlierFormat || h.Key != key {
		return nil, ErrOtherParser
	}
	if h.Pages < 0 {
		return nil, fmt.Errorf("%d pages saved", h.Pages)
	}
	// A damaged count is not trusted with memory: the pages run out first.
	e := &Earlier{pages: make(map[string]*Page, min(h.Pages, 1<<16))}
	for range h.Pages {
		p := new(Page)
		if err := dec.Decode(p); err != nil {
			return nil, err
		}
		e.pages[p.File] = p
	}
	return e, nil
}

// take returns the page parsed from file when the file's bytes hashed to
// sum then too, or nil. Each file is taken at most once per load, so the
// page is the caller's.
func (e *Earlier) take(file string, sum [32]byte) *Page {
	if e == nil {
		return nil
	}
	p := e.pages[file]
	if p == nil || p.Sum != sum {
		return nil
	}
	e.taken.Add(1)
	return p
}

// Taken is how many pages a load took instead of parsing their files.
func (e *Earlier) Taken() int {
	if e == nil {
		return 0
	}
	return int(e.taken.Load())
}
