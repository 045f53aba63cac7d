package searcheval

import (
	"context"
	"strings"
	"testing"
)

// floor is the least an engine must score on one category of the judged
// queries: gen's scores when the floors were last raised. Results are
// deterministic (ties are broken by id), so the floors are exact: any
// change that loses a relevant incident from a query's first results
// fails, and one that finds more should raise them.
type floor struct {
	recall, mrr float64
	zero        int // at most this many queries without results
}

// genFloors hold on the judged site with floorDistractors generated
// incidents of every length.
var genFloors = map[string]floor{
	// blackout: the generated losses of utility power, relevant to it,
	// name their cause in other words.
	"word":   {recall: 0.96, mrr: 1, zero: 0},
	"prefix": {recall: 0.94, mrr: 0.95, zero: 0},
	// kubernets: dozens of generated Kubernetes incidents.
	"typo": {recall: 0.95, mrr: 0.97, zero: 0},
	// leap second smear: no generated leap second is smeared.
	"phrase": {recall: 0.96, mrr: 1, zero: 0},
	"facet":  {recall: 1, mrr: 1, zero: 0},
	// 停電, 不斷電系統, 証明書, うるう秒: the generated incidents of the
	// cause each names say it in other words, or only in English and
	// Chinese.
	"cjk-word":    {recall: 0.93, mrr: 1, zero: 0},
	"cjk-char":    {recall: 0.99, mrr: 1, zero: 0},
	"simplified":  {recall: 0.98, mrr: 1, zero: 0},
	"traditional": {recall: 1, mrr: 1, zero: 0},
	"compound":    {recall: 1, mrr: 1, zero: 0},
	"loanword":    {recall: 1, mrr: 1, zero: 0},
	"mixed":       {recall: 1, mrr: 1, zero: 0},
}

// genLangFloors are the floors of the readers of each language
// (LanguageOf), on the same site.
var genLangFloors = map[string]floor{
	"en": {recall: 0.96, mrr: 0.98, zero: 0},
	"zh": {recall: 0.98, mrr: 1, zero: 0},
	"ja": {recall: 0.95, mrr: 1, zero: 0},
}

const floorDistractors = 200

// gen's real index, built by gen build from the judged site, answers the
// judged queries at least as well as the floors say.
func TestGenMeetsFloors(t *testing.T) {
	site := Site{Distractors: floorDistractors, Seed: 1, VariedLength: true}
	qs, err := Queries()
	if err == nil {
		qs, err = site.Judge(qs)
	}
	if err != nil {
		t.Fatal(err)
	}
	ix := builtIndex(t, site)
	run, err := Evaluate(context.Background(), "gen", qs, GenEngine(ix))
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := WriteTable(&table, run); err != nil {
		t.Fatal(err)
	}
	t.Logf("gen on %d judged queries among %d generated incidents:\n%s", len(qs), floorDistractors, table.String())
	for _, c := range Categories {
		s, ok := run.Score(c)
		checkFloor(t, "category "+c, s, ok, genFloors[c])
	}
	for _, l := range Languages {
		s, ok := run.Lang(l)
		checkFloor(t, "language "+l, s, ok, genLangFloors[l])
	}
	if t.Failed() {
		for _, j := range run.Queries {
			if j.RR < 1 {
				t.Logf("%s %q: recall %.2f, first relevant at 1/%.2f; got %v", j.Query.ID, j.Query.Q, j.Recall, j.RR, j.Got)
			}
		}
	}
}

// checkFloor fails t when score s of group, found when ok, is below
// floor f (the zero floor: no floor).
func checkFloor(t *testing.T, group string, s Score, ok bool, f floor) {
	t.Helper()
	if !ok || f == (floor{}) {
		t.Errorf("%s: scored %v, has a floor %v; want both", group, ok, f != (floor{}))
		return
	}
	// Scores are means of fractions: compare at the precision shown.
	if s.Recall < f.recall-0.005 || s.MRR < f.mrr-0.005 || s.Zero > f.zero {
		t.Errorf("%s: recall@%d %.3f, MRR %.3f, %d without results; the floor is %.2f, %.2f, at most %d",
			group, RecallAt, s.Recall, s.MRR, s.Zero, f.recall, f.mrr, f.zero)
	}
}
