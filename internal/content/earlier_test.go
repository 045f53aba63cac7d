package content_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/content"
)

// TestEarlierPagesAreThoseParsed: pages saved by one load and read back
// by the next are the pages parsing gives, and a file is parsed again
// when its bytes changed, even with its size and modification time kept.
func TestEarlierPagesAreThoseParsed(t *testing.T) {
	dir := t.TempDir()
	langs := []string{"en", "zh-TW"}
	if err := corpus.Generate(dir, corpus.Options{N: 12, Langs: langs, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	parsed, err := content.LoadAfter(ctx, dir, langs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var saved bytes.Buffer
	if err := content.WriteEarlier(&saved, "gen A", parsed); err != nil {
		t.Fatal(err)
	}
	read := func(key string) (*content.Earlier, error) {
		return content.ReadEarlier(bytes.NewReader(saved.Bytes()), key)
	}
	if _, err := read("gen B"); !errors.Is(err, content.ErrOtherParser) {
		t.Fatalf("pages saved by another gen: error %v, want ErrOtherParser", err)
	}
	if _, err := content.ReadEarlier(bytes.NewReader(saved.Bytes()[:saved.Len()/2]), "gen A"); err == nil {
		t.Fatal("half of the saved pages read without an error")
	}

	earlier, err := read("gen A")
	if err != nil {
		t.Fatal(err)
	}
	taken, err := content.LoadAfter(ctx, dir, langs, earlier)
	if err != nil {
		t.Fatal(err)
	}
	if earlier.Taken() != len(parsed) || len(taken) != len(parsed) {
		t.Fatalf("took %d pages of %d files; want every one", earlier.Taken(), len(parsed))
	}
	for i := range parsed {
		if !reflect.DeepEqual(taken[i], parsed[i]) {
			t.Errorf("%s: the page taken differs from the page parsed:\n%+v\n%+v", parsed[i].File, taken[i], parsed[i])
		}
		src, err := taken[i].Source()
		if err != nil || len(src) == 0 {
			t.Errorf("%s: the taken page's Markdown cannot be read: %v", parsed[i].File, err)
		}
	}

	// One letter of a title changed, the size and time kept.
	k := slices.IndexFunc(parsed, func(p *content.Page) bool {
		c := p.Meta.Title.V[0] | 0x20
		return c >= 'a' && c <= 'z'
	})
	if k < 0 {
		t.Fatal("no title starts with a Latin letter")
	}
	file := filepath.Join(dir, filepath.FromSlash(parsed[k].File))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	title := []byte(parsed[k].Meta.Title.V)
	at := bytes.Index(data, title)
	if at < 0 || len(title) == 0 {
		t.Fatalf("%s: title %q not found as written", file, title)
	}
	changed := bytes.Clone(data)
	changed[at] ^= 0x20 // the case of its first letter
	if err := os.WriteFile(file, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, time.Time{}, info.ModTime()); err != nil {
		t.Fatal(err)
	}
	earlier, err = read("gen A")
	if err != nil {
		t.Fatal(err)
	}
	again, err := content.LoadAfter(ctx, dir, langs, earlier)
	if err != nil {
		t.Fatal(err)
	}
	if earlier.Taken() != len(parsed)-1 {
		t.Fatalf("took %d pages; want all but the changed file's, %d", earlier.Taken(), len(parsed)-1)
	}
	if got := again[k].Meta.Title.V; got == parsed[k].Meta.Title.V {
		t.Errorf("%s: the title is still %q after the file changed", parsed[k].File, got)
	}
}
