package archive

import (
	"maps"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
)

// relink is Link from opts.Prev after changes to the incidents in
// opts.Changed. The other incidents are Prev's, copied (pages rendered
// from Prev may still be in use) with their cross-links moved onto the
// copies; only what a changed incident takes part in is linked again: its
// own facts, its place in the order and in its terms' lists, the
// relations and overlaps it has or had, the similar incidents of those
// near it in a shared term's list, and the links that point at it. It
// returns nil when the change has errors or is one it does not follow (a
// product whose page another organization's product would have): Link
// then links everything, and reports them.
func relink(pages []*content.Page, langs []string, opts Options) *Archive {
	prev, changed := opts.Prev, opts.Changed
	groups := map[string][]*content.Page{}
	for _, p := range pages {
		if changed[p.ID] {
			groups[p.ID] = append(groups[p.ID], p)
		}
	}
	a := &Archive{Langs: langs, Terms: map[Taxonomy][]*Term{}, byID: make(map[string]*Incident, len(prev.Incidents)+len(groups)), hidden: map[string]bool{}}
	for id := range prev.hidden {
		if !changed[id] {
			a.hidden[id] = true
		}
	}
	var errs diag.List
	var fresh []*Incident // the changed incidents shown
	for _, id := range slices.Sorted(maps.Keys(groups)) {
		inc := linkIncident(id, groups[id], &errs)
		if inc == nil {
			return nil
		}
		if inc.Draft && !opts.Drafts {
			a.hidden[id] = true
			continue
		}
		fresh = append(fresh, inc)
	}
	if errs.Len() > 0 {
		return nil
	}
	slices.SortFunc(fresh, order)
	c := copyUnchanged(prev, changed)
	a.Incidents = merge(c.incidents, fresh)
	number(a.Incidents)
	for _, inc := range a.Incidents {
		a.byID[inc.ID] = inc
	}
	a.Terms = c.terms
	gone, ok := a.termsOf(fresh, c.touched)
	if !ok || !a.relate(fresh, c.incidents, changed) {
		return nil
	}
	a.overlap(fresh)
	// Only incidents near a changed one, before or after the change, in
	// the list of a term they share can have other similar incidents.
	redo := nearChanged(prev, a, changed)
	var rank []*Incident
	for _, inc := range a.Incidents {
		if redo[inc.ID] {
			rank = append(rank, inc)
		}
	}
	linkSimilar(rank)
	// The links of the others were right; those pointing at a changed
	// incident or a term now gone are checked again.
	check := fresh
	for _, inc := range c.incidents {
		if slices.ContainsFunc(inc.linksTo, func(to string) bool { return changed[to] || gone[to] }) {
			check = append(check, inc)
		}
	}
	checkLinks(a, check, &errs)
	if errs.Len() > 0 {
		return nil
	}
	return a
}

// unchanged are the copies of a previous archive's unchanged incidents
// and of its terms, their links moved onto the copies (the changed
// incidents left out).
type unchanged struct {
	incidents []*Incident // newest first
	terms     map[Taxonomy][]*Term
	touched   map[*Term]bool // terms that lost a changed incident
}

