package docstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// writeStore writes a store of n documents with varied text and returns
// its path, the texts and the metadata written.
func writeStore(t *testing.T, n int) (string, map[string]*Text, []*Meta) {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]*Text{}
	var metas []*Meta
	var all []*Text
	for i := range n {
		id := fmt.Sprintf("2017-%02d-%02d-incident-%d", 1+i%12, 1+i%28, i)
		body := strings.Repeat(fmt.Sprintf("Requests to service %d failed while the quota system was overloaded. ", i), 1+i%7)
		tx := NewText([NumFields]string{"Summary " + id, body, "資源耗盡 timeline"}, uint8(i%4))
		if i%3 == 0 {
			tx.Sketch = []byte{byte(i), 0xff}
		}
		texts[id] = tx
		all = append(all, tx)
		metas = append(metas, &Meta{ID: id, Lang: "en", Title: "Incident " + id, Begin: time.Date(2017, 1, 1+i, 0, 0, 0, 0, time.UTC),
			Products: []string{"Cloud SQL", fmt.Sprint("BigQuery ", i%2)}, Zone: "Asia/Taipei"})
	}
	w.SetDict(SampleDict(all))
	c, err := NewCompressor(w.dict)
	if err != nil {
		t.Fatal(err)
	}
	// Records in any order; the table is sorted.
	for _, id := range slices.Backward(slices.Sorted(func(yield func(string) bool) {
		for id := range texts {
			if !yield(id) {
				return
			}
		}
	})) {
		rec, err := c.Compress(texts[id])
		if err != nil {
			t.Fatal(err)
		}
		w.Add(id, rec)
	}
	for _, m := range metas {
		if err := w.AddMeta(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	// The store lists them by id.
	slices.SortFunc(metas, func(a, b *Meta) int { return strings.Compare(a.ID, b.ID) })
	return path, texts, metas
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	path, texts, metas := writeStore(t, 40)
	s, got, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(got) != len(metas) {
		t.Fatalf("%d metas, wrote %d", len(got), len(metas))
	}
	for i, m := range got {
		if m.ID != metas[i].ID || m.Title != metas[i].Title || !m.Begin.Equal(metas[i].Begin) {
			t.Errorf("meta %d: %+v, wrote %+v", i, m, metas[i])
		}
	}
	for id, want := range texts {
		tx, err := s.Text(id)
		if err != nil {
			t.Fatal(err)
		}
		if tx == nil || tx.All() != want.All() || tx.ends != want.ends || tx.Flags != want.Flags {
			t.Fatalf("%s: text %+v, want %+v", id, tx, want)
		}
		for i := range NumFields {
			if tx.Field(i) != want.Field(i) {
				t.Errorf("%s: field %d %q, want %q", id, i, tx.Field(i), want.Field(i))
			}
		}
		sk, ok := s.Sketch(id)
		if ok != (want.Sketch != nil) || !slices.Equal(sk, want.Sketch) {
			t.Errorf("%s: sketch %v %v, want %v", id, sk, ok, want.Sketch)
		}
	}
	if tx, err := s.Text("no-such-document"); tx != nil || err != nil {
		t.Errorf("unknown document: %v, %v", tx, err)
	}
}

// A damaged document store is an error when opened or read, never a panic
// and never wrong text.
// TestMetaShared checks that the strings and name lists the documents
// have alike are one copy: every search holds them all.
func TestMetaShared(t *testing.T) {
	t.Parallel()
	path, _, _ := writeStore(t, 4)
	s, got, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	if !same(got[0].Zone, got[1].Zone) || !same(got[0].Lang, got[3].Lang) || !same(got[1].Products[0], got[2].Products[0]) {
		t.Error("a string the documents have alike is not shared")
	}
	if &got[0].Products[0] != &got[2].Products[0] || &got[0].Products[0] == &got[1].Products[0] {
		t.Errorf("the products of 0 and 2 (%q) are not one list, or 1's (%q) is theirs", got[0].Products, got[1].Products)
	}
	// The ids, titles and URLs, each unique, are parts of one string.
	// (The documents have no URL.)
	if end := unsafe.Add(unsafe.Pointer(unsafe.StringData(got[0].Title)), len(got[0].Title)); end != unsafe.Pointer(unsafe.StringData(got[1].ID)) {
		t.Error("the ids, titles and URLs are not parts of one string")
	}
	for _, m := range got {
		if k, ok := s.entries[m.ID]; !ok || k.clen == 0 {
			t.Fatalf("no entry for %q", m.ID)
		}
	}
}

func TestCorrupt(t *testing.T) {
	t.Parallel()
	path, texts, _ := writeStore(t, 6)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := func() (s *Reader, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("panic: %v", p)
			}
		}()
		s, _, err = Open(path)
		return s, err
	}

	// Truncated files.
	for _, n := range []int{0, 7, 8, FooterSize, len(orig) / 2, len(orig) - FooterSize, len(orig) - 1} {
		write(orig[:n])
		if s, err := open(); err == nil {
			s.Close()
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	write(orig)
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	dictOff := int(s.dataEnd)
	s.Close()
	// Any byte changed in the dictionary, meta, table or footer.
	for i := dictOff; i < len(orig); i++ {
		b := slices.Clone(orig)
		b[i] ^= 0x5a
		write(b)
		if s, err := open(); err == nil {
			s.Close()
			t.Fatalf("byte %d of %d changed: no error", i, len(orig))
		} else if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v is not ErrCorrupt", i, err)
		}
	}
	// Any byte changed in the records: reading the document fails, or
	// gives the right text (DEFLATE ignores some bits).
	write(orig)
	if s, err = open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for id, e := range s.entries {
		for i := e.off; i < e.off+e.clen; i++ {
			if _, err := f.WriteAt([]byte{orig[i] ^ 0xa5}, int64(i)); err != nil {
				t.Fatal(err)
			}
			got, err := func() (t *Text, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = errors.New("panic")
					}
				}()
				return s.Text(id)
			}()
			if err == nil && got.All() != texts[id].All() {
				t.Fatalf("%s: byte %d changed: wrong text and no error", id, i)
			}
			if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: byte %d changed: %v", id, i, err)
			}
			if _, err := f.WriteAt([]byte{orig[i]}, int64(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A text read again is the one read before, and it is folded once for
// all the searches that look in it.
func TestTextKeptAndFoldedOnce(t *testing.T) {
	t.Parallel()
	path, texts, _ := writeStore(t, 10)
	s, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id := range texts {
		a, err := s.Text(id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Text(id)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatalf("%s: read twice, not kept", id)
		}
		calls := 0
		fold := func(s string) string { calls++; return strings.ToUpper(s) }
		for range 2 {
			for i := range NumFields {
				if got, want := a.FoldedField(i, fold), strings.ToUpper(a.Field(i)); got != want {
					t.Fatalf("%s: field %d folded %q, want %q", id, i, got, want)
				}
			}
		}
		if calls != NumFields {
			t.Errorf("%s: folded %d times, want once per field (%d)", id, calls, NumFields)
		}
		break
	}
}

// TestNothingLeftBeside: the rows and metadata a writer holds in files
// until Finish are gone once the store is finished or abandoned.
func TestNothingLeftBeside(t *testing.T) {
	t.Parallel()
	path, _, _ := writeStore(t, 5)
	if files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); !slices.Equal(files, []string{path}) {
		t.Errorf("finished: %v, want only %s", files, path)
	}
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddMeta(&Meta{ID: "a", Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 {
		t.Errorf("abandoned: %v, want the store alone", files)
	}
}
