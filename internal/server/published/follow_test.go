package published_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/server/published"
	"github.com/postmortem-archive/gen/internal/sitetest"
	"github.com/postmortem-archive/gen/search"
)

// TestFollowerReopensAndClosesWhenDone: a new build of the folder is
// opened by the next Current; the previous index stays open for a search
// holding it, and is closed as soon as that search lets go.
func TestFollowerReopensAndClosesWhenDone(t *testing.T) {
	site := sitetest.Copy(t, "../../..")
	dest := filepath.Join(t.TempDir(), "public")
	buildSite := func() {
		t.Helper()
		if _, err := build.Run(build.Options{Source: site, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
			t.Fatal(err)
		}
	}
	buildSite()
	var opened []*published.Output
	f, err := published.Follow(dest, func(o *published.Output) { opened = append(opened, o) })
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first, err := f.Current()
	if err != nil || len(opened) != 1 || first != opened[0] {
		t.Fatalf("Current before any rebuild: %v, %d opened", err, len(opened))
	}

	// A search is running on the first build's index.
	held := first.Index
	if !held.Acquire() {
		t.Fatal("the index is closed")
	}
	count := func(ix search.Searcher) (int, error) {
		res, err := ix.Search(context.Background(), search.Request{Query: "zeppelin", Lang: "en"})
		if err != nil {
			return 0, err
		}
		return res.Total, nil
	}

	// The rebuild brings a word no build had.
	file := filepath.Join(site, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(text, "\nA zeppelin.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	buildSite()
	second, err := f.Current()
	if err != nil {
		t.Fatal(err)
	}
	if second == first || len(opened) != 2 || second != opened[1] {
		t.Fatalf("the new build was not opened: %d opened", len(opened))
	}
	if n, err := count(second.Index.Value()); err != nil || n != 1 {
		t.Errorf("the new index finds zeppelin %d times (%v), want 1", n, err)
	}
	if n, err := count(held.Value()); err != nil || n != 0 {
		t.Fatalf("the running search lost its index: %d results, %v", n, err)
	}
	if again, _ := f.Current(); again != second {
		t.Error("Current reopened an unchanged build")
	}
	held.Release()
	if _, err := count(held.Value()); err == nil {
		t.Error("the previous index is still open after its last search ended")
	}
}
