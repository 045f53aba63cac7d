package search

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
)

// facets counts matching incidents per product, region, cause,
// organization, severity, year, duration band and matching language.
// Order: years newest first, duration bands shortest first, severities
// most severe first, the others by count descending, then term. Each
// lists at most MaxFacetTerms values but the facet all, which lists every
// one; totals are the numbers of values before that cut.
func facets(ms []match, searches []*langSearch, meta *metaStore, all string) (map[string][]FacetCount, map[string]int) {
	var counts [numFacetKinds][]int32
	for k := range counts {
		counts[k] = make([]int32, len(meta.terms[k].names))
	}
	langCounts := make([]int32, len(searches))
	off, data := meta.facetOff, meta.facetData
	for i := range ms {
		ord := ms[i].ord
		for _, v := range data[off[ord]:off[ord+1]] {
			counts[v>>24][v&(1<<24-1)]++
		}
		for b := ms[i].langs; b != 0; b &= b - 1 {
			langCounts[bits.TrailingZeros64(b)]++
		}
	}
	totals := map[string]int{}
	list := func(name string, names []string, counts []int32, order ...func(a, b FacetCount) int) []FacetCount {
		fc := []FacetCount{}
		for id, n := range counts {
			if n > 0 {
				fc = append(fc, FacetCount{Term: names[id], Count: int(n)})
			}
		}
		slices.SortFunc(fc, func(a, b FacetCount) int {
			for _, o := range order {
				if c := o(a, b); c != 0 {
					return c
				}
			}
			if c := cmp.Compare(b.Count, a.Count); c != 0 {
				return c
			}
			return strings.Compare(a.Term, b.Term)
		})
		totals[name] = len(fc)
		if len(fc) > MaxFacetTerms && name != all {
			fc = fc[:MaxFacetTerms]
		}
		return fc
	}
	langs := make([]string, len(searches))
	for i, ls := range searches {
		langs[i] = ls.lang
	}
	return map[string][]FacetCount{
		FacetProduct:      list(FacetProduct, meta.terms[facetKindProduct].names, counts[facetKindProduct]),
		FacetRegion:       list(FacetRegion, meta.terms[facetKindRegion].names, counts[facetKindRegion]),
		FacetCause:        list(FacetCause, meta.terms[facetKindCause].names, counts[facetKindCause]),
		FacetOrganization: list(FacetOrganization, meta.terms[facetKindOrg].names, counts[facetKindOrg]),
		FacetSeverity: list(FacetSeverity, meta.terms[facetKindSev].names, counts[facetKindSev], func(a, b FacetCount) int {
			return cmp.Compare(severityRank(b.Term), severityRank(a.Term))
		}),
		FacetYear: list(FacetYear, meta.terms[facetKindYear].names, counts[facetKindYear], func(a, b FacetCount) int {
			return strings.Compare(b.Term, a.Term) // four digits each
		}),
		FacetDuration: list(FacetDuration, meta.terms[facetKindDur].names, counts[facetKindDur], func(a, b FacetCount) int {
			return cmp.Compare(bandIndex(a.Term), bandIndex(b.Term))
		}),
		FacetLang: list(FacetLang, langs, langCounts),
	}, totals
}

// bandIndex is the place of a duration band in DurationBands; unknown
// last.
func bandIndex(name string) int {
	if i := slices.IndexFunc(DurationBands, func(b DurationBand) bool { return b.Name == name }); i >= 0 {
		return i
	}
	return len(DurationBands)
}
