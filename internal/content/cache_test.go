package content

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// A parse given up while its file was saved again, and finishing late,
// does not replace the newer version's page in the cache, even when both
// versions have the same size and modification time.
func TestCacheDropsAStaleParse(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "en.md")
	mtime := time.Date(2021, 6, 1, 10, 0, 0, 0, time.UTC)
	write := func(title string) {
		t.Helper()
		src := "---\ntitle: " + title + "\nsummary: S\n---\n\nText.\n"
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	c := NewCache()
	parsing, release := make(chan struct{}), make(chan struct{})
	c.OnParse(func(_ string, src []byte) {
		if bytes.Contains(src, []byte("Old")) {
			close(parsing)
			<-release
		}
	})
	load := func() *Page {
		var errs diag.List
		return c.load(abs, "content/x/en.md", "x", "en", nil, &errs)
	}
	write("Old")
	var wg sync.WaitGroup
	wg.Go(func() { load() }) // the parse a newer save gives up
	<-parsing
	write("New") // same size, same time
	c.Forget(abs)
	if p := load(); p.Meta.Title.V != "New" {
		t.Fatalf("title %q after the new save", p.Meta.Title.V)
	}
	close(release)
	wg.Wait()
	if p := load(); p.Meta.Title.V != "New" {
		t.Errorf("title %q once the old parse finished; want the new version's", p.Meta.Title.V)
	}
}

// A page loaded without a cache does not hold its text: Source reads it
// again, and refuses a file that changed since it was loaded, whose
// timeline and links were read from the first version.
func TestSourceReadAgain(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "content", "2021-06-01-x", "en.md")
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\r\ntitle: T\r\nsummary: S\r\n---\r\n\r\nText.\r\n"
	if err := os.WriteFile(abs, []byte("\xef\xbb\xbf"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	pages, err := Load(dir, []string{"en"}, nil)
	if err != nil || len(pages) != 1 {
		t.Fatalf("%d pages, %v", len(pages), err)
	}
	p := pages[0]
	if p.Body != nil {
		t.Errorf("the page holds its body (%d bytes)", len(p.Body))
	}
	if text, err := p.PlainText(); err != nil || text != "Text." {
		t.Errorf("text %q, %v; want the body read again", text, err)
	}
	if err := os.WriteFile(abs, []byte(strings.Replace(src, "Text.", "Edit.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Source(); err == nil || !strings.Contains(err.Error(), "content/2021-06-01-x/en.md: changed while the site was built") {
		t.Errorf("source of a changed file: %v", err)
	}
	cached, err := Load(dir, []string{"en"}, NewCache())
	if err != nil || string(cached[0].Body) != "\nEdit.\n" {
		t.Errorf("with a cache: body %q, %v; want it kept", cached[0].Body, err)
	}
}

// A page keeps the hash of its file as read, byte order mark and CR
// line ends included, with or without a cache: a build's manifest is
// made from it instead of reading every file again.
func TestPageSumIsTheFilesHash(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "content", "2021-06-01-x", "en.md")
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"\xef\xbb\xbf---\r\ntitle: T\r\nsummary: S\r\n---\r\n\r\nText.\r\n", "---\ntitle: T\nsummary: S\n---\n\nEdit.\n"} {
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cache := range []*Cache{nil, NewCache()} {
			pages, err := Load(dir, []string{"en"}, cache)
			if err != nil || len(pages) != 1 {
				t.Fatalf("%d pages, %v", len(pages), err)
			}
			if want := sha256.Sum256([]byte(src)); pages[0].Sum != want {
				t.Errorf("cache %v: sum %x, want %x", cache != nil, pages[0].Sum, want)
			}
		}
	}
}
