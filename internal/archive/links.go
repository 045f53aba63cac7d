package archive

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/urls"
)

// checkLinks reports links written in Markdown that point at nothing the
// site has: a missing incident, a missing anchor on it, or an unknown page.
// Links are checked as the page in each language will show them, relative
// to the incident's URL /L/incidents/<id>/.
func checkLinks(a *Archive, byID map[string]*Incident, hidden map[string]bool, errs *diag.List) {
	termSlugs := map[string]bool{}
	for tax, list := range a.Terms {
		for _, t := range list {
			termSlugs[string(tax)+"/"+t.Slug] = true
		}
	}
	for _, inc := range a.Incidents {
		for _, lang := range sortedKeys(inc.Versions) {
			p := inc.Versions[lang]
			for _, l := range p.Links {
				if msg := checkLink(inc, lang, l.Dest, byID, hidden, termSlugs); msg != "" {
					errs.Add(p.File, l.Line, l.Col, "link %q %s", l.Dest, msg)
				}
			}
		}
	}
}

// checkLink returns what is wrong with one link, or "".
func checkLink(from *Incident, lang, dest string, byID map[string]*Incident, hidden map[string]bool, termSlugs map[string]bool) string {
	u, err := url.Parse(dest)
	if err != nil {
		return "is not a valid URL; check for spaces or stray characters"
	}
	if u.Scheme != "" || u.Host != "" {
		return "" // external: not ours to check
	}
	if strings.HasPrefix(u.Path, "/") {
		return "starts at the site root, which breaks under a base path; write it relative to the page, e.g. ../<incident-id>/#t-20170313T1722Z"
	}
	self := urls.IncidentLoc(lang, from.ID)
	base, _ := url.Parse(self.Path())
	resolved := base.ResolveReference(u)
	target := siteURLs.Parse(resolved.Path + "#" + resolved.Fragment)
	if target.Kind == urls.Unknown || target.Kind == urls.Asset {
		return "points at no page of the site; link incidents as ../<incident-id>/"
	}
	if target.Lang != "" && target.Lang != lang {
		return "leaves the page's language; link to ../<incident-id>/ and readers stay in their language"
	}
	switch target.Kind {
	case urls.Incident:
		return checkIncidentLink(target, lang, byID, hidden)
	case urls.Term:
		if termSlugs[target.Taxonomy+"/"+target.Term] {
			return ""
		}
		return fmt.Sprintf("points at %s %q, which no incident has", target.Taxonomy, target.Term)
	}
	return ""
}

// siteURLs parses links: the base path does not matter to relative ones.
var siteURLs = urls.Scheme{Taxonomies: TaxonomyNames()}

// checkIncidentLink checks a link to an incident page: the incident and
// the anchor must exist.
func checkIncidentLink(target urls.Loc, lang string, byID map[string]*Incident, hidden map[string]bool) string {
	to, ok := byID[target.ID]
	if !ok {
		if hidden[target.ID] {
			return "" // a draft or an incident with errors of its own: reported there
		}
		hint := ""
		if near := diag.Nearest(target.ID, sortedKeys(byID)); near != "" {
			hint = fmt.Sprintf("; did you mean %q?", near)
		}
		return fmt.Sprintf("points at incident %q, which does not exist%s", target.ID, hint)
	}
	if target.Fragment != "" && !slices.Contains(anchorsOf(to, lang), target.Fragment) {
		hint := "use an event anchor (#t-YYYYMMDDTHHMMZ, the event's UTC minute) or a heading id"
		if near := diag.Nearest(target.Fragment, anchorsOf(to, lang)); near != "" {
			hint = fmt.Sprintf("did you mean #%s?", near)
		}
		return fmt.Sprintf("points at #%s, which incident %s does not have; %s", target.Fragment, to.ID, hint)
	}
	return ""
}

// anchorsOf lists the fragment ids of an incident's page in lang: its
// events and its headings.
func anchorsOf(inc *Incident, lang string) []string {
	var out []string
	for _, e := range inc.Timeline(lang) {
		out = append(out, e.Anchor)
	}
	p, _ := inc.Page(lang)
	out = append(out, p.Sections...)
	return append(out, "sources")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
