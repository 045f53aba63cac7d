package searcheval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Cutoffs of the scores: recall counts the relevant incidents among the
// first RecallAt results, the reciprocal rank looks at the first RankDepth.
const (
	RecallAt  = 5
	RankDepth = 10
)

// Answer is what an engine returned for one query.
type Answer struct {
	IDs   []string      // incident ids, best first, each once, at least the first RankDepth
	Total int           // how many incidents matched in all
	Took  time.Duration // time to the first page of results, with their text
}

// Engine answers a query.
type Engine func(ctx context.Context, q Query) (Answer, error)

// Score is how an engine did on the queries of one group: a category, or
// the readers of one language.
type Score struct {
	Group   string // the category, "all", or the language (Run.Langs)
	Queries int
	Recall  float64 // mean recall@RecallAt (relevant found / min(relevant, RecallAt))
	MRR     float64 // mean reciprocal rank of the first relevant result within RankDepth
	// RPrec is the mean R-precision: the share of relevant incidents
	// among the first R results, R being the number of relevant ones; it
	// looks past the first few results of a query with many (CauseQueries)
	// when the engine answers that deep (GenEngine's depth).
	RPrec    float64
	Zero     int // queries with no result at all
	P50, P95 time.Duration
}

// Judged is how one query was answered.
type Judged struct {
	Query  Query
	Recall float64  // recall@RecallAt
	RR     float64  // reciprocal rank of the first relevant result, 0 beyond RankDepth
	RPrec  float64  // R-precision
	Got    []string // the first RecallAt ids returned
}

// Run is one engine's scores on a query set.
type Run struct {
	Engine  string
	Scores  []Score  // one per category present, in Categories order, then "all"
	Langs   []Score  // one per language of the readers present (LanguageOf), in Languages order
	Queries []Judged // in the order asked
}

// Misses are the queries whose first RecallAt results lack a relevant
// incident that would fit among them, or whose first result is not
// relevant.
func (r *Run) Misses() []Judged {
	var ms []Judged
	for _, j := range r.Queries {
		if j.Recall < 1 || j.RR < 1 {
			ms = append(ms, j)
		}
	}
	return ms
}

// Score returns the score of category c ("all" for every query).
func (r *Run) Score(c string) (Score, bool) {
	return find(r.Scores, c)
}

// Lang returns the score of the readers of language l (LanguageOf).
func (r *Run) Lang(l string) (Score, bool) {
	return find(r.Langs, l)
}

func find(scores []Score, group string) (Score, bool) {
	for _, s := range scores {
		if s.Group == group {
			return s, true
		}
	}
	return Score{}, false
}

// Languages are the languages scores are reported by, in the order
// reports list them: a reader's site language without its region, so
// that Chinese readers of either script count together.
var Languages = []string{"en", "zh", "ja"}

// LanguageOf is the language a query's reader is counted in: zh-TW and
// zh-CN are zh.
func LanguageOf(q Query) string {
	l, _, _ := strings.Cut(q.Lang, "-")
	return l
}

// measuredPasses is how many times Evaluate asks each query after warming
// up; a query's latency is the median of its passes, so that one pause of
// a shared machine does not decide a percentile.
const measuredPasses = 3

// Evaluate asks e every query once to warm it up (caches, lazily loaded
// index chunks), then measuredPasses times to measure, and scores the
// answers of the last pass.
func Evaluate(ctx context.Context, name string, qs []Query, e Engine) (*Run, error) {
	answers := make([]Answer, len(qs))
	took := make([][]time.Duration, len(qs))
	for pass := 0; pass <= measuredPasses; pass++ {
		for i, q := range qs {
			a, err := e(ctx, q)
			if err != nil {
				return nil, fmt.Errorf("%s: query %s (%q): %w", name, q.ID, q.Q, err)
			}
			if pass > 0 {
				answers[i] = a
				took[i] = append(took[i], a.Took)
			}
		}
	}
	for i := range answers {
		answers[i].Took = percentile(took[i], 50)
	}
	return score(name, qs, answers), nil
}

