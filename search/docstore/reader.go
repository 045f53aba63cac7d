package docstore

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/postmortem-archive/gen/search/cache"
)

// Reader is the document store of an index opened with Open.
type Reader struct {
	path    string
	f       *os.File
	dict    []byte
	dataEnd uint64 // end of the records
	entries map[string]entry
	readers sync.Pool                   // *inflater
	recent  *cache.Cache[string, *Text] // the texts read last, up to maxCachedText bytes
}

// maxCachedText bounds the text a Reader keeps of the texts read last
// (recent): the documents a query checks phrases in and highlights are
// mostly those of the queries before it (the same results, another page,
// a word more), and decompressing them was a sixth of a phrase query's
// cost.
const maxCachedText = 8 << 20

// Open opens a document store and returns it with the metadata of
// its documents.
func Open(path string) (*Reader, []*Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	s, metas, err := read(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return s, metas, nil
}

// footer is the decoded footer of a store.
type footer struct {
	dictOff, metaOff, tableOff uint64
	count                      uint32
	sum                        uint32
	raw                        []byte // the bytes the checksum covers
}

// read reads the footer, the dictionary, the metadata and the table of
// the store in f.
func read(path string, f *os.File) (*Reader, []*Meta, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	size := uint64(info.Size())
	ft, err := readFooter(path, f, size)
	if err != nil {
		return nil, nil, err
	}
	end := size - FooterSize
	tail := make([]byte, end-ft.dictOff)
	if _, err := f.ReadAt(tail, int64(ft.dictOff)); err != nil {
		return nil, nil, fmt.Errorf("search: %s: %w", path, err)
	}
	if crc32.Update(crc32.Checksum(tail, castagnoli), castagnoli, ft.raw) != ft.sum {
		return nil, nil, corruptf(path, "checksum mismatch")
	}
	s := &Reader{path: path, f: f, dataEnd: ft.dictOff, dict: tail[:ft.metaOff-ft.dictOff],
		recent: cache.New[string, *Text](maxCachedText, func(t *Text) int { return len(t.s) })}
	metas, err := decodeMeta(path, tail[ft.metaOff-ft.dictOff:ft.tableOff-ft.dictOff])
	if err != nil {
		return nil, nil, err
	}
	ids := intern(metas)
	if s.entries, err = decodeTable(path, tail[ft.tableOff-ft.dictOff:], ft.count, ft.dictOff, ids); err != nil {
		return nil, nil, err
	}
	for _, m := range metas {
		if _, ok := s.entries[m.ID]; !ok {
			return nil, nil, corruptf(path, "no text for %q", m.ID)
		}
	}
	if len(metas) != len(s.entries) {
		return nil, nil, corruptf(path, "%d documents, %d metas", len(s.entries), len(metas))
	}
	return s, metas, nil
}

// readFooter reads and checks the magic and the footer of a store of size
// bytes.
func readFooter(path string, f *os.File, size uint64) (*footer, error) {
	if size < uint64(len(magic))+FooterSize {
		return nil, corruptf(path, "too short (%d bytes)", size)
	}
	head := make([]byte, len(magic))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, fmt.Errorf("search: %s: %w", path, err)
	}
	foot := make([]byte, FooterSize)
	if _, err := f.ReadAt(foot, int64(size-FooterSize)); err != nil {
		return nil, fmt.Errorf("search: %s: %w", path, err)
	}
	if string(head) != magic || string(foot[32:]) != endMagic {
		return nil, corruptf(path, "not a document store")
	}
	ft := &footer{
		dictOff:  binary.LittleEndian.Uint64(foot[0:]),
		metaOff:  binary.LittleEndian.Uint64(foot[8:]),
		tableOff: binary.LittleEndian.Uint64(foot[16:]),
		count:    binary.LittleEndian.Uint32(foot[24:]),
		sum:      binary.LittleEndian.Uint32(foot[28:]),
		raw:      foot[:28],
	}
	end := size - FooterSize
	if !(uint64(len(magic)) <= ft.dictOff && ft.dictOff <= ft.metaOff && ft.metaOff <= ft.tableOff && ft.tableOff <= end) ||
		ft.metaOff-ft.dictOff > DictSize || end-ft.dictOff > 1<<32 {
		return nil, corruptf(path, "bad footer")
	}
	// The table has at least 10 bytes per document.
	if uint64(ft.count) > (end-ft.tableOff)/10 {
		return nil, corruptf(path, "bad footer")
	}
	return ft, nil
}

