package search

// The document store: the metadata and the text of the long fields of
// every document of one language, next to that language's bleve index.
//
// On disk it is one file, <lang>/gen-docs:
//
//	"GENDOCS1"   magic
//	records      one raw DEFLATE stream per document (with the preset
//	             dictionary below): summary, body and timeline, one after
//	             the other; the table gives their lengths
//	dictionary   a preset DEFLATE dictionary sampled from the first
//	             documents (documents of one archive share much wording,
//	             which a dictionary makes a third smaller)
//	meta         one raw DEFLATE stream of the JSON array of the
//	             documents' docMeta
//	table        per document, sorted by id: uvarint length and bytes of
//	             the id, uvarint offset and length of its record, uvarint
//	             lengths of its three fields, a flags byte, the CRC-32C of
//	             its uncompressed text (4 bytes, little endian), uvarint
//	             length plus one (0: none) and bytes of its phrase sketch
//	             (sketch.go)
//	footer       offsets of dictionary, meta and table (uint64 each), the
//	             number of documents (uint32), the CRC-32C of everything
//	             from the dictionary to here (uint32), "GENDOCSE"
//
// Open reads the footer, table, dictionary and meta; records are read
// with ReadAt when a search needs them (to check a phrase, to highlight a
// result or to show an excerpt) and never cached: the file stays in the
// page cache. Any inconsistency is an error, never a panic.

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
	"unicode"
	"unicode/utf8"
)

