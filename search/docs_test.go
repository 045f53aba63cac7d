package search

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"

	"github.com/postmortem-archive/gen/i18n"
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

func buildDir(t testing.TB, docs []Document) string {
	t.Helper()
	return buildDirWith(t, docs, nil, nil)
}

// buildDirWith is buildDir with opts, calling before, if not nil, on the
// Writer before the documents are added.
func buildDirWith(t testing.TB, docs []Document, opts []build.Option, before func(*build.Writer)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "search")
	w, err := build.Create(dir, siteLangs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before(w)
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
	t.Parallel()
	docs := storeDocs()
	dir := buildDir(t, docs)
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mem := editableOf(t, docs)
	for _, d := range docs {
		lang, _ := i18n.Canonical(d.Lang)
		want := schema.NewText(&d, analysis.KindOf(lang))
		// The flags stored are TextFlags' (FoldHan found by the analysis).
		want.Flags = analysis.TextFlags(want.All(), analysis.KindOf(lang))
		for name, x := range map[string]*engine{"disk": ix.engine, "editable": mem.engine} {
			got, err := x.docs[lang].Text(d.ID)
			if err != nil {
				t.Fatalf("%s: %s (%s): %v", name, d.ID, lang, err)
			}
			if got == nil || got.All() != want.All() || got.Field(1) != want.Field(1) || got.Field(2) != want.Field(2) || got.Flags != want.Flags {
				t.Fatalf("%s: %s (%s): text %+v, want %+v", name, d.ID, lang, got, want)
			}
			m := x.meta.incidents[d.ID].doc(lang)
			if m.Title != d.Title || m.URL != d.URL || !slices.Equal(m.Products, d.Products) || !m.Begin.Equal(d.Begin.UTC()) {
				t.Errorf("%s: %s (%s): meta %+v", name, d.ID, lang, m)
			}
		}
	}
	if got, err := ix.docs["en"].Text("no-such-document"); got != nil || err != nil {
		t.Errorf("unknown document: %v, %v", got, err)
	}
	// Flags.
	aw, _ := ix.docs["ja"].Text("2030-01-01-awkward")
	if aw.Flags != analysis.FoldASCII|analysis.FoldKana {
		t.Errorf("awkward flags %b", aw.Flags)
	}
	if !strings.Contains(aw.All(), "bad   utf-8   here") {
		t.Errorf("awkward text not cleaned: %q", aw.All())
	}
}

// A search that needs a damaged text reports it (package docstore tests
// the damage itself).
func TestDamagedTextIsAnError(t *testing.T) {
	t.Parallel()
	dir := buildDir(t, fixtures())
	path := filepath.Join(dir, "en", docstore.FileName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The records run from the magic to the dictionary, whose offset
	// starts the footer.
	dictOff := binary.LittleEndian.Uint64(b[len(b)-docstore.FooterSize:])
	for i := uint64(8); i < dictOff; i++ {
		b[i] ^= 0xff
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Search(context.Background(), Request{Query: "overloaded"}); !errors.Is(err, docstore.ErrCorrupt) {
		t.Errorf("search over a damaged text: %v, want an error wrapping docstore.ErrCorrupt", err)
	}
}

// A document deleted from an in-memory index has no text and no
// fragments, and its words no longer find it.
func TestMemoryDeleteText(t *testing.T) {
	t.Parallel()
	ix := buildEditable(t)
	resp := search(t, ix, Request{Query: `"資源耗盡"`, Lang: "zh-TW"})
	if len(resp.Results) != 1 || len(resp.Results[0].Fragments) == 0 {
		t.Fatalf("before: %+v", resp.Results)
	}
	if err := ix.Delete(idGmail, "zh-TW"); err != nil {
		t.Fatal(err)
	}
	if txt, _ := ix.docs["zh-TW"].Text(idGmail); txt != nil {
		t.Error("deleted document still has text")
	}
	// (The Cloud SQL incident, which says 資源 and 耗盡 apart, is found
	// by the compound's parts.)
	if resp := search(t, ix, Request{Query: "資源耗盡"}); slices.Contains(ids(resp), idGmail) {
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
	t.Parallel()
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
