package search

import (
	"context"
	"math"
	"path/filepath"
	"testing"
)

// A term left out of the fields that lack it scores every document as it
// did when searched in all of them.
func TestAbsentFieldsKeepScores(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "search")
	buildArchive(t, dir, genArchive(200))
	skip, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer skip.Close()
	all, err := Open(dir, func(o *options) { o.allFields = true })
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	for _, q := range []string{"overloaded", "quota exhausted memory", "overl", "overlaoded", "certificat expird",
		"耗", "資源耗盡", "Pub/Sub europe-west2", "timed out", `"rolled back the release"`, "負載平衡器 -逾時"} {
		for _, lang := range []string{"en", "zh-TW"} {
			r := Request{Query: q, Lang: lang, PerPage: MaxPerPage}
			got, err := skip.Search(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			want, err := all.Search(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total || len(got.Results) != len(want.Results) {
				t.Fatalf("%q (%s): %d matches, %d in all fields", q, lang, got.Total, want.Total)
			}
			scores := map[string]float64{}
			for _, res := range want.Results {
				scores[res.ID] = res.Score
			}
			for _, res := range got.Results {
				w, ok := scores[res.ID]
				if !ok || math.Abs(res.Score-w) > 1e-9*math.Abs(w) {
					t.Errorf("%q (%s): %s scores %v, %v in all fields", q, lang, res.ID, res.Score, w)
				}
			}
		}
	}
	lacking := 0
	for _, ok := range skip.present.m {
		if !ok {
			lacking++
		}
	}
	if lacking == 0 {
		t.Error("no field lacked a term: nothing was left out")
	}
	if len(all.present.m) != 0 {
		t.Error("allFields looked terms up")
	}
}
