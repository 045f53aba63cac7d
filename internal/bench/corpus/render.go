package corpus

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/search/analysis"
)

// renderer turns a planned incident and its story into Markdown. One
// renderer is used by one goroutine; it reuses its buffers between files.
type renderer struct {
	pcg *rand.PCG
	r   *rand.Rand
	buf []byte
	spc []byte // scratch for cjkSpacing

	inc   *Incident
	st    *story
	lex   *lexicon
	lang  string
	b     bound // values for the {b...} slots
	lastC int

	impactBag, rootBag, remedBag bag
}

func newRenderer() *renderer {
	pcg := rand.NewPCG(0, 0)
	return &renderer{pcg: pcg, r: rand.New(pcg), buf: make([]byte, 0, 16<<10)}
}

func (w *renderer) reseed(s uint64) { w.pcg.Seed(s, splitmix64(s^0x5851f42d4c957f2d)) }

func langSeed(lang string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(lang); i++ {
		h ^= uint64(lang[i])
		h *= 1099511628211
	}
	return h
}

// file renders one language file. The result aliases the renderer's buffer
// and is valid until the next call.
func (w *renderer) file(inc *Incident, st *story, lang string) []byte {
	w.inc, w.st, w.lang, w.lex = inc, st, lang, lexicons[lang]
	w.reseed(mix(inc.seed, langSeed(lang)))
	w.lastC = st.comp
	w.impactBag, w.rootBag, w.remedBag = bag{}, bag{}, bag{}
	w.buf = w.buf[:0]

	w.frontMatter(inc, st, lang)
	w.body()
	if lang == "zh-CN" {
		analysis.FoldChinese(w.buf)
	}
	out := w.buf
	return out
}

func (w *renderer) str(s string) { w.buf = append(w.buf, s...) }

// capture renders f into a fresh buffer and returns it.
func (w *renderer) capture(f func()) []byte {
	saved := w.buf
	w.buf = make([]byte, 0, 1024)
	f()
	out := w.buf
	w.buf = saved
	return out
}

func (w *renderer) yamlString(b []byte) {
	w.str(`"`)
	for _, c := range b {
		switch c {
		case '"', '\\':
			w.buf = append(w.buf, '\\', c)
		case '\n':
			w.str(" ")
		default:
			w.buf = append(w.buf, c)
		}
	}
	w.str(`"`)
}

func (w *renderer) yamlList(key string, list []string) {
	w.str(key)
	w.str(": [")
	for i, s := range list {
		if i > 0 {
			w.str(", ")
		}
		if strings.ContainsAny(s, ":,[]{}#&*!|>'\"%@`") {
			w.yamlString([]byte(s))
		} else {
			w.str(s)
		}
	}
	w.str("]\n")
}

const wallFormat = "2006-01-02 15:04"

func (w *renderer) frontMatter(inc *Incident, st *story, lang string) {
	title := w.capture(func() { w.sentence(w.lex.titles[st.titleT]) })
	summary := w.capture(func() { w.sentence(w.lex.summaries[st.summT]) })
	w.str("---\ntitle: ")
	w.yamlString(title)
	w.str("\nsummary: ")
	w.yamlString(summary)
	w.str("\n")
	if lang == inc.Original {
		w.str("timezone: " + inc.Zone + "\n")
		w.str("begin: " + inc.Begin.Format(wallFormat) + "\n")
		if inc.Ongoing {
			w.str("ongoing: true\n")
		} else {
			w.str("end: " + inc.End.Format(wallFormat) + "\n")
		}
		if inc.Organization != "" {
			w.str("organization: " + inc.Organization + "\n")
		}
		if !inc.NoProducts {
			w.yamlList("products", inc.Products)
		}
		w.yamlList("regions", inc.Regions)
		w.yamlList("causes", inc.Causes)
		if inc.Severity != "" {
			w.str("severity: " + inc.Severity + "\n")
		}
		if len(inc.Related) > 0 {
			w.yamlList("related", inc.Related)
		}
		if st.sources {
			w.str("sources:\n  - title: \"Synthetic incident report\"\n    url: \"https://status.example.com/incidents/" + inc.ID + "\"\n")
		}
	}
	w.str("---\n\n")
}

var headingIDs = [4]string{"impact", "root-cause", "remediation", "timeline"}

func (w *renderer) heading(i int) {
	w.str("## ")
	w.str(w.lex.headings[i])
	w.str(" {#")
	w.str(headingIDs[i])
	w.str("}\n\n")
}

