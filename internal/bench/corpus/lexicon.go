package corpus

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// lexicon is everything language-specific: headings, sentence templates
// for each section, aligned templates (titles, summaries, timeline events,
// action items) and formatting of dates and durations.
type lexicon struct {
	tag      string
	headings [4]string
	sep      string // between sentences of a paragraph
	count    func([]byte) int
	lo, hi   int    // body length target: words (en) or CJK characters
	short    [2]int // lo, hi of a Short report
	long     [2]int // lo, hi of a Long report

	impactOpen, impact, root, remedOpen, remed []tmpl
	itemsIntro, closing, footnote              []tmpl

	// Aligned: same length and meaning in every language.
	titles, summaries, items, bullet []tmpl
	events                           [numKinds][]tmpl

	table [2][]string // header cells: region table, product table
	total string

	join func([]string) string
	date func(time.Time) string
	dur  func(time.Duration) string
	mins func(int) string
	secs func(float64) string
}

var lexicons = map[string]*lexicon{
	"en":    buildEN(),
	"zh-TW": buildZH(),
	"zh-CN": simplified(buildZH()),
	"ja":    buildJA(),
}

func init() {
	en := lexicons["en"]
	for tag, lx := range lexicons {
		check := func(what string, a, b int) {
			if a != b {
				panic(fmt.Sprintf("corpus: lexicon %s has %d %s, English has %d", tag, a, what, b))
			}
		}
		check("titles", len(lx.titles), len(en.titles))
		check("summaries", len(lx.summaries), len(en.summaries))
		check("items", len(lx.items), len(en.items))
		for k := range numKinds {
			check(fmt.Sprintf("events of kind %d", k), len(lx.events[k]), len(en.events[k]))
		}
	}
}

func (a action) past(lang string) string {
	switch lang {
	case "zh-TW", "zh-CN":
		return a.zh
	case "ja":
		return a.ja
	}
	return a.enPast
}

func (a action) base(lang string) string {
	if lang == "en" {
		return a.enBase
	}
	return a.past(lang)
}

