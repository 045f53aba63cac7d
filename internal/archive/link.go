package archive

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/timefmt"
)

// Options change what the link stage keeps.
type Options struct {
	Drafts bool // keep incidents marked draft: true
	// Prev, when set, is an archive linked before with the same languages
	// and Drafts (the authoring server's last build), and Changed names
	// the incidents (folders under content/) whose pages may differ from
	// those Prev was linked from: every other incident's pages are the
	// very pages it was linked from. Only what a changed incident takes
	// part in is linked again (relink.go), so that a change costs about
	// the same in an archive of any size; the result is the same as
	// without Prev. Prev is not modified.
	Prev    *Archive
	Changed map[string]bool
}

// similarWindow bounds how many neighbours in time, per shared term, are
// considered as similar incidents, so ranking stays linear in the archive
// size even when one product has thousands of incidents.
const similarWindow = 16

// maxSimilar is how many similar incidents a page lists.
const maxSimilar = 5

// Link builds the archive from loaded pages. langs is the set of site
// languages. Every problem is reported; the archive is returned only when
// there are none.
func Link(pages []*content.Page, langs []string, opts Options) (*Archive, error) {
	if opts.Prev != nil {
		if a := relink(pages, langs, opts); a != nil {
			return a, nil
		}
		// A change relinking does not follow, or one with errors:
		// linking everything reports them.
	}
	var errs diag.List
	groups := map[string][]*content.Page{}
	var ids []string
	for _, p := range pages {
		if _, ok := groups[p.ID]; !ok {
			ids = append(ids, p.ID)
		}
		groups[p.ID] = append(groups[p.ID], p)
	}
	sort.Strings(ids)

	a := &Archive{Langs: langs, Terms: map[Taxonomy][]*Term{}, byID: map[string]*Incident{}, hidden: map[string]bool{}}
	for _, id := range ids {
		inc := linkIncident(id, groups[id], &errs)
		if inc == nil || inc.Draft && !opts.Drafts {
			// A draft is not published; an incident with errors has
			// them reported, and links to it are not wrong.
			a.hidden[id] = true
			continue
		}
		a.byID[id] = inc
		a.Incidents = append(a.Incidents, inc)
	}

	linkRelated(a.Incidents, a.byID, a.hidden, ids, &errs)

	// Oldest first for the sweeps below; the archive lists newest first.
	slices.SortFunc(a.Incidents, order)
	linkOverlaps(a.Incidents)
	a.Terms = linkTerms(a.Incidents, &errs)
	linkSimilar(a.Incidents)
	slices.Reverse(a.Incidents)
	number(a.Incidents)
	checkLinks(a, a.Incidents, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

// number sets each incident's place in the list and its neighbours in
// time; incs is newest first.
func number(incs []*Incident) {
	for i, inc := range incs {
		inc.n = i
		inc.Prev, inc.Next = nil, nil
		if i > 0 {
			inc.Next = incs[i-1]
			incs[i-1].Prev = inc
		}
	}
}

// locations keeps each time zone loaded once: thousands of incidents share
// a few zones, and loading one reads and parses its file.
var locations sync.Map // name → *time.Location

func loadLocation(name string) (*time.Location, error) {
	if loc, ok := locations.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, loc)
	return loc, nil
}

func before(a, b *Incident) bool { return order(a, b) < 0 }

// order compares incidents by begin, then id: oldest first.
func order(a, b *Incident) int {
	if c := a.Begin.Compare(b.Begin); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// linkIncident checks one incident's files and derives its facts. It
// returns nil when the incident cannot be built.
func linkIncident(id string, pages []*content.Page, errs *diag.List) *Incident {
	var orig *content.Page
	for _, p := range pages {
		if !p.Meta.IsOriginal() {
			continue
		}
		if orig != nil {
			errs.Add(p.File, p.Meta.Begin.Line, p.Meta.Begin.Col,
				"incident %s has two originals (%s and this file); keep the facts (timezone, begin, end, …) only in the original and remove them here", id, orig.File)
			continue
		}
		orig = p
	}
	if orig == nil {
		errs.Add(pages[0].File, 1, 1, "incident %s has no original: one of its files must hold the facts (timezone, begin, end, products, …) in its front matter", id)
		return nil
	}
	m := &orig.Meta
	inc := &Incident{
		ID: id, Original: orig, Versions: map[string]*content.Page{},
		Severity: m.Severity.V, Draft: m.Draft, Sources: m.Sources,
		Products: m.Products.Values(), Regions: m.Regions.Values(), Causes: m.Causes.Values(),
	}
	for _, p := range pages {
		inc.Versions[p.Lang] = p
	}
	at := func(p content.Pos, format string, args ...any) { errs.Add(orig.File, p.Line, p.Col, format, args...) }
	need := func(s content.String, key, example string) bool {
		if !s.Given() || s.V == "" {
			at(content.Pos{Line: 1, Col: 1}, "the original needs `%s: %s` in its front matter", key, example)
			return false
		}
		return true
	}
	need(m.Summary, "summary", "one or two sentences")
	ok := need(m.Timezone, "timezone", "America/Los_Angeles")
	if ok {
		loc, err := loadLocation(m.Timezone.V)
		if err != nil || m.Timezone.V == "Local" || m.Timezone.V == "" {
			at(m.Timezone.Pos, "unknown time zone %q; use an IANA zone name such as America/Los_Angeles, Europe/London or Asia/Taipei", m.Timezone.V)
			ok = false
		} else {
			inc.Location = loc
		}
	}
	if ok {
		ok = linkWindow(inc, id, m, at)
	}
	if m.Severity.Given() && !slices.Contains(content.Severities, m.Severity.V) {
		at(m.Severity.Pos, "severity %q is not one of %s; leave it out when the report does not say", m.Severity.V, strings.Join(content.Severities, ", "))
	}
	for _, p := range pages {
		if p != orig {
			checkTranslation(orig, p, errs)
		}
	}
	if !ok {
		return nil
	}

	// Timelines: the original's events, then each translation's, which must
	// list the same instants.
	placed := func(p *content.Page) ([]content.Event, bool) {
		events, perrs := content.PlaceEvents(p.File, p.Timeline, inc.Location)
		for i := range perrs {
			errs.AddError(&perrs[i])
		}
		return events, len(perrs) == 0
	}
	events, good := placed(orig)
	if !good || orig.TimelineUnread > 0 {
		return nil // the original's timeline is wrong or incomplete: nothing to compare with
	}
	inc.timeline = newTimeline(events)
	inc.Through = inc.End
	if !inc.EndStated() {
		// What is known is a lower bound: the incident lasted at least
		// until its last stated event.
		inc.Through = inc.Begin
		if n := len(events); n > 0 && events[n-1].Instant.After(inc.Begin) {
			inc.Through = events[n-1].Instant
		}
	}
	inc.Duration = inc.Through.Sub(inc.Begin)
	for _, p := range pages {
		if p == orig {
			continue
		}
		tev, good := placed(p)
		if good && p.TimelineUnread == 0 && compareTimelines(orig, events, p, tev, errs) {
			inc.translations = append(inc.translations, translated(p.Lang, tev))
		}
	}
	return inc
}

// linkWindow reads begin and the optional end in the incident's zone and
// checks them against each other, the id and ongoing. It reports whether
// begin could be placed.
func linkWindow(inc *Incident, id string, m *content.Meta, at func(content.Pos, string, ...any)) bool {
	ok := true
	begin, err := content.ParseTime(m.Begin.V, inc.Location)
	if err != nil {
		at(m.Begin.Pos, "begin: %v", err)
		ok = false
	}
	var end time.Time
	switch {
	case m.End.Given() && m.Ongoing:
		at(m.OngoingPos, "ongoing: true contradicts end %s (line %d); remove end if the incident had not ended, or ongoing if it had", m.End.V, m.End.Line)
		ok = false
	case m.End.Given():
		if end, err = content.ParseTime(m.End.V, inc.Location); err != nil {
			at(m.End.Pos, "end: %v", err)
			ok = false
		} else if ok && end.Before(begin) {
			at(m.End.Pos, "end %s is before begin %s; an incident ends after it begins", m.End.V, m.Begin.V)
			ok = false
		}
	}
	if !ok {
		return false
	}
	_, slug, _ := content.SplitID(id)
	if want := content.ID(begin.In(inc.Location), slug); want != id {
		d, _, _ := content.SplitID(want)
		at(m.Begin.Pos, "the incident begins on %s in %s but its id %q starts with another date; rename the folder to %s",
			d, inc.Location, id, want)
	}
	inc.Begin, inc.Ongoing = begin.UTC(), m.Ongoing
	if !end.IsZero() {
		inc.End = end.UTC()
	}
	return true
}

// checkTranslation reports a translation that states a fact differently
// from the original: facts live in one place, so a difference is a mistake
// in one of the two files, never a silent override.
func checkTranslation(orig, tr *content.Page, errs *diag.List) {
	o, t := &orig.Meta, &tr.Meta
	if !t.Title.Given() {
		return // already reported by the load stage
	}
	if !t.Summary.Given() {
		errs.Add(tr.File, 1, 1, "translation has no summary; add `summary: …` in %s", tr.Lang)
	}
	str := func(key string, tv, ov content.String) {
		if tv.Given() && !ov.Given() {
			errs.Add(tr.File, tv.Line, tv.Col, "%s %q is not stated in the original %s; facts live in the original: move %s there",
				key, tv.V, orig.File, key)
		} else if tv.Given() && tv.V != ov.V {
			errs.Add(tr.File, tv.Line, tv.Col, "%s %q contradicts the original %s:%d which says %q; facts live in the original: remove %s from the translation",
				key, tv.V, orig.File, ov.Line, ov.V, key)
		}
	}
	list := func(key string, tv, ov content.Strings) {
		if tv.Given() && !slices.Equal(tv.Values(), ov.Values()) {
			errs.Add(tr.File, tv.Line, tv.Col, "%s %v contradicts the original %s:%d which says %v; facts live in the original: remove %s from the translation",
				key, tv.Values(), orig.File, ov.Line, ov.Values(), key)
		}
	}
	str("timezone", t.Timezone, o.Timezone)
	str("end", t.End, o.End)
	str("organization", t.Organization, o.Organization)
	str("severity", t.Severity, o.Severity)
	list("products", t.Products, o.Products)
	list("regions", t.Regions, o.Regions)
	list("causes", t.Causes, o.Causes)
	list("related", t.Related, o.Related)
	if len(t.Sources) > 0 {
		errs.Add(tr.File, t.Sources[0].Line, t.Sources[0].Col, "sources are facts and live in the original %s; remove them from the translation", orig.File)
	}
	if t.OngoingPos.Given() && t.Ongoing != o.Ongoing {
		errs.Add(tr.File, t.OngoingPos.Line, t.OngoingPos.Col, "ongoing: %v contradicts the original %s; facts live in the original: remove ongoing from the translation", t.Ongoing, orig.File)
	}
	if t.DraftPos.Given() && t.Draft != o.Draft {
		errs.Add(tr.File, t.DraftPos.Line, t.DraftPos.Col, "draft: %v contradicts the original %s; drafts are set in the original", t.Draft, orig.File)
	}
}

// compareTimelines reports a translation whose timeline instants differ from
// the original's, naming both files and lines.
func compareTimelines(orig *content.Page, want []content.Event, tr *content.Page, got []content.Event, errs *diag.List) bool {
	// Placed without errors, the events are their pages' marks one for
	// one: the marks say where each was written.
	wantAt, gotAt := orig.Timeline, tr.Timeline
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(got):
			line := tr.TimelinePos.Line
			if len(got) > 0 {
				line = gotAt[len(got)-1].Line
			}
			errs.Add(tr.File, max(line, 1), 1, "timeline is missing the event at %s (%s:%d); translate every event of the original", wantAt[i].Written, orig.File, wantAt[i].Line)
			return false
		case i >= len(want):
			g := gotAt[i]
			errs.Add(tr.File, g.Line, g.Col, "timeline has an event at %s that the original %s does not have; remove it or add it to the original first", g.Written, orig.File)
			return false
		case !got[i].Instant.Equal(want[i].Instant):
			g := gotAt[i]
			errs.Add(tr.File, g.Line, g.Col, "timeline event %d is at %s but in the original (%s:%d) at %s; translations keep the original's times",
				i+1, timefmt.UTC(got[i].Instant), orig.File, wantAt[i].Line, timefmt.UTC(want[i].Instant))
			return false
		}
	}
	return true
}

