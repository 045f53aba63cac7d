package search

import (
	"fmt"
	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/schema"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTermsReusedOnlyOnceTheirSegmentIsBuilt: an index of several
// segments' worth of documents, each with a word of its own, finds each
// document by its word and by nothing else. The memory of a document's
// terms is handed to later documents once its segment is built; handed
// over sooner, later documents' words would overwrite its terms and
// their counts: the scores are those of an index made without reuse.
func TestTermsReusedOnlyOnceTheirSegmentIsBuilt(t *testing.T) {
	const n = 3*schema.SegmentDocs + 7
	// own is a word only document i has: letters, so that no stemmer
	// or bigram makes two of them one.
	own := func(i int) string {
		w := "quorx"
		for k := 0; k < 3; k++ {
			w += string(rune('a' + i%26))
			i /= 26
		}
		return w
	}
	// ownHan is two characters only document i has together.
	ownHan := func(i int) string {
		return string(rune(0x5B57+i%97)) + string(rune(0x6C34+i/97))
	}
	var docs []Document
	begin := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		filler := strings.Repeat("the service returned errors while the queue drained slowly ", 1+i%5)
		docs = append(docs, Document{
			ID: fmt.Sprintf("en-%03d", i), Lang: "en", OriginalLang: "en",
			Title: "Outage of " + own(i), Summary: "Requests to " + own(i) + " failed.",
			Body: filler + own(i) + " " + filler, Begin: begin.Add(time.Duration(i) * time.Hour),
			URL: fmt.Sprintf("/en/incidents/en-%03d/", i),
		})
		docs = append(docs, Document{
			ID: fmt.Sprintf("zh-%03d", i), Lang: "zh-TW", OriginalLang: "zh-TW",
			Title: "服務中斷，" + ownHan(i), Summary: "請求失敗。",
			Body: strings.Repeat("佇列處理緩慢，", 1+i%5) + ownHan(i) + "。", Begin: begin.Add(time.Duration(i) * time.Hour),
			URL: fmt.Sprintf("/zh-TW/incidents/zh-%03d/", i),
		})
	}
	open := func(reuse bool) *Index {
		return openBuilt(t, buildDirWith(t, docs, []build.Option{build.WithTermsReused(reuse)}, nil))
	}
	reused, fresh := open(true), open(false)
	for i := range n {
		for _, q := range []struct{ query, lang, id string }{
			{own(i), "en", fmt.Sprintf("en-%03d", i)},
			{"errors " + own(i), "en", fmt.Sprintf("en-%03d", i)},
			{`"` + ownHan(i) + `"`, "zh-TW", fmt.Sprintf("zh-%03d", i)},
		} {
			got := search(t, reused, Request{Query: q.query, Lang: q.lang})
			want := search(t, fresh, Request{Query: q.query, Lang: q.lang})
			if len(got.Results) == 0 || got.Results[0].ID != q.id {
				t.Errorf("%s: %v, want %s first", q.query, ids(got), q.id)
				continue
			}
			if !slices.Equal(ids(got), ids(want)) || got.Results[0].Score != want.Results[0].Score {
				t.Errorf("%s: %v scored %v with terms reused, %v scored %v without", q.query,
					ids(got), got.Results[0].Score, ids(want), want.Results[0].Score)
			}
		}
	}
}
