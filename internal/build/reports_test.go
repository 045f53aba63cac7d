package build_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/check"
)

// testdata/reports is an archive shaped like published status reports:
// facts are often missing, and that is not an error.
//
//	2021-04-01-azure-dns-query-surge         Microsoft Azure: DNS and Storage, every fact
//	2021-12-07-aws-dns-resolution-errors     AWS, only begin and end: no sections, no timeline, no causes
//	2022-07-19-gcs-cooling-failure           Google Cloud: Storage; no end stated, no severity; ja, zh-TW
//	2022-07-19-github-actions-queue-delays   GitHub: ongoing, no severity; ja, zh-TW; overlaps the one above
//	2022-11-03-wikimedia-edit-save-failures  Wikimedia: no products, no severity, a table, twelve events
//	2023-01-10-aws-storage-console-errors    AWS: Storage; begin only, no timeline
const reportsSite = "testdata/reports"

const (
	azureID     = "2021-04-01-azure-dns-query-surge"
	awsDNSID    = "2021-12-07-aws-dns-resolution-errors"
	coolingID   = "2022-07-19-gcs-cooling-failure"
	ongoingID   = "2022-07-19-github-actions-queue-delays"
	wikimediaID = "2022-11-03-wikimedia-edit-save-failures"
	awsS3ID     = "2023-01-10-aws-storage-console-errors"
)

var reportsOnce struct {
	dest string
	err  error
}

// buildReports builds the archive once for all the tests that read it.
func buildReports(t *testing.T) string {
	t.Helper()
	if reportsOnce.dest == "" && reportsOnce.err == nil {
		dest, err := os.MkdirTemp("", "gen-reports-")
		if err == nil {
			dest = filepath.Join(dest, "public")
			_, err = build.Run(build.Options{Source: reportsSite, Dest: dest, BaseURL: "http://127.0.0.1:1313/"})
		}
		reportsOnce.dest, reportsOnce.err = dest, err
	}
	if reportsOnce.err != nil {
		t.Fatalf("building %s: %v", reportsSite, reportsOnce.err)
	}
	return reportsOnce.dest
}

func TestMain(m *testing.M) {
	code := m.Run()
	if reportsOnce.dest != "" {
		os.RemoveAll(filepath.Dir(reportsOnce.dest))
	}
	os.Exit(code)
}

