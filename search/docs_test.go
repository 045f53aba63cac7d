package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// storeDocs are the documents of the document store tests: the fixtures
// and a generated archive, in three languages.
func storeDocs() []Document {
	docs := fixtures()
	for _, d := range genArchive(60) {
		docs = append(docs, d)
	}
	// Awkward text: invalid UTF-8, U+FFFD, full-width letters, half-width
	// katakana, an empty document.
	docs = append(docs,
		Document{ID: "2030-01-01-awkward", Lang: "ja", Title: "ｶﾀｶﾅ", Summary: "bad \xff utf-8 \uFFFD here",
			Body: "ＧＭＡＩＬ　ﾃｽﾄ K-pop İstanbul", Begin: day("2030-01-01")},
		Document{ID: "2030-01-02-empty", Lang: "en", Begin: day("2030-01-02")})
	return docs
}

func buildDir(t *testing.T, docs []Document) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "search")
	w, err := Create(dir, siteLangs)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDocStoreRoundTrip(t *testing.T) {
	docs := storeDocs()
	dir := buildDir(t, docs)
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mem, err := NewMemory(siteLangs)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if err := mem.AddBatch(docs); err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		lang, _ := CanonicalLang(d.Lang)
		want := newDocText(&d, kindOf(lang) == kindCJK)
		for name, x := range map[string]*Index{"disk": ix, "memory": mem} {
			got, err := x.docs[lang].text(d.ID)
			if err != nil {
				t.Fatalf("%s: %s (%s): %v", name, d.ID, lang, err)
			}
			if got == nil || got.s != want.s || got.ends != want.ends || got.flags != want.flags {
				t.Fatalf("%s: %s (%s): text %+v, want %+v", name, d.ID, lang, got, want)
			}
			m := x.meta.incidents[d.ID].docs[lang]
			if m.Title != d.Title || m.URL != d.URL || !slices.Equal(m.Products, d.Products) || !m.Begin.Equal(d.Begin.UTC()) {
				t.Errorf("%s: %s (%s): meta %+v", name, d.ID, lang, m)
			}
		}
	}
	if got, err := ix.docs["en"].text("no-such-document"); got != nil || err != nil {
		t.Errorf("unknown document: %v, %v", got, err)
	}
	// Flags.
	aw, _ := ix.docs["ja"].text("2030-01-01-awkward")
	if aw.flags != flagFoldASCII|flagFoldKana {
		t.Errorf("awkward flags %b", aw.flags)
	}
	if !strings.Contains(aw.s, "bad   utf-8   here") {
		t.Errorf("awkward text not cleaned: %q", aw.s)
	}
}

// A damaged document store is an error when opened or read, never a panic
// and never wrong text.
func TestDocStoreCorrupt(t *testing.T) {
	dir := buildDir(t, fixtures())
	path := filepath.Join(dir, "en", docsFile)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, metas, err := openDiskDocs(path)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]*docText{}
	for _, m := range metas {
		if texts[m.ID], err = s.text(m.ID); err != nil {
			t.Fatal(err)
		}
	}
	s.close()

	write := func(b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := func() (s *diskDocs, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("panic: %v", p)
			}
		}()
		s, _, err = openDiskDocs(path)
		return s, err
	}

	// Truncated files.
	for _, n := range []int{0, 7, 8, footerSize, len(orig) / 2, len(orig) - footerSize, len(orig) - 1} {
		write(orig[:n])
		if s, err := open(); err == nil {
			s.close()
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	// Any byte changed in the dictionary, meta, table or footer.
	dictOff := int(s.dataEnd)
	for i := dictOff; i < len(orig); i++ {
		b := slices.Clone(orig)
		b[i] ^= 0x5a
		write(b)
		if s, err := open(); err == nil {
			s.close()
			t.Fatalf("byte %d of %d changed: no error", i, len(orig))
		} else if !errors.Is(err, errCorrupt) {
			t.Fatalf("byte %d changed: %v is not errCorrupt", i, err)
		}
	}
	// Any byte changed in the records: reading the document fails, or
	// gives the right text (DEFLATE ignores some bits).
	write(orig)
	s, err = open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for id, e := range s.entries {
		for i := e.off; i < e.off+e.clen; i++ {
			f.WriteAt([]byte{orig[i] ^ 0xa5}, int64(i))
			got, err := func() (t *docText, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = errors.New("panic")
					}
				}()
				return s.text(id)
			}()
			if err == nil && got.s != texts[id].s {
				t.Fatalf("%s: byte %d changed: wrong text and no error", id, i)
			}
			if err != nil && !errors.Is(err, errCorrupt) {
				t.Fatalf("%s: byte %d changed: %v", id, i, err)
			}
			f.WriteAt([]byte{orig[i]}, int64(i))
		}
	}

	// A search that needs a damaged text reports it.
	e := s.entries[idBigQuery]
	f.WriteAt([]byte{orig[e.off+e.clen/2] ^ 0xff}, int64(e.off+e.clen/2))
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Search(context.Background(), Request{Query: "overloaded"}); err == nil {
		t.Error("search over a damaged text: no error")
	}
}

// A document deleted from an in-memory index has no text and no
// fragments, and its words no longer find it.
func TestMemoryDeleteText(t *testing.T) {
	ix := buildMemory(t)
	resp := search(t, ix, Request{Query: "資源耗盡", Lang: "zh-TW"})
	if len(resp.Results) != 1 || len(resp.Results[0].Fragments) == 0 {
		t.Fatalf("before: %+v", resp.Results)
	}
	if err := ix.Delete(idGmail, "zh-TW"); err != nil {
		t.Fatal(err)
	}
	if txt, _ := ix.docs["zh-TW"].text(idGmail); txt != nil {
		t.Error("deleted document still has text")
	}
	if resp := search(t, ix, Request{Query: "資源耗盡"}); resp.Total != 0 {
		t.Errorf("deleted document still found: %+v", resp.Results)
	}
	// The English version remains, with its own fragments.
	resp = search(t, ix, Request{Query: "Gmail", Lang: "zh-TW"})
	if len(resp.Results) != 1 || resp.Results[0].Lang != "en" || resp.Results[0].FragmentsLang != "" ||
		!strings.Contains(strings.Join(resp.Results[0].Fragments, " "), "<mark>Gmail</mark>") {
		t.Errorf("after deleting zh-TW: %+v", resp.Results)
	}
	if err := ix.Delete(idGmail, ""); err != nil {
		t.Fatal(err)
	}
	if resp := search(t, ix, Request{Query: "Gmail"}); resp.Total != 0 {
		t.Errorf("deleted incident still found: %+v", resp.Results)
	}
}

// The index is no larger than the text it indexes.
func TestIndexSize(t *testing.T) {
	docs := genArchive(200)
	if len(docs) < 280 {
		t.Fatalf("%d documents", len(docs))
	}
	dir := filepath.Join(t.TempDir(), "search")
	buildArchive(t, dir, docs)
	size, text := dirSize(dir), int64(textBytes(docs))
	t.Logf("%d documents: index %d bytes, text %d bytes (%.2f)", len(docs), size, text, float64(size)/float64(text))
	if size > text {
		t.Errorf("index %d bytes, larger than its text (%d bytes)", size, text)
	}
}
