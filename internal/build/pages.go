package build

import (
	"sync"

	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/urls"
)

// Page is a file of the site the authoring server makes when it is first
// asked for: a site's files are a gigabyte at 10,000 incidents in two
// languages, and an author looks at a few.
type Page struct {
	mu   sync.Mutex
	r    *render.Renderer // nil once made
	file string
	loc  urls.Loc // what the file is, read once: each change's scope asks
	data []byte
	err  error
}

// Bytes renders the page the first time and returns the same bytes after.
// It is safe for concurrent use.
func (p *Page) Bytes() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.r != nil {
		p.data, p.err = p.r.File(p.file)
		p.r = nil // let the build it came from go
	}
	return p.data, p.err
}

// follow points a page not made yet at a newer build, in which it is the
// same (the change did not touch it), so that the older build can be let
// go.
func (p *Page) follow(r *render.Renderer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.r != nil {
		p.r = r
	}
}
