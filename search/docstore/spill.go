package docstore

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
)

// spill keeps records in a temporary file until they are read back in
// the order of their ids. A build adds a table row and a metadata record
// for every document and writes them when the last has come: held in
// memory, they were what grew with the archive while pages rendered (at
// 100,000 incidents, 150 MB and a dozen pointers a document for the
// collector to follow at every cycle); spilled, a document holds its id
// and two numbers.
type spill struct {
	path  string
	f     *os.File
	w     *bufio.Writer
	off   int64
	items []spilled
	err   error // the first failed write
}

type spilled struct {
	id  string
	off int64
	n   int
}

func newSpill(path string) (*spill, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return &spill{path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// add appends the record b of document id.
func (s *spill) add(id string, b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("search: %s: %w", s.path, err)
		return
	}
	s.items = append(s.items, spilled{id, s.off, len(b)})
	s.off += int64(len(b))
}

// each calls fn with the records in the order of their ids (a document
// added twice is an error).
func (s *spill) each(fn func(id string, b []byte)) error {
	if s.err != nil {
		return s.err
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("search: %s: %w", s.path, err)
	}
	slices.SortFunc(s.items, func(a, b spilled) int { return cmp.Compare(a.id, b.id) })
	var buf []byte
	for i, it := range s.items {
		if i > 0 && s.items[i-1].id == it.id {
			return fmt.Errorf("search: document %s added twice", it.id)
		}
		buf = slices.Grow(buf[:0], it.n)[:it.n]
		if _, err := s.f.ReadAt(buf, it.off); err != nil {
			return fmt.Errorf("search: reading back %s: %w", s.path, err)
		}
		fn(it.id, buf)
	}
	return nil
}

// remove closes and removes the file.
func (s *spill) remove() error {
	return errors.Join(s.f.Close(), os.Remove(s.path))
}
