package corpus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/postmortem-archive/gen/internal/content"
)

const (
	minDuration = 5 * time.Minute
	maxDuration = 30 * time.Hour

	overlapShare = 0.15 // incidents deliberately placed inside an earlier one
	dstShare     = 0.05 // incidents deliberately placed across a DST change
	altOrigShare = 0.10 // incidents whose original is not Langs[0]
	tableShare   = 0.35 // incidents with a GFM table

	// What a report states, drawn from each incident's own stream (see
	// planReport) so that the rest of the archive does not change with it.
	severityShare   = 0.40 // reports that state a severity
	ongoingShare    = 0.02 // reports of an incident not over, with no end
	ownServiceShare = 0.35 // SaaS reports on the company's own service, naming no product
	leadShare       = 0.15 // timeline items whose text starts with formatting

	// Lengths with Options.VariedLength: status pages publish many short
	// notes for each long postmortem.
	shortShare = 0.35
	longShare  = 0.15
)

var (
	// Local begin dates stay within 2008–2026 in every zone.
	rangeStart = time.Date(2008, 1, 2, 0, 0, 0, 0, time.UTC)
	rangeEnd   = time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
)

var loadZones = sync.OnceValues(func() ([]*time.Location, error) {
	locs := make([]*time.Location, len(zones))
	for i, z := range zones {
		l, err := time.LoadLocation(z.name)
		if err != nil {
			return nil, fmt.Errorf("corpus: load zone: %w", err)
		}
		locs[i] = l
	}
	return locs, nil
})

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func mix(a, b uint64) uint64 { return splitmix64(splitmix64(a) ^ b) }

func newRand(s uint64) *rand.Rand {
	return rand.New(rand.NewPCG(s, splitmix64(s^0x5851f42d4c957f2d)))
}

// pickW returns an index drawn with the given weights.
func pickW(r *rand.Rand, w []int) int {
	t := 0
	for _, x := range w {
		t += x
	}
	n := r.IntN(t)
	for i, x := range w {
		if n < x {
			return i
		}
		n -= x
	}
	return len(w) - 1
}

// skew returns an index in [0,n) biased towards the front, so that list
// order doubles as a popularity ranking (Zipf-like term frequencies).
func skew(r *rand.Rand, n int) int {
	u := r.Float64()
	return int(float64(n) * u * u)
}

// pickDistinct draws k distinct skewed indexes in [0,n).
func pickDistinct(r *rand.Rand, n, k int, have []int) []int {
	k = min(k, n)
	for tries := 0; len(have) < k && tries < 64; tries++ {
		i := skew(r, n)
		if !slices.Contains(have, i) {
			have = append(have, i)
		}
	}
	return have
}

// unambiguous reports whether t's local wall clock (to the minute) names
// exactly one instant in its zone: it is neither in a spring-forward gap nor
// in a fall-back overlap. Such times round-trip through "YYYY-MM-DD HH:MM".
func unambiguous(t time.Time) bool {
	_, o0 := t.Zone()
	_, o1 := t.Add(-3 * time.Hour).Zone()
	_, o2 := t.Add(3 * time.Hour).Zone()
	if o0 == o1 && o0 == o2 {
		return true // no transition nearby
	}
	y, mo, d := t.Date()
	h, mi, _ := t.Clock()
	if !time.Date(y, mo, d, h, mi, 0, 0, t.Location()).Equal(t) {
		return false
	}
	for _, dd := range []time.Duration{-2 * time.Hour, -time.Hour, -30 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour} {
		u := t.Add(dd)
		uy, umo, ud := u.Date()
		uh, umi, _ := u.Clock()
		if uy == y && umo == mo && ud == d && uh == h && umi == mi {
			return false
		}
	}
	return true
}

// safeTime shifts t forward in 15-minute steps until its wall clock is unambiguous.
func safeTime(t time.Time) time.Time {
	for !unambiguous(t) {
		t = t.Add(15 * time.Minute)
	}
	return t
}

func logUniform(r *rand.Rand, lo, hi time.Duration) time.Duration {
	l, h := math.Log(lo.Minutes()), math.Log(hi.Minutes())
	m := math.Exp(l + r.Float64()*(h-l))
	return time.Duration(math.Round(m)) * time.Minute
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c == '/':
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		default:
			dash = true
		}
	}
	return b.String()
}