const (
	docsFile    = "gen-docs"
	docsMagic   = "GENDOCS1"
	docsEnd     = "GENDOCSE"
	footerSize  = 8 + 8 + 8 + 4 + 4 + 8
	dictSize    = 32 << 10 // DEFLATE's window: a longer dictionary is not used
	flateLevel  = 4        // ratio within 3% of level 9, twice as fast
	maxDocBytes = 1 << 30  // sanity bound on one document's text
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Text flags: properties of a document's text that decide whether a fast
// search for the surface form of a term can miss an occurrence (see
// locate.go); when one is set, that document is analysed in full.
const (
	// flagFoldASCII: the text has characters that the analyzer turns into
	// ASCII (full-width letters and digits in CJK text, U+212A KELVIN SIGN,
	// U+0130), or full-width punctuation that can join two words into one
	// token.
	flagFoldASCII = 1 << iota
	// flagFoldKana: the text has half-width katakana, which the CJK
	// analyzer turns into full-width ones.
	flagFoldKana
)

// docText is the cleaned text (cleanText) of the long fields of one
// document, one after the other, with flags computed by textFlags.
type docText struct {
	s      string
	ends   [len(longFields)]int
	flags  uint8
	sketch []byte // in-memory index only
}

func newDocText(d *Document, cjkText bool) *docText {
	fields := [len(longFields)]string{cleanText(d.Summary), cleanText(d.Body), cleanText(d.Timeline)}
	t := &docText{s: strings.Join(fields[:], "")}
	n := 0
	for i, f := range fields {
		n += len(f)
		t.ends[i] = n
	}
	t.flags = textFlags(t.s, cjkText)
	return t
}

// field returns the text of long field i.
func (t *docText) field(i int) string {
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.s[start:t.ends[i]]
}

// isWordRune reports whether r can be part of a token of letters and
// digits together with a neighbouring full-width character: letters and
// digits outside the CJK blocks (ideographs and kana are tokens of their
// own), and full-width ones.
func isWordRune(r rune) bool {
	if r >= 0xFF10 && r <= 0xFF19 || r >= 0xFF21 && r <= 0xFF3A || r >= 0xFF41 && r <= 0xFF5A {
		return true
	}
	return r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// textFlags computes the text flags of s for an analyzer; cjkText selects
// the CJK analyzer's width folding.
func textFlags(s string, cjkText bool) uint8 {
	var flags uint8
	prev := ' '
	for i, r := range s {
		if r < utf8.RuneSelf {
			prev = r
			continue
		}
		if l := unicode.ToLower(r); l < utf8.RuneSelf {
			flags |= flagFoldASCII
		}
		if cjkText {
			switch {
			case r >= 0xFF65 && r <= 0xFF9F:
				flags |= flagFoldKana
			case r >= 0xFF01 && r <= 0xFF5E:
				next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
				switch {
				case isWordRune(r):
					flags |= flagFoldASCII
				case r == 0xFF3F: // ＿ joins on either side
					if isWordRune(prev) || isWordRune(next) {
						flags |= flagFoldASCII
					}
				case isWordRune(prev) && isWordRune(next):
					flags |= flagFoldASCII
				}
			}
		}
		prev = r
	}
	return flags
}

// docSource gives the text of the documents of one language.
type docSource interface {
	// text returns the text of the document id, nil if there is none.
	text(id string) (*docText, error)
	// sketch returns the phrase sketch of the document id; ok is false
	// if it has none.
	sketch(id string) (sk []byte, ok bool)
}

// memDocs is the document store of an in-memory index.
type memDocs struct {
	m map[string]*docText
}

func (s *memDocs) text(id string) (*docText, error) { return s.m[id], nil }

func (s *memDocs) sketch(id string) ([]byte, bool) {
	if t := s.m[id]; t != nil {
		return t.sketch, t.sketch != nil
	}
	return nil, false
}

func (s *diskDocs) sketch(id string) ([]byte, bool) {
	e, ok := s.entries[id]
	return e.sketch, ok && e.sketch != nil
}

// docEntry is the table entry of one document.
type docEntry struct {
	off, clen uint64
	lens      [len(longFields)]uint64
	flags     uint8
	crc       uint32
	sketch    []byte // nil: none (see sketch.go)
}

// diskDocs is the document store of an index opened with Open.
type diskDocs struct {
	path    string
	f       *os.File
	dict    []byte
	dataEnd uint64 // end of the records
	entries map[string]docEntry
	readers sync.Pool // *inflater
}

var errCorrupt = errors.New("corrupt")

func corruptf(path, format string, args ...any) error {
	return fmt.Errorf("search: %s: %w: %s", path, errCorrupt, fmt.Sprintf(format, args...))
}

// openDiskDocs opens a document store and returns it with the metadata of
// its documents.
func openDiskDocs(path string) (*diskDocs, []*docMeta, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	s, metas, err := readDiskDocs(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return s, metas, nil
}

func readDiskDocs(path string, f *os.File) (*diskDocs, []*docMeta, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	size := uint64(info.Size())
	if size < uint64(len(docsMagic))+footerSize {
		return nil, nil, corruptf(path, "too short (%d bytes)", size)
	}
	head := make([]byte, len(docsMagic))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, nil, fmt.Errorf("search: %s: %w", path, err)
	}
	foot := make([]byte, footerSize)
	if _, err := f.ReadAt(foot, int64(size-footerSize)); err != nil {
		return nil, nil, fmt.Errorf("search: %s: %w", path, err)
	}
	if string(head) != docsMagic || string(foot[32:]) != docsEnd {
		return nil, nil, corruptf(path, "not a document store")
	}
	dictOff := binary.LittleEndian.Uint64(foot[0:])
	metaOff := binary.LittleEndian.Uint64(foot[8:])
	tableOff := binary.LittleEndian.Uint64(foot[16:])
	count := binary.LittleEndian.Uint32(foot[24:])
	sum := binary.LittleEndian.Uint32(foot[28:])
	end := size - footerSize
	if !(uint64(len(docsMagic)) <= dictOff && dictOff <= metaOff && metaOff <= tableOff && tableOff <= end) ||
		metaOff-dictOff > dictSize || end-dictOff > 1<<32 {
		return nil, nil, corruptf(path, "bad footer")
	}
	// The table has at least 10 bytes per document.
	if uint64(count) > (end-tableOff)/10 {
		return nil, nil, corruptf(path, "bad footer")
	}
	tail := make([]byte, end-dictOff)
	if _, err := f.ReadAt(tail, int64(dictOff)); err != nil {
		return nil, nil, fmt.Errorf("search: %s: %w", path, err)
	}
	if crc32.Update(crc32.Checksum(tail, castagnoli), castagnoli, foot[:28]) != sum {
		return nil, nil, corruptf(path, "checksum mismatch")
	}
	s := &diskDocs{path: path, f: f, dataEnd: dictOff, entries: make(map[string]docEntry, count)}
	s.dict = tail[:metaOff-dictOff]

	metaJSON, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(tail[metaOff-dictOff:tableOff-dictOff])), maxDocBytes))
	if err != nil {
		return nil, nil, corruptf(path, "meta: %v", err)
	}
	var metas []*docMeta
	if err := json.Unmarshal(metaJSON, &metas); err != nil {
		return nil, nil, corruptf(path, "meta: %v", err)
	}

	table := tail[tableOff-dictOff:]
	uv := func() uint64 {
		v, n := binary.Uvarint(table)
		if n <= 0 {
			table = nil
			err = corruptf(path, "bad table")
			return 0
		}
		table = table[n:]
		return v
	}
	for i := uint32(0); i < count && err == nil; i++ {
		n := uv()
		if err != nil || n > uint64(len(table)) || n == 0 {
			return nil, nil, corruptf(path, "bad table")
		}
		id := string(table[:n])
		table = table[n:]
		var e docEntry
		e.off, e.clen = uv(), uv()
		var total uint64
		for j := range e.lens {
			e.lens[j] = uv()
			total += e.lens[j]
		}
		if err != nil || len(table) < 5 {
			return nil, nil, corruptf(path, "bad table")
		}
		e.flags = table[0]
		e.crc = binary.LittleEndian.Uint32(table[1:5])
		table = table[5:]
		if n := uv(); err == nil && n > 0 {
			if n-1 > uint64(len(table)) {
				return nil, nil, corruptf(path, "bad table")
			}
			e.sketch = table[: n-1 : n-1]
			table = table[n-1:]
		}
		if e.off < uint64(len(docsMagic)) || e.clen > dictOff || e.off > dictOff-e.clen || total > maxDocBytes {
			return nil, nil, corruptf(path, "record of %q out of bounds", id)
		}
		if _, dup := s.entries[id]; dup {
			return nil, nil, corruptf(path, "%q twice", id)
		}
		s.entries[id] = e
	}
	if err != nil || len(table) != 0 {
		return nil, nil, corruptf(path, "bad table")
	}
	for _, m := range metas {
		if m == nil {
			return nil, nil, corruptf(path, "empty meta")
		}
		if _, ok := s.entries[m.ID]; !ok {
			return nil, nil, corruptf(path, "no text for %q", m.ID)
		}
	}
	if len(metas) != len(s.entries) {
		return nil, nil, corruptf(path, "%d documents, %d metas", len(s.entries), len(metas))
	}
	return s, metas, nil
}

