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
