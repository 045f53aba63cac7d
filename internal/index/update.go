package index

import (
	"errors"
	"fmt"
	"os"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/search/build"
)

// Update writes into dir the search index of archive a from the index
// at prev, which was built from the same archive but the incidents in
// changed (edited, added or removed): only their documents are analysed.
// Where the index cannot be updated so (a language gets its first
// document or loses its last, or the previous index cannot be read), it
// is built whole, as Write does, and why is returned as a note.
func Update(prev, dir string, a *archive.Archive, changed map[string]bool, langs []string, basePath string) (note, err error) {
	docs, err := Documents(a, changed, basePath)
	if err != nil {
		return nil, err
	}
	err = build.Update(prev, dir, changed, docs)
	if err == nil {
		return nil, nil
	}
	if !errors.Is(err, build.ErrNotUpdatable) {
		note = fmt.Errorf("note: the search index was built whole: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return note, fmt.Errorf("search: %w", err)
	}
	return note, Write(dir, a, langs, basePath)
}
