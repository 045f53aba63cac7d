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
	return func(ctx context.Context, q Query) (Answer, error) {
		start := time.Now()
		res, err := ix.Search(ctx, search.Request{Query: q.Q, Lang: q.Lang, PerPage: RankDepth})
		took := time.Since(start)
		if err != nil {
			return Answer{}, err
		}
		a := Answer{Total: res.Total, Took: took}
		for _, r := range res.Results {
			a.IDs = append(a.IDs, r.ID)
		}
		return a, nil
	}
}
