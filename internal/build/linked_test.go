package build_test

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
)

// TestLinkedArchiveRendersTheSame: once linked, a build lets go of what
// only the link stage reads, every page's front matter but its title and
// summary included; every file and search document is made the same
// without it.
func TestLinkedArchiveRendersTheSame(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 60, Langs: []string{"en", "zh-TW"}, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	made := func(drop bool) (map[string]string, []string) {
		site, err := source.Load(dir, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if drop {
			build.DropLinkInputs(site.Archive)
			for _, inc := range site.Archive.Incidents {
				for lang, p := range inc.Versions {
					if p.Meta.Facts != nil || p.Links != nil || p.Timeline != nil {
						t.Fatalf("%s in %s keeps what only linking reads", inc.ID, lang)
					}
				}
			}
		}
		layouts, err := render.ParseLayouts(site.Layouts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := render.New(site.Archive, site.Bundle, layouts, render.Options{BaseURL: "https://example.org/archive/"})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		files := map[string]string{}
		if _, err := r.Render(func(path string, data []byte) error {
			mu.Lock()
			defer mu.Unlock()
			files[path] = string(data)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var docs []string
		for _, inc := range site.Archive.Incidents {
			ds, err := index.IncidentDocuments(inc, r.BasePath())
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				docs = append(docs, fmt.Sprintf("%+v", d))
			}
		}
		return files, docs
	}
	whole, wholeDocs := made(false)
	linked, linkedDocs := made(true)
	for _, name := range slices.Sorted(maps.Keys(whole)) {
		if whole[name] != linked[name] {
			t.Errorf("%s differs once the link inputs are let go", name)
		}
	}
	if len(whole) != len(linked) || len(whole) < 500 {
		t.Errorf("%d files, then %d", len(whole), len(linked))
	}
	if !slices.Equal(wholeDocs, linkedDocs) || len(wholeDocs) < 60 {
		t.Errorf("the search documents differ once the link inputs are let go (%d, then %d)", len(wholeDocs), len(linkedDocs))
	}
}
