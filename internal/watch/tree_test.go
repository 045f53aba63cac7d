package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// handleUntil feeds the tree fsnotify's events, one by one as the
// Watcher's loop does, until done says so; last is the event handled
// last. waitEvents bounds a failure.
func handleUntil(t *testing.T, tr *tree, what string, done func() bool, last *fsnotify.Event) {
	t.Helper()
	deadline := time.After(waitEvents)
	for !done() {
		select {
		case ev := <-tr.fsw.Events:
			tr.handle(ev)
			*last = ev
		case err := <-tr.fsw.Errors:
			t.Fatalf("fsnotify: %v", err)
		case <-deadline:
			t.Fatalf("%s: not within %v (pending %v, anchors %v, changed %v)", what, waitEvents, tr.pending, tr.anchors, tr.changed)
		}
	}
}

// The folder watched for a missing root is removed and made again before
// the tree hears of it (rm -rf site; git checkout): the new folder is a
// new inode, which the old watch does not see, so it is watched again.
func TestAnchorRecreated(t *testing.T) {
	tmp := t.TempDir()
	site := filepath.Join(tmp, "site")
	content := filepath.Join(site, "content")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer fsw.Close()
	tr, err := newTree(fsw, []string{content})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.anchors[site] {
		t.Fatalf("anchors %v, want %s", tr.anchors, site)
	}

	// The tree does not look while the folder is replaced.
	if err := os.RemoveAll(site); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	var last fsnotify.Event
	handleUntil(t, tr, "the removal of "+site, func() bool { return last.Name == site && last.Has(fsnotify.Remove) }, &last)
	c := filepath.Join(content, "c.md")
	write(t, c, "c")
	handleUntil(t, tr, "c.md in the new folder", func() bool { return tr.changed[c] }, &last)
	if got := tr.take(); !slices.Equal(got, []string{c}) {
		t.Errorf("changed %q, want %q", got, c)
	}
}
