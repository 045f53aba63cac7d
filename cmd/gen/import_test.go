package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"
)

const fixtures = "../../internal/importer/testdata/"

// events returns the text of each timeline event of a built incident page.
func events(t *testing.T, page string) []string {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "li" && slices.Contains(strings.Fields(attrOf(n, "class")), "event") {
			// Less the link to the event's own anchor ("#").
			out = append(out, strings.Replace(strings.Join(strings.Fields(textOf(n)), " "), " # ", " ", 1))
		}
		if n.Type == html.ElementNode && n.Data == "script" && strings.Contains(textOf(n), "alert(1)") {
			t.Errorf("%s: an update's script tag reached the page as a script", page)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func attrOf(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

// TestImportBuilds imports both formats into a copy of the site, flags
// after the other arguments, and builds and checks it for real.
func TestImportBuilds(t *testing.T) {
	site := copySite(t)
	code, out, errs := runGen("import", "statuspage", fixtures+"statuspage.json", "--source", site, "--timezone", "America/Los_Angeles")
	if code != exitOK || !strings.Contains(out, "created   content/2024-03-04-elevated-api-errors-in-the-object/en.md") || !strings.Contains(out, "2 created") {
		t.Fatalf("import statuspage: %d %q %q", code, out, errs)
	}
	if code, out, errs := runGen("import", "--source", site, "google-cloud", fixtures+"google-cloud.json"); code != exitOK || !strings.Contains(out, "2 created") {
		t.Fatalf("import google-cloud: %d %q %q", code, out, errs)
	}
	if code, out, errs := runGen("check", "--source", site); code != exitOK || !strings.Contains(out, "0 errors") {
		t.Fatalf("check after import: %d\n%s%s", code, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	if code, out, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK || !strings.Contains(out, "built 8 incidents") {
		t.Fatalf("build after import: %d %q %q", code, out, errs)
	}
	got := events(t, filepath.Join(dest, "en", "incidents", "2024-03-04-elevated-api-errors-in-the-object", "index.html"))
	want := []string{
		"2024-03-04 23:52 PST · 2024-03-05 07:52 UTC Investigating:", // the UTC part is the next day
		"2024-03-05 00:15 PST · 08:15 UTC Identified:",
		"01:30 PST · 09:30 UTC Monitoring:",
		"02:05 PST · 10:05 UTC Resolved:",
	}
	if len(got) != len(want) {
		t.Fatalf("events %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d reads %q, want it to start %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[2], "<script>alert(1)</script>") {
		t.Errorf("the update's text about a script tag is not shown as text: %q", got[2])
	}
	if got := events(t, filepath.Join(dest, "en", "incidents", "2024-07-11-console-some-pages-fail-to-load", "index.html")); len(got) != 1 ||
		!strings.HasPrefix(got[0], "2024-07-11 22:40 UTC") || !strings.Contains(got[0], "UTC Service disruption: Some console pages") {
		t.Errorf("ongoing Google Cloud incident: events %q", got)
	}
}

// newerExport writes a later state of the Statuspage fixture: the ongoing
// incident resolved with a new update, the other renamed.
func newerExport(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixtures + "statuspage.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	incs := doc["incidents"].([]any)
	ongoing, resolved := incs[0].(map[string]any), incs[1].(map[string]any)
	ongoing["status"], ongoing["resolved_at"] = "resolved", "2024-03-06T09:15:00Z"
	ongoing["incident_updates"] = append([]any{map[string]any{
		"status": "resolved", "body": "Dashboards load normally again.", "created_at": "2024-03-06T09:15:00Z",
	}}, ongoing["incident_updates"].([]any)...)
	resolved["name"] = "Elevated API and upload errors"
	file := filepath.Join(t.TempDir(), "incidents.json")
	data, _ = json.Marshal(doc)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestImportAgain: the same export changes nothing; a newer one updates
// what gen wrote, in the same folders, and leaves what a person edited.
func TestImportAgain(t *testing.T) {
	site := t.TempDir()
	const storeID = "content/2024-03-05-elevated-api-errors-in-the-object/en.md" // 07:50 UTC
	const dashID = "content/2024-03-06-slow-dashboard-loads/en.md"
	if code, out, errs := runGen("import", "statuspage", fixtures+"statuspage.json", "--source", site); code != exitOK {
		t.Fatalf("first import: %d %q %q", code, out, errs)
	}
	store, dash := filepath.Join(site, storeID), filepath.Join(site, dashID)
	before, _ := os.ReadFile(store)
	if code, out, _ := runGen("import", "statuspage", fixtures+"statuspage.json", "--source", site); code != exitOK || out != "unchanged "+storeID+"\nunchanged "+dashID+"\n2 unchanged\n" {
		t.Errorf("same export again: %d %q", code, out)
	}
	newer := newerExport(t)
	code, out, _ := runGen("import", "statuspage", newer, "--source", site, "--dry-run")
	if code != exitOK || out != "update    "+storeID+"\nupdate    "+dashID+"\ndry run, nothing written: 2 update\n" {
		t.Errorf("dry run of a newer export: %d %q", code, out)
	}
	if after, _ := os.ReadFile(store); string(after) != string(before) {
		t.Error("the dry run wrote")
	}
	// A person fills in the root cause of one incident.
	edited := strings.Replace(string(before), "## Timeline {#timeline}", "## Root cause {#root-cause}\n\nA bad rollout.\n\n## Timeline {#timeline}", 1)
	os.WriteFile(store, []byte(edited), 0o644)
	code, out, _ = runGen("import", "statuspage", newer, "--source", site)
	if code != exitOK || !strings.Contains(out, "updated   "+dashID+"\n") || !strings.Contains(out, "skipped   "+storeID+": edited since gen import wrote it") {
		t.Errorf("newer export: %d %q", code, out)
	}
	if after, _ := os.ReadFile(store); string(after) != edited {
		t.Error("the edited file was overwritten")
	}
	text, _ := os.ReadFile(dash)
	if !strings.Contains(string(text), "\nend: 2024-03-06 09:15\n") || strings.Contains(string(text), "\nongoing:") || !strings.Contains(string(text), "- 09:15 — Resolved: Dashboards load normally again.") {
		t.Errorf("the resolved incident:\n%s", text)
	}
	// Renamed in the export, the unedited incident keeps its folder.
	os.WriteFile(store, before, 0o644)
	if code, out, _ := runGen("import", "statuspage", newer, "--source", site); code != exitOK || out != "updated   "+storeID+"\nunchanged "+dashID+"\n1 updated, 1 unchanged\n" {
		t.Errorf("after undoing the edit: %d %q", code, out)
	}
	if text, _ := os.ReadFile(store); !strings.Contains(string(text), "title: Elevated API and upload errors\n") {
		t.Errorf("renamed incident:\n%s", text)
	}
}

func TestImportBadInput(t *testing.T) {
	site := t.TempDir()
	code, out, errs := runGen("import", "statuspage", fixtures+"statuspage-bad.json", "--source", site)
	if code != exitContent || out != "created   content/2024-05-01-login-delays/en.md\ncreated   content/2024-05-03-an-update-written-in-html/en.md\n2 created\n" {
		t.Errorf("bad export: %d %q", code, out)
	}
	for _, want := range []string{
		"statuspage-bad.json:27:71: incidents[1].incident_updates[0].created_at: \"2024-02-30T10:05:00Z\" is not a time",
		"statuspage-bad.json:30:5: incidents[2].name: missing",
		"warning: " + fixtures + "statuspage-bad.json:46:40: incidents[3].incident_updates[0].body: HTML converted to Markdown",
		"gen import: 3 errors; the incidents they concern were not written, the others were",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("no %q in:\n%s", want, errs)
		}
	}
	if code, _, errs := runGen("import", "google-cloud", fixtures+"statuspage.json", "--source", site); code != exitContent || !strings.Contains(errs, "it looks like a statuspage export") {
		t.Errorf("wrong format: %d %q", code, errs)
	}
}

func TestImportUsage(t *testing.T) {
	for _, args := range [][]string{
		{"import"},
		{"import", "statuspage"},
		{"import", "pagerduty", "x.json"},
		{"import", "statuspage", "x.json", "--timezone", "Mars/Olympus"},
		{"import", "statuspage", "x.json", "--lang", "not a tag"},
		{"import", "statuspage", "x.json", "--lang", "de"}, // not a site language
		{"import", "statuspage", "x.json", "--no-such-flag"},
	} {
		if code, out, errs := runGen(args...); code != exitUsage || out != "" || errs == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, out, _ := runGen("help", "import"); code != exitOK || !strings.Contains(out, "https://status.cloud.google.com/incidents.json") {
		t.Errorf("help import: %d %q", code, out)
	}
	// Flags after the arguments work for every command, and "--" ends them.
	site := copySite(t)
	if code, out, errs := runGen("new", "cdn-purge", "--source", site, "--begin", "2025-01-02 00:30"); code != exitOK || !strings.Contains(out, "2025-01-02-cdn-purge") {
		t.Errorf("new with flags after the slug: %d %q %q", code, out, errs)
	}
	if code, _, errs := runGen("import", "--source", site, "statuspage", "--", "--dry-run"); code != exitContent || !strings.Contains(errs, "--dry-run: cannot read the export") {
		t.Errorf("after --, --dry-run is a file name: %d %q", code, errs)
	}
}

// TestImportAcrossClockChangeAndSameTitles: a Statuspage incident of nine
// updates through the night Los Angeles springs forward reads in local
// time on either side of the change, with anchors of the right UTC minute;
// two Google Cloud incidents of one title on one day get two folders.
func TestImportAcrossClockChangeAndSameTitles(t *testing.T) {
	site := copySite(t)
	if code, out, errs := runGen("import", "statuspage", fixtures+"statuspage-dst.json", "--timezone", "America/Los_Angeles", "--source", site); code != exitOK || !strings.Contains(out, "1 created") {
		t.Fatalf("import statuspage: %d %q %q", code, out, errs)
	}
	code, out, errs := runGen("import", "google-cloud", fixtures+"google-cloud-sameday.json", "--source", site)
	if code != exitOK || !strings.Contains(out, "2 created") {
		t.Fatalf("import google-cloud: %d %q %q", code, out, errs)
	}
	var sameDay []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "content/2024-08-01-load-balancing-elevated-502-errors") {
			sameDay = append(sameDay, strings.Fields(line)[1])
		}
	}
	if len(sameDay) != 2 || sameDay[0] == sameDay[1] {
		t.Fatalf("two incidents of one title on one day: %q", sameDay)
	}
	if code, out, errs := runGen("check", "--source", site); code != exitOK || !strings.Contains(out, "0 errors") {
		t.Fatalf("check after import: %d\n%s%s", code, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	if code, out, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build after import: %d %q %q", code, out, errs)
	}
	page := filepath.Join(dest, "en", "incidents", "2024-03-10-replication-lag-in-the-eu-database", "index.html")
	got := events(t, page)
	want := []string{
		"2024-03-10 01:20 PST · 09:20 UTC Investigating:",
		"01:40 PST · 09:40 UTC Investigating:",
		"03:05 PDT · 10:05 UTC Identified:", // 02:00 PST was 03:00 PDT
		"03:30 PDT · 10:30 UTC Identified:",
	}
	if len(got) != 9 {
		t.Fatalf("%d events, want the export's 9: %q", len(got), got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d reads %q, want it to start %q", i, got[i], want[i])
		}
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, anchor := range []string{`id="t-20240310T0920Z"`, `id="t-20240310T1005Z"`, `id="t-20240310T1400Z"`} {
		if !strings.Contains(string(data), anchor) {
			t.Errorf("page lacks the event anchor %s", anchor)
		}
	}
	for _, id := range sameDay {
		dir := strings.TrimSuffix(strings.TrimPrefix(id, "content/"), "/en.md")
		if _, err := os.Stat(filepath.Join(dest, "en", "incidents", dir, "index.html")); err != nil {
			t.Errorf("same-title incident %s not built: %v", dir, err)
		}
	}
}

// writeExport writes an export of the given format holding one incident
// per title and text, each of one update with the text, and returns its
// path. The incidents begin on 2024-05-0N, N their place in the list, at
// 10:00 UTC.
func writeExport(t *testing.T, dir, format string, incidents ...[2]string) string {
	t.Helper()
	var doc any
	var incs []any
	for i, ti := range incidents {
		title, text := ti[0], ti[1]
		at := fmt.Sprintf("2024-05-%02dT10:00:00Z", i+1)
		end := fmt.Sprintf("2024-05-%02dT11:00:00Z", i+1)
		id := fmt.Sprintf("inc%04d", i+1)
		if format == "statuspage" {
			incs = append(incs, map[string]any{"id": id, "name": title, "status": "resolved", "impact": "minor",
				"created_at": at, "resolved_at": end,
				"incident_updates": []any{map[string]any{"status": "resolved", "body": text, "created_at": at}}})
		} else {
			incs = append(incs, map[string]any{"id": id, "external_desc": title, "begin": at, "end": end, "severity": "low",
				"updates": []any{map[string]any{"when": at, "text": text, "status": "AVAILABLE"}}})
		}
	}
	doc = incs
	if format == "statuspage" {
		doc = map[string]any{"page": map[string]any{"name": "Example"}, "incidents": incs}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, format+".json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestImportLongFirstWord: a title that opens with a commit hash, longer
// than a slug may be, gives a slug cut to length in both formats, with
// and without --dry-run.
func TestImportLongFirstWord(t *testing.T) {
	hash := strings.Repeat("0123456789abcdef", 4)
	for _, format := range []string{"statuspage", "google-cloud"} {
		site := t.TempDir()
		export := writeExport(t, t.TempDir(), format, [2]string{hash + " broke deploys", "Rolled back."}, [2]string{"資源耗盡", "Rolled back."})
		want := "content/2024-05-01-" + hash[:60] + "/en.md"
		for _, dry := range []string{"--dry-run", "--dry-run=false"} {
			code, out, errs := runGen("import", format, export, "--source", site, dry)
			if code != exitOK || !strings.Contains(out, want) || !strings.Contains(out, "content/2024-05-02-incident-inc0002/en.md") {
				t.Errorf("%s %s: %d %q %q", format, dry, code, out, errs)
			}
		}
		if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(want))); err != nil {
			t.Errorf("%s: %v", format, err)
		}
	}
}

// TestImportWithinBuildLimits: an incident whose file the build would
// refuse (too large, too many lines of text, marks, table cells) is not
// written, with an error at its text's JSON path; the others are, and the
// site still builds.
func TestImportWithinBuildLimits(t *testing.T) {
	huge := strings.Repeat("Logs we pasted. ", 3<<20/16) // twice in the file: summary and timeline
	lines := strings.Repeat("line\n", 25_000)
	marks := strings.Repeat("a_b ", 100_001)
	// 14 KB: a table of 3,000 columns and 1,000 bare rows.
	table := "|" + strings.Repeat("a|", 3000) + "\n|" + strings.Repeat("-|", 3000) + "\n" + strings.Repeat("x\n", 1000)
	for _, format := range []string{"statuspage", "google-cloud"} {
		site := copySite(t)
		export := writeExport(t, t.TempDir(), format,
			[2]string{"Fine", "Back to normal."}, [2]string{"Huge", huge}, [2]string{"Lines", lines}, [2]string{"Marks", marks}, [2]string{"Table", table})
		code, out, errs := runGen("import", format, export, "--source", site)
		if code != exitContent || out != "created   content/2024-05-01-fine/en.md\n1 created\n" {
			t.Errorf("%s: %d %q %q", format, code, out, errs)
		}
		text := "incidents[%d].incident_updates[0].body"
		if format == "google-cloud" {
			text = "[%d].updates[0].text"
		}
		for i, want := range []string{"the limit for one incident is 4 MiB", "lines of text outside fenced code blocks", "link, emphasis and table marks", "cells in all (columns × rows)"} {
			at := regexp.MustCompile(regexp.QuoteMeta(format+".json:1:") + `\d+: ` + regexp.QuoteMeta(fmt.Sprintf(text, i+1)+
				": not written: gen build would refuse the incident's file: ") + ".*" + regexp.QuoteMeta(want))
			if !at.MatchString(errs) {
				t.Errorf("%s: no %s in:\n%s", format, at, errs)
			}
		}
		if code, out, errs := runGen("check", "--source", site); code != exitOK {
			t.Errorf("%s: check after import: %d\n%s%s", format, code, out, errs)
		}
	}
}

// TestImportAfterKill: what an import killed while writing left (a folder
// holding only its temporary file, an empty folder) is removed or reused:
// the incidents get the ids they would have had, not new ones.
func TestImportAfterKill(t *testing.T) {
	site := t.TempDir()
	export := writeExport(t, t.TempDir(), "statuspage", [2]string{"Fine", "Back to normal."}, [2]string{"Other", "Back to normal."})
	fine, other := filepath.Join(site, "content", "2024-05-01-fine"), filepath.Join(site, "content", "2024-05-02-other")
	for _, dir := range []string{fine, other} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(fine, ".import-999-0"), []byte("---\ntitle: Fi"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runGen("import", "statuspage", export, "--source", site, "--dry-run")
	if code != exitOK || out != "remove    content/2024-05-01-fine/.import-999-0: left by an import that was stopped while writing\n"+
		"create    content/2024-05-01-fine/en.md\ncreate    content/2024-05-02-other/en.md\ndry run, nothing written: 2 create, 1 remove\n" {
		t.Errorf("dry run: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(fine, ".import-999-0")); err != nil {
		t.Errorf("the dry run removed the leftover: %v", err)
	}
	code, out, errs = runGen("import", "statuspage", export, "--source", site)
	if code != exitOK || !strings.HasSuffix(out, "2 created, 1 removed\n") {
		t.Errorf("import: %d %q %q", code, out, errs)
	}
	for dir, want := range map[string][]string{fine: {"en.md"}, other: {"en.md"}} {
		var got []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %q, want %q", dir, got, want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(site, "content")); len(entries) != 2 {
		t.Errorf("content/ holds %d folders, want 2", len(entries))
	}
}

// TestImportsAtOnce: two imports of one export running at once give each
// incident one folder, whatever their interleaving.
func TestImportsAtOnce(t *testing.T) {
	var incs [][2]string
	for i := range 28 {
		incs = append(incs, [2]string{fmt.Sprintf("Outage %d", i), "Back to normal."})
	}
	export := writeExport(t, t.TempDir(), "statuspage", incs...)
	for trial := range 8 {
		site := t.TempDir()
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				if code, out, errs := runGen("import", "statuspage", export, "--source", site); code != exitOK {
					t.Errorf("trial %d: %d %q %q", trial, code, out, errs)
				}
			})
		}
		wg.Wait()
		dirs, err := os.ReadDir(filepath.Join(site, "content"))
		if err != nil {
			t.Fatal(err)
		}
		if len(dirs) != len(incs) {
			var names []string
			for _, d := range dirs {
				names = append(names, d.Name())
			}
			t.Fatalf("trial %d: %d folders for %d incidents: %q", trial, len(dirs), len(incs), names)
		}
	}
}

// TestProductSpellingsWarned: two products of one organization spelled
// "A.B" and "A B" share a page under the first spelling; gen check says
// so where the second is written, naming the file of the first.
func TestProductSpellingsWarned(t *testing.T) {
	site := copySite(t)
	export := filepath.Join(t.TempDir(), "incidents.json")
	os.WriteFile(export, []byte(`{"page": {"name": "Example"}, "incidents": [
  {"id": "one", "name": "Slow queries", "created_at": "2024-05-01T10:00:00Z", "resolved_at": "2024-05-01T11:00:00Z",
   "components": [{"name": "Cloud.SQL"}], "incident_updates": [{"status": "resolved", "body": "Fixed.", "created_at": "2024-05-01T11:00:00Z"}]},
  {"id": "two", "name": "Failed queries", "created_at": "2024-05-02T10:00:00Z", "resolved_at": "2024-05-02T11:00:00Z",
   "components": [{"name": "Cloud SQL"}], "incident_updates": [{"status": "resolved", "body": "Fixed.", "created_at": "2024-05-02T11:00:00Z"}]}
]}`), 0o644)
	if code, out, errs := runGen("import", "statuspage", export, "--source", site); code != exitOK {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	code, out, errs := runGen("check", "--source", site)
	want := `warning: content/2024-05-02-failed-queries/en.md:7:12: product "Cloud SQL" is shown as "Cloud.SQL", as content/2024-05-01-slow-queries/en.md spells it`
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("check: %d, no %q in:\n%s%s", code, want, out, errs)
	}
}

// TestImportWarns: a repeated key is imported with a placed warning, and
// the import succeeds.
func TestImportWarns(t *testing.T) {
	export := filepath.Join(t.TempDir(), "incidents.json")
	os.WriteFile(export, []byte(`{"incidents": [{"id": "a", "name": "First", "name": "Second", "created_at": "2024-05-01T10:00:00Z"}]}`), 0o644)
	code, out, errs := runGen("import", "statuspage", export, "--source", t.TempDir())
	if code != exitOK || !strings.Contains(out, "content/2024-05-01-second/en.md") ||
		!strings.Contains(errs, "warning: "+export+":1:45: incidents[0].name: the key appears again in its object") {
		t.Errorf("%d %q %q", code, out, errs)
	}
}

// TestImportHTMLUpdates: a Statuspage export whose updates and postmortem
// are HTML is imported, converted to Markdown with a warning for each,
// checks and builds, and nothing of its scripts reaches the page.
func TestImportHTMLUpdates(t *testing.T) {
	site := copySite(t)
	const id = "2024-09-17-delayed-delivery-of-outbound-mail"
	code, out, errs := runGen("import", "statuspage", fixtures+"statuspage-html.json", "--source", site)
	if code != exitOK || out != "created   content/"+id+"/en.md\n1 created\n" {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	for _, want := range []string{
		"warning: " + fixtures + "statuspage-html.json:22:19: incidents[0].incident_updates[0].body: HTML converted to Markdown",
		"statuspage-html.json:28:19: incidents[0].incident_updates[1].body: HTML converted to Markdown",
		"statuspage-html.json:39:26: incidents[0].postmortem_body: HTML converted to Markdown",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("no %q in:\n%s", want, errs)
		}
	}
	text, _ := os.ReadFile(filepath.Join(site, "content", id, "en.md"))
	for _, want := range []string{
		"- 13:48 — Identified: A relay host ran out of disk for its spool. We moved the queue with `postsuper -r ALL` to a healthy host.\n\n  - Inbound mail is *not* affected.\n  - See [how queues work](https://status.mail.example/help/queues).\n\n  Details\n",
		"## Postmortem {#postmortem}\n\n**What happened**\n\nA log rotation job stopped",
		"1. Disk alerts at 70%.",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	for _, bad := range []string{"alert(1)", "track()", "javascript:", "display:none", "<"} {
		if strings.Contains(string(text), bad) {
			t.Errorf("%q reached the file:\n%s", bad, text)
		}
	}
	if code, out, errs := runGen("check", "--source", site); code != exitOK || !strings.Contains(out, "0 errors") {
		t.Fatalf("check after import: %d\n%s%s", code, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	if code, out, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build after import: %d %q %q", code, out, errs)
	}
	page := filepath.Join(dest, "en", "incidents", id, "index.html")
	got := events(t, page)
	want := []string{"2024-09-17 13:05 UTC Investigating:", "13:48 UTC Identified: A relay host", "15:20 UTC Resolved: The queue has drained"}
	if len(got) != len(want) {
		t.Fatalf("events %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d reads %q, want it to start %q", i, got[i], want[i])
		}
	}
	data, _ := os.ReadFile(page)
	for _, want := range []string{`id="t-20240917T1348Z"`, "<code>postsuper -r ALL</code>", "<em>not</em>", `href="https://status.mail.example/help/queues"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// TestImportAWSHealth: an AWS feed whose incident runs through the night
// Los Angeles springs forward is imported, checks and builds, and each
// update is an event at its UTC minute; importing it again changes
// nothing.
func TestImportAWSHealth(t *testing.T) {
	site := copySite(t)
	feed := fixtures + "aws-ec2-us-east-1.rss"
	const id = "2024-03-10-increased-launch-failures"
	code, out, errs := runGen("import", "aws-health", feed, "--source", site, "--timezone", "America/Los_Angeles")
	if code != exitOK || !strings.Contains(out, "created   content/"+id+"/en.md\n") || !strings.Contains(out, "3 created") || errs != "" {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	text, _ := os.ReadFile(filepath.Join(site, "content", id, "en.md"))
	for _, want := range []string{"\nbegin: 2024-03-10 01:20\n", "\nend: 2024-03-10 03:40\n", "\norganization: AWS\n",
		"\nproducts: [Amazon Elastic Compute Cloud]\n", "\nregions: [us-east-1]\n", "\nimport_id: ec2-us-east-1_1710062400\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if code, out, errs := runGen("check", "--source", site); code != exitOK || !strings.Contains(out, "0 errors") {
		t.Fatalf("check after import: %d\n%s%s", code, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	if code, out, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build after import: %d %q %q", code, out, errs)
	}
	page := filepath.Join(dest, "en", "incidents", id, "index.html")
	got := events(t, page)
	want := []string{
		"2024-03-10 01:20 PST · 09:20 UTC Informational message: We are investigating",
		"01:52 PST · 09:52 UTC Informational message: We continue",
		"03:05 PDT · 10:05 UTC Service degradation: We have identified", // the clocks skipped 02:00–03:00
		"03:40 PDT · 10:40 UTC Resolved: Between 1:05 AM PST",
	}
	if len(got) != len(want) {
		t.Fatalf("events %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d reads %q, want it to start %q", i, got[i], want[i])
		}
	}
	data, _ := os.ReadFile(page)
	for _, anchor := range []string{`id="t-20240310T0920Z"`, `id="t-20240310T0952Z"`, `id="t-20240310T1005Z"`, `id="t-20240310T1040Z"`} {
		if !strings.Contains(string(data), anchor) {
			t.Errorf("page lacks the event anchor %s", anchor)
		}
	}
	if code, out, _ := runGen("import", "aws-health", feed, "--source", site, "--timezone", "America/Los_Angeles"); code != exitOK || !strings.HasSuffix(out, "\n3 unchanged\n") {
		t.Errorf("the same feed again: %d %q", code, out)
	}
}

// TestImportAzureStatus: a feed with only the preliminary review of an
// incident that crosses midnight UTC is imported; the feed with the final
// review then updates the same file. It checks and builds, each step of
// "How did we respond?" is an event at its UTC minute, and nothing of the
// review's script reaches the page.
func TestImportAzureStatus(t *testing.T) {
	site := copySite(t)
	feed := fixtures + "azure-status.rss"
	data, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	// The feed as it was before the final review: its first item cut.
	start, end := strings.Index(string(data), "    <item>"), strings.Index(string(data), "    </item>\n")+len("    </item>\n")
	older := filepath.Join(t.TempDir(), "older.rss")
	os.WriteFile(older, append(append([]byte{}, data[:start]...), data[end:]...), 0o644)
	const id = "2024-11-13-azure-example-queue-send-failures-in"
	if code, out, errs := runGen("import", "azure-status", older, "--source", site); code != exitOK || !strings.Contains(out, "created   content/"+id+"/en.md\n") {
		t.Fatalf("import of the preliminary review: %d %q %q", code, out, errs)
	}
	if code, out, errs := runGen("import", "azure-status", feed, "--source", site); code != exitOK || !strings.Contains(out, "updated   content/"+id+"/en.md\n") || !strings.Contains(out, "1 updated, 1 unchanged") {
		t.Fatalf("import of the final review: %d %q %q", code, out, errs)
	}
	text, _ := os.ReadFile(filepath.Join(site, "content", id, "en.md"))
	for _, want := range []string{"\nbegin: 2024-11-13 21:42\n", "\nend: 2024-11-14 02:05\n", "\norganization: Microsoft Azure\n", "\nimport_id: QK7T-9D0\n",
		"## Root cause {#root-cause}\n\nA configuration change", "## Remediation {#remediation}\n\n- We have added an order check",
		"- 23:58 — We began rolling back", "- 2024-11-14 00:45 — Half of the broker groups"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(string(text), "What do we know so far") {
		t.Errorf("the preliminary review is still there:\n%s", text)
	}
	if code, out, errs := runGen("check", "--source", site); code != exitOK || !strings.Contains(out, "0 errors") {
		t.Fatalf("check after import: %d\n%s%s", code, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	if code, out, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build after import: %d %q %q", code, out, errs)
	}
	page := filepath.Join(dest, "en", "incidents", id, "index.html")
	got := events(t, page)
	want := []string{"2024-11-13 21:42 UTC Customer impact began.", "21:55 UTC", "22:40 UTC", "23:58 UTC", "2024-11-14 00:45 UTC Half of", "02:05 UTC All broker groups"}
	if len(got) != len(want) {
		t.Fatalf("events %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d reads %q, want it to start %q", i, got[i], want[i])
		}
	}
	html, _ := os.ReadFile(page)
	for _, anchor := range []string{`id="t-20241113T2142Z"`, `id="t-20241113T2358Z"`, `id="t-20241114T0045Z"`, `id="t-20241114T0205Z"`} {
		if !strings.Contains(string(html), anchor) {
			t.Errorf("page lacks the event anchor %s", anchor)
		}
	}
	for _, bad := range []string{"evil.example", "document.cookie", "alert(1)", "javascript:"} {
		if strings.Contains(string(html), bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// TestImportFeedBadInput: a feed with bad items exits 1 with each error
// placed, and writes the incidents whose items are good.
func TestImportFeedBadInput(t *testing.T) {
	site := t.TempDir()
	code, out, errs := runGen("import", "aws-health", fixtures+"aws-bad.rss", "--source", site, "--timezone", "America/Los_Angeles")
	if code != exitContent || out != "created   content/2024-02-14-purge-requests-failing/en.md\n1 created\n" {
		t.Errorf("bad feed: %d %q %q", code, out, errs)
	}
	for _, want := range []string{
		"aws-bad.rss:9:7: item[0].pubDate: \"Fri, 30 Feb 2024 11:10:00 PST\" is not a real time",
		"aws-bad.rss:19:5: item[2].pubDate: missing",
		"gen import: 3 errors; the incidents they concern were not written, the others were",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("no %q in:\n%s", want, errs)
		}
	}
	if code, _, errs := runGen("import", "azure-status", fixtures+"statuspage.json", "--source", site); code != exitContent || !strings.Contains(errs, "statuspage.json:1:1: not XML") {
		t.Errorf("JSON as a feed: %d %q", code, errs)
	}
}

// TestImportFeedAgain: the feeds take the same flags as the exports
// (--dry-run, --organization, --lang); a newer AWS feed updates what gen
// wrote and leaves what a person has edited.
func TestImportFeedAgain(t *testing.T) {
	site := t.TempDir()
	feed := fixtures + "aws-ec2-us-east-1.rss"
	const launch = "content/2024-03-10-increased-launch-failures/en.md"
	const checks = "content/2024-07-11-delayed-instance-status-checks/en.md"
	const ami = "content/2024-04-02-slow-ami-registration/en.md"
	args := []string{"--source", site, "--timezone", "America/Los_Angeles", "--organization", "Amazon Web Services"}
	code, out, _ := runGen(append([]string{"import", "aws-health", feed, "--dry-run"}, args...)...)
	if code != exitOK || out != "create    "+launch+"\ncreate    "+ami+"\ncreate    "+checks+"\ndry run, nothing written: 3 create\n" {
		t.Errorf("dry run: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(site, "content")); err == nil {
		t.Error("the dry run wrote")
	}
	if code, out, errs := runGen(append([]string{"import", "aws-health", feed}, args...)...); code != exitOK || !strings.Contains(out, "3 created") {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	text, _ := os.ReadFile(filepath.Join(site, checks))
	if !strings.Contains(string(text), "\norganization: Amazon Web Services\n") || !strings.Contains(string(text), "\nongoing: true\n") {
		t.Errorf("--organization, or the ongoing incident:\n%s", text)
	}
	// A person writes the root cause of one incident; AWS then resolves
	// the ongoing one.
	edited := strings.Replace(readText(t, filepath.Join(site, launch)), "## Timeline {#timeline}", "## Root cause {#root-cause}\n\nHosts marked unavailable.\n\n## Timeline {#timeline}", 1)
	os.WriteFile(filepath.Join(site, launch), []byte(edited), 0o644)
	data, _ := os.ReadFile(feed)
	newer := filepath.Join(t.TempDir(), "newer.rss")
	os.WriteFile(newer, []byte(strings.Replace(string(data), "    <item>", `    <item>
      <title><![CDATA[Service is operating normally: [RESOLVED] Delayed instance status checks]]></title>
      <pubDate>Thu, 11 Jul 2024 10:02:00 PDT</pubDate>
      <guid isPermaLink="false">https://status.aws.amazon.com/#ec2-us-east-1_1720717320</guid>
      <description><![CDATA[Instance status checks are current again.]]></description>
    </item>
    <item>`, 1)), 0o644)
	code, out, _ = runGen(append([]string{"import", "aws-health", newer}, args...)...)
	if code != exitOK || !strings.HasPrefix(out, "skipped   "+launch+": edited since gen import wrote it") ||
		!strings.HasSuffix(out, "\nunchanged "+ami+"\nupdated   "+checks+"\n1 updated, 1 unchanged, 1 skipped\n") {
		t.Errorf("newer feed: %d %q", code, out)
	}
	if readText(t, filepath.Join(site, launch)) != edited {
		t.Error("the edited file was overwritten")
	}
	if text := readText(t, filepath.Join(site, checks)); !strings.Contains(text, "\nend: 2024-07-11 10:02\n") || !strings.Contains(text, "- 10:02 — Resolved: Instance status checks are current again.") {
		t.Errorf("the resolved incident:\n%s", text)
	}
	// --lang: the headings and status words of a review in Japanese.
	if code, out, errs := runGen("import", "azure-status", fixtures+"azure-status.rss", "--source", site, "--lang", "ja"); code != exitOK || !strings.Contains(out, "content/2024-11-13-azure-example-queue-send-failures-in/ja.md") {
		t.Fatalf("import --lang ja: %d %q %q", code, out, errs)
	}
	if text := readText(t, filepath.Join(site, "content/2024-11-13-azure-example-queue-send-failures-in/ja.md")); !strings.Contains(text, "{#root-cause}") || strings.Contains(text, "## Root cause") || !strings.Contains(text, "## タイムライン {#timeline}") {
		t.Errorf("headings in Japanese:\n%s", text)
	}
}

func readText(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
