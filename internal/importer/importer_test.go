package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

func read(t *testing.T, format Format, file string) ([]Incident, []*diag.Error) {
	t.Helper()
	incs, err := format.ReadFile(filepath.Join("testdata", file), nil)
	if err == nil {
		return incs, nil
	}
	list, ok := err.(*diag.List)
	if !ok {
		t.Fatalf("ReadFile: %v", err)
	}
	return incs, list.Errors()
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestReadStatuspage(t *testing.T) {
	incs, errs := read(t, Statuspage, "statuspage.json")
	if len(errs) > 0 || len(incs) != 2 {
		t.Fatalf("got %d incidents, errors %v", len(incs), errs)
	}
	ongoing, resolved := incs[0], incs[1]
	if !ongoing.Ongoing() || ongoing.Severity != "" || len(ongoing.Products) != 0 {
		t.Errorf("ongoing incident: end %v, severity %q (impact none has no severity), products %v", ongoing.End, ongoing.Severity, ongoing.Products)
	}
	want := Incident{
		ImportID: "resolved0001", Title: "Elevated API errors in the object store",
		Begin: utc("2024-03-05T07:50:00Z"), End: utc("2024-03-05T10:05:30Z"), Severity: "major",
		Products: []string{"Object Store", "API"}, Organization: "Example Cloud",
		Source: "Example Cloud status page", URL: "https://stspg.example/resolved1",
	}
	got := resolved
	if got.ImportID != want.ImportID || got.Title != want.Title || !got.Begin.Equal(want.Begin) || !got.End.Equal(want.End) ||
		got.Severity != want.Severity || !slices.Equal(got.Products, want.Products) || got.Organization != want.Organization ||
		got.Source != want.Source || got.URL != want.URL || got.Path != "incidents[1]" {
		t.Errorf("resolved incident:\n got %+v\nwant %+v", got, want)
	}
	var statuses []string
	for i, u := range got.Updates {
		statuses = append(statuses, u.Status)
		if i > 0 && u.At.Before(got.Updates[i-1].At) {
			t.Errorf("updates out of order: %v before %v", u.At, got.Updates[i-1].At)
		}
	}
	if !slices.Equal(statuses, []string{"Investigating", "Identified", "Monitoring", "Resolved"}) {
		t.Errorf("statuses %v", statuses)
	}
	if !got.Updates[0].At.Equal(utc("2024-03-05T07:52:00Z")) {
		t.Errorf("first update at %v; display_at, the time the page shows, is 07:52 UTC", got.Updates[0].At)
	}
}

func TestReadGoogleCloud(t *testing.T) {
	incs, errs := read(t, GoogleCloud, "google-cloud.json")
	if len(errs) > 0 || len(incs) != 2 {
		t.Fatalf("got %d incidents, errors %v", len(incs), errs)
	}
	got := incs[0]
	if got.ImportID != "gc0resolved1" || got.Severity != "critical" || !got.End.Equal(utc("2024-07-09T16:41:00Z")) ||
		!slices.Equal(got.Products, []string{"Queue Service", "Event Router"}) || !slices.Equal(got.Regions, []string{"example-region1"}) ||
		got.URL != "https://status.cloud.google.com/incidents/gc0resolved1" || got.Organization != "Google Cloud" {
		t.Errorf("resolved incident: %+v", got)
	}
	var statuses []string
	for _, u := range got.Updates {
		statuses = append(statuses, u.Status)
	}
	if !slices.Equal(statuses, []string{"Service outage", "Available", "Available"}) {
		t.Errorf("statuses %v", statuses)
	}
	if o := incs[1]; !o.Ongoing() || o.Severity != "minor" || !slices.Equal(o.Regions, []string{"global"}) {
		t.Errorf("ongoing incident: %+v", o)
	}
}

// TestBadInput: each problem names the file, its line and column and the
// JSON path; a bad incident is left out and the good ones are kept. An
// update in HTML is converted, with a warning at its place.
func TestBadInput(t *testing.T) {
	var warns diag.List
	incs, err := Statuspage.ReadFile("testdata/statuspage-bad.json", &warns)
	var errs []*diag.Error
	if err != nil {
		errs = err.(*diag.List).Errors()
	}
	if len(incs) != 2 || incs[0].ImportID != "good00000001" || incs[1].ImportID != "html00000001" {
		t.Errorf("kept %d incidents, want the good one and the one in HTML: %+v", len(incs), incs)
	} else if got := incs[1].Updates[0].Text; got != "All *fixed*." {
		t.Errorf("the HTML update reads %q", got)
	}
	if w := warns.Error(); w != "testdata/statuspage-bad.json:46:40: incidents[3].incident_updates[0].body: HTML converted to Markdown" {
		t.Errorf("warnings: %q", w)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`testdata/statuspage-bad.json:27:71: `,
		`incidents[1].incident_updates[0].created_at: "2024-02-30T10:05:00Z" is not a time`,
		`incidents[2].name: missing; it is the incident's title`,
		`incidents[4]: is text, not an object`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in:\n%s", want, all)
		}
	}
	if len(errs) != 3 {
		t.Errorf("%d errors, want 3:\n%s", len(errs), all)
	}
}

