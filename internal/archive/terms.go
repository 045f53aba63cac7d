package archive

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
)

// TermLists are an incident's terms by taxonomy, each list in the order
// the original names them: one list cut in four, not a map, as every
// incident of a large archive holds it for the whole build (a map of four
// lists took 400 bytes an incident).
type TermLists struct {
	terms []*Term   // by taxonomy in display order
	ends  [4]uint32 // where each taxonomy's terms end, by place in Taxonomies
}

// place is where tax is in Taxonomies; -1 for none of them.
func place(tax Taxonomy) int {
	switch tax {
	case Organizations:
		return 0
	case Products:
		return 1
	case Regions:
		return 2
	case Causes:
		return 3
	}
	return -1
}

// Of is the incident's terms of tax, which must not be appended to.
func (l *TermLists) Of(tax Taxonomy) []*Term {
	i := place(tax)
	if i < 0 {
		return nil
	}
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.terms[start:l.ends[i]:l.ends[i]]
}

// Add puts t last among the terms of its taxonomy, unless it is there
// already; it reports whether it was added.
func (l *TermLists) Add(t *Term) bool {
	i := place(t.Taxonomy)
	if i < 0 || slices.Contains(l.Of(t.Taxonomy), t) {
		return false
	}
	l.terms = slices.Insert(l.terms, int(l.ends[i]), t)
	for j := i; j < len(l.ends); j++ {
		l.ends[j]++
	}
	return true
}

// All yields the taxonomies the incident has terms of, in display order,
// each with its terms.
func (l *TermLists) All() iter.Seq2[Taxonomy, []*Term] {
	return func(yield func(Taxonomy, []*Term) bool) {
		for _, tax := range Taxonomies {
			if terms := l.Of(tax); len(terms) > 0 && !yield(tax, terms) {
				return
			}
		}
	}
}

// mapped is l with each term replaced by to(term), in a list of its own.
func (l *TermLists) mapped(to func(*Term) *Term) TermLists {
	out := TermLists{terms: make([]*Term, len(l.terms)), ends: l.ends}
	for i, t := range l.terms {
		out.terms[i] = to(t)
	}
	return out
}

// Respellings reports every name written otherwise than the name its
// term's page shows ("A B" beside "A.B", "aws" beside "AWS"): names of one
// slug are one term, shown as first written, which the writer of the
// other spelling may not have meant. Each is placed where the other
// spelling is written and names the file of the shown one.
func (a *Archive) Respellings() []*diag.Error {
	var out []*diag.Error
	for _, tax := range Taxonomies {
		for _, t := range a.Terms[tax] {
			shownIn := ""
			for _, inc := range slices.Backward(t.Incidents) { // oldest first
				for _, v := range termValuesOf(inc, t) {
					if v.V == t.Name && shownIn == "" {
						shownIn = inc.Original.File
					}
				}
			}
			for _, inc := range slices.Backward(t.Incidents) {
				for _, v := range termValuesOf(inc, t) {
					if v.V != t.Name {
						out = append(out, &diag.Error{File: inc.Original.File, Line: v.Line, Col: v.Col, Msg: fmt.Sprintf(
							"%s %q is shown as %q, as %s spells it: the two names are one %s with one page; spell them the same, or name them apart",
							strings.TrimSuffix(string(tax), "s"), v.V, t.Name, shownIn, strings.TrimSuffix(string(tax), "s"))})
					}
				}
			}
		}
	}
	return out
}

// termValuesOf are the names inc writes for t.
func termValuesOf(inc *Incident, t *Term) []content.String {
	var org *Term
	if t.Taxonomy == Products {
		org = inc.Organization()
	}
	var out []content.String
	for _, v := range termValues(inc.Original, t.Taxonomy) {
		if termSlug(v.V, org) == t.Slug {
			out = append(out, v)
		}
	}
	return out
}
