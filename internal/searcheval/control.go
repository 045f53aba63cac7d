package searcheval

import (
	"fmt"

	"github.com/postmortem-archive/gen/internal/corpus"
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
	incs, err := corpus.Plan(s.corpusOptions())
	if err != nil {
		return nil, err
	}
	first := map[string][]string{}
	for _, inc := range incs {
		first[inc.Causes[0]] = append(first[inc.Causes[0]], inc.ID)
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
