package corpus

import (
	"fmt"
	"slices"
	"time"
)

// A story holds the language-independent choices of one incident's text:
// which title and summary template, the timeline events with their
// instants, the table rows, the action items. Every language renders the
// same story, so translations list the same instants and numbers.

type evKind int

const (
	evStart evKind = iota
	evDetect
	evDeclare
	evStatus
	evInvestigate
	evEscalate
	evMitStart
	evPartial
	evMitigated
	evPost
	numKinds
)

// middle events, in the order they may appear between start and mitigation.
var middleSeq = []evKind{
	evDetect, evDeclare, evStatus, evInvestigate, evEscalate, evStatus,
	evMitStart, evPartial, evStatus, evPartial, evStatus,
}

// bound is the set of values a timeline event, action item, bullet or
// table row refers to, read by the {b...} slots.
type bound struct {
	p, r                            string
	c, m, act, team, cause, pct, fm int
}

type event struct {
	t       time.Time // local, in the incident's zone
	kind    evKind
	variant int
	// lead is formatting the item's text starts with, as people write
	// timelines ("**Paged**", a name in emphasis, a code span, a bare
	// URL); "" for plain text.
	lead string
	bound
}

type item struct {
	tmpl int
	bound
}

type tableRow struct {
	name     string // region or product
	fm       int
	pct      float64
	from, to time.Time
	count    int64
	latency  int
}

const (
	tableRegions = iota
	tableProducts
)

type story struct {
	titleT, summT int
	aff           int // share of requests affected, percent
	comp          int // main component
	act           int // main mitigation action
	events        []event
	tableKind     int
	table         []tableRow
	items         []item
	bullets       []bound
	footnote      bool
	footC         int
	footDate      time.Time
	sources       bool
	short         bool // a status page's note (Short): every section at least a sentence
}

var causeAction = map[string]int{
	"config-change": 0, "software-bug": 2, "load-spike": 3, "rollout-regression": 10,
	"capacity-exhaustion": 3, "dependency-failure": 4, "certificate-expiry": 7,
	"dns-misconfiguration": 0, "bgp-route-leak": 9, "network-partition": 9, "memory-leak": 2,
	"disk-full": 12, "quota-exhaustion": 8, "database-failover": 4, "cache-stampede": 11,
	"retry-storm": 12, "clock-skew": 2, "race-condition": 5, "operator-error": 0,
	"hardware-failure": 13, "power-loss": 1, "cooling-failure": 1, "fiber-cut": 9,
	"dos-protection": 5, "ddos-attack": 6, "leap-second": 2, "schema-migration": 16,
	"expired-credentials": 17,
}

func (w *renderer) story(inc *Incident) *story {
	w.reseed(mix(inc.seed, 0x73746f7279))
	r := w.r
	en := lexicons["en"]
	st := &story{}

	st.titleT = r.IntN(len(en.titles))
	switch {
	case st.titleT == 2 && len(inc.Products) < 2, st.titleT == 4 && len(inc.Regions) < 2:
		st.titleT = 0
	}
	st.summT = r.IntN(len(en.summaries))
	st.aff = 1 + skew(r, 90)
	st.comp = skew(r, len(components))
	st.act = r.IntN(len(actions))
	if a, ok := causeAction[inc.Causes[0]]; ok && r.Float64() < 0.8 {
		st.act = a
	}
	st.sources = r.Float64() < 0.4

	w.storyEvents(inc, st)
	leads(inc, st)

	// Action items.
	nItems := 3 + r.IntN(5)
	for _, t := range r.Perm(len(en.items))[:nItems] {
		st.items = append(st.items, item{tmpl: t, bound: w.randBound(inc, st)})
	}

	// Per-product bullets.
	if len(inc.Products) > 1 && r.Float64() < 0.5 {
		for _, p := range inc.Products {
			b := w.randBound(inc, st)
			b.p = p
			b.fm = skew(r, len(failModes))
			st.bullets = append(st.bullets, b)
		}
	}

	if inc.HasTable {
		w.storyTable(inc, st)
	}

	st.footnote = r.Float64() < 0.12
	st.footC = r.IntN(len(components))
	st.footDate = inc.Begin.AddDate(0, 0, -(100 + r.IntN(900)))
	if inc.Length == Short {
		shorten(st)
	}
	return st
}

// shorten cuts a planned story to a status page's note, after every
// choice is drawn: the start, at most two events between, the
// mitigation; one or two action items; no bullets or footnote.
func shorten(st *story) {
	st.short = true
	mitigated := slices.IndexFunc(st.events, func(ev event) bool { return ev.kind == evMitigated })
	events := []event{st.events[0]}
	events = append(events, st.events[1:mitigated][:min(mitigated-1, 2)]...)
	st.events = append(events, st.events[mitigated])
	st.items = st.items[:1+len(st.events)%2]
	st.bullets = nil
	st.footnote = false
}

