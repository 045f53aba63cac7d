package render_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/render"
)

// TestRecycledBuffersMakeTheSamePages: pages made in buffers handed back
// through Recycle are the pages made without, made in a few buffers
// instead of one each; bytes the render did not lend are left alone.
func TestRecycledBuffersMakeTheSamePages(t *testing.T) {
	want := builtSite(t)
	r := newRendererWith(t, i18n.Files, render.Options{BaseURL: base, Generator: "gen test", Recycle: true})
	foreign := []byte("a static file the render does not own")
	var mu sync.Mutex
	got := map[string][]byte{}
	arrays := map[*byte]bool{}
	_, err := r.Render(func(name string, data []byte) error {
		mu.Lock()
		got[name] = bytes.Clone(data)
		if len(data) > 0 {
			arrays[&data[:1][0]] = true
		}
		mu.Unlock()
		r.Recycle(data)
		r.Recycle(foreign)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s differs when made in a recycled buffer", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d files made, want %d", len(got), len(want))
	}
	if len(want) < 20 || len(arrays) > len(want)/2 {
		t.Errorf("%d files made in %d buffers: buffers were not reused", len(want), len(arrays))
	}
	if string(foreign) != "a static file the render does not own" {
		t.Errorf("bytes the render did not lend were reused: %q", foreign)
	}
}
