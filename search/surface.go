package search

// Exact before folded. Chinese text is indexed folded into Simplified
// (analysis.FoldChinese), so 颱 (typhoon) and 臺 (a platform) both index
// as 台, and Japanese 冷却 finds Chinese 冷卻; a reader who types 颱
// means 颱, and one who types Japanese means Japanese first. So, for a
// query with Chinese or Japanese words, the incidents whose text has
// those words as typed rank above those found only through the fold,
// among the best surfaceWindow by score (a second stage over the first
// results, which bounds its cost: a few reads of the document store).
// A Simplified query on a Traditional archive finds every incident
// through the fold, and keeps its order. Likewise a compound typed
// without a space that some report holds whole (expand.go) ranks the
// incidents that have it whole, in any script, above those found by its
// parts alone, which may say a part more often or in the reader's
// language.

import (
	"context"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/query"
)

// surfaceWindow is the number of best matches the exact forms are looked
// for in.
const surfaceWindow = 64

// Tiers of a match (match.tier), in the order of relevance.
const (
	tierExact  = iota // among the window, has the words as typed
	tierFolded        // among the window, found only through the fold
	tierParts         // among the window, has only parts of a compound
	tierRest          // below the window
)

// surfaces returns the runs of Chinese or Japanese characters of the
// query's positive words and phrases, as typed.
func surfaces(q *query.Query) []string {
	var out []string
	for _, c := range q.Clauses {
		if c.Kind != query.Text || c.Neg {
			continue
		}
		start := -1
		for i, r := range c.Value + " " {
			switch cjk := analysis.IsCJKRune(r); {
			case cjk && start < 0:
				start = i
			case !cjk && start >= 0:
				out = append(out, c.Value[start:i])
				start = -1
			}
		}
	}
	return out
}

// wholes returns, for each word of p that some report holds whole and
// that also finds its parts, the forms that hold it whole: the word and
// its other wordings (analysis.OtherWordings), each as typed, folded and
// in Simplified characters. They are looked for in the text as written,
// which costs a tenth of folding it: a report that writes the word in
// Traditional characters the reader did not type (硬碟故障 for 硬盘故障)
// is left among the parts, by its score.
func wholes(p *plan) [][]string {
	var out [][]string
	for i, c := range p.query.Clauses {
		if p.parts[i].least < 2 {
			continue // held by no report: every match has parts only
		}
		var forms []string
		for _, w := range append([]string{c.Value}, analysis.OtherWordings(c.Value)...) {
			for _, f := range []string{w, analysis.FoldChineseString(w), analysis.SimplifiedString(w)} {
				if !slices.Contains(forms, f) {
					forms = append(forms, f)
				}
			}
		}
		out = append(out, forms)
	}
	return out
}

// preferSurface sets the tiers of the matches: it orders the best
// surfaceWindow of them by score and looks for the surfaces in their
// text, and the compounds' wholes (wholes) in those without them.
func preferSurface(ctx context.Context, ms []match, forms []string, compounds [][]string, searches []*langSearch) error {
	window := min(len(ms), surfaceWindow)
	orderTop(ms, window, byRelevance)
	for i := range ms {
		ms[i].tier = tierRest
	}
	for i := range ms[:window] {
		if err := ctx.Err(); err != nil {
			return err
		}
		exact, err := hasSurfaces(&ms[i], forms, searches)
		if err != nil {
			return err
		}
		switch {
		case exact:
			ms[i].tier = tierExact
		case len(compounds) == 0:
			ms[i].tier = tierFolded
		default:
			whole, err := hasWholes(&ms[i], compounds, searches)
			if err != nil {
				return err
			}
			ms[i].tier = tierParts
			if whole {
				ms[i].tier = tierFolded
			}
		}
	}
	return nil
}

// hasWholes reports whether a matching language version of m has a form
// of each compound in its title or long fields.
func hasWholes(m *match, compounds [][]string, searches []*langSearch) (bool, error) {
	for i, ls := range searches {
		if m.langs&(1<<i) == 0 {
			continue
		}
		d := ls.texts.doc(m.in.id)
		t, err := ls.texts.get(m.in.id)
		if err != nil || d == nil || t == nil {
			if err != nil {
				return false, err
			}
			continue
		}
		if !slices.ContainsFunc(compounds, func(forms []string) bool {
			return !slices.ContainsFunc(forms, func(f string) bool {
				return strings.Contains(d.Title, f) || strings.Contains(t.All(), f)
			})
		}) {
			return true, nil
		}
	}
	return false, nil
}

// hasSurfaces reports whether a matching language version of m has every
// form in its title or long fields.
func hasSurfaces(m *match, forms []string, searches []*langSearch) (bool, error) {
	for i, ls := range searches {
		if m.langs&(1<<i) == 0 {
			continue
		}
		d := ls.texts.doc(m.in.id)
		if d == nil {
			continue
		}
		var missing []string
		for _, f := range forms {
			if !strings.Contains(d.Title, f) {
				missing = append(missing, f)
			}
		}
		if len(missing) == 0 {
			return true, nil
		}
		t, err := ls.texts.get(m.in.id)
		if err != nil {
			return false, err
		}
		if t != nil && containsAll(t.All(), missing) {
			return true, nil
		}
	}
	return false, nil
}

func containsAll(s string, forms []string) bool {
	for _, f := range forms {
		if !strings.Contains(s, f) {
			return false
		}
	}
	return true
}
