package index_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/source"
	"github.com/postmortem-archive/gen/search"
)

// The bundled archive, indexed into a real index on disk: one document per
// incident and language it is written in, found by its words, with URLs
// under the base path.
func TestWriteIndexesEveryVersion(t *testing.T) {
	site, err := source.Load(filepath.Join("..", ".."), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := index.Documents(site.Archive, nil, "/archive")
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, inc := range site.Archive.Incidents {
		want += len(inc.Versions)
	}
	if len(docs) != want || want == 0 {
		t.Fatalf("%d documents, want one per incident version (%d)", len(docs), want)
	}
	only, err := index.Documents(site.Archive, map[string]bool{"2017-03-13-bigquery-streaming-inserts": true}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range only {
		if d.ID != "2017-03-13-bigquery-streaming-inserts" {
			t.Errorf("document of %s, asked only for the BigQuery incident", d.ID)
		}
	}
	if len(only) == 0 {
		t.Fatal("no documents for the BigQuery incident")
	}

	dir := filepath.Join(t.TempDir(), "index")
	if err := index.Write(dir, site.Archive, site.Bundle.Tags(), "/archive"); err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	res, err := ix.Search(context.Background(), search.Request{Query: "BigQuery", Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].ID != "2017-03-13-bigquery-streaming-inserts" {
		t.Fatalf("searching BigQuery found %+v", res.Results)
	}
	if got, want := res.Results[0].URL, "/archive/en/incidents/2017-03-13-bigquery-streaming-inserts/"; got != want {
		t.Errorf("URL %q, want %q", got, want)
	}
}

// An incident whose end is not stated is in the unknown duration band,
// as in the overview chart; the others in the band of their duration.
func TestDurationBands(t *testing.T) {
	site, err := source.Load(filepath.Join("..", "build", "testdata", "reports"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "index")
	if err := index.Write(dir, site.Archive, site.Bundle.Tags(), ""); err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	open := 0
	for _, inc := range site.Archive.Incidents {
		if !inc.EndStated() {
			open++
		}
	}
	res, err := ix.Search(context.Background(), search.Request{Duration: search.DurationUnknown})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != open || open == 0 {
		t.Errorf("%d incidents of unknown duration, want the %d whose end is not stated", res.Total, open)
	}
}

// TestResultsShowTheListedDate: an incident that began on the evening of
// August 19 in Los Angeles (August 20 in UTC) is dated the 19th in search
// results, as everywhere on the site, and counts in the year it is listed
// under.
func TestResultsShowTheListedDate(t *testing.T) {
	site, err := source.Load(filepath.Join("..", ".."), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "index")
	if err := index.Write(dir, site.Archive, site.Bundle.Tags(), ""); err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	res, err := ix.Search(context.Background(), search.Request{Query: "metadata", Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if r.ID == "2020-08-19-blob-storage-metadata-overload" {
			if r.Date != "2020-08-19" {
				t.Errorf("dated %s, want the local date 2020-08-19 (it was the 20th in UTC)", r.Date)
			}
			return
		}
	}
	t.Fatalf("the blob storage incident was not found: %+v", res.Results)
}