// copyUnchanged copies prev's incidents but the changed ones, and its
// terms. The copies' lists of incidents share one allocation, each at its
// full capacity, so that adding to one makes it its own.
func copyUnchanged(prev *Archive, changed map[string]bool) *unchanged {
	u := &unchanged{terms: make(map[Taxonomy][]*Term, len(prev.Terms)), touched: map[*Term]bool{}}
	newOf := make([]*Incident, len(prev.Incidents)) // by place in prev
	copies := make([]Incident, 0, len(prev.Incidents))
	size := 0
	for _, old := range prev.Incidents {
		if !changed[old.ID] {
			copies = append(copies, *old)
			newOf[old.n] = &copies[len(copies)-1]
			size += len(old.Related) + len(old.Overlapping) + len(old.Similar)
		}
	}
	for _, list := range prev.Terms {
		for _, t := range list {
			size += len(t.Incidents)
		}
	}
	arena := make([]*Incident, 0, size)
	remap := func(list []*Incident) []*Incident {
		start := len(arena)
		for _, o := range list {
			if inc := newOf[o.n]; inc != nil {
				arena = append(arena, inc)
			}
		}
		if len(arena) == start {
			return nil
		}
		return arena[start:len(arena):len(arena)]
	}
	termOf := map[*Term]*Term{}
	for tax, list := range prev.Terms {
		out := make([]*Term, len(list))
		terms := make([]Term, len(list))
		for i, t := range list {
			terms[i] = *t
			out[i] = &terms[i]
			out[i].Incidents = remap(t.Incidents)
			if len(out[i].Incidents) < len(t.Incidents) {
				u.touched[out[i]] = true
			}
			termOf[t] = out[i]
		}
		u.terms[tax] = out
	}
	for _, t := range u.terms[Products] {
		if t.Organization != nil {
			t.Organization = termOf[t.Organization]
		}
	}
	u.incidents = make([]*Incident, len(copies))
	for i := range copies {
		inc := &copies[i]
		u.incidents[i] = inc
		inc.Related, inc.Overlapping, inc.Similar = remap(inc.Related), remap(inc.Overlapping), remap(inc.Similar)
		inc.Terms = inc.Terms.mapped(func(t *Term) *Term { return termOf[t] })
	}
	return u
}

// merge puts two lists of incidents in one, newest first: carried is
// newest first, fresh oldest first.
func merge(carried, fresh []*Incident) []*Incident {
	out := make([]*Incident, 0, len(carried)+len(fresh))
	j := len(fresh) - 1
	for _, inc := range carried {
		for ; j >= 0 && before(inc, fresh[j]); j-- {
			out = append(out, fresh[j])
		}
		out = append(out, inc)
	}
	for ; j >= 0; j-- {
		out = append(out, fresh[j])
	}
	return out
}

// termsOf puts the fresh incidents (oldest first) in their terms' lists,
// making the terms that are new, and names again, or drops, the terms
// whose lists changed (touched: those that lost an incident). It returns
// the terms gone, by "taxonomy/slug"; ok is false when a fresh incident
// names a product whose page another's product has.
func (a *Archive) termsOf(fresh []*Incident, touched map[*Term]bool) (gone map[string]bool, ok bool) {
	for _, inc := range fresh {
		inc.Terms = TermLists{}
	}
	products := false // a product term made or gone
	for _, tax := range Taxonomies {
		for _, inc := range fresh {
			var org *Term
			if tax == Products {
				org = inc.Organization()
			}
			for _, v := range termValues(inc.Original, tax) {
				slug := termSlug(v.V, org)
				t := a.term(tax, slug)
				if t == nil {
					t = &Term{Taxonomy: tax, Name: v.V, Slug: slug, Organization: org}
					list := a.Terms[tax]
					i, _ := slices.BinarySearchFunc(list, slug, func(t *Term, slug string) int { return strings.Compare(t.Slug, slug) })
					a.Terms[tax] = slices.Insert(list, i, t)
					products = products || tax == Products
				} else if t.Organization != org || Slug(t.Name) != Slug(v.V) {
					return nil, false
				}
				if inc.Terms.Add(t) {
					i, _ := slices.BinarySearchFunc(t.Incidents, inc, func(o, inc *Incident) int { return order(inc, o) })
					t.Incidents = slices.Insert(t.Incidents, i, inc)
					touched[t] = true
				}
			}
		}
	}
	gone = map[string]bool{}
	for t := range touched {
		if len(t.Incidents) > 0 {
			t.Name = firstName(t)
			continue
		}
		gone[string(t.Taxonomy)+"/"+t.Slug] = true
		a.Terms[t.Taxonomy] = slices.DeleteFunc(a.Terms[t.Taxonomy], func(o *Term) bool { return o == t })
		if len(a.Terms[t.Taxonomy]) == 0 {
			delete(a.Terms, t.Taxonomy)
		}
		products = products || t.Taxonomy == Products
	}
	if products {
		markShared(a.Terms[Products])
	}
	return gone, true
}