func (p product) slugOrName() string {
	if p.slug != "" {
		return p.slug
	}
	return slugify(p.name)
}

// Plan decides every incident's facts (ids, zones, times, products, related
// ids, original language) without rendering any text.
func Plan(o Options) ([]Incident, error) {
	o, err := o.normalized()
	if err != nil {
		return nil, err
	}
	locs, err := loadZones()
	if err != nil {
		return nil, err
	}
	r := newRand(mix(uint64(o.Seed), 0x706c616e))
	span := int64(rangeEnd.Sub(rangeStart) / time.Minute)
	raw := make([]int64, o.N)
	for i := range raw {
		raw[i] = r.Int64N(span)
	}
	slices.Sort(raw)

	alt := ""
	if len(o.Langs) > 1 {
		alt = o.Langs[1]
		if o.Langs[0] != "zh-TW" && hasLang(o.Langs, "zh-TW") {
			alt = "zh-TW"
		}
	}
	zoneW := make([]int, len(zones))
	for i, z := range zones {
		zoneW[i] = z.weight
	}
	vendorW := make([]int, len(vendors))
	for i, v := range vendors {
		vendorW[i] = v.weight
	}

	incs := make([]Incident, o.N)
	ids := make(map[string]struct{}, o.N)
	recent := map[string][]int{} // product → recent incident indexes
	for i := range incs {
		inc := &incs[i]
		inc.seed = mix(uint64(o.Seed), uint64(i)+1)
		inc.Langs = o.Langs
		zi := pickW(r, zoneW)
		inc.Zone = zones[zi].name
		partner, dur := planTimes(r, incs, i, raw[i], locs[zi])
		if partner >= 0 {
			inc.vendor = incs[partner].vendor
			inc.Overlaps = incs[partner].ID
		} else {
			inc.vendor = pickW(r, vendorW)
		}
		prod0 := planTerms(r, inc, incs, partner, dur)
		inc.ID = uniqueID(ids, content.ID(inc.Begin, vendors[inc.vendor].products[prod0].slugOrName()+"-"+failModes[inc.fm].slug))
		planRelated(r, incs, i, partner, recent)

		inc.Original = o.Langs[0]
		if r.Float64() < altOrigShare && alt != "" {
			inc.Original = alt
		}
		planReport(inc)
		if o.VariedLength {
			planLength(inc)
		}
	}
	return incs, nil
}

// planLength decides how long the incident's report is, from a stream of
// its own, so that a Regular report is as without VariedLength. A short
// note has no table.
func planLength(inc *Incident) {
	r := newRand(mix(inc.seed, 0x6c656e677468))
	switch u := r.Float64(); {
	case u < shortShare:
		inc.Length = Short
		inc.HasTable = false
	case u < shortShare+longShare:
		inc.Length = Long
	}
}

// planReport decides what the incident's report states, as real ones
// vary: the organization (the vendor; for SaaS the company of the first
// product, named by its first word), a severity for some, no end for an
// incident still going on, no products when a SaaS company reports on its
// own service. The choices come from a stream of the incident's own, so
// every other byte of the archive is as without them.
func planReport(inc *Incident) {
	r := newRand(mix(inc.seed, 0x7265706f7274))
	v := &vendors[inc.vendor]
	inc.Organization = v.organization
	if inc.Organization == "" {
		inc.Organization, _, _ = strings.Cut(inc.Products[0], " ")
		inc.NoProducts = r.Float64() < ownServiceShare
	}
	if r.Float64() >= severityShare {
		inc.Severity = ""
	}
	inc.Ongoing = r.Float64() < ongoingShare
}