// score computes the per-category and per-language scores of answers to
// qs.
func score(name string, qs []Query, answers []Answer) *Run {
	run := &Run{Engine: name}
	judged := make([]Judged, len(qs))
	for i, q := range qs {
		a := answers[i]
		recall, rr, rprec := judge(q, a)
		judged[i] = Judged{Query: q, Recall: recall, RR: rr, RPrec: rprec, Got: a.IDs[:min(len(a.IDs), RecallAt)]}
	}
	run.Queries = judged
	for _, c := range append(categoriesOf(qs), "all") {
		if s, ok := scoreOf(c, judged, answers, func(q Query) bool { return c == "all" || q.Category == c }); ok {
			run.Scores = append(run.Scores, s)
		}
	}
	for _, l := range languagesOf(qs) {
		if s, ok := scoreOf(l, judged, answers, func(q Query) bool { return LanguageOf(q) == l }); ok {
			run.Langs = append(run.Langs, s)
		}
	}
	return run
}

// scoreOf is the score of group, the judged queries that in holds; false
// when it holds none.
func scoreOf(group string, judged []Judged, answers []Answer, in func(Query) bool) (Score, bool) {
	s := Score{Group: group}
	var took []time.Duration
	for i, j := range judged {
		if !in(j.Query) {
			continue
		}
		s.Queries++
		s.Recall += j.Recall
		s.MRR += j.RR
		s.RPrec += j.RPrec
		if answers[i].Total == 0 {
			s.Zero++
		}
		took = append(took, answers[i].Took)
	}
	if s.Queries == 0 {
		return s, false
	}
	s.Recall /= float64(s.Queries)
	s.MRR /= float64(s.Queries)
	s.RPrec /= float64(s.Queries)
	s.P50, s.P95 = percentile(took, 50), percentile(took, 95)
	return s, true
}

// languagesOf lists the languages of the readers of qs: those of
// Languages in its order, then others in the order they come.
func languagesOf(qs []Query) []string {
	out := slices.Clone(Languages)
	for _, q := range qs {
		if l := LanguageOf(q); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// categoriesOf lists the categories of qs: those of Categories in its
// order, then others (CauseCategory) in the order they come.
func categoriesOf(qs []Query) []string {
	out := slices.Clone(Categories)
	for _, q := range qs {
		if !slices.Contains(out, q.Category) {
			out = append(out, q.Category)
		}
	}
	return out
}

// judge returns the recall at RecallAt, the reciprocal rank and the
// R-precision of one answer.
func judge(q Query, a Answer) (recall, rr, rprec float64) {
	found, inR := 0, 0
	for i, id := range a.IDs {
		if !slices.Contains(q.Relevant, id) {
			continue
		}
		if i < RecallAt {
			found++
		}
		if i < len(q.Relevant) {
			inR++
		}
		if rr == 0 && i < RankDepth {
			rr = 1 / float64(i+1)
		}
	}
	return float64(found) / float64(min(len(q.Relevant), RecallAt)), rr, float64(inR) / float64(len(q.Relevant))
}

// percentile is the nearest-rank percentile p of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(i, 0)]
}

// WriteTable writes the runs side by side as Markdown tables: one row per
// category, then one per language of the readers; for each score, each
// run's value in the order given.
func WriteTable(w io.Writer, runs ...*Run) error {
	if err := writeScores(w, "category", runs, func(r *Run) []Score { return r.Scores }); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return writeScores(w, "language", runs, func(r *Run) []Score { return r.Langs })
}

// writeScores writes one table of the groups that scores gives of each
// run, headed by what a group is.
func writeScores(w io.Writer, heading string, runs []*Run, scores func(*Run) []Score) error {
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Engine
	}
	who := strings.Join(names, " / ")
	fmt.Fprintf(w, "| %s | queries | recall@%d (%s) | MRR@%d | zero results | p50 | p95 |\n", heading, RecallAt, who, RankDepth)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var groups []string
	for _, r := range runs {
		for _, s := range scores(r) {
			if !slices.Contains(groups, s.Group) {
				groups = append(groups, s.Group)
			}
		}
	}
	for _, g := range groups {
		var n int
		var recall, mrr, zero, p50, p95 []string
		for _, r := range runs {
			s, ok := find(scores(r), g)
			if !ok {
				continue
			}
			n = s.Queries
			recall = append(recall, fmt.Sprintf("%.2f", s.Recall))
			mrr = append(mrr, fmt.Sprintf("%.2f", s.MRR))
			zero = append(zero, fmt.Sprint(s.Zero))
			p50 = append(p50, ms(s.P50))
			p95 = append(p95, ms(s.P95))
		}
		if n == 0 {
			continue
		}
		_, err := fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s |\n", g, n,
			strings.Join(recall, " / "), strings.Join(mrr, " / "), strings.Join(zero, " / "),
			strings.Join(p50, " / "), strings.Join(p95, " / "))
		if err != nil {
			return err
		}
	}
	return nil
}

// ms formats a latency in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}
