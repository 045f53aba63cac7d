package search

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzSearch sends arbitrary queries and filters to a real index: the
// answer is results or ErrBadQuery, never a panic, another error, or
// fragments with markup other than <mark>.
func FuzzSearch(f *testing.F) {
	for _, q := range []string{"Gmail", "overloaded", "資源耗盡", `"error rate"`, "product:BigQuery -eu", "title:(", `"`, "/", "*", "::", "year:2017", "lang:zh-TW 停電", "Pub/Sub", "europe-west2"} {
		f.Add(q, "en", 1, "")
	}
	f.Add(strings.Repeat("a ", 300), "zh-TW", 3, "Gmail")
	ix := buildEditable(f)
	f.Fuzz(func(t *testing.T, q, lang string, page int, product string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := ix.Search(ctx, Request{Query: q, Lang: lang, Page: page, Product: product})
		if err != nil {
			if !errors.Is(err, ErrBadQuery) {
				t.Fatalf("query %q lang %q page %d: %v", q, lang, page, err)
			}
			return
		}
		for _, r := range res.Results {
			for _, frag := range r.Fragments {
				rest := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(frag)
				if strings.ContainsAny(rest, "<>") {
					t.Fatalf("query %q: fragment with markup: %q", q, frag)
				}
			}
		}
	})
}
