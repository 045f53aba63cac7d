package build

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/source"
)

// generatedSite loads a generated archive of 60 incidents in English
// and Traditional Chinese, of many organizations, from its folder dir.
func generatedSite(t *testing.T) (dir string, site *source.Site) {
	t.Helper()
	dir = t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 60, Langs: []string{"en", "zh-TW"}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	site, err := source.Load(dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, site
}

// TestManifestWrittenAsMarshalWould: the manifest written a piece at a
// time is json.Marshal's bytes, for a linked archive of many
// organizations and for the empty cases.
func TestManifestWrittenAsMarshalWould(t *testing.T) {
	_, site := generatedSite(t)
	linked := newManifest(site.Archive, "inputs <&>", contentHashes(site.Pages))
	if len(linked.Incidents) != 60 || len(linked.Terms) == 0 {
		t.Fatalf("%d incidents, %d taxonomies: the archive is not what the test needs", len(linked.Incidents), len(linked.Terms))
	}
	for name, m := range map[string]*manifest{
		"linked":  linked,
		"empty":   {Format: manifestFormat},
		"no list": {Content: map[string]string{}, Terms: map[string][]manifestTerm{"regions": nil}},
	} {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := m.encode(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: written\n%.300s\nwant\n%.300s", name, got.Bytes(), want)
		}
	}
}

// TestManifestBufferNotKept: once the manifest is written, marshalling
// small values (as the render does for every document) does not keep a
// buffer the size of the manifest alive.
func TestManifestBufferNotKept(t *testing.T) {
	m := &manifest{Format: manifestFormat, Inputs: "x", Content: map[string]string{}}
	for i := range 200_000 {
		m.Content[fmt.Sprintf("incident-%07d", i)] = fmt.Sprintf("%064x", i)
	}
	const size = 18 << 20 // about the manifest's JSON
	small := func() {
		for range 20 {
			if _, err := json.Marshal(map[string]int{"a": 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	live := func() uint64 {
		for range 3 {
			small()
			runtime.GC()
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := live()
	if err := m.encode(io.Discard); err != nil {
		t.Fatal(err)
	}
	if after := live(); after > before+size/2 {
		t.Errorf("live heap %d MB after writing the manifest, %d MB before: its buffer is kept", after>>20, before>>20)
	}
	runtime.KeepAlive(m)
}
