package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestUpdateEqualsBuild: an index updated from a previous one answers
// every search as an index built from scratch of the same documents,
// through a chain of updates (an edit, a new incident, a removed one, a
// removed translation), leaves the previous index as it was, and is
// built whole again once it has many segments (here 3, which bleve's
// merges of small segments pass now and then).
func TestUpdateEqualsBuild(t *testing.T) {
	defer func(n int) { maxUpdateSegments = n }(maxUpdateSegments)
	maxUpdateSegments = 3
	refused := 0
	docs := fixtures()
	prev := buildDir(t, docs)
	before := snapshotDir(t, prev)
	steps := []struct {
		name   string
		change func([]Document) ([]Document, string)
	}{
		{"an edited body", func(ds []Document) ([]Document, string) {
			ds[0].Body += " The rollback itself failed twice."
			return ds, ds[0].ID
		}},
		{"a new incident", func(ds []Document) ([]Document, string) {
			d := ds[1]
			d.ID, d.Title = "2030-01-01-new-outage", "A new outage of the rollback system"
			return append(ds, d), d.ID
		}},
		{"a removed incident", func(ds []Document) ([]Document, string) {
			id := ds[2].ID
			var out []Document
			for _, d := range ds {
				if d.ID != id {
					out = append(out, d)
				}
			}
			return out, id
		}},
	}
	for i := 0; i < 2*maxUpdateSegments; i++ {
		st := steps[0]
		if i < len(steps) {
			st = steps[i]
		}
		var id string
		docs, id = st.change(docs)
		var replaced []Document
		for _, d := range docs {
			if d.ID == id {
				replaced = append(replaced, d)
			}
		}
		segs := segments(t, prev)
		dir := filepath.Join(t.TempDir(), "search")
		err := Update(prev, dir, map[string]bool{id: true}, replaced)
		if segs >= maxUpdateSegments {
			if !errors.Is(err, ErrNotUpdatable) {
				t.Fatalf("update %d of an index of %d segments: %v, want ErrNotUpdatable", i, segs, err)
			}
			refused++
			prev = buildDir(t, docs)
			before = snapshotDir(t, prev)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !reflect.DeepEqual(snapshotDir(t, prev), before) {
			t.Fatalf("%s: the previous index changed", st.name)
		}
		sameAnswers(t, st.name, dir, buildDir(t, docs))
		prev, before = dir, snapshotDir(t, dir)
	}
	if refused == 0 {
		t.Errorf("no update was refused with at most %d segments", maxUpdateSegments)
	}
}

// segments is the largest number of segments of a language index of the
// index in dir.
func segments(t *testing.T, dir string) int {
	t.Helper()
	most := 0
	for _, l := range siteLangs {
		segs, err := filepath.Glob(filepath.Join(dir, l, "store", "*.zap"))
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, len(segs))
	}
	return most
}

// snapshotDir reads every file of a folder.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameAnswers fails unless two index folders answer a set of searches
// alike (scores to float32: bleve may sum many clauses in another order).
func sameAnswers(t *testing.T, step, got, want string) {
	t.Helper()
	open := func(dir string) *Index {
		ix, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	g, w := open(got), open(want)
	for _, r := range []Request{
		{Query: "rollback"}, {Query: "outage"}, {Query: `"rollback system"`}, {Query: "storage -network"},
		{Query: "rolback"}, {Query: "服"}, {Query: "錯誤"}, {}, {Query: "outage", Sort: SortDate}, {Sort: SortDuration},
	} {
		gr, err := g.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		wr, err := w.Search(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		for _, resp := range []*Response{gr, wr} {
			resp.TookMS = 0
			for i := range resp.Results {
				resp.Results[i].Score = float64(float32(resp.Results[i].Score))
			}
		}
		if !reflect.DeepEqual(gr, wr) {
			t.Errorf("%s: %+v: the updated index answers %s, a built one %s", step, r, fmt.Sprint(gr.Total, gr.Results), fmt.Sprint(wr.Total, wr.Results))
		}
	}
}
