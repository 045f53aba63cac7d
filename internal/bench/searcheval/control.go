package searcheval

import (
	"fmt"
	"slices"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
)

// CauseCategory is the category of the queries of CauseQueries.
const CauseCategory = "cause"

// CauseQueries returns a query set judged without the hand-written
// incidents, for an archive of generated incidents only (Site with
// WithoutJudged): in each language of the archive, the name of each cause
// as the reports say it ("a memory leak", "記憶體洩漏"), relevant to the
// incidents whose first cause it is, which say it in their title,
// summary and report, among those that name it as a later cause. A
// change of ranking that the judged queries favour for what the
// hand-written incidents are rather than what they say (their length:
// a preference for short reports) must not lower its scores.
func (s Site) CauseQueries() ([]Query, error) {
	first, err := s.firstCauses()
	if err != nil {
		return nil, err
	}
	var qs []Query
	for _, lang := range s.langs() {
		for _, slug := range corpus.CauseSlugs() {
			if len(first[slug]) == 0 {
				continue
			}
			name, _ := corpus.CauseName(slug, lang)
			qs = append(qs, Query{
				ID: fmt.Sprintf("cause-%s-%s", lang, slug), Category: CauseCategory,
				Lang: lang, Q: name, Relevant: first[slug],
			})
		}
	}
	return qs, nil
}

// Judge returns the judged queries qs (Queries) as they judge this site:
// each query's relevant incidents are its hand-written ones and the
// generated incidents whose first cause is one of its Causes, whatever
// the seed and number of generated incidents.
func (s Site) Judge(qs []Query) ([]Query, error) {
	first, err := s.firstCauses()
	if err != nil {
		return nil, err
	}
	out := make([]Query, len(qs))
	for i, q := range qs {
		q.Relevant = slices.Clone(q.Relevant)
		for _, slug := range q.Causes {
			q.Relevant = append(q.Relevant, first[slug]...)
		}
		out[i] = q
	}
	return out, nil
}

// firstCauses maps each cause to the generated incidents whose first
// cause it is, in the generator's order.
func (s Site) firstCauses() (map[string][]string, error) {
	first := map[string][]string{}
	if s.Distractors == 0 {
		return first, nil
	}
	incs, err := corpus.Plan(s.corpusOptions())
	if err != nil {
		return nil, err
	}
	for _, inc := range incs {
		first[inc.Causes[0]] = append(first[inc.Causes[0]], inc.ID)
	}
	return first, nil
}
