package docstore

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strings"
)

// Writer writes a document store. Add may be called with records in any
// order; Finish sorts the table. A Writer is used by one goroutine.
type Writer struct {
	path    string
	f       *os.File
	w       *bytes.Buffer // pending output, flushed in large writes
	off     uint64
	dict    []byte
	ids     []string
	entries []entry
	err     error
}

// Create creates the store at path, which must not exist.
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dw := &Writer{path: path, f: f, w: newBuffer()}
	dw.write([]byte(magic))
	return dw, nil
}

// newBuffer holds a Writer's pending output.
func newBuffer() *bytes.Buffer { return bytes.NewBuffer(make([]byte, 0, 1<<20)) }

func (dw *Writer) write(b []byte) {
	dw.w.Write(b)
	dw.off += uint64(len(b))
	if dw.w.Len() >= 1<<20 {
		dw.flush()
	}
}

func (dw *Writer) flush() {
	if dw.err == nil && dw.w.Len() > 0 {
		_, dw.err = dw.f.Write(dw.w.Bytes())
	}
	dw.w.Reset()
}

// SetDict sets the preset dictionary the records are compressed with
// (SampleDict); it must be set before Finish.
func (dw *Writer) SetDict(dict []byte) { dw.dict = dict }

// Add appends the compressed record of a document.
func (dw *Writer) Add(id string, rec *Record) {
	e := rec.entry
	e.off = dw.off
	e.clen = uint64(len(rec.comp))
	dw.write(rec.comp)
	dw.ids = append(dw.ids, id)
	dw.entries = append(dw.entries, e)
}

// MetaRecord is a document's metadata as the store writes it, its JSON:
// a build holds every document's until Finish, and a slice of bytes is
// one object without pointers where a Meta holds a dozen pointers for the
// collector to follow.
type MetaRecord struct {
	ID   string
	json []byte
}

// EncodeMeta makes m's record.
func EncodeMeta(m *Meta) (MetaRecord, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return MetaRecord{}, fmt.Errorf("search: metadata of %s: %w", m.ID, err)
	}
	return MetaRecord{ID: m.ID, json: b}, nil
}

// Finish writes dictionary, meta (sorted by id, as they are looked up)
// and table and closes the file.
func (dw *Writer) Finish(metas []MetaRecord) error {
	dictOff := dw.off
	var tail bytes.Buffer
	tail.Write(dw.dict)
	metaOff := dictOff + uint64(tail.Len())
	if err := encodeMeta(&tail, metas); err != nil {
		dw.Abort()
		return fmt.Errorf("search: write %s: %w", dw.path, err)
	}
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
	foot = append(foot, endMagic...)
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

// Abort closes the file of an unfinished store (the index directory is
// then removed as a whole).
func (dw *Writer) Abort() {
	dw.f.Close() // the store is abandoned: its close error tells nothing more
}

// encodeMeta appends the compressed JSON list of metas, sorted by id, to
// w: what json.Encoder writes of the list of their Metas.
func encodeMeta(w io.Writer, metas []MetaRecord) error {
	slices.SortFunc(metas, func(a, b MetaRecord) int { return strings.Compare(a.ID, b.ID) })
	fw, err := flate.NewWriter(w, flate.BestCompression)
	if err != nil {
		return err
	}
	fw.Write([]byte{'['})
	for i, m := range metas {
		if i > 0 {
			fw.Write([]byte{','})
		}
		fw.Write(m.json)
	}
	if _, err := fw.Write([]byte("]\n")); err != nil {
		return err
	}
	return fw.Close()
}

// Record is a document's text compressed for the store.
type Record struct {
	comp  []byte
	entry entry // lens, flags and crc
}

// Compressor compresses records with one language's dictionary; it is
// used by one goroutine at a time.
type Compressor struct {
	buf bytes.Buffer
	fw  *flate.Writer
}

// NewCompressor returns a compressor with the dictionary dict.
func NewCompressor(dict []byte) (*Compressor, error) {
	c := &Compressor{}
	var err error
	c.fw, err = flate.NewWriterDict(&c.buf, flateLevel, dict)
	return c, err
}

// Compress compresses the text of a document.
func (c *Compressor) Compress(t *Text) (*Record, error) {
	c.buf.Reset()
	c.fw.Reset(&c.buf)
	if _, err := io.WriteString(c.fw, t.s); err != nil {
		return nil, err
	}
	if err := c.fw.Close(); err != nil {
		return nil, err
	}
	rec := &Record{comp: bytes.Clone(c.buf.Bytes())}
	start := 0
	for i, end := range t.ends {
		rec.entry.lens[i] = uint64(end - start)
		start = end
	}
	rec.entry.flags = t.Flags
	rec.entry.crc = crc32.Checksum([]byte(t.s), castagnoli)
	rec.entry.sketch = t.Sketch
	return rec, nil
}

// SampleDict builds a preset dictionary from the first documents of a
// language: the start of each, the first documents last (DEFLATE codes
// nearer strings in fewer bits).
func SampleDict(texts []*Text) []byte {
	var parts []string
	n := 0
	for _, t := range texts {
		if n >= DictSize {
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
	if len(b) > DictSize {
		b = b[len(b)-DictSize:]
	}
	return b
}