// leads starts some timeline items' text with formatting, drawn from a
// stream of the incident's own so that the rest of the text does not
// change with it. The leads are the same in every language, like names
// and commands in real translations.
func leads(inc *Incident, st *story) {
	r := newRand(mix(inc.seed, 0x6c65616473))
	names := []string{"alice", "bchen", "oncall-primary", "m.tanaka", "sre-east", "dkim"}
	bold := []string{"**Paged**", "**Update**", "**Note**", "**Internal**"}
	for i := range st.events {
		if r.Float64() >= leadShare {
			continue
		}
		ev := &st.events[i]
		switch r.IntN(4) {
		case 0:
			ev.lead = "_" + names[r.IntN(len(names))] + "_ reports:"
		case 1:
			ev.lead = bold[r.IntN(len(bold))]
		case 2:
			ev.lead = fmt.Sprintf("`release-%d`", 1000+r.IntN(9000))
		default:
			ev.lead = fmt.Sprintf("https://status.example.com/incidents/%s/updates/%d", inc.ID, i+1)
		}
	}
}

// storyEvents plans the timeline: the start, middle events, the
// mitigation at End, and follow-ups after it.
func (w *renderer) storyEvents(inc *Incident, st *story) {
	r := w.r
	en := lexicons["en"]
	k := 6 + r.IntN(7)
	post := r.IntN(min(2, k-6) + 1)
	mid := k - 2 - post
	seqIx := r.Perm(len(middleSeq))[:mid]
	slices.Sort(seqIx)
	durMin := int64(inc.End.Sub(inc.Begin) / time.Minute)
	offs := make([]int64, mid)
	for i := range offs {
		offs[i] = 1 + r.Int64N(max(durMin-1, 1))
	}
	slices.Sort(offs)
	st.events = make([]event, 0, k)
	var base, seen [numKinds]int
	for k := range base {
		base[k] = r.IntN(len(en.events[k]))
	}
	add := func(kind evKind, t time.Time) {
		// Repeated kinds (status updates) cycle through their variants.
		ev := event{t: t, kind: kind, variant: (base[kind] + seen[kind]) % len(en.events[kind])}
		seen[kind]++
		ev.bound = w.randBound(inc, st)
		if kind == evMitStart || kind == evMitigated {
			ev.act = st.act
		}
		st.events = append(st.events, ev)
	}
	add(evStart, inc.Begin)
	for i, s := range seqIx {
		add(middleSeq[s], inc.Begin.Add(time.Duration(offs[i])*time.Minute))
	}
	add(evMitigated, inc.End)
	postV := r.Perm(len(en.events[evPost]))
	t := inc.End
	for i := range post {
		t = t.Add(time.Duration(5+r.IntN(150)) * time.Minute)
		add(evPost, t)
		st.events[len(st.events)-1].variant = postV[i]
	}
	pct := 20 + r.IntN(50)
	for i := range st.events {
		ev := &st.events[i]
		if i > 0 && ev.t.Before(st.events[i-1].t) {
			ev.t = st.events[i-1].t
		}
		ev.t = safeTime(ev.t)
		if ev.kind == evPartial {
			ev.pct = pct
			pct = 1 + r.IntN(max(pct/2, 1))
		}
	}
}

// storyTable plans the table of affected regions or products.
func (w *renderer) storyTable(inc *Incident, st *story) {
	r := w.r
	st.tableKind = tableRegions
	if len(inc.Products) > 1 && (len(inc.Regions) == 1 || r.IntN(2) == 0) {
		st.tableKind = tableProducts
	}
	names := inc.Regions
	if st.tableKind == tableProducts {
		names = inc.Products
	}
	dur := inc.End.Sub(inc.Begin)
	for _, n := range names {
		row := tableRow{name: n, fm: skew(r, len(failModes))}
		row.pct = float64(5+r.IntN(990)) / 10
		row.from = inc.Begin.Add(time.Duration(r.Float64()*0.2*float64(dur)) / time.Minute * time.Minute)
		row.to = inc.End.Add(-time.Duration(r.Float64()*0.2*float64(dur)) / time.Minute * time.Minute)
		row.count = 1000 + r.Int64N(5_000_000)
		row.latency = 200 + r.IntN(30_000)
		st.table = append(st.table, row)
	}
}

func (w *renderer) randBound(inc *Incident, st *story) bound {
	r := w.r
	b := bound{
		p:     inc.Products[skew(r, len(inc.Products))],
		r:     inc.Regions[r.IntN(len(inc.Regions))],
		c:     r.IntN(len(components)),
		m:     skew(r, len(metrics)),
		act:   r.IntN(len(actions)),
		team:  r.IntN(len(teams)),
		cause: inc.causeIx[r.IntN(len(inc.causeIx))],
		pct:   1 + r.IntN(95),
		fm:    inc.fm,
	}
	if r.Float64() < 0.6 {
		b.c = st.comp
	}
	return b
}