// commonSlots are the slots every language shares: incident facts, aligned
// vocabularies, numbers and the {b...} values of the current event or item.
func commonSlots() slotMap {
	return slotMap{
		"P":  func(w *renderer) { w.str(w.inc.Products[skew(w.r, len(w.inc.Products))]) },
		"P1": func(w *renderer) { w.str(w.inc.Products[0]) },
		"P2": func(w *renderer) { w.str(w.inc.Products[min(1, len(w.inc.Products)-1)]) },
		"Ps": func(w *renderer) { w.str(w.lex.join(w.inc.Products)) },
		"R":  func(w *renderer) { w.str(w.inc.Regions[w.r.IntN(len(w.inc.Regions))]) },
		"R1": func(w *renderer) { w.str(w.inc.Regions[0]) },
		"Rs": func(w *renderer) { w.str(w.lex.join(w.inc.Regions)) },
		"FM": func(w *renderer) { w.str(failModes[w.inc.fm].in(w.lang)) },
		"fm": func(w *renderer) { w.str(failModes[skew(w.r, len(failModes))].in(w.lang)) },
		"CAUSE": func(w *renderer) {
			w.str(causes[w.inc.causeIx[w.r.IntN(len(w.inc.causeIx))]].in(w.lang))
		},
		"CAUSE0": func(w *renderer) { w.str(causes[w.inc.causeIx[0]].in(w.lang)) },
		"C": func(w *renderer) {
			c := w.st.comp
			if w.r.IntN(5) < 3 {
				c = skew(w.r, len(components))
			}
			w.lastC = c
			w.str(components[c].in(w.lang))
		},
		"C2": func(w *renderer) {
			c := w.r.IntN(len(components))
			if c == w.lastC {
				c = (c + 1) % len(components)
			}
			w.str(components[c].in(w.lang))
		},
		"M":     func(w *renderer) { w.str(metrics[skew(w.r, len(metrics))].in(w.lang)) },
		"ACT":   func(w *renderer) { w.str(actions[w.r.IntN(len(actions))].past(w.lang)) },
		"ACTb":  func(w *renderer) { w.str(actions[w.r.IntN(len(actions))].base(w.lang)) },
		"ACT0":  func(w *renderer) { w.str(actions[w.st.act].past(w.lang)) },
		"ACT0b": func(w *renderer) { w.str(actions[w.st.act].base(w.lang)) },
		"TEAM":  func(w *renderer) { w.str(teams[w.r.IntN(len(teams))].in(w.lang)) },
		"DUR":   func(w *renderer) { w.str(w.lex.dur(w.inc.End.Sub(w.inc.Begin))) },
		"BEGIN": func(w *renderer) { w.str(w.inc.Begin.Format("15:04")) },
		"END":   func(w *renderer) { w.str(w.inc.End.Format("15:04")) },
		"DATE":  func(w *renderer) { w.str(w.lex.date(w.inc.Begin)) },
		"DATE2": func(w *renderer) { w.str(w.lex.date(w.inc.Begin.AddDate(0, 0, -(30 + w.r.IntN(1000))))) },
		"TZ":    func(w *renderer) { w.str(w.inc.Zone) },
		"AFF":   func(w *renderer) { w.buf = strconv.AppendInt(w.buf, int64(w.st.aff), 10) },
		"pct":   func(w *renderer) { w.buf = strconv.AppendInt(w.buf, int64(2+skew(w.r, 94)), 10) },
		"pctf": func(w *renderer) {
			w.buf = strconv.AppendFloat(w.buf, float64(1+w.r.IntN(99))/10, 'f', 1, 64)
		},
		"n":      func(w *renderer) { w.buf = strconv.AppendInt(w.buf, int64(2+skew(w.r, 60)), 10) },
		"big":    func(w *renderer) { w.str(groupDigits(1000 + w.r.Int64N(10_000_000))) },
		"ms":     func(w *renderer) { w.str(strconv.Itoa(5+skew(w.r, 3000)) + " ms") },
		"msLow":  func(w *renderer) { w.str(strconv.Itoa(8+w.r.IntN(290)) + " ms") },
		"msHigh": func(w *renderer) { w.str(w.lex.secs(float64(12+w.r.IntN(440)) / 10)) },
		"mins":   func(w *renderer) { w.str(w.lex.mins(3 + skew(w.r, 120))) },
		"x": func(w *renderer) {
			w.buf = strconv.AppendFloat(w.buf, float64(15+skew(w.r, 110))/10, 'f', -1, 64)
		},
		"bP":     func(w *renderer) { w.str(w.b.p) },
		"bR":     func(w *renderer) { w.str(w.b.r) },
		"bC":     func(w *renderer) { w.str(components[w.b.c].in(w.lang)) },
		"bM":     func(w *renderer) { w.str(metrics[w.b.m].in(w.lang)) },
		"bACT":   func(w *renderer) { w.str(actions[w.b.act].past(w.lang)) },
		"bACTb":  func(w *renderer) { w.str(actions[w.b.act].base(w.lang)) },
		"bTeam":  func(w *renderer) { w.str(teams[w.b.team].in(w.lang)) },
		"bCAUSE": func(w *renderer) { w.str(causes[w.b.cause].in(w.lang)) },
		"bPct":   func(w *renderer) { w.buf = strconv.AppendInt(w.buf, int64(w.b.pct), 10) },
		"bFM":    func(w *renderer) { w.str(failModes[w.b.fm].in(w.lang)) },
	}
}

// listSlot returns a slot drawing a skewed entry of list.
func listSlot(list []string) slotFn {
	return func(w *renderer) { w.str(list[skew(w.r, len(list))]) }
}

// phrases splits a newline-separated list, trimming blanks.
func phrases(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// subTemplates adds slots that expand sub-templates (such as a noun
// phrase) to m, resolving them against m itself.
func subTemplates(m slotMap, subs map[string][]string) {
	parsed := map[string]*[]tmpl{}
	for name := range subs {
		p := new([]tmpl)
		parsed[name] = p
		m[name] = func(w *renderer) { w.expand((*p)[w.r.IntN(len(*p))]) }
	}
	for name, src := range subs {
		*parsed[name] = parseAll(src, m)
	}
}
