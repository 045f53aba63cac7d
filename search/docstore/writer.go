package docstore

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"sync"
)

// Writer writes a document store. Add may be called with records in any
// order; Finish sorts the table. Add and Finish are called by one
// goroutine; AddMeta may be called by another, before Finish.
type Writer struct {
	path string
	f    *os.File
	w    *bytes.Buffer // pending output, flushed in large writes
	off  uint64
	dict []byte
	rows *spill // the table's rows, by document
	row  []byte // the row being encoded, reused
	err  error

	metaMu  sync.Mutex          // AddMeta may be called beside Add
	metas   *spill              // the documents' metadata, as JSON
	metaIDs map[uint64]struct{} // their ids' hashes (pointers would cost the collector more)
	seed    maphash.Seed
}

// Create creates the store at path, which must not exist.
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dw, err := newWriter(path, f, 0)
	if err != nil {
		return nil, err
	}
	dw.write([]byte(magic))
	return dw, nil
}

// newWriter writes the store at path into f, which holds off bytes.
func newWriter(path string, f *os.File, off uint64) (*Writer, error) {
	dw := &Writer{path: path, f: f, w: newBuffer(), off: off, metaIDs: map[uint64]struct{}{}, seed: maphash.MakeSeed()}
	var err error
	if dw.rows, err = newSpill(path + ".rows"); err == nil {
		if dw.metas, err = newSpill(path + ".metas"); err != nil {
			dw.rows.remove()
		}
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
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
	dw.row = appendRow(dw.row[:0], id, e)
	dw.rows.add(id, dw.row)
}

// AddMeta adds the metadata of a document; a document's twice is an
// error. It may be called beside Add.
func (dw *Writer) AddMeta(m *Meta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	dw.metaMu.Lock()
	defer dw.metaMu.Unlock()
	h := maphash.String(dw.seed, m.ID)
	// Another id with the same hash is possible, if unlikely: the ids
	// are read only then.
	if _, ok := dw.metaIDs[h]; ok && slices.ContainsFunc(dw.metas.items, func(it spilled) bool { return it.id == m.ID }) {
		return errors.New("added twice")
	}
	dw.metaIDs[h] = struct{}{}
	dw.metas.add(m.ID, b)
	return nil
}

// appendRow appends the table row of document id to b.
func appendRow(b []byte, id string, e entry) []byte {
	b = binary.AppendUvarint(b, uint64(len(id)))
	b = append(b, id...)
	b = binary.AppendUvarint(b, e.off)
	b = binary.AppendUvarint(b, e.clen)
	for _, l := range e.lens {
		b = binary.AppendUvarint(b, l)
	}
	b = append(b, e.flags)
	b = binary.LittleEndian.AppendUint32(b, e.crc)
	if e.sketch == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(e.sketch))+1)
	return append(b, e.sketch...)
}

// Finish writes dictionary, meta and table, both in the order of the
// documents' ids, and closes the file.
func (dw *Writer) Finish() error {
	defer dw.removeSpills()
	dictOff := dw.off
	var tail bytes.Buffer
	tail.Write(dw.dict)
	metaOff := dictOff + uint64(tail.Len())
	if err := encodeMeta(&tail, dw.metas); err != nil {
		dw.f.Close()
		return fmt.Errorf("search: write %s: %w", dw.path, err)
	}
	tableOff := dictOff + uint64(tail.Len())
	if err := dw.rows.each(func(_ string, row []byte) { tail.Write(row) }); err != nil {
		dw.f.Close()
		return err
	}
	count := len(dw.rows.items)
	foot := binary.LittleEndian.AppendUint64(nil, dictOff)
	foot = binary.LittleEndian.AppendUint64(foot, metaOff)
	foot = binary.LittleEndian.AppendUint64(foot, tableOff)
	foot = binary.LittleEndian.AppendUint32(foot, uint32(count))
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
	dw.removeSpills()
}

// removeSpills removes the temporary files (the index directory is
// kept, so they must not stay in it).
func (dw *Writer) removeSpills() {
	dw.rows.remove()
	dw.metas.remove()
}

// encodeMeta appends the compressed JSON list of the metadata in metas,
// in the order of their ids, to w: what json.Encoder writes of the list
// of their Metas.
func encodeMeta(w io.Writer, metas *spill) error {
	fw, err := flate.NewWriter(w, flate.BestCompression)
	if err != nil {
		return err
	}
	sep := []byte{'['}
	err = metas.each(func(_ string, m []byte) {
		fw.Write(sep) // the writer's errors are sticky: the last Write returns them
		fw.Write(m)
		sep = []byte{','}
	})
	if err != nil {
		return err
	}
	if len(sep) > 0 && sep[0] == '[' {
		fw.Write(sep)
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