// linkRelated resolves related ids and makes the relation symmetric.
func linkRelated(incs []*Incident, byID map[string]*Incident, hidden map[string]bool, allIDs []string, errs *diag.List) {
	for _, inc := range incs {
		for _, r := range inc.Original.Meta.Related.V {
			other, ok := byID[r.V]
			switch {
			case ok && other == inc:
				errs.Add(inc.Original.File, r.Line, r.Col, "an incident cannot be related to itself")
			case ok:
				addUnique(&inc.Related, other)
				addUnique(&other.Related, inc)
			case hidden[r.V]:
				// A draft is not published; its links appear when it is.
				// An incident with errors has them reported already.
			default:
				errs.Add(inc.Original.File, r.Line, r.Col, "related incident %q does not exist; %s", r.V,
					diag.Suggest(r.V, allIDs, "check the folder name under content/"))
			}
		}
	}
	for _, inc := range incs {
		slices.SortFunc(inc.Related, order)
	}
}

func addUnique(list *[]*Incident, inc *Incident) {
	if !slices.Contains(*list, inc) {
		*list = append(*list, inc)
	}
}

// linkOverlaps finds incidents whose impact windows intersect. incs is
// sorted by begin; a sweep keeps only incidents that have not ended yet, so
// the work grows with the overlaps found, not with the square of the
// archive. Windows that only touch (one ends as the next begins) do not
// overlap. An incident without a stated end is taken for what is known of
// it, [Begin, Through]: it overlaps what its stated events overlap.
func linkOverlaps(incs []*Incident) {
	var open []*Incident
	for _, inc := range incs {
		still := open[:0]
		for _, o := range open {
			// An incident stays open while it lasts; an instant-long one
			// while others begin at the same instant.
			if o.Through.After(inc.Begin) || o.Begin.Equal(inc.Begin) {
				still = append(still, o)
			}
		}
		open = still
		for _, o := range open {
			if overlaps(o, inc) {
				o.Overlapping = append(o.Overlapping, inc)
				inc.Overlapping = append(inc.Overlapping, o)
			}
		}
		open = append(open, inc)
	}
	for _, inc := range incs {
		slices.SortFunc(inc.Overlapping, order)
	}
}

