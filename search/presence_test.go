package search

import (
	"context"
	"path/filepath"
	"slices"
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
		"耗", "資源耗盡", "Pub/Sub europe-west2", "timed out", `"rolled back the release"`, "負載平衡器 -逾時",
		// Phrases whose words some fields lack: in the title, the
		// products, the regions, the timeline; a stop word between them;
		// a Mainland word whose Taiwan form is a phrase; excluded.
		`"the control plane" "timed out"`, `title:"control plane"`, `"Cloud SQL" "us-east1"`,
		`timeline:"rolled back the release"`, `"資源耗盡" 配額系統`, "负载均衡器 内存", `overloaded -"failed over"`,
		`"europe-west2 overloaded"`} {
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
				if !ok || res.Score != w {
					t.Errorf("%q (%s): %s scores %v, %v in all fields", q, lang, res.ID, res.Score, w)
				}
			}
		}
	}
	lacking := 0
	for _, n := range skip.present.memo.All() {
		if n == 0 {
			lacking++
		}
	}
	if lacking == 0 {
		t.Error("no field lacked a term: nothing was left out")
	}
	for range all.present.memo.All() {
		t.Error("allFields looked terms up")
		break
	}
}

// A phrase is left out of the fields that lack one of its words, and
// searched in those that have them all.
func TestAbsentPhraseLeftOut(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "search")
	buildArchive(t, dir, genArchive(200))
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	b, err := newLangBuilder("en", ix.subs["en"].Mapping())
	if err != nil {
		t.Fatal(err)
	}
	r, err := openReader(ix.subs["en"])
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b.dict, b.present, b.docCount = r, &ix.present, ix.bm25["en"].DocCount
	var nodes []*phraseQuery
	q, _, err := b.words("rolled back the release", defaultFields, &nodes)
	if err != nil {
		t.Fatal(err)
	}
	var searched, left []string
	for i, fq := range q.(*fieldsQuery).Fields {
		switch fq.(type) {
		case *phraseQuery:
			searched = append(searched, defaultFields[i].field)
		case *absentQuery:
			left = append(left, defaultFields[i].field)
		}
	}
	// The generated archive says it in the summary, body and timeline
	// only (enActs), never in the title or the names.
	if !slices.Contains(searched, fBody) || !slices.Contains(searched, fTimeline) || !slices.Contains(left, fTitle) ||
		!slices.Contains(left, fProductText) || len(nodes) != len(searched) {
		t.Errorf("searched in %v, left out of %v, %d nodes", searched, left, len(nodes))
	}
}
