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
// through the fold, and keeps its order.

import (
	"context"
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

// preferSurface sets the tiers of the matches: it orders the best
// surfaceWindow of them by score and looks for the surfaces in their
// text.
func preferSurface(ctx context.Context, ms []match, forms []string, searches []*langSearch) error {
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
		ms[i].tier = tierFolded
		if exact {
			ms[i].tier = tierExact
		}
	}
	return nil
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