// overlaps reports whether two impact windows intersect. Windows are
// half-open, [begin, end): one ending as the other begins does not
// overlap, and an instant-long incident overlaps the windows it falls in.
func overlaps(a, b *Incident) bool {
	point := func(p, w *Incident) bool { return !p.Begin.Before(w.Begin) && p.Begin.Before(w.Through) }
	switch za, zb := a.Duration == 0, b.Duration == 0; {
	case za && zb:
		return false
	case za:
		return point(a, b)
	case zb:
		return point(b, a)
	}
	return a.Begin.Before(b.Through) && b.Begin.Before(a.Through)
}

// linkTerms builds the organization, product, region and cause pages'
// incident lists. incs is sorted oldest first; term lists are newest first.
// Organizations come first, because a product belongs to the organization
// of the incident naming it: AWS's Storage and Google Cloud's Storage are
// two terms, with two pages.
//
// Two products whose slugs coincide though they are different products
// (Google's "Cloud Storage" and Google Cloud's "Storage") cannot share a
// page: that is an error at the later one.
func linkTerms(incs []*Incident, errs *diag.List) map[Taxonomy][]*Term {
	out := map[Taxonomy][]*Term{}
	for _, inc := range incs {
		inc.Terms = TermLists{}
	}
	for _, tax := range Taxonomies {
		bySlug := map[string]*Term{}
		for _, inc := range incs {
			var org *Term
			if tax == Products {
				org = inc.Organization()
			}
			for _, v := range termValues(inc.Original, tax) {
				name := v.V
				slug := termSlug(name, org)
				t, ok := bySlug[slug]
				if !ok {
					t = &Term{Taxonomy: tax, Name: name, Slug: slug, Organization: org}
					bySlug[slug] = t
					out[tax] = append(out[tax], t)
				} else if t.Organization != org || Slug(t.Name) != Slug(name) {
					errs.Add(inc.Original.File, v.Line, v.Col, "product %q%s would have the same page (%s) as the product %q%s in %s; name one of them differently",
						name, ofOrganization(org), slug, t.Name, ofOrganization(t.Organization), t.Incidents[0].Original.File)
					continue
				}
				if inc.Terms.Add(t) {
					t.Incidents = append(t.Incidents, inc)
				}
			}
		}
		for _, t := range out[tax] {
			slices.Reverse(t.Incidents)
		}
		sort.Slice(out[tax], func(i, j int) bool { return out[tax][i].Slug < out[tax][j].Slug })
	}
	markShared(out[Products])
	return out
}

