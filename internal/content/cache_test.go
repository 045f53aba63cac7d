package content

import (
	"bytes"
	"os"
	"path/filepath"
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
		return c.load(abs, "content/x/en.md", "x", "en", &errs)
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
