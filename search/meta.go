package search

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/search/docstore"
)

// incident groups the language versions of one incident. The derived
// fields are recomputed by refresh whenever docs changes, so that searches
// (which read them for every matching incident) do no work. Every search
// holds ten thousands of incidents and the collector scans them at each
// cycle: the facet values are numbers, not strings (their names are in
// the metaStore's term tables).
type incident struct {
	id   string
	ord  int32            // index in metaStore.list
	docs []*docstore.Meta // one per language, by Lang

	orig    string         // language of the original
	primary *docstore.Meta // the original if present, else the first language

	// facets are the incident's values of every facet, distinct over
	// its languages, as kind<<24 | id in the metaStore's term tables.
	facets []int32
}

// The facets counted from the metadata; lang is counted from the matches.
const (
	facetKindProduct = iota
	facetKindRegion
	facetKindCause
	facetKindOrg
	facetKindSev
	facetKindYear
	facetKindDur
	numFacetKinds
)

// termTable numbers the distinct values of one facet.
type termTable struct {
	ids   map[string]int32
	names []string
}

func (t *termTable) id(v string) int32 {
	if id, ok := t.ids[v]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]int32{}
	}
	id := int32(len(t.names))
	t.ids[v] = id
	t.names = append(t.names, v)
	return id
}

// date is the incident's local date (YYYY-MM-DD), as the site lists it;
// "" if unknown.
func (in *incident) date() string {
	if d := in.primary.Date; len(d) == len(time.DateOnly) {
		return d
	}
	if b := in.primary.Begin; !b.IsZero() {
		return b.UTC().Format(time.DateOnly)
	}
	return ""
}

// doc returns the incident's document in lang, nil if none.
func (in *incident) doc(lang string) *docstore.Meta {
	for _, d := range in.docs {
		if d.Lang == lang {
			return d
		}
	}
	return nil
}

func (in *incident) refresh() {
	// The original: the language whose document says it is the original,
	// else what the documents claim.
	in.orig = ""
	for _, d := range in.docs {
		if l := d.Lang; d.OriginalLang == l {
			in.orig = l
			break
		} else if in.orig == "" {
			in.orig = d.OriginalLang
		}
	}
	in.primary = in.doc(in.orig)
	if in.primary == nil {
		in.primary = in.docs[0]
	}
}