// markShared flags the products whose name another product term has too,
// so that they are shown with their organization's name.
func markShared(products []*Term) {
	byName := map[string][]*Term{}
	for _, t := range products {
		byName[Slug(t.Name)] = append(byName[Slug(t.Name)], t)
	}
	for _, same := range byName {
		for _, t := range same {
			t.Shared = len(same) > 1
		}
	}
}

func ofOrganization(org *Term) string {
	if org == nil {
		return ""
	}
	return " of " + org.Name
}

// termValues are the names, as written, a page gives in a taxonomy.
func termValues(p *content.Page, tax Taxonomy) []content.String {
	switch tax {
	case Organizations:
		if o := p.Meta.Organization; o.Given() && o.V != "" {
			return []content.String{o}
		}
		return nil
	case Products:
		return p.Meta.Products.V
	case Regions:
		return p.Meta.Regions.V
	default:
		return p.Meta.Causes.V
	}
}

// unstated are the values a report writes for a fact it does not state
// (in lower case): "causes: [unknown]" is a term with a page, but two
// incidents whose causes are both unknown are not alike for it.
var unstated = map[string]bool{
	"": true, "unknown": true, "none": true, "n/a": true, "na": true, "tbd": true, "tbc": true,
	"-": true, "—": true, "?": true, "not stated": true, "unspecified": true, "undisclosed": true,
	"under investigation": true, "不明": true, "未知": true, "無": true, "なし": true, "不詳": true, "調査中": true, "調查中": true,
}