// TestReportsCheckWithWarningsOnly: what a report leaves out is a warning
// at the front matter's first line naming the key, never an error.
func TestReportsCheckWithWarningsOnly(t *testing.T) {
	rep := check.Run(reportsSite)
	for _, e := range rep.Errors {
		t.Errorf("error: %s", e)
	}
	if rep.Incidents != 6 {
		t.Errorf("check counted %d incidents, want 6", rep.Incidents)
	}
	var got []string
	for _, w := range rep.Warnings {
		got = append(got, w.Error())
	}
	file := func(id string) string { return "content/" + id + "/en.md:1:1: " }
	want := []string{
		file(coolingID) + "no end:",
		file(coolingID) + "no severity:",
		file(ongoingID) + "no severity:",
		file(wikimediaID) + "no severity:",
		file(wikimediaID) + "no products:",
		file(awsDNSID) + "no causes:",
		file(awsS3ID) + "no end:",
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no warning starting %q; got:\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, g := range got {
		if strings.HasPrefix(g, file(ongoingID)+"no end") {
			t.Errorf("an incident stated as ongoing is warned about its end: %s", g)
		}
		if strings.HasPrefix(g, file(azureID)) {
			t.Errorf("a complete report is warned about: %s", g)
		}
	}
}

// facts returns the incident page's facts, by term (dt) text.
func facts(t *testing.T, dest, lang, id string) map[string]*html.Node {
	t.Helper()
	doc := parseHTML(t, filepath.Join(dest, lang, "incidents", id, "index.html"))
	out := map[string]*html.Node{}
	for _, div := range findAll(doc, func(n *html.Node) bool {
		return n.Data == "div" && n.Parent != nil && hasClass(n.Parent, "facts")
	}) {
		dt := findAll(div, tag("dt"))
		dd := findAll(div, tag("dd"))
		if len(dt) == 1 && len(dd) == 1 {
			out[text(dt[0])] = dd[0]
		}
	}
	return out
}

// TestReportsUnknownShownInEveryLanguage: a missing end reads "ongoing" or
// "not stated", the duration "at least" up to the last event (or is left
// out), and a missing severity "unknown", each in the reader's language.
func TestReportsUnknownShownInEveryLanguage(t *testing.T) {
	dest := buildReports(t)
	type want struct{ ended, endNotStated, ongoing, severity, duration, unknown, atLeast string }
	words := map[string]want{
		"en":    {"Ended", "Not stated", "Ongoing when reported", "Severity", "Duration", "Unknown", "at least 25 min"},
		"ja":    {"終了", "記載なし", "報告時点で継続中", "深刻度", "継続時間", "不明", "25 分 以上"},
		"zh-TW": {"結束", "未說明", "報告時仍在持續", "嚴重程度", "持續時間", "未知", "至少 25 分鐘"},
	}
	for lang, w := range words {
		ongoing := facts(t, dest, lang, ongoingID)
		if dd := ongoing[w.ended]; dd == nil || text(dd) != w.ongoing {
			t.Errorf("%s %s: end reads %q, want %q", lang, ongoingID, textOrNil(dd), w.ongoing)
		}
		if dd := ongoing[w.duration]; dd == nil || text(dd) != w.atLeast {
			t.Errorf("%s %s: duration reads %q, want %q", lang, ongoingID, textOrNil(dd), w.atLeast)
		}
		if dd := ongoing[w.severity]; dd == nil || text(dd) != w.unknown || len(findAll(dd, func(n *html.Node) bool { return hasClass(n, "severity-unknown") })) != 1 {
			t.Errorf("%s %s: severity reads %q, want %q in .severity-unknown", lang, ongoingID, textOrNil(dd), w.unknown)
		}
		cooling := facts(t, dest, lang, coolingID)
		if dd := cooling[w.ended]; dd == nil || text(dd) != w.endNotStated {
			t.Errorf("%s %s: end reads %q, want %q", lang, coolingID, textOrNil(dd), w.endNotStated)
		}
		// No event after the begin: nothing is known of the duration.
		if dd, ok := facts(t, dest, lang, awsS3ID)[w.duration]; ok {
			t.Errorf("%s %s: a duration %q is shown though nothing followed the begin", lang, awsS3ID, text(dd))
		}
		// A stated end and severity are shown as before.
		azure := facts(t, dest, lang, azureID)
		if dd := azure[w.ended]; dd == nil || len(findAll(dd, tag("time"))) != 1 {
			t.Errorf("%s %s: the stated end is not a <time>", lang, azureID)
		}
	}
	en := facts(t, dest, "en", coolingID)
	if dd := en["Duration"]; dd == nil || text(dd) != "at least 3 h 17 min" {
		t.Errorf("%s: duration reads %q, want at least until its last event (3 h 17 min)", coolingID, textOrNil(dd))
	}
}

func textOrNil(n *html.Node) string {
	if n == nil {
		return "<missing>"
	}
	return text(n)
}

// TestReportsOverlapRule: an incident without a stated end lasts, for
// overlaps, until its last event. The cooling failure's last event (17:30
// UTC) is after the ongoing incident began (17:00 UTC): they overlap.
func TestReportsOverlapRule(t *testing.T) {
	dest := buildReports(t)
	for _, pair := range [][2]string{{coolingID, ongoingID}, {ongoingID, coolingID}} {
		doc := parseHTML(t, filepath.Join(dest, "en", "incidents", pair[0], "index.html"))
		var sameTime []string
		for _, sec := range findAll(doc, tag("section")) {
			if h := findAll(sec, tag("h2")); len(h) > 0 && text(h[0]) == "At the same time" {
				for _, a := range findAll(sec, tag("a")) {
					sameTime = append(sameTime, attr(a, "href"))
				}
			}
		}
		if !slices.Contains(sameTime, "/en/incidents/"+pair[1]+"/") {
			t.Errorf("%s: at the same time lists %v, want %s", pair[0], sameTime, pair[1])
		}
	}
	// The overview counts the three incidents without a stated end in a
	// row of their own, not in a duration bucket.
	doc := parseHTML(t, filepath.Join(dest, "en", "timeline", "index.html"))
	counts := map[string]string{}
	for _, g := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "duration-bar") }) {
		counts[attr(g, "data-bucket")] = attr(g, "data-count")
	}
	if counts["5"] != "3" || counts["0"] != "2" || counts["1"] != "1" {
		t.Errorf("duration rows %v; want 2 under 1 h, 1 of 1–4 h and 3 with no stated end", counts)
	}
}

