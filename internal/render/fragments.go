package render

import (
	"bytes"
	"fmt"
	"html/template"
	"sync"

	"github.com/postmortem-archive/gen/internal/archive"
)

// Fragments caches what an incident contributes to pages that list many:
// its entry in lists, its line on the timeline, its link among another
// incident's related, overlapping or similar ones, its record in the JSON
// export and its URLs in the sitemap (and the sitemap's URLs of the other
// pages, by path). Each depends only on its own incident (and the
// language), yet a list entry appears on many pages, so it is made once. The authoring server keeps the cache across rebuilds
// and forgets only the incidents a change touches.
//
// A renderer made before a Forget of an incident (an older build, still
// making a page someone asked for) neither uses nor keeps that incident's
// fragments: they would be of its older version.
type Fragments struct {
	mu sync.Mutex
	m  map[fragmentKey]string
	// once is set on a render's own cache, which lives for one render: a
	// language's fragments are dropped when its pages are done, and those
	// a render uses once (the sitemap's, the JSON export's, an incident's
	// line on its year's page) are not kept, so that it does not grow with
	// the archive.
	once      bool
	epoch     uint64            // counts Forget calls
	forgotten map[string]uint64 // the epoch after an incident's last Forget
}

type fragmentKey struct {
	id, lang string
	part     int // one of the parts below
}

// Parts of an incident that are not events.
const (
	partItem    = -1 // list entry
	partJSON    = -2 // incidents.json record
	partSitemap = -3 // sitemap <url> elements; of an incident, or by path of another page
	partLine    = -4 // line on the archive-wide timeline
	partLink    = -5 // link among related, overlapping or similar incidents
)

// NewFragments returns an empty cache.
func NewFragments() *Fragments {
	return &Fragments{m: map[fragmentKey]string{}, forgotten: map[string]uint64{}}
}

// Forget drops the fragments of the given incidents.
func (f *Fragments) Forget(ids map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.epoch++
	for id := range ids {
		f.forgotten[id] = f.epoch
	}
	for k := range f.m {
		if ids[k.id] {
			delete(f.m, k)
		}
	}
}

// now is the epoch a renderer made now belongs to.
func (f *Fragments) now() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.epoch
}

// get returns the cached fragment for k, making it the first time, for a
// renderer of epoch born. Two pages asking at once may both make it; the
// result is the same.
func (f *Fragments) get(k fragmentKey, born uint64, make func() (string, error)) (string, error) {
	f.mu.Lock()
	stale := f.forgotten[k.id] > born
	v, ok := f.m[k]
	f.mu.Unlock()
	if stale {
		return make()
	}
	if ok {
		return v, nil
	}
	v, err := make()
	if err != nil {
		return "", err
	}
	if f.once && (k.lang == "" || k.part == partLine) {
		return v, nil
	}
	f.mu.Lock()
	if f.forgotten[k.id] <= born {
		f.m[k] = v
	}
	f.mu.Unlock()
	return v, nil
}

// forgetLang drops the fragments of one language.
func (f *Fragments) forgetLang(lang string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.m {
		if k.lang == lang {
			delete(f.m, k)
		}
	}
}

// html is get for HTML fragments.
func (f *Fragments) html(k fragmentKey, born uint64, make func() (template.HTML, error)) (template.HTML, error) {
	v, err := f.get(k, born, func() (string, error) { h, err := make(); return string(h), err })
	return template.HTML(v), err // #nosec G203: made by html/template
}

// partial executes a shared partial template with data.
func (r *Renderer) partial(name string, data any) (template.HTML, error) {
	var buf bytes.Buffer
	if err := r.tmpl["list"].ExecuteTemplate(&buf, name, data); err != nil {
		return "", fmt.Errorf("rendering %s: %w", name, err)
	}
	return template.HTML(buf.String()), nil // #nosec G203: html/template output
}

// ItemHTML is the incident's entry in lists (partials/incident-item.html).
func (v *IncidentView) ItemHTML() (template.HTML, error) {
	return v.r.fragments.html(fragmentKey{v.ID, v.L.Tag, partItem}, v.r.born, func() (template.HTML, error) {
		return v.r.partial("incident-item", v)
	})
}

// LineHTML is the incident's line on the archive-wide timeline
// (partials/timeline-line.html).
func (v *IncidentView) LineHTML() (template.HTML, error) {
	return v.r.fragments.html(fragmentKey{v.ID, v.L.Tag, partLine}, v.r.born, func() (template.HTML, error) {
		return v.r.partial("timeline-line", v)
	})
}

// LinkHTML is the incident's link among another incident's related,
// overlapping or similar incidents (partials/incident-link.html): an
// incident is linked from the pages of several others.
func (v *IncidentView) LinkHTML() (template.HTML, error) {
	return v.r.fragments.html(fragmentKey{v.ID, v.L.Tag, partLink}, v.r.born, func() (template.HTML, error) {
		return v.r.partial("incident-link", v)
	})
}

// navKey is what a page's navigation depends on.
type navKey struct {
	lang, kind string
	tax        archive.Taxonomy
}

// NavHTML is the header's navigation and search form
// (partials/site-nav.html), made once per renderer for each language,
// page kind and taxonomy: the partial is given a page holding only
// those, so that it cannot show anything else of the page.
func (p *PageView) NavHTML() (template.HTML, error) {
	key := navKey{p.L.Tag, p.Kind, p.Taxonomy}
	if h, ok := p.r.navs.Load(key); ok {
		return h.(template.HTML), nil
	}
	h, err := p.r.partial("site-nav", &PageView{Site: p.Site, L: p.L, Kind: p.Kind, Taxonomy: p.Taxonomy, r: p.r})
	if err != nil {
		return "", err
	}
	p.r.navs.Store(key, h)
	return h, nil
}
