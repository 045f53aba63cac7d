package build_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/watch"
)

// A file saved again while its previous version is still being parsed is
// served at once: the build stuck in the old parse is given up, not waited
// for, and publishes nothing. The old parse is held until the test ends,
// so the fixed page can only have come from a build that did not wait.
func TestFollowGivesUpAStaleParse(t *testing.T) {
	dir := copySite(t)
	bq := filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	original, err := os.ReadFile(bq)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, dir)
	held := make(chan struct{})       // closed when the test ends: the slow parse may finish
	parsing := make(chan struct{}, 1) // the slow version is being parsed
	s.ContentCache().OnParse(func(file string, src []byte) {
		if bytes.Contains(src, []byte("Slow version")) {
			select {
			case parsing <- struct{}{}:
			default:
			}
			<-held
		}
	})
	t.Cleanup(func() { s.Close() })
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	w, err := watch.New(watch.Options{Roots: []string{filepath.Join(dir, "content")}})
	if err != nil {
		t.Fatal(err)
	}
	batches := make(chan []string)
	go func() {
		defer close(batches)
		for b := range w.Batches() {
			batches <- b.Paths
		}
	}()
	built := make(chan build.Built, 16)
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		s.Follow(ctx, batches, func(b build.Built) { built <- b })
	}()
	// Cleanups run last first: let the slow parse go, then stop following.
	t.Cleanup(func() { cancel(); w.Close(); <-followed })
	t.Cleanup(func() { close(held) })

	bound := time.NewTimer(time.Minute) // a bound on failure, not a measure
	defer bound.Stop()
	write := func(title string) {
		t.Helper()
		if err := os.WriteFile(bq, bytes.Replace(original, []byte("title: "), []byte("title: "+title+" "), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Slow version")
	select {
	case <-parsing:
	case <-bound.C:
		t.Fatal("the slow version was never parsed")
	}
	write("Fixed version")
	page := "en/incidents/2017-03-13-bigquery-streaming-inserts/index.html"
	for {
		select {
		case b := <-built:
			var got []byte
			if p := b.Pages[page]; p != nil {
				if got, err = p.Bytes(); err != nil {
					t.Fatal(err)
				}
			}
			if bytes.Contains(got, []byte("Slow version")) {
				t.Fatalf("a build of the slow version was published")
			}
			if b.Err == nil && bytes.Contains(got, []byte("Fixed version")) {
				return // served while the slow parse is still held
			}
		case <-bound.C:
			t.Fatal("the fixed version was not built while the slow one was being parsed")
		}
	}
}