// TestReportsWikimediaAndAWSStyles: a long timeline with a table, and a
// report with nothing but its facts and a paragraph, both render.
func TestReportsWikimediaAndAWSStyles(t *testing.T) {
	dest := buildReports(t)
	doc := parseHTML(t, filepath.Join(dest, "en", "incidents", wikimediaID, "index.html"))
	if n := len(findAll(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "event") })); n != 12 {
		t.Errorf("%s: %d timeline events, want 12", wikimediaID, n)
	}
	if n := len(findAll(doc, tag("table"))); n != 1 {
		t.Errorf("%s: %d tables, want 1", wikimediaID, n)
	}
	f := facts(t, dest, "en", wikimediaID)
	if _, ok := f["Products"]; ok {
		t.Errorf("%s names no product, yet the page has a Products row", wikimediaID)
	}
	if dd := f["Organization"]; dd == nil || text(dd) != "Wikimedia" {
		t.Errorf("%s: organization reads %q", wikimediaID, textOrNil(dd))
	}
	aws := facts(t, dest, "en", awsDNSID)
	if dd := aws["Duration"]; dd == nil || text(dd) != "2 h 10 min" {
		t.Errorf("%s: duration %q, want 2 h 10 min", awsDNSID, textOrNil(aws["Duration"]))
	}
}

// TestReportsOrganizations: organizations have pages, are shown first in
// lists, and two organizations' products of the same name are two pages,
// labelled with the organization where they could be confused.
func TestReportsOrganizations(t *testing.T) {
	dest := buildReports(t)
	labels := func(lang, rel string) map[string]string {
		doc := parseHTML(t, filepath.Join(dest, lang, rel, "index.html"))
		out := map[string]string{}
		for _, ul := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "term-list") }) {
			for _, a := range findAll(ul, tag("a")) {
				out[attr(a, "href")] = text(a)
			}
		}
		return out
	}
	orgs := labels("en", "organizations")
	for slug, name := range map[string]string{"aws": "AWS", "microsoft-azure": "Microsoft Azure", "google-cloud": "Google Cloud", "github": "GitHub", "wikimedia": "Wikimedia"} {
		if got := orgs["/en/organizations/"+slug+"/"]; got != name {
			t.Errorf("organizations page: %s is %q, want %q (all: %v)", slug, got, name, orgs)
		}
	}
	doc := parseHTML(t, filepath.Join(dest, "en", "organizations", "aws", "index.html"))
	var listed []string
	for _, h := range findAll(doc, tag("h2")) {
		for _, a := range findAll(h, tag("a")) {
			listed = append(listed, attr(a, "href"))
		}
	}
	if !slices.Equal(listed, []string{"/en/incidents/" + awsS3ID + "/", "/en/incidents/" + awsDNSID + "/"}) {
		t.Errorf("the AWS page lists %v", listed)
	}
	// Each entry links its organization.
	for _, a := range findAll(doc, func(n *html.Node) bool { return attr(n, "class") == "organization" }) {
		if a.Data != "a" || attr(a, "href") != "/en/organizations/aws/" {
			t.Errorf("an entry's organization is <%s href=%q>, want a link to the AWS page", a.Data, attr(a, "href"))
		}
	}

	want := map[string]map[string]string{
		"en": {"aws-dns": "DNS (AWS)", "microsoft-azure-dns": "DNS (Microsoft Azure)", "aws-storage": "Storage (AWS)",
			"google-cloud-storage": "Storage (Google Cloud)", "microsoft-azure-storage": "Storage (Microsoft Azure)",
			"google-cloud-compute-engine": "Compute Engine", "github-actions": "Actions"},
		"ja": {"aws-dns": "DNS（AWS）", "google-cloud-storage": "Storage（Google Cloud）", "google-cloud-compute-engine": "Compute Engine"},
	}
	for lang, products := range want {
		got := labels(lang, "products")
		if len(got) != 7 && lang == "en" {
			t.Errorf("%s products page has %d products, want 7: %v", lang, len(got), got)
		}
		for slug, label := range products {
			if l := got["/"+lang+"/products/"+slug+"/"]; l != label {
				t.Errorf("%s products page: %s is %q, want %q", lang, slug, l, label)
			}
		}
	}

	// In a list the organization comes first, and beside it its products
	// need no qualifier.
	list := parseHTML(t, filepath.Join(dest, "en", "index.html"))
	for _, item := range findAll(list, func(n *html.Node) bool { return hasClass(n, "incident-item") }) {
		meta := findAll(item, func(n *html.Node) bool { return hasClass(n, "meta") })
		if len(meta) == 0 {
			t.Fatal("a list item without meta")
		}
		first := meta[0].FirstChild
		for first != nil && first.Type != html.ElementNode {
			first = first.NextSibling
		}
		if first == nil || !hasClass(first, "organization") {
			t.Errorf("list item %q does not start with its organization", text(meta[0]))
		}
		if strings.Contains(text(meta[0]), "(AWS)") {
			t.Errorf("list item %q repeats the organization after a product", text(meta[0]))
		}
	}
}