// facetValues returns the values of each facet kind of an incident:
// keyword values normally agree across languages; a localised name counts
// too.
func (in *incident) facetValues() [numFacetKinds][]string {
	year := ""
	if d := in.primary.Date; len(d) >= 4 {
		year = d[:4] // the local date's year, as the site lists it
	} else if b := in.primary.Begin; !b.IsZero() {
		year = strconv.Itoa(b.Year())
	}
	distinct := func(pick func(*docstore.Meta) []string) []string {
		var out []string
		for _, d := range in.docs {
			for _, v := range pick(d) {
				if v != "" && !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
		return out
	}
	return [numFacetKinds][]string{
		facetKindProduct: distinct(func(d *docstore.Meta) []string { return d.Products }),
		facetKindRegion:  distinct(func(d *docstore.Meta) []string { return d.Regions }),
		facetKindCause:   distinct(func(d *docstore.Meta) []string { return d.Causes }),
		facetKindOrg:     distinct(func(d *docstore.Meta) []string { return []string{d.Organization} }),
		facetKindSev:     distinct(func(d *docstore.Meta) []string { return []string{d.Severity} }),
		facetKindYear:    {year},
		facetKindDur:     {durationBand(time.Duration(in.primary.Duration) * time.Second)},
	}
}

// namesAgree reports whether every language version of the incident has
// the same products, regions, causes, organization and severity.
func (in *incident) namesAgree() bool {
	first := in.docs[0]
	for _, d := range in.docs[1:] {
		if !slices.Equal(d.Products, first.Products) || !slices.Equal(d.Regions, first.Regions) ||
			!slices.Equal(d.Causes, first.Causes) || d.Organization != first.Organization || d.Severity != first.Severity {
			return false
		}
	}
	return true
}

// metaStore holds the docstore.Meta of every indexed document.
type metaStore struct {
	incidents map[string]*incident
	// list holds the incidents by ord; a deleted incident leaves nil.
	list  []*incident
	terms [numFacetKinds]termTable

	// What a search reads for every matching incident, by ord in flat
	// arrays (the incidents themselves are scattered over the heap, and
	// counting the facets of ten thousand of them missed the cache at
	// every step): made by reindex.
	facetOff  []int32 // facets of ord i: facetData[facetOff[i]:facetOff[i+1]]
	facetData []int32 // kind<<24 | id
	beginSec  []int64 // primary.Begin
	beginNsec []int32
	duration  []int64           // primary.Duration, seconds
	severity  []int8            // severityRank of the most severe of severities
	langDocs  map[string][]bool // by language: whether ord has a document in it
	// ownNames: a language version of ord has names of its own (a
	// product, region, cause, organization or severity the others do
	// not have), so its facet values are not each version's names.
	ownNames []bool
	// termCounts are the incidents with each value of each facet, by
	// kind and id: a name of no incident left completes no word.
	termCounts [numFacetKinds][]int32
}

// readerDocs says, by ord, whether an incident has a document in the
// language reader; nil for an unknown reader ("").
func (s *metaStore) readerDocs(reader string) []bool {
	if reader == "" {
		return nil
	}
	if has := s.langDocs[reader]; has != nil {
		return has
	}
	return make([]bool, len(s.list))
}

// termDocs is the number of incidents with value id of a facet kind.
func (s *metaStore) termDocs(kind int, id int32) int {
	if c := s.termCounts[kind]; int(id) < len(c) {
		return int(c[id])
	}
	return 0
}

// severityRank orders severities for sorting and for their facet: the
// most severe highest; unknown and unnamed ones lowest.
func severityRank(s string) int8 {
	switch s {
	case "critical":
		return 3
	case "major":
		return 2
	case "minor":
		return 1
	}
	return 0
}

// reindex makes the flat arrays of the metaStore. It must be called after
// put and delete before searching.
func (s *metaStore) reindex() {
	n := len(s.list)
	s.facetOff = make([]int32, n+1)
	s.facetData = s.facetData[:0]
	s.beginSec = make([]int64, n)
	s.beginNsec = make([]int32, n)
	s.duration = make([]int64, n)
	s.severity = make([]int8, n)
	s.ownNames = make([]bool, n)
	s.langDocs = map[string][]bool{}
	for k := range s.termCounts {
		s.termCounts[k] = make([]int32, len(s.terms[k].names))
	}
	for i, in := range s.list {
		s.facetOff[i] = int32(len(s.facetData))
		if in == nil {
			continue
		}
		for _, f := range in.facets {
			s.facetData = append(s.facetData, f)
			s.termCounts[f>>24][f&(1<<24-1)]++
		}
		for _, d := range in.docs {
			l := d.Lang
			if s.langDocs[l] == nil {
				s.langDocs[l] = make([]bool, n)
			}
			s.langDocs[l][i] = true
		}
		s.beginSec[i] = in.primary.Begin.Unix()
		s.beginNsec[i] = int32(in.primary.Begin.Nanosecond())
		s.duration[i] = in.primary.Duration
		for _, f := range in.facets {
			if f>>24 == facetKindSev {
				s.severity[i] = max(s.severity[i], severityRank(s.terms[facetKindSev].names[f&(1<<24-1)]))
			}
		}
		s.ownNames[i] = !in.namesAgree()
	}
	s.facetOff[n] = int32(len(s.facetData))
}

func newMetaStore() *metaStore { return &metaStore{incidents: map[string]*incident{}} }

func (s *metaStore) put(m *docstore.Meta) {
	in := s.incidents[m.ID]
	if in == nil {
		in = &incident{id: m.ID, ord: int32(len(s.list))}
		s.incidents[m.ID] = in
		s.list = append(s.list, in)
	}
	at, found := slices.BinarySearchFunc(in.docs, m.Lang, func(d *docstore.Meta, l string) int { return strings.Compare(d.Lang, l) })
	if found {
		in.docs[at] = m
	} else {
		in.docs = slices.Insert(in.docs, at, m)
	}
	in.refresh()
	s.number(in)
}

// number sets the facet ids of an incident.
func (s *metaStore) number(in *incident) {
	in.facets = in.facets[:0]
	for k, vs := range in.facetValues() {
		for _, v := range vs {
			if v != "" {
				in.facets = append(in.facets, int32(k)<<24|s.terms[k].id(v))
			}
		}
	}
	in.facets = slices.Clip(in.facets)
}

func (s *metaStore) delete(id, lang string) {
	in := s.incidents[id]
	if in == nil {
		return
	}
	in.docs = slices.DeleteFunc(in.docs, func(d *docstore.Meta) bool { return d.Lang == lang })
	if len(in.docs) == 0 {
		delete(s.incidents, id)
		s.list[in.ord] = nil
		return
	}
	in.refresh()
	s.number(in)
}
