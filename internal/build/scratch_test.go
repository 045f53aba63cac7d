package build

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

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
	defer func(above float64) { scratchAbove = above }(scratchAbove)
	scratchAbove = 0 // this small archive's texts are moved too
	opts := Options{Source: dir, Dest: filepath.Join(dir, "public"), BaseURL: "http://127.0.0.1:1313/", Cold: true}
	m := newManifest(site.Archive, "", contentHashes(site.Pages))
	var files scratch
	defer files.close()
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

// TestScratchOnlyNearTheLimit: the texts are moved out of memory, and
// the search documents wait in a file, when the collector's goal after
// linking nears the soft limit (a 100,000 incident build: 0.6–0.7 GB
// live, GOGC 200, 1.75 GiB), not when it is far below (10,000: about
// 100 MB live), nor without a limit.
func TestScratchOnlyNearTheLimit(t *testing.T) {
	const limit = 1792 << 20
	for _, c := range []struct {
		live, percent uint64
		limit         int64
		moved         bool
	}{
		{650 << 20, 200, limit, true},
		{100 << 20, 200, limit, false},
		{400 << 20, 100, limit, false},
		{650 << 20, 200, math.MaxInt64, false},
	} {
		if got := goalPasses(c.live, c.percent, c.limit, scratchAbove); got != c.moved {
			t.Errorf("%d MB live, GOGC %d, limit %d: moved %v, want %v", c.live>>20, c.percent, c.limit, got, c.moved)
		}
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
	defer func(above float64) { scratchAbove = above }(scratchAbove)
	var outputs, indexes [2]string
	for i, above := range []float64{0, math.Inf(1)} {
		scratchAbove = above
		outputs[i] = filepath.Join(t.TempDir(), "public")
		if _, err := Run(Options{Source: dir, Dest: outputs[i], BaseURL: "http://127.0.0.1:1313/"}); err != nil {
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
