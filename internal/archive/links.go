package archive

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/urls"
)

// checkLinks reports links written in Markdown, in the pages of incs,
// that point at nothing the site has: a missing incident, a missing
// anchor on it, or an unknown page. Links are checked as the page in each
// language will show them, relative to the incident's URL
// /L/incidents/<id>/. Each incident keeps what its links point at
// (linksTo), for linking again.
func checkLinks(a *Archive, incs []*Incident, errs *diag.List) {
	for _, inc := range incs {
		inc.linksTo = nil
		if !hasLinks(inc) {
			continue
		}
		for _, lang := range sortedKeys(inc.Versions) {
			p := inc.Versions[lang]
			for _, l := range p.Links {
				target, msg := checkLink(a, inc, lang, l.Dest)
				if msg != "" {
					errs.Add(p.File, l.Line, l.Col, "link %q %s", l.Dest, msg)
				}
				if target != "" && !slices.Contains(inc.linksTo, target) {
					inc.linksTo = append(inc.linksTo, target)
				}
			}
		}
	}
}

func hasLinks(inc *Incident) bool {
	for _, p := range inc.Versions {
		if len(p.Links) > 0 {
			return true
		}
	}
	return false
}

// checkLink returns what is wrong with one link, or "", and the incident
// (its id) or term ("taxonomy/slug") it points at, if any.
func checkLink(a *Archive, from *Incident, lang, dest string) (target, msg string) {
	u, err := url.Parse(dest)
	if err != nil {
		return "", "is not a valid URL; check for spaces or stray characters"
	}
	if u.Scheme != "" || u.Host != "" {
		return "", "" // external: not ours to check
	}
	if strings.HasPrefix(u.Path, "/") {
		return "", "starts at the site root, which breaks under a base path; write it relative to the page, e.g. ../<incident-id>/#t-20170313T1722Z"
	}
	self := urls.IncidentLoc(lang, from.ID)
	base, _ := url.Parse(self.Path())
	resolved := base.ResolveReference(u)
	loc := siteURLs.Parse(resolved.Path + "#" + resolved.Fragment)
	if loc.Kind == urls.Unknown || loc.Kind == urls.Asset {
		return "", "points at no page of the site; link incidents as ../<incident-id>/"
	}
	if loc.Lang != "" && loc.Lang != lang {
		return "", "leaves the page's language; link to ../<incident-id>/ and readers stay in their language"
	}
	switch loc.Kind {
	case urls.Incident:
		return loc.ID, checkIncidentLink(a, loc, lang)
	case urls.Term:
		if a.term(Taxonomy(loc.Taxonomy), loc.Term) != nil {
			return loc.Taxonomy + "/" + loc.Term, ""
		}
		return loc.Taxonomy + "/" + loc.Term, fmt.Sprintf("points at %s %q, which no incident has", loc.Taxonomy, loc.Term)
	}
	return "", ""
}

// term finds a term by slug in its taxonomy's list, sorted by slug.
func (a *Archive) term(tax Taxonomy, slug string) *Term {
	list := a.Terms[tax]
	i, found := slices.BinarySearchFunc(list, slug, func(t *Term, slug string) int { return strings.Compare(t.Slug, slug) })
	if !found {
		return nil
	}
	return list[i]
}

// siteURLs parses links: the base path does not matter to relative ones.
var siteURLs = urls.Scheme{Taxonomies: TaxonomyNames()}

// checkIncidentLink checks a link to an incident page: the incident and
// the anchor must exist.
func checkIncidentLink(a *Archive, target urls.Loc, lang string) string {
	to, ok := a.byID[target.ID]
	if !ok {
		if a.hidden[target.ID] {
			return "" // a draft or an incident with errors of its own: reported there
		}
		hint := ""
		if near := diag.Nearest(target.ID, sortedKeys(a.byID)); near != "" {
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
