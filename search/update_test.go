package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/schema"
)

// indexChange is a change to an archive's documents: it returns them
// changed and the incident it changed.
type indexChange struct {
	name   string
	change func([]Document) ([]Document, string)
}

// The changes both ways of updating an index (Update, and Replace in an
// index opened WithUpdates) are checked against a built index with.
var (
	editBody = indexChange{"an edited body", func(ds []Document) ([]Document, string) {
		ds[0].Body += " The rollback itself failed twice."
		return ds, ds[0].ID
	}}
	newIncident = indexChange{"a new incident", func(ds []Document) ([]Document, string) {
		d := ds[1]
		d.ID, d.Title = "2030-01-01-new-outage", "A new outage of the rollback system"
		return append(ds, d), d.ID
	}}
	removeIncident = indexChange{"a removed incident", func(ds []Document) ([]Document, string) {
		id := ds[2].ID
		return slices.DeleteFunc(ds, func(d Document) bool { return d.ID == id }), id
	}}
)

// documentsOf returns the documents of incident id.
func documentsOf(docs []Document, id string) []Document {
	var out []Document
	for _, d := range docs {
		if d.ID == id {
			out = append(out, d)
		}
	}
	return out
}

// TestUpdateEqualsBuild: an index updated from a previous one answers
// every search as an index built from scratch of the same documents,
// through a chain of updates (an edit, a new incident, a removed one),
// leaves the previous index as it was, and is built whole again after
// maxUpdates updates (here 2).
func TestUpdateEqualsBuild(t *testing.T) {
	const maxUpdates = 2
	refused, updates := 0, 0
	docs := fixtures()
	prev := buildDir(t, docs)
	before := snapshotDir(t, prev)
	steps := []indexChange{editBody, newIncident, removeIncident}
	for i := 0; i < 2*(maxUpdates+1); i++ {
		st := steps[0]
		if i < len(steps) {
			st = steps[i]
		}
		var id string
		docs, id = st.change(docs)
		replaced := documentsOf(docs, id)
		dir := filepath.Join(t.TempDir(), "search")
		err := build.Update(prev, dir, map[string]bool{id: true}, replaced, build.WithMaxUpdates(maxUpdates))
		if updates == maxUpdates {
			if !errors.Is(err, build.ErrNotUpdatable) {
				t.Fatalf("update %d of an index updated %d times: %v, want ErrNotUpdatable", i, updates, err)
			}
			refused++
			prev, updates = buildDir(t, docs), 0
			before = snapshotDir(t, prev)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		updates++
		if !reflect.DeepEqual(snapshotDir(t, prev), before) {
			t.Fatalf("%s: the previous index changed", st.name)
		}
		sameAnswers(t, st.name, dir, buildDir(t, docs))
		prev, before = dir, snapshotDir(t, dir)
	}
	if refused != 2 {
		t.Errorf("%d updates refused, want 2", refused)
	}
}

// TestSmallIndexTakesEveryUpdate: an index a build left in several
// segments takes maxUpdates updates, as one built into one segment does:
// updates are counted, not segments.
func TestSmallIndexTakesEveryUpdate(t *testing.T) {
	const maxUpdates = 11   // more than the 10 segments a build leaves at most
	docs := genArchive(600) // 4 segments a language
	prev := buildDir(t, docs)
	if n := segments(t, prev); n != 4 {
		t.Fatalf("%d segments built, want 4", n)
	}
	var en []Document
	for _, d := range docs {
		if d.Lang == "en" {
			en = append(en, d)
		}
	}
	for i := range maxUpdates + 1 {
		d := en[i] // each update adds a segment to the English index
		d.Title += " (edited)"
		dir := filepath.Join(t.TempDir(), "search")
		err := build.Update(prev, dir, map[string]bool{d.ID: true}, documentsOf([]Document{d}, d.ID), build.WithMaxUpdates(maxUpdates))
		if i == maxUpdates {
			if !errors.Is(err, build.ErrNotUpdatable) {
				t.Errorf("update %d: %v, want ErrNotUpdatable", i+1, err)
			}
			break
		}
		if err != nil {
			t.Fatalf("update %d of %d: %v", i+1, maxUpdates, err)
		}
		prev = dir
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
	sameIndexAnswers(t, step, open(got), open(want))
}

// sameIndexAnswers fails unless two indexes answer a set of searches
// alike: words, completions, corrections, a phrase, an exclusion, a
// single Chinese character, browsing in three orders.
func sameIndexAnswers(t *testing.T, step string, g, w Searcher) {
	t.Helper()
	for _, r := range []Request{
		{Query: "rollback"}, {Query: "outage"}, {Query: `"rollback system"`}, {Query: "storage -network"},
		{Query: "rolback"}, {Query: "rollb"}, {Query: "服"}, {Query: "錯誤"}, {}, {Query: "outage", Sort: SortDate}, {Sort: SortDuration},
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

// TestUpdatableEqualsBuild: an index built by a Writer and opened
// WithUpdates, changed in place by a chain of replacements (an edit, the
// same document edited again, a new incident, a removed one, a removed
// translation), answers every search as an index built from scratch of
// the same documents; its document store, vocabulary and field lengths
// stay as built.
func TestUpdatableEqualsBuild(t *testing.T) {
	docs := fixtures()
	dir := buildDir(t, docs)
	ix, err := OpenEditable(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	sameIndexAnswers(t, "opened", ix, mustOpen(t, buildDir(t, docs)))
	kept := map[string]string{}
	for p, data := range snapshotDir(t, dir) {
		if !strings.Contains(p, string(filepath.Separator)+"store"+string(filepath.Separator)) {
			kept[p] = data
		}
	}
	translated := ""
	for _, d := range docs {
		if d.Lang != d.OriginalLang && d.Lang == "en" {
			translated = d.ID
		}
	}
	steps := []indexChange{editBody,
		{"the same body edited again", func(ds []Document) ([]Document, string) {
			ds[0].Body += " Then a third time, and the outage went on."
			return ds, ds[0].ID
		}},
		newIncident, removeIncident,
		{"a removed translation", func(ds []Document) ([]Document, string) {
			return slices.DeleteFunc(ds, func(d Document) bool { return d.ID == translated && d.Lang == "en" }), translated
		}},
	}
	for _, st := range steps {
		var id string
		docs, id = st.change(slices.Clone(docs))
		replaced := documentsOf(docs, id)
		if err := ix.Replace(map[string]bool{id: true}, replaced); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		sameIndexAnswers(t, st.name, ix, mustOpen(t, buildDir(t, docs)))
		gi, gd := ix.Count()
		if wi, wd := mustOpen(t, buildDir(t, docs)).Count(); gi != wi || gd != wd {
			t.Errorf("%s: %d incidents and %d documents, a built index %d and %d", st.name, gi, gd, wi, wd)
		}
	}
	for p, data := range kept {
		if now, err := os.ReadFile(p); err != nil || string(now) != data {
			t.Errorf("%s was changed (%v)", p, err)
		}
	}
}

// TestReplaceIsOneStep: searches running while an incident's documents
// are replaced, again and again, in an index opened WithUpdates, see
// every document of it, the old or the new, never some gone.
func TestReplaceIsOneStep(t *testing.T) {
	docs := fixtures()
	ix, err := OpenEditable(buildDir(t, docs))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	id := docs[0].ID
	var mine []Document
	for _, d := range docs {
		if d.ID == id {
			mine = append(mine, d)
		}
	}
	if len(mine) < 2 {
		t.Fatalf("%s has %d documents; want a translated incident", id, len(mine))
	}
	incidents, want := ix.Count()
	done := make(chan struct{})
	failed := make(chan string, 1)
	go func() {
		defer close(failed)
		for {
			select {
			case <-done:
				return
			default:
			}
			res, err := ix.Search(context.Background(), Request{PerPage: 100})
			if err != nil || res.Total != incidents {
				failed <- fmt.Sprintf("a search found %d incidents of %d (%v)", res.Total, incidents, err)
				return
			}
			if _, n := ix.Count(); n != want {
				failed <- fmt.Sprintf("the index had %d documents, want %d", n, want)
				return
			}
		}
	}()
	for i := range 30 {
		for j := range mine {
			mine[j].Title = fmt.Sprintf("Edit %d", i)
		}
		if err := ix.Replace(map[string]bool{id: true}, mine); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if msg := <-failed; msg != "" {
		t.Error(msg)
	}
}

// TestUpdateLeavesSegmentsAlone: every update keeps the segments of the
// index built whole, hard-linked, however many updates follow: bleve must
// not merge them while an update's deletions are applied (only a segment
// an update leaves with no live document goes).
func TestUpdateLeavesSegmentsAlone(t *testing.T) {
	docs := fixtures()
	built := buildDir(t, docs)
	first := map[string][]string{}
	for _, l := range siteLangs {
		segs, err := filepath.Glob(filepath.Join(built, l, "store", "*.zap"))
		if err != nil || len(segs) == 0 {
			t.Fatalf("%s: no segments (%v)", l, err)
		}
		first[l] = segs
	}
	var ids []string
	for _, d := range docs {
		if !slices.Contains(ids, d.ID) {
			ids = append(ids, d.ID)
		}
	}
	prev := built
	done := map[string]bool{}
	// untouched says whether a language still has a document as built:
	// a segment whose documents were all replaced is empty, and goes.
	untouched := func(l string) bool {
		return slices.ContainsFunc(docs, func(d Document) bool { return d.Lang == l && !done[d.ID] })
	}
	// Each update replaces another incident, in every language, leaving
	// at least one as it was built, as many as an index takes.
	const maxUpdates = 11
	for i := range min(maxUpdates, len(ids)-1) {
		id := ids[i]
		done[id] = true
		for j := range docs {
			if docs[j].ID == id {
				docs[j].Body += " Another line about the rollback."
			}
		}
		replaced := documentsOf(docs, id)
		dir := filepath.Join(t.TempDir(), "search")
		if err := build.Update(prev, dir, map[string]bool{id: true}, replaced); err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		for l, segs := range first {
			for _, p := range segs {
				if !untouched(l) {
					break
				}
				a, _ := os.Stat(p)
				b, err := os.Stat(filepath.Join(dir, l, "store", filepath.Base(p)))
				if err != nil || !os.SameFile(a, b) {
					t.Errorf("update %d: %s segment %s is not linked into it (%v)", i, l, filepath.Base(p), err)
				}
			}
		}
		prev = dir
	}
}

// TestEditsLeaveBuiltSegmentsAlone: in an index opened WithUpdates, bleve
// merges the small segments of edits, never the Writer's, which an edit
// of a few documents would otherwise write again, whole.
func TestEditsLeaveBuiltSegmentsAlone(t *testing.T) {
	docs := genArchive(600) // 4 segments a language, the last under 128
	ix, err := OpenEditable(buildDir(t, docs))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// built returns the ids of the segments of the en index with a full
	// batch of documents, and how many segments there are in all.
	built := func() (ids []uint64, all int) {
		r, err := openReader(ix.subs["en"])
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		snap, ok := r.(*scorch.IndexSnapshot)
		if !ok {
			t.Fatalf("a %T", r)
		}
		for _, s := range snap.Segments() {
			if s.FullSize() >= schema.SegmentDocs {
				ids = append(ids, s.Id())
			}
		}
		return ids, len(snap.Segments())
	}
	before, _ := built()
	if len(before) != 3 {
		t.Fatalf("%d full segments built, want 3", len(before))
	}
	var en []Document
	for _, d := range docs {
		if d.Lang == "en" {
			en = append(en, d)
		}
	}
	for i := range 40 {
		d := en[i*len(en)/40] // in every segment
		d.Title += " (edited)"
		if err := ix.Replace(map[string]bool{d.ID: true}, documentsOf([]Document{d}, d.ID)); err != nil {
			t.Fatal(err)
		}
	}
	// bleve merges in the background; what it merges it does within
	// moments of the edits.
	var after []uint64
	var all int
	for range 20 {
		time.Sleep(50 * time.Millisecond)
		after, all = built()
		if !slices.Equal(after, before) {
			break
		}
	}
	if !slices.Equal(after, before) {
		t.Errorf("after 40 edits the built segments are %v, want %v", after, before)
	}
	if all > len(before)+10 {
		t.Errorf("%d segments after 40 edits: the edits' were not merged", all)
	}
}
