package build

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/postmortem-archive/gen/internal/corpus"
	"github.com/postmortem-archive/gen/internal/source"
)

// TestWriteAgainReadsMovedTexts: a build whose warm write cannot carry
// the previous output over writes again, cold, from the same archive,
// whose timelines' texts the first write moved out of memory: the second
// write reads them from the same file, and makes the same pages.
func TestWriteAgainReadsMovedTexts(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 30, Langs: []string{"en", "zh-TW"}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	site, err := source.Load(dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := site.Archive.Incidents[0].ID
	if site.Archive.Incidents[0].EventCount() == 0 {
		t.Fatalf("%s has no timeline: the archive is not what the test needs", id)
	}
	opts := Options{Source: dir, Dest: filepath.Join(dir, "public"), BaseURL: "http://127.0.0.1:1313/", Cold: true}
	m := newManifest(site.Archive, "", contentHashes(site.Pages))
	var texts movedTexts
	defer texts.close()
	phases := startPhases()
	var pages [2][]byte
	for i := range pages {
		if _, err := write(site, opts, m, nil, nil, &texts, &phases); err != nil {
			t.Fatalf("write %d: %v", i+1, err)
		}
		if pages[i], err = os.ReadFile(filepath.Join(opts.Dest, "zh-TW", "incidents", id, "index.html")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pages[0], pages[1]) {
		t.Errorf("%s in zh-TW differs between the two writes", id)
	}
}
