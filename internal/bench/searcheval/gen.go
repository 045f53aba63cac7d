package searcheval

import (
	"context"
	"time"

	"github.com/postmortem-archive/gen/search"
)

// GenEngine asks gen's index, as the search page does: the query as
// typed, in the reader's language, the first page of RankDepth results
// with their highlighted fragments.
func GenEngine(ix *search.Index) Engine {
	return GenEngineDepth(ix, RankDepth)
}

// GenEngineDepth is GenEngine that answers with the first depth results
// (for R-precision), page after page; the time is that of the first.
func GenEngineDepth(ix *search.Index, depth int) Engine {
	return func(ctx context.Context, q Query) (Answer, error) {
		var a Answer
		for page := 1; len(a.IDs) < depth; page++ {
			start := time.Now()
			res, err := ix.Search(ctx, search.Request{Query: q.Q, Lang: q.Lang, Page: page, PerPage: min(depth, search.MaxPerPage)})
			if err != nil {
				return Answer{}, err
			}
			if page == 1 {
				a.Total, a.Took = res.Total, time.Since(start)
			}
			for _, r := range res.Results {
				a.IDs = append(a.IDs, r.ID)
			}
			if len(res.Results) == 0 || len(a.IDs) >= res.Total {
				break
			}
		}
		a.IDs = a.IDs[:min(len(a.IDs), depth)]
		return a, nil
	}
}
