package build

import (
	"sync"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/render"
)

// Page is an incident page the authoring server renders when it is first
// asked for: incident pages are most of a site's bytes (a gigabyte at
// 10,000 incidents in two languages), and an author looks at a few. A
// page a change touched is rendered at once and kept, since its author is
// about to look at it.
type Page struct {
	mu   sync.Mutex
	r    *render.Renderer // nil once rendered
	inc  *archive.Incident
	lang string
	data []byte
	err  error
}

// Bytes renders the page the first time and returns the same bytes after.
// It is safe for concurrent use.
func (p *Page) Bytes() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.r != nil {
		p.data, p.err = p.r.IncidentPage(p.inc, p.lang)
		p.r, p.inc = nil, nil // let the build it came from go
	}
	return p.data, p.err
}

// follow points a page not rendered yet at a newer build, in which it is
// the same (the change did not touch it), so that the older build can be
// let go.
func (p *Page) follow(r *render.Renderer, inc *archive.Incident) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.r != nil {
		p.r, p.inc = r, inc
	}
}
