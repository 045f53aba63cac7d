package build

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/postmortem-archive/gen/internal/memory"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/sitetest"
)

// TestWriteAgainReadsMovedTexts: a build whose warm write cannot carry
// the previous output over writes again, cold, from the same archive,
// whose timelines' texts the first write moved out of memory: the second
// write reads them from the same file, and makes the same pages.
func TestWriteAgainReadsMovedTexts(t *testing.T) {
	dir, site := generatedSite(t)
	id := site.Archive.Incidents[0].ID
	if site.Archive.Incidents[0].EventCount() == 0 {
		t.Fatalf("%s has no timeline: the archive is not what the test needs", id)
	}
	// This small archive's texts are moved too.
	opts := Options{Source: dir, Dest: filepath.Join(dir, "public"), BaseURL: "http://127.0.0.1:1313/", Cold: true, Memory: memory.Policy{Scratch: memory.Always}}
	m := newManifest(site.Archive, "", contentHashes(site.Pages))
	files := memory.Scratch{Policy: opts.Memory}
	defer files.Close()
	phases := startPhases()
	var pages [2][]byte
	for i := range pages {
		if _, err := write(site, opts, m, nil, nil, &files, &phases); err != nil {
			t.Fatalf("write %d: %v", i+1, err)
		}
		var err error
		if pages[i], err = os.ReadFile(filepath.Join(opts.Dest, "zh-TW", "incidents", id, "index.html")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pages[0], pages[1]) {
		t.Errorf("%s in zh-TW differs between the two writes", id)
	}
}

// TestScratchMakesTheSameSite: a build that keeps the timelines' texts
// and the search documents in files writes the same files, byte for
// byte, as one that keeps them in memory: the incident pages, their
// charts, incidents.json, and the search index in its bundle (but for
// bleve's own store, which differs between two builds of the same
// documents; the document stores, vocabularies and field lengths hold
// what was indexed).
func TestScratchMakesTheSameSite(t *testing.T) {
	dir, _ := generatedSite(t)
	var outputs, indexes [2]string
	for i, scratch := range []memory.Scratching{memory.Always, memory.Never} {
		outputs[i] = filepath.Join(t.TempDir(), "public")
		if _, err := Run(Options{Source: dir, Dest: outputs[i], BaseURL: "http://127.0.0.1:1313/", Memory: memory.Policy{Scratch: scratch}}); err != nil {
			t.Fatal(err)
		}
		prev, err := output.FindPrevious(outputs[i])
		if err != nil {
			t.Fatal(err)
		}
		indexes[i] = filepath.Join(prev.Bundle, bundle.IndexDir)
	}
	if files := sitetest.SameFiles(t, outputs[0], outputs[1]); files < 200 {
		t.Fatalf("%d files of the site compared: too few", files)
	}
	if files := sitetest.SameFiles(t, indexes[0], indexes[1]); files < 6 {
		t.Fatalf("%d files of the index compared: too few", files)
	}
}