// inflater is a reusable DEFLATE reader with its buffers.
type inflater struct {
	src  bytes.Reader
	r    io.ReadCloser
	comp []byte
	buf  []byte
}

func (s *diskDocs) text(id string) (*docText, error) {
	e, ok := s.entries[id]
	if !ok {
		return nil, nil
	}
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
	t := &docText{s: sb.String(), flags: e.flags}
	var end uint64
	for i, l := range e.lens {
		end += l
		t.ends[i] = int(end)
	}
	return t, nil
}

func (s *diskDocs) close() error { return s.f.Close() }

// docsWriter writes a document store. add may be called with records in
// any order; finish sorts the table.
type docsWriter struct {
	path    string
	f       *os.File
	w       *bytes.Buffer // pending output, flushed in large writes
	off     uint64
	dict    []byte
	ids     []string
	entries []docEntry
	err     error
}

func createDocs(path string) (*docsWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dw := &docsWriter{path: path, f: f, w: bytes.NewBuffer(make([]byte, 0, 1<<20))}
	dw.write([]byte(docsMagic))
	return dw, nil
}

func (dw *docsWriter) write(b []byte) {
	dw.w.Write(b)
	dw.off += uint64(len(b))
	if dw.w.Len() >= 1<<20 {
		dw.flush()
	}
}

func (dw *docsWriter) flush() {
	if dw.err == nil && dw.w.Len() > 0 {
		_, dw.err = dw.f.Write(dw.w.Bytes())
	}
	dw.w.Reset()
}

