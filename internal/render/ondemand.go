package render

import (
	"fmt"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/urls"
)

// IncidentPage renders one incident's page in the site language lang,
// byte for byte the file a full render emits for it. The authoring server
// renders incident pages this way when they are asked for, rather than
// keeping every one in memory.
func (r *Renderer) IncidentPage(inc *archive.Incident, lang string) ([]byte, error) {
	l := r.bundle.Get(lang)
	if l == nil {
		return nil, fmt.Errorf("rendering %s: %q is not a site language", inc.ID, lang)
	}
	v := r.incident(inc, l)
	return r.execute(r.newPage(l, "incident", v.Title(), urls.IncidentLoc(l.Tag, inc.ID), func(p *PageView) { p.Incident = v }))
}
