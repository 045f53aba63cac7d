package build

import (
	"path/filepath"
	"strconv"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
)

// ContentCache lets tests hold a parse, as a slow file would.
func (s *Session) ContentCache() *content.Cache { return s.cache }

// IndexFolders are the folder of the session's search indexes and that
// of its current one.
func (s *Session) IndexFolders() (all, current string) {
	return s.indexes, filepath.Join(s.indexes, strconv.Itoa(s.built))
}

// DropLinkInputs lets go what a build no longer needs once linked.
func DropLinkInputs(a *archive.Archive) { dropLinkInputs(a) }

// LeanHeap readies the process for the index's final merge.
func LeanHeap() (restore func()) { return leanHeap() }

// HeapToTheLimit readies the process for the documents that waited for
// the render.
func HeapToTheLimit() (restore func()) { return heapToTheLimit() }

// UseScratch has every build keep what it can in files (the timelines'
// texts, the search documents until the pages are written), as a build
// near the soft memory limit does, until restore.
func UseScratch() (restore func()) {
	above := scratchAbove
	scratchAbove = 0
	return func() { scratchAbove = above }
}
