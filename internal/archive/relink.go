package archive

import (
	"slices"

	"github.com/postmortem-archive/gen/internal/content"
)

// carry returns a copy of the incident id of the previous archive, its
// cross-links cleared, when pages are the very pages it was linked from
// (a parse cache hands out the same page for a file that has not
// changed); nil when they are not, or there is no previous archive. The
// copy leaves the previous archive as it was: pages rendered from it may
// still be in use.
func (prev *Archive) carry(id string, pages []*content.Page) *Incident {
	if prev == nil {
		return nil
	}
	old := prev.byID[id]
	if old == nil || len(old.Versions) != len(pages) {
		return nil
	}
	for _, p := range pages {
		if old.Versions[p.Lang] != p {
			return nil
		}
	}
	inc := *old
	inc.Terms, inc.Related, inc.Overlapping, inc.Similar, inc.Prev, inc.Next = nil, nil, nil, nil, nil, nil
	return &inc
}

// carrySimilar gives the incidents of a whose similar incidents cannot
// have changed since prev (the archive a was linked from, with the
// incidents in fresh linked anew) the similar incidents they had, and
// returns which incidents are to be ranked again: the fresh ones, and
// those near a fresh one, before or after the change, in the list of a
// term they share (its candidates, or the window of candidates, moved).
// An incident related to a fresh one need not be ranked again unless it
// is one of these: only candidates are dropped for being related.
func carrySimilar(prev, a *Archive, fresh map[string]bool) func(*Incident) bool {
	redo := map[string]bool{}
	near := func(inc *Incident) {
		if inc == nil {
			return
		}
		redo[inc.ID] = true
		for tax, list := range inc.Terms {
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
	for id := range prev.byID {
		if _, ok := a.byID[id]; !ok {
			fresh[id] = true // gone, or hidden now
		}
	}
	for id := range fresh {
		near(prev.byID[id])
		near(a.byID[id])
	}
	for _, inc := range a.Incidents {
		if redo[inc.ID] {
			continue
		}
		old := prev.byID[inc.ID]
		for _, o := range old.Similar {
			now := a.byID[o.ID]
			if now == nil {
				redo[inc.ID] = true // cannot happen: o would have been fresh
				break
			}
			inc.Similar = append(inc.Similar, now)
		}
	}
	return func(inc *Incident) bool { return redo[inc.ID] }
}