// decodeMeta decodes the metadata section.
func decodeMeta(path string, b []byte) ([]*Meta, error) {
	metaJSON, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b)), maxDocBytes))
	if err != nil {
		return nil, corruptf(path, "meta: %v", err)
	}
	// One array of them, not an object each (see intern).
	var all []Meta
	if err := json.Unmarshal(metaJSON, &all); err != nil {
		return nil, corruptf(path, "meta: %v", err)
	}
	metas := make([]*Meta, len(all))
	for i := range all {
		if all[i].ID == "" {
			return nil, corruptf(path, "empty meta")
		}
		metas[i] = &all[i]
	}
	return metas, nil
}

// intern makes the strings and name lists of metas that are alike (a
// language, a product, a zone, the products of two incidents) one copy
// each, the others (ids, titles, URLs) parts of one string, and returns
// the documents' ids by themselves. A search holds the metadata of every
// document, and the collector marks each of its objects at every cycle:
// a cycle during a query made the p99 of search.
func intern(metas []*Meta) map[string]string {
	strs, lists := map[string]string{}, map[string][]string{}
	one := func(s *string) {
		if v, ok := strs[*s]; ok {
			*s = v
		} else {
			strs[*s] = *s
		}
	}
	list := func(l *[]string) {
		if len(*l) == 0 {
			return
		}
		for i := range *l {
			one(&(*l)[i])
		}
		k := strings.Join(*l, "\x00")
		if v, ok := lists[k]; ok && slices.Equal(v, *l) {
			*l = v
		} else if !ok {
			lists[k] = *l
		}
	}
	var b strings.Builder
	for _, m := range metas {
		b.Grow(len(m.ID) + len(m.Title) + len(m.URL))
	}
	for _, m := range metas {
		b.WriteString(m.ID)
		b.WriteString(m.Title)
		b.WriteString(m.URL)
	}
	arena, at := b.String(), 0
	cut := func(s *string) {
		*s, at = arena[at:at+len(*s)], at+len(*s)
	}
	ids := make(map[string]string, len(metas))
	for _, m := range metas {
		cut(&m.ID)
		cut(&m.Title)
		cut(&m.URL)
		ids[m.ID] = m.ID
		for _, s := range []*string{&m.Lang, &m.OriginalLang, &m.Date, &m.Organization, &m.Severity, &m.Zone} {
			one(s)
		}
		for _, l := range []*[]string{&m.Products, &m.Regions, &m.Causes} {
			list(l)
		}
	}
	return ids
}

// tableReader decodes the table; the first error sticks.
type tableReader struct {
	b   []byte
	err error
}