func (w *renderer) body() {
	lx, st := w.lex, w.st
	timeline := w.capture(w.timeline)
	items := w.capture(w.items)
	intro := w.capture(func() { w.sentence(lx.itemsIntro[w.r.IntN(len(lx.itemsIntro))]) })
	var closing, table, bullets, foot []byte
	if w.r.IntN(2) == 0 {
		closing = w.capture(func() { w.sentence(lx.closing[w.r.IntN(len(lx.closing))]) })
	}
	if st.table != nil {
		table = w.capture(w.table)
	}
	if st.bullets != nil {
		bullets = w.capture(w.bulletList)
	}
	if st.footnote {
		foot = w.capture(func() {
			w.str("[^1]: ")
			w.b.c, w.b.r = st.footC, w.inc.Regions[0]
			w.sentence(lx.footnote[w.r.IntN(len(lx.footnote))])
			w.str("\n\n")
		})
	}
	fixed := 0
	for _, b := range [][]byte{timeline, items, intro, closing, table, bullets, foot} {
		fixed += lx.count(b)
	}
	for _, h := range lx.headings {
		fixed += lx.count([]byte(h))
	}
	// The length is planned without the timeline's leads, so that they
	// change nothing but their own lines.
	for _, ev := range st.events {
		if ev.lead != "" {
			fixed -= lx.count([]byte(ev.lead + " "))
		}
	}
	lo, hi := lx.lo, lx.hi
	switch w.inc.Length {
	case Short:
		lo, hi = lx.short[0], lx.short[1]
	case Long:
		lo, hi = lx.long[0], lx.long[1]
	}
	target := lo + w.r.IntN(hi-lo+1)
	rest := max(target-fixed, 0)
	cur := fixed

	w.heading(0)
	w.paras(lx.impactOpen, lx.impact, &w.impactBag, fixed+rest*12/100, &cur, false)
	w.buf = append(w.buf, bullets...)
	w.buf = append(w.buf, table...)
	w.paras(nil, lx.impact, &w.impactBag, fixed+rest*32/100, &cur, false)

	w.heading(1)
	w.paras(nil, lx.root, &w.rootBag, fixed+rest*80/100, &cur, st.footnote)
	w.buf = append(w.buf, foot...)

	w.heading(2)
	w.paras(lx.remedOpen, lx.remed, &w.remedBag, target, &cur, false)
	w.buf = append(w.buf, intro...)
	w.str("\n\n")
	w.buf = append(w.buf, items...)
	if closing != nil {
		w.str("\n")
		w.buf = append(w.buf, closing...)
		w.str("\n")
	}
	w.str("\n")
	w.heading(3)
	w.buf = append(w.buf, timeline...)
}

// paras writes paragraphs of 3–6 sentences until *cur reaches limit. With
// open set, or in a short note, the first sentence is written even past
// limit; with open set, it comes from open. With footRef, the first
// paragraph ends with a footnote reference.
func (w *renderer) paras(open, list []tmpl, b *bag, limit int, cur *int, footRef bool) {
	lx := w.lex
	first := true
	for *cur < limit || (first && (open != nil || w.st.short)) {
		n := 3 + w.r.IntN(4)
		for s := 0; s < n; s++ {
			if s > 0 {
				if *cur >= limit {
					break
				}
				w.str(lx.sep)
			}
			p := len(w.buf)
			if first && s == 0 && open != nil {
				w.sentence(open[w.r.IntN(len(open))])
			} else {
				w.sentence(list[w.draw(b, len(list))])
			}
			*cur += lx.count(w.buf[p:])
		}
		if first && footRef {
			w.str("[^1]")
		}
		w.str("\n\n")
		first = false
	}
}

func (w *renderer) timeline() {
	var prev time.Time
	for i := range w.st.events {
		ev := &w.st.events[i]
		w.str("- ")
		if i == 0 || !sameDate(prev, ev.t) {
			w.str(ev.t.Format(wallFormat))
		} else {
			w.str(ev.t.Format("15:04"))
		}
		w.str(" — ")
		if ev.lead != "" {
			w.str(ev.lead)
			w.str(" ")
		}
		w.b = ev.bound
		w.sentence(w.lex.events[ev.kind][ev.variant])
		w.str("\n")
		prev = ev.t
	}
}

func sameDate(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func (w *renderer) items() {
	for _, it := range w.st.items {
		w.str("- ")
		w.b = it.bound
		w.sentence(w.lex.items[it.tmpl])
		w.str("\n")
	}
}

func (w *renderer) bulletList() {
	for _, b := range w.st.bullets {
		w.str("- ")
		w.b = b
		w.sentence(w.lex.bullet[0])
		w.str("\n")
	}
	w.str("\n")
}

func (w *renderer) table() {
	lx, st := w.lex, w.st
	head := lx.table[st.tableKind]
	w.str("|")
	for _, h := range head {
		w.str(" " + h + " |")
	}
	if st.tableKind == tableRegions {
		w.str("\n| --- | ---: | --- | ---: |\n")
	} else {
		w.str("\n| --- | --- | ---: | ---: |\n")
	}
	var total int64
	var peak float64
	for _, row := range st.table {
		w.str("| ")
		w.str(row.name)
		w.str(" | ")
		if st.tableKind == tableRegions {
			w.pctCell(row.pct)
			w.str(" | ")
			w.str(row.from.Format("15:04"))
			w.str("–")
			w.str(row.to.Format("15:04"))
			w.str(" | ")
			w.str(groupDigits(row.count))
		} else {
			w.str(failModes[row.fm].in(w.lang))
			w.str(" | ")
			w.pctCell(row.pct)
			w.str(" | ")
			w.str(groupDigits(int64(row.latency)))
			w.str(" ms")
		}
		w.str(" |\n")
		total += row.count
		peak = max(peak, row.pct)
	}
	if st.tableKind == tableRegions {
		w.str("| **" + lx.total + "** | ")
		w.pctCell(peak)
		w.str(" | ")
		w.str(w.inc.Begin.Format("15:04") + "–" + w.inc.End.Format("15:04"))
		w.str(" | **" + groupDigits(total) + "** |\n")
	}
	w.str("\n")
}

func (w *renderer) pctCell(p float64) {
	w.buf = strconv.AppendFloat(w.buf, p, 'f', 1, 64)
	w.str("%")
}

func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