// Stated reports whether the term names a fact, rather than saying the
// report does not know it ("Unknown", "N/A", "none").
func (t *Term) Stated() bool {
	if len(t.Name) > len("under investigation.") {
		return true // longer than any of them: asked for every term of every incident
	}
	return !unstated[strings.ToLower(strings.TrimSpace(strings.TrimRight(t.Name, ".")))]
}

// similarWeight is what sharing a term of each taxonomy adds to a
// candidate's score; an organization has too many incidents to say much.
var similarWeight = map[Taxonomy]int{Causes: 100, Products: 10, Regions: 1}

// linkSimilar ranks, for each of incs, others that share terms: a shared
// cause weighs most, then a product, then a region; closer in time wins
// a tie. Only the nearest neighbours in each term's list are candidates,
// and only terms that state a fact (Stated) count: no fact, or the same
// "unknown", makes no two incidents alike.
func linkSimilar(incs []*Incident) {
	for _, inc := range incs {
		score := map[*Incident]int{}
		for tax, list := range inc.Terms.All() {
			if similarWeight[tax] == 0 {
				continue
			}
			for _, t := range list {
				if !t.Stated() {
					continue // "unknown" shared says nothing of two incidents
				}
				i := placeIn(t, inc)
				for j := max(0, i-similarWindow); j < min(len(t.Incidents), i+similarWindow+1); j++ {
					if o := t.Incidents[j]; o != inc {
						score[o] += similarWeight[tax]
					}
				}
			}
		}
		for _, o := range inc.Related {
			delete(score, o) // listed already, under related
		}
		inc.Similar = topSimilar(inc, score)
	}
}

// placeIn is inc's index in t's incidents, which are newest first: found
// by halving the list, where a map of each term's incidents took 600,000
// entries at 100,000 incidents, all made while linking at the memory
// limit; by looking at each in turn if the list is not in that order.
func placeIn(t *Term, inc *Incident) int {
	i, ok := slices.BinarySearchFunc(t.Incidents, inc, func(e, target *Incident) int { return order(target, e) })
	if ok && t.Incidents[i] == inc {
		return i
	}
	return slices.Index(t.Incidents, inc)
}

// topSimilar picks the maxSimilar best-scored candidates: higher score,
// then closer in time, then id. Selecting the few best keeps this linear.
func topSimilar(inc *Incident, score map[*Incident]int) []*Incident {
	type cand struct {
		inc   *Incident
		score int
		gap   time.Duration
	}
	better := func(a, b cand) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		if a.gap != b.gap {
			return a.gap < b.gap
		}
		return a.inc.ID < b.inc.ID
	}
	var top []cand
	for o, sc := range score {
		c := cand{o, sc, max(o.Begin.Sub(inc.Begin), inc.Begin.Sub(o.Begin))}
		if len(top) == maxSimilar && !better(c, top[len(top)-1]) {
			continue
		}
		i := len(top)
		if len(top) < maxSimilar {
			top = append(top, c)
		}
		for ; i > 0 && better(c, top[i-1]); i-- {
			if i < len(top) {
				top[i] = top[i-1]
			}
		}
		top[min(i, len(top)-1)] = c
	}
	out := make([]*Incident, len(top))
	for i, c := range top {
		out[i] = c.inc
	}
	return out
}

// slugs keeps each term name's slug: an archive names a few hundred terms
// tens of thousands of times, and the authoring server links it again on
// every change.
var slugs sync.Map // name → slug

// Slug turns a term into a URL segment: lowercase letters and digits of any
// script, other runs of characters become one hyphen ("Cloud Pub/Sub" →
// "cloud-pub-sub").
func Slug(name string) string {
	if s, ok := slugs.Load(name); ok {
		return s.(string)
	}
	s := slug(name)
	slugs.Store(name, s)
	return s
}

func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}
