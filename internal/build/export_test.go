package build

import "github.com/postmortem-archive/gen/internal/content"

// ContentCache lets tests hold a parse, as a slow file would.
func (s *Session) ContentCache() *content.Cache { return s.cache }