func TestWrongInput(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "page.html")
	os.WriteFile(html, []byte("<!doctype html>\n<html><body>Status</body></html>\n"), 0o644)
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, []byte("{\"incidents\": [\n  {\"id\": \"x\","), 0o644)
	for _, tc := range []struct {
		format Format
		file   string
		want   string
	}{
		{Statuspage, html, "page.html:1:1: not JSON: invalid character '<' looking for beginning of value; a statuspage export is the JSON from https://<status page>/api/v2/incidents.json"},
		{Statuspage, cut, "cut.json:2:14: not JSON: the file ends in the middle of the JSON"},
		{Statuspage, "testdata/google-cloud.json", "google-cloud.json:1:1: a statuspage export is an object with an \"incidents\" list, but this is a list; it looks like a google-cloud export: gen import google-cloud"},
		{GoogleCloud, "testdata/statuspage.json", "statuspage.json:1:1: a google-cloud export is a list of incidents, but this is an object; it looks like a statuspage export"},
		{GoogleCloud, filepath.Join(dir, "absent.json"), "absent.json: cannot read the export"},
		{Statuspage, "testdata/azure-status.rss", "azure-status.rss:1:1: not JSON: invalid character '<' looking for beginning of value; a statuspage export is the JSON from https://<status page>/api/v2/incidents.json; it looks like an RSS feed: gen import aws-health or azure-status"},
	} {
		incs, err := tc.format.ReadFile(tc.file, nil)
		if len(incs) != 0 || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %d incidents, error %v; want %q", tc.format.Name, tc.file, len(incs), err, tc.want)
		}
	}
}

func TestParseJSONPositions(t *testing.T) {
	src := []byte("{\n  \"a\": [1, {\"b\": \"x\"}],\n  \"é\": \"y\", \"c\": null\n}")
	root, _, err := parseJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	s := newSource("f.json", src, nil)
	b := root.fields["a"].items[1].fields["b"]
	if line, col := s.at(b.offset); b.path != "a[1].b" || line != 2 || col != 18 {
		t.Errorf("a[1].b at %d:%d path %q, want 2:18", line, col, b.path)
	}
	c := root.fields["c"]
	if line, col := s.at(c.offset); line != 3 || col != 18 || c.kind != null {
		t.Errorf("c at %d:%d kind %v, want 3:18 (columns count characters, not bytes)", line, col, c.kind)
	}
	if _, _, err := parseJSON([]byte(strings.Repeat("[", 100) + strings.Repeat("]", 100))); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep nesting: %v", err)
	}
	if _, _, err := parseJSON([]byte(`{} {}`)); err == nil || !strings.Contains(err.Error(), "more after the end") {
		t.Errorf("two values: %v", err)
	}
}

// FuzzRead: whatever the bytes, reading an export never panics, and every
// incident it yields is written as a page gen reads without error.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"statuspage.json", "statuspage-bad.json", "google-cloud.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	english := lang(f, "en")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range Formats {
			var errs, warns diag.List
			for _, inc := range format.Read("export.json", data, &errs, &warns) {
				var rerrs diag.List
				file, ok := Render(inc, Options{Location: time.UTC, Lang: english}, &rerrs)
				if !ok {
					continue
				}
				parse(t, file)
			}
			for _, e := range append(errs.Errors(), warns.Errors()...) {
				if e.File != "export.json" || e.Line < 1 || e.Col < 1 {
					t.Errorf("not placed: %v", e)
				}
			}
		}
	})
}

// TestDoubtfulInput: a key an object repeats and a numeric id are read
// (the last value, the number as text) with a warning at the JSON path,
// and the incidents are kept.
func TestDoubtfulInput(t *testing.T) {
	data := []byte(`{"incidents": [
  {"id": 12, "name": "First", "name": "Second",
   "created_at": "2024-05-01T10:00:00Z", "incident_updates": []}
]}`)
	var errs, warns diag.List
	incs := Statuspage.Read("export.json", data, &errs, &warns)
	if errs.Len() > 0 || len(incs) != 1 || incs[0].ImportID != "12" || incs[0].Title != "Second" {
		t.Fatalf("read %+v, errors %v", incs, errs.Err())
	}
	var got []string
	for _, w := range warns.Errors() {
		got = append(got, w.Error())
	}
	want := []string{
		`export.json:2:10: incidents[0].id: is a number, not text as the format has it; read as the text "12"`,
		"export.json:2:31: incidents[0].name: the key appears again in its object; the value written last is read",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