// termSlug is the slug of a term named name: a product's starts with its
// organization's.
func termSlug(name string, org *Term) string {
	if org != nil {
		return org.Slug + "-" + Slug(name)
	}
	return Slug(name)
}

// firstName is a term's name as its oldest incident writes it.
func firstName(t *Term) string {
	oldest := t.Incidents[len(t.Incidents)-1]
	var org *Term
	if t.Taxonomy == Products {
		org = oldest.Organization()
	}
	for _, v := range termValues(oldest.Original, t.Taxonomy) {
		if termSlug(v.V, org) == t.Slug {
			return v.V
		}
	}
	return t.Name
}

// relate makes the relations the fresh incidents state, and those the
// unchanged incidents state with a changed one. It reports false when
// one names itself or an incident that does not exist.
func (a *Archive) relate(fresh, unchanged []*Incident, changed map[string]bool) bool {
	again := map[*Incident]bool{} // incidents whose list to sort again
	relate := func(x, y *Incident) {
		addUnique(&x.Related, y)
		addUnique(&y.Related, x)
		again[x], again[y] = true, true
	}
	for _, inc := range fresh {
		for _, r := range inc.Original.Meta.Related.V {
			other, ok := a.byID[r.V]
			switch {
			case ok && other == inc:
				return false
			case ok:
				relate(inc, other)
			case !a.hidden[r.V]:
				return false
			}
		}
	}
	for _, inc := range unchanged {
		for _, r := range inc.Original.Meta.Related.V {
			if !changed[r.V] {
				continue
			}
			if other, ok := a.byID[r.V]; ok {
				relate(inc, other)
			} else if !a.hidden[r.V] {
				return false
			}
		}
	}
	for inc := range again {
		slices.SortFunc(inc.Related, order)
	}
	return true
}

// overlap adds the overlaps of the fresh incidents.
func (a *Archive) overlap(fresh []*Incident) {
	isFresh := map[*Incident]bool{}
	for _, inc := range fresh {
		isFresh[inc] = true
	}
	again := map[*Incident]bool{}
	for _, f := range fresh {
		for _, o := range a.Incidents {
			if o == f || !overlaps(o, f) || isFresh[o] && !before(o, f) {
				continue // each pair of fresh incidents once
			}
			o.Overlapping = append(o.Overlapping, f)
			f.Overlapping = append(f.Overlapping, o)
			again[o], again[f] = true, true
		}
	}
	for inc := range again {
		slices.SortFunc(inc.Overlapping, order)
	}
}

// nearChanged lists the incidents whose similar incidents a change can
// alter: the changed ones, and those near one, before or after the
// change, in the list of a term they share (its candidates, or the window
// of candidates, moved). An incident related to a changed one need not be
// ranked again unless it is one of these: only candidates are dropped for
// being related.
func nearChanged(prev, a *Archive, changed map[string]bool) map[string]bool {
	redo := map[string]bool{}
	near := func(inc *Incident) {
		if inc == nil {
			return
		}
		redo[inc.ID] = true
		for tax, list := range inc.Terms.All() {
			if similarWeight[tax] == 0 {
				continue
			}
			for _, t := range list {
				i := slices.Index(t.Incidents, inc)
				for j := max(0, i-similarWindow-1); j < min(len(t.Incidents), i+similarWindow+2); j++ {
					redo[t.Incidents[j].ID] = true
				}
			}
		}
	}
	for id := range changed {
		near(prev.byID[id])
		near(a.byID[id])
	}
	return redo
}