// TestReportsJSONCarriesNulls: what is unknown is null in incidents.json,
// never a made-up value; feeds carry no end at all and date an open
// incident by its last event.
func TestReportsJSONCarriesNulls(t *testing.T) {
	dest := buildReports(t)
	data, err := os.ReadFile(filepath.Join(dest, "incidents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	byID := map[string]map[string]any{}
	for _, r := range recs {
		byID[r["id"].(string)] = r
	}
	type fields map[string]any
	want := map[string]fields{
		ongoingID:   {"end": nil, "ongoing": true, "duration_minutes": nil, "severity": nil, "organization": "GitHub"},
		coolingID:   {"end": nil, "ongoing": false, "duration_minutes": nil, "severity": nil, "organization": "Google Cloud"},
		wikimediaID: {"end": "2022-11-03T14:51:00Z", "duration_minutes": 49.0, "severity": nil, "organization": "Wikimedia"},
		azureID:     {"end": "2021-04-01T22:00:00Z", "severity": "critical", "organization": "Microsoft Azure"},
	}
	for id, fs := range want {
		rec := byID[id]
		if rec == nil {
			t.Errorf("%s missing from incidents.json", id)
			continue
		}
		for k, v := range fs {
			got, ok := rec[k]
			if !ok || got != v {
				t.Errorf("%s: %s = %#v (present %v), want %#v", id, k, got, ok, v)
			}
		}
	}
	if p, ok := byID[wikimediaID]["products"].([]any); !ok || len(p) != 0 {
		t.Errorf("%s: products = %#v, want []", wikimediaID, byID[wikimediaID]["products"])
	}

	var feed struct {
		Entries []struct {
			ID      string `xml:"id"`
			Updated string `xml:"updated"`
			Raw     string `xml:",innerxml"`
		} `xml:"entry"`
	}
	raw, err := os.ReadFile(filepath.Join(dest, "ja", "feed.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(raw, &feed); err != nil {
		t.Fatal(err)
	}
	for _, e := range feed.Entries {
		if strings.HasSuffix(e.ID, "/"+coolingID+"/") && e.Updated != "2022-07-19T17:30:00Z" {
			t.Errorf("feed: %s updated %s, want its last event 2022-07-19T17:30:00Z", coolingID, e.Updated)
		}
		if strings.Contains(e.Raw, "0001-01-01") {
			t.Errorf("feed entry %s has a zero time: %s", e.ID, e.Raw)
		}
	}
}
