package server

import (
	"errors"
	"sync/atomic"
	"testing"
)

// countingLazy makes its content and counts how often.
type countingLazy struct {
	data  string
	err   error
	calls atomic.Int32
}

func (c *countingLazy) Bytes() ([]byte, error) {
	c.calls.Add(1)
	return []byte(c.data), c.err
}

// TestMemSiteLazyFiles: a lazy file is made when first opened and once;
// handed over again in the next swap it is the same file, not made
// again; a new one replaces it; a failure to make it is the open's error.
func TestMemSiteLazyFiles(t *testing.T) {
	m := NewMemSite()
	page := &countingLazy{data: "<p>page</p>"}
	m.SwapLazy(map[string][]byte{"index.html": []byte("home")}, map[string]Lazy{"en/incidents/a/index.html": page}, nil)
	if page.calls.Load() != 0 {
		t.Fatal("the lazy page was made before anyone asked for it")
	}
	if !m.Snapshot().(*memSnapshot).dirs["en/incidents/a"] {
		t.Error("a lazy page's folder is not a folder of the site")
	}
	open := func(name string) *File {
		t.Helper()
		f, err := m.Snapshot().Open(name)
		if err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		return f
	}
	first := open("en/incidents/a/index.html")
	if string(first.Data) != page.data || first.ETag == "" || first.Size != int64(len(page.data)) {
		t.Errorf("lazy page opened as %q, ETag %q, size %d", first.Data, first.ETag, first.Size)
	}
	open("en/incidents/a/index.html")
	m.SwapLazy(map[string][]byte{"index.html": []byte("home")}, map[string]Lazy{"en/incidents/a/index.html": page}, nil)
	if again := open("en/incidents/a/index.html"); again.ETag != first.ETag || page.calls.Load() != 1 {
		t.Errorf("the same lazy page in the next swap: made %d times, ETag %q then %q", page.calls.Load(), first.ETag, again.ETag)
	}
	edited := &countingLazy{data: "<p>edited</p>"}
	m.SwapLazy(map[string][]byte{"index.html": []byte("home")}, map[string]Lazy{"en/incidents/a/index.html": edited}, nil)
	if f := open("en/incidents/a/index.html"); string(f.Data) != edited.data || f.ETag == first.ETag {
		t.Errorf("a new lazy page: %q, ETag %q", f.Data, f.ETag)
	}
	broken := &countingLazy{err: errors.New("no layout")}
	m.SwapLazy(map[string][]byte{}, map[string]Lazy{"en/incidents/b/index.html": broken}, nil)
	if _, err := m.Snapshot().Open("en/incidents/b/index.html"); err == nil || err.Error() != "no layout" {
		t.Errorf("a lazy page that cannot be made opened with %v", err)
	}
}