// add appends the compressed record of a document.
func (dw *docsWriter) add(id string, rec *docRecord) {
	e := rec.entry
	e.off = dw.off
	e.clen = uint64(len(rec.comp))
	dw.write(rec.comp)
	dw.ids = append(dw.ids, id)
	dw.entries = append(dw.entries, e)
}

// finish writes dictionary, meta and table and closes the file.
func (dw *docsWriter) finish(metas []*docMeta) error {
	dictOff := dw.off
	var tail bytes.Buffer
	tail.Write(dw.dict)
	metaOff := dictOff + uint64(tail.Len())
	fw, _ := flate.NewWriter(&tail, flate.BestCompression)
	if err := json.NewEncoder(fw).Encode(metas); err != nil {
		return err
	}
	fw.Close()
	tableOff := dictOff + uint64(tail.Len())
	order := make([]int, len(dw.ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(dw.ids[a], dw.ids[b]) })
	var buf [binary.MaxVarintLen64]byte
	uv := func(v uint64) { tail.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	for _, i := range order {
		e := dw.entries[i]
		uv(uint64(len(dw.ids[i])))
		tail.WriteString(dw.ids[i])
		uv(e.off)
		uv(e.clen)
		for _, l := range e.lens {
			uv(l)
		}
		tail.WriteByte(e.flags)
		tail.Write(binary.LittleEndian.AppendUint32(nil, e.crc))
		if e.sketch == nil {
			uv(0)
		} else {
			uv(uint64(len(e.sketch)) + 1)
			tail.Write(e.sketch)
		}
	}
	foot := binary.LittleEndian.AppendUint64(nil, dictOff)
	foot = binary.LittleEndian.AppendUint64(foot, metaOff)
	foot = binary.LittleEndian.AppendUint64(foot, tableOff)
	foot = binary.LittleEndian.AppendUint32(foot, uint32(len(dw.ids)))
	foot = binary.LittleEndian.AppendUint32(foot, crc32.Update(crc32.Checksum(tail.Bytes(), castagnoli), castagnoli, foot))
	foot = append(foot, docsEnd...)
	dw.write(tail.Bytes())
	dw.write(foot)
	dw.flush()
	if err := dw.f.Close(); dw.err == nil {
		dw.err = err
	}
	if dw.err != nil {
		return fmt.Errorf("search: write %s: %w", dw.path, dw.err)
	}
	return nil
}

func (dw *docsWriter) abort() {
	dw.f.Close()
}

// docRecord is a document's text compressed for the store.
type docRecord struct {
	comp  []byte
	entry docEntry // lens, flags and crc
}

// docCompressor compresses records with one language's dictionary; it is
// used by one goroutine at a time.
type docCompressor struct {
	buf bytes.Buffer
	fw  *flate.Writer
}

func newDocCompressor(dict []byte) *docCompressor {
	c := &docCompressor{}
	c.fw, _ = flate.NewWriterDict(&c.buf, flateLevel, dict)
	return c
}

func (c *docCompressor) compress(t *docText) *docRecord {
	c.buf.Reset()
	c.fw.Reset(&c.buf)
	io.WriteString(c.fw, t.s)
	c.fw.Close()
	rec := &docRecord{comp: bytes.Clone(c.buf.Bytes())}
	start := 0
	for i, end := range t.ends {
		rec.entry.lens[i] = uint64(end - start)
		start = end
	}
	rec.entry.flags = t.flags
	rec.entry.crc = crc32.Checksum([]byte(t.s), castagnoli)
	return rec
}

// sampleDict builds a preset dictionary from the first documents of a
// language: the start of each, the first documents last (DEFLATE codes
// nearer strings in fewer bits).
func sampleDict(texts []*docText) []byte {
	var parts []string
	n := 0
	for _, t := range texts {
		if n >= dictSize {
			break
		}
		p := t.s[:min(len(t.s), 2048)]
		parts = append(parts, p)
		n += len(p)
	}
	var b []byte
	for i := len(parts) - 1; i >= 0; i-- {
		b = append(b, parts[i]...)
	}
	if len(b) > dictSize {
		b = b[len(b)-dictSize:]
	}
	return b
}
