package render

import (
	"bytes"
	"fmt"
	"html/template"
	"sync"
)

// Fragments caches the HTML of an incident's entry in lists and of its
// events on timelines. Each depends only on its own incident and language,
// yet appears on many pages (the list, several term pages, a year of the
// timeline), so it is rendered once. The authoring server keeps the cache
// across rebuilds and forgets only the incidents that changed.
type Fragments struct {
	mu sync.Mutex
	m  map[fragmentKey]template.HTML
}

type fragmentKey struct {
	id, lang string
	event    int // -1 for the list entry
}

// NewFragments returns an empty cache.
func NewFragments() *Fragments { return &Fragments{m: map[fragmentKey]template.HTML{}} }

// Forget drops the fragments of the given incidents.
func (f *Fragments) Forget(ids map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.m {
		if ids[k.id] {
			delete(f.m, k)
		}
	}
}

// get returns the cached fragment for k, rendering it with make the first
// time. Two pages asking at once may both render it; the result is the same.
func (f *Fragments) get(k fragmentKey, make func() (template.HTML, error)) (template.HTML, error) {
	f.mu.Lock()
	html, ok := f.m[k]
	f.mu.Unlock()
	if ok {
		return html, nil
	}
	html, err := make()
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	f.m[k] = html
	f.mu.Unlock()
	return html, nil
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
func (v *Incident) ItemHTML() (template.HTML, error) {
	return v.r.fragments.get(fragmentKey{v.ID, v.L.Tag, -1}, func() (template.HTML, error) {
		return v.r.partial("incident-item", v)
	})
}

// HTML is the event's entry on timelines (partials/timeline-event.html).
func (e *TimelineEvent) HTML() (template.HTML, error) {
	return e.Incident.r.fragments.get(fragmentKey{e.Incident.ID, e.Incident.L.Tag, e.Index}, func() (template.HTML, error) {
		return e.Incident.r.partial("timeline-event", e)
	})
}