// planTimes sets incident i's begin and end from its raw start minute:
// some overlap an earlier incident (the partner, returned; -1 for none),
// some straddle a clock change of their zone. It returns the duration.
func planTimes(r *rand.Rand, incs []Incident, i int, rawMinute int64, loc *time.Location) (partner int, dur time.Duration) {
	begin := rangeStart.Add(time.Duration(rawMinute) * time.Minute)
	dur = logUniform(r, minDuration, maxDuration)
	partner = -1
	if u := r.Float64(); u < overlapShare && i > 0 {
		j := i - 1 - r.IntN(min(i, 8))
		pj := &incs[j]
		jd := int64(pj.End.Sub(pj.Begin) / time.Minute)
		begin = pj.Begin.Add(time.Duration(1+r.Int64N(max(jd-1, 1))) * time.Minute)
		partner = j
	} else if u < overlapShare+dstShare {
		if _, tr := begin.In(loc).ZoneBounds(); !tr.IsZero() && tr.Before(rangeEnd) {
			before := time.Duration(20+r.IntN(340)) * time.Minute
			after := time.Duration(20+r.IntN(600)) * time.Minute
			begin = tr.Add(-before)
			dur = before + after
		}
	}
	b := safeTime(begin.In(loc).Truncate(time.Minute))
	incs[i].Begin, incs[i].End = b, safeTime(b.Add(dur))
	return partner, dur
}

// planTerms picks the incident's products, regions, causes, failure mode,
// severity and table, sharing some with its overlapping partner. It
// returns the index of the first product, which names the incident.
func planTerms(r *rand.Rand, inc *Incident, incs []Incident, partner int, dur time.Duration) int {
	v := &vendors[inc.vendor]
	var prods, regs []int
	if partner >= 0 && r.Float64() < 0.6 {
		prods = append(prods, productIndex(v, incs[partner].Products[0]))
	}
	prods = pickDistinct(r, len(v.products), 1+pickW(r, []int{50, 28, 15, 7}), prods)
	if partner >= 0 && r.Float64() < 0.6 {
		regs = append(regs, slices.Index(v.regions, incs[partner].Regions[0]))
	}
	regs = pickDistinct(r, len(v.regions), 1+pickW(r, []int{60, 28, 12}), regs)
	inc.causeIx = pickDistinct(r, len(causes), 1+pickW(r, []int{55, 33, 12}), nil)
	inc.fm = skew(r, len(failModes))
	for _, p := range prods {
		inc.Products = append(inc.Products, v.products[p].name)
	}
	for _, g := range regs {
		inc.Regions = append(inc.Regions, v.regions[g])
	}
	for _, c := range inc.causeIx {
		inc.Causes = append(inc.Causes, causes[c].slug)
	}
	sevW := []int{50, 38, 12}
	if dur > 6*time.Hour {
		sevW = []int{25, 45, 30}
	}
	inc.Severity = severities[pickW(r, sevW)]
	inc.HasTable = r.Float64() < tableShare
	return prods[0]
}

// uniqueID returns id, or id-2, id-3… when it is taken, and takes it.
func uniqueID(taken map[string]struct{}, id string) string {
	if _, dup := taken[id]; dup {
		for k := 2; ; k++ {
			c := id + "-" + strconv.Itoa(k)
			if _, dup := taken[c]; !dup {
				id = c
				break
			}
		}
	}
	taken[id] = struct{}{}
	return id
}

// planRelated links incident i to earlier incidents, preferably of the
// same products (recent holds each product's latest incidents), and
// records i among its products' recent ones.
func planRelated(r *rand.Rand, incs []Incident, i, partner int, recent map[string][]int) {
	inc := &incs[i]
	want := pickW(r, []int{40, 30, 20, 10})
	var rel []int
	if partner >= 0 && r.Float64() < 0.7 {
		rel = append(rel, partner)
	}
	var pool []int
	for _, p := range inc.Products {
		pool = append(pool, recent[p]...)
	}
	for tries := 0; len(rel) < want && tries < 12 && i > 0; tries++ {
		var c int
		if tries%3 != 2 && len(pool) > 0 {
			c = pool[r.IntN(len(pool))]
		} else {
			c = r.IntN(i)
		}
		if incs[c].Begin.Before(inc.Begin) && !slices.Contains(rel, c) {
			rel = append(rel, c)
		}
	}
	for _, c := range rel {
		inc.Related = append(inc.Related, incs[c].ID)
	}
	for _, p := range inc.Products {
		l := append(recent[p], i)
		if len(l) > 16 {
			l = l[len(l)-16:]
		}
		recent[p] = l
	}
}

func productIndex(v *vendor, name string) int {
	for i, p := range v.products {
		if p.name == name {
			return i
		}
	}
	return 0
}