func (r *tableReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.b, r.err = nil, errBadTable
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes returns the next n bytes.
func (r *tableReader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errBadTable
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

var errBadTable = errors.New("bad table")

// decodeTable decodes the table of count documents whose records end at
// dataEnd; an id of ids is kept as that string, not a copy.
func decodeTable(path string, table []byte, count uint32, dataEnd uint64, ids map[string]string) (map[string]entry, error) {
	entries := make(map[string]entry, count)
	r := &tableReader{b: table}
	for i := uint32(0); i < count && r.err == nil; i++ {
		n := r.uvarint()
		if r.err == nil && n == 0 {
			return nil, corruptf(path, "bad table")
		}
		b := r.bytes(n)
		id, ok := ids[string(b)]
		if !ok {
			id = string(b)
		}
		var e entry
		e.off, e.clen = r.uvarint(), r.uvarint()
		var total uint64
		for j := range e.lens {
			e.lens[j] = r.uvarint()
			total += e.lens[j]
		}
		fixed := r.bytes(5)
		if r.err != nil {
			break
		}
		e.flags = fixed[0]
		e.crc = binary.LittleEndian.Uint32(fixed[1:5])
		if n := r.uvarint(); r.err == nil && n > 0 {
			e.sketch = r.bytes(n - 1)
		}
		if e.off < uint64(len(magic)) || e.clen > dataEnd || e.off > dataEnd-e.clen || total > maxDocBytes {
			return nil, corruptf(path, "record of %q out of bounds", id)
		}
		if _, dup := entries[id]; dup {
			return nil, corruptf(path, "%q twice", id)
		}
		entries[id] = e
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, corruptf(path, "bad table")
	}
	return entries, nil
}

// inflater is a reusable DEFLATE reader with its buffers.
type inflater struct {
	src  bytes.Reader
	r    io.ReadCloser
	comp []byte
	buf  []byte
}

// Text reads, decompresses and checks the text of document id; nil if
// the store has no such document. The Text may be shared: it must not be
// changed.
func (s *Reader) Text(id string) (*Text, error) {
	e, ok := s.entries[id]
	if !ok {
		return nil, nil
	}
	return s.recent.GetOrMake(id, func() (*Text, error) { return s.read(id, e) })
}

// read reads, decompresses and checks the text of the document id of
// entry e.
func (s *Reader) read(id string, e entry) (*Text, error) {
	var total uint64
	for _, l := range e.lens {
		total += l
	}
	in, _ := s.readers.Get().(*inflater)
	if in == nil {
		in = &inflater{}
	}
	defer s.readers.Put(in)
	in.comp = slices.Grow(in.comp[:0], int(e.clen))[:e.clen]
	if _, err := s.f.ReadAt(in.comp, int64(e.off)); err != nil {
		return nil, fmt.Errorf("search: %s: %w", s.path, err)
	}
	in.src.Reset(in.comp)
	if in.r == nil {
		in.r = flate.NewReaderDict(&in.src, s.dict)
	} else if err := in.r.(flate.Resetter).Reset(&in.src, s.dict); err != nil {
		return nil, corruptf(s.path, "%q: %v", id, err)
	}
	// Into a Builder, whose String does not copy.
	var sb strings.Builder
	sb.Grow(int(total))
	in.buf = slices.Grow(in.buf[:0], 16<<10)[:16<<10]
	crc := uint32(0)
	for {
		n, err := in.r.Read(in.buf)
		if uint64(sb.Len()+n) > total {
			return nil, corruptf(s.path, "text of %q is too long", id)
		}
		sb.Write(in.buf[:n])
		crc = crc32.Update(crc, castagnoli, in.buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, corruptf(s.path, "text of %q: %v", id, err)
		}
	}
	if uint64(sb.Len()) != total {
		return nil, corruptf(s.path, "text of %q is too short", id)
	}
	if crc != e.crc {
		return nil, corruptf(s.path, "text of %q: checksum mismatch", id)
	}
	t := &Text{s: sb.String(), Flags: e.flags}
	var end uint64
	for i, l := range e.lens {
		end += l
		t.ends[i] = int(end)
	}
	return t, nil
}

// Sketch returns the phrase sketch of document id.
func (s *Reader) Sketch(id string) ([]byte, bool) {
	e, ok := s.entries[id]
	return e.sketch, ok && e.sketch != nil
}

// Length returns the length in bytes of the text of document id, from
// the table (nothing is read); ok is false if the store has no such
// document.
func (s *Reader) Length(id string) (n int, ok bool) {
	e, ok := s.entries[id]
	for _, l := range e.lens {
		n += int(l)
	}
	return n, ok
}

// Close closes the file.
func (s *Reader) Close() error { return s.f.Close() }
