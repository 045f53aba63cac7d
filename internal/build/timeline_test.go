package build_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
)

// monthEvents are the events a month's page lists: each link's target
// and the instant of its <time>, in page order.
func monthEvents(t *testing.T, page string) (hrefs []string, at []time.Time) {
	t.Helper()
	doc := parseHTML(t, page)
	for _, ol := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "events") }) {
		for _, li := range findAll(ol, tag("li")) {
			a := findAll(li, tag("a"))
			tm := findAll(li, tag("time"))
			if len(a) != 1 || len(tm) != 1 {
				t.Fatalf("%s: an event has %d links and %d times, want one each", page, len(a), len(tm))
			}
			when, err := time.Parse(time.RFC3339, attr(tm[0], "datetime"))
			if err != nil {
				t.Fatalf("%s: %v", page, err)
			}
			hrefs, at = append(hrefs, attr(a[0], "href")), append(at, when)
		}
	}
	return hrefs, at
}

// TestEveryEventOnItsMonthPage: in a generated archive, every event of
// every incident (as incidents.json lists them) is linked, once, from
// the page of the month it happened in (UTC), in every language, to its
// anchor on its incident's page; each month's events are in time order,
// and every link of the site resolves, anchors included.
func TestEveryEventOnItsMonthPage(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 80, Langs: []string{"en", "zh-TW"}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dest, "incidents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var incidents []struct {
		ID     string `json:"id"`
		Events []struct {
			Anchor  string    `json:"anchor"`
			Instant time.Time `json:"instant"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &incidents); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh-TW"} {
		want := map[string]int{} // month page → events it must link
		linked := map[string]map[string]int{}
		events := 0
		for _, inc := range incidents {
			for _, e := range inc.Events {
				page := filepath.Join(dest, lang, "timeline", e.Instant.UTC().Format("2006"), e.Instant.UTC().Format("01"), "index.html")
				if linked[page] == nil {
					hrefs, at := monthEvents(t, page)
					linked[page] = map[string]int{}
					for _, h := range hrefs {
						linked[page][h]++
					}
					if !slices.IsSortedFunc(at, time.Time.Compare) {
						t.Errorf("%s: the events are not in time order", page)
					}
				}
				want[page]++
				events++
				if href := "/" + lang + "/incidents/" + inc.ID + "/#" + e.Anchor; linked[page][href] != 1 {
					t.Errorf("%s links %s %d times, want once", page, href, linked[page][href])
				}
			}
		}
		for page, n := range want {
			if got := len(linked[page]); got != n {
				t.Errorf("%s lists %d events, want the %d of its month", page, got, n)
			}
		}
		if events < 400 {
			t.Fatalf("%s: only %d events checked", lang, events)
		}
	}
	if checked, fragments := checkLinks(t, dest, "http://127.0.0.1:1313/"); fragments < 1000 {
		t.Errorf("checked %d links, %d with fragments: the events' links were not followed", checked, fragments)
	}
}

// monthSite is incidents of two organizations around April 2021: two
// that overlap, one without an end, one running into May, and an
// incident of March, with the severities varied.
func monthSite(t *testing.T) string {
	t.Helper()
	incident := func(title, org, zone, begin, end, severity string, items ...string) string {
		s := "---\ntitle: " + title + "\nsummary: S.\norganization: " + org + "\ntimezone: " + zone + "\nbegin: " + begin
		if end != "" {
			s += "\nend: " + end
		}
		if severity != "" {
			s += "\nseverity: " + severity
		}
		s += "\n---\n\n## Timeline {#timeline}\n\n"
		for _, it := range items {
			s += "- " + it + "\n"
		}
		return s
	}
	return writeSite(t, files{
		"content/2021-03-10-aws-march/en.md": incident("AWS in March", "AWS", "UTC", "2021-03-10 10:00", "2021-03-10 12:00", "minor",
			"2021-03-10 10:00 — Errors began.", "12:00 — Errors ended."),
		"content/2021-04-05-aws-s3/en.md": incident("S3 errors", "AWS", "America/Los_Angeles", "2021-04-05 10:00", "2021-04-05 16:35", "major",
			"2021-04-05 10:00 — S3 errors began.", "12:00 — Engineers found the cause.", "16:35 — S3 recovered."),
		"content/2021-04-05-azure-dns/en.md": incident("DNS failures", "Azure", "UTC", "2021-04-05 18:00", "2021-04-06 02:00", "critical",
			"2021-04-05 18:00 — DNS failures began.", "2021-04-06 02:00 — DNS recovered."),
		"content/2021-04-20-azure-open/en.md": incident("Storage slow", "Azure", "UTC", "2021-04-20 08:00", "", "",
			"2021-04-20 08:00 — Storage slowed.", "09:30 — Still slow."),
		"content/2021-04-30-aws-long/en.md": incident("EC2 long outage", "AWS", "UTC", "2021-04-30 20:00", "2021-05-01 06:00", "critical",
			"2021-04-30 20:00 — EC2 outage began.", "2021-05-01 06:00 — EC2 recovered."),
	})
}

// TestMonthPage: April 2021's page draws the month (a bar per incident,
// each a link with a title, overlapping ones in different lanes, the one
// without an end fading out, the key naming each colour), lists its
// incidents under their organizations' anchors, which the
// organizations' heat maps link to, its events by day each with its
// time in the incident's zone and in UTC, and links the months before
// and after; the incident running into May is on May's page too.
func TestMonthPage(t *testing.T) {
	dir := monthSite(t)
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	april := parseHTML(t, filepath.Join(dest, "en", "timeline", "2021", "04", "index.html"))

	svgs := findAll(april, func(n *html.Node) bool { return n.Data == "svg" && hasClass(n, "chart-month") })
	if len(svgs) != 1 {
		t.Fatalf("April draws %d month charts, want 1", len(svgs))
	}
	bars := map[string]*html.Node{} // incident → its bar
	for _, a := range findAll(svgs[0], tag("a")) {
		if len(findAll(a, tag("title"))) != 1 {
			t.Errorf("a bar linking %s has no title", attr(a, "href"))
		}
		rect := findAll(a, tag("rect"))[0]
		bars[strings.TrimSuffix(strings.TrimPrefix(attr(a, "href"), "/en/incidents/"), "/")] = rect
	}
	if len(bars) != 4 {
		t.Fatalf("April draws bars for %d incidents, want 4: %v", len(bars), bars)
	}
	if y := attr(bars["2021-04-05-aws-s3"], "y"); y == attr(bars["2021-04-05-azure-dns"], "y") {
		t.Errorf("two incidents of the same hours share the lane at y=%s", y)
	}
	if !hasClass(bars["2021-04-20-azure-open"], "open") || !strings.HasPrefix(attr(bars["2021-04-20-azure-open"], "fill"), "url(#") {
		t.Errorf("the incident without an end is drawn %q, want it fading out", attr(bars["2021-04-20-azure-open"], "class"))
	}
	if !hasClass(bars["2021-04-30-aws-long"], "severity-critical") {
		t.Errorf("a critical incident's bar is %q", attr(bars["2021-04-30-aws-long"], "class"))
	}
	key := text(findAll(svgs[0], func(n *html.Node) bool { return hasClass(n, "chart-key") })[0])
	for _, word := range []string{"Critical", "Major", "Minor", "Unknown", "No end stated"} {
		if !strings.Contains(key, word) {
			t.Errorf("the key %q does not name %q", key, word)
		}
	}
	days := findAll(svgs[0], func(n *html.Node) bool { return n.Data == "text" && hasClass(n.Parent, "heads") })
	if len(days) != 30 || text(days[0]) != "1" || text(days[29]) != "30" {
		t.Errorf("April's axis names %d days", len(days))
	}

	// Incidents by organization, each section with its anchor.
	orgs := map[string][]string{}
	for _, sec := range findAll(april, func(n *html.Node) bool { return hasClass(n, "month-org") }) {
		for _, li := range findAll(sec, tag("li")) {
			orgs[attr(sec, "id")] = append(orgs[attr(sec, "id")], attr(li, "id"))
		}
	}
	want := map[string][]string{
		"org-aws":   {"i-2021-04-05-aws-s3", "i-2021-04-30-aws-long"},
		"org-azure": {"i-2021-04-05-azure-dns", "i-2021-04-20-azure-open"},
	}
	for id, lines := range want {
		if !slices.Equal(orgs[id], lines) {
			t.Errorf("April's section %s lists %q, want %q", id, orgs[id], lines)
		}
	}
	// A duration stays on one line: its own element, which the style
	// sheet keeps whole.
	durations := findAll(april, func(n *html.Node) bool { return hasClass(n, "duration") })
	if len(durations) == 0 || text(durations[0]) != "6 h 35 min" {
		t.Errorf("April's first duration is %v", durations)
	}
	css, err := os.ReadFile(filepath.Join(dest, "style.css"))
	if err != nil || !strings.Contains(string(css), ".timeline-lines .duration { white-space: nowrap; }") {
		t.Errorf("the style sheet lets a duration wrap (%v)", err)
	}

	// The events by day, with both times, linked to their anchors.
	hrefs, _ := monthEvents(t, filepath.Join(dest, "en", "timeline", "2021", "04", "index.html"))
	if len(hrefs) != 8 { // 3 + 2 + 2, and the long outage's first
		t.Errorf("April links %d events, want 8: %q", len(hrefs), hrefs)
	}
	firstEvent := findAll(april, func(n *html.Node) bool { return hasClass(n, "events") })[0]
	if got := text(findAll(firstEvent, tag("time"))[0]); got != "10:00 PDT · 17:00 UTC" {
		t.Errorf("April's first event shows %q, want its time in its zone and in UTC", got)
	}
	dayHeads := findAll(april, func(n *html.Node) bool { return hasClass(n, "day-heading") })
	if len(dayHeads) != 4 || text(dayHeads[1]) != "April 6, 2021" {
		t.Errorf("April's events fall on %d days, want 4 (5, 6, 20, 30), the second April 6", len(dayHeads))
	}
	if !slices.Contains(hrefs, "/en/incidents/2021-04-30-aws-long/#t-20210430T2000Z") || slices.Contains(hrefs, "/en/incidents/2021-04-30-aws-long/#t-20210501T0600Z") {
		t.Errorf("April links %q: the long outage's first event, not its May one", hrefs)
	}
	mayHrefs, _ := monthEvents(t, filepath.Join(dest, "en", "timeline", "2021", "05", "index.html"))
	if !slices.Equal(mayHrefs, []string{"/en/incidents/2021-04-30-aws-long/#t-20210501T0600Z"}) {
		t.Errorf("May links %q, want the long outage's last event", mayHrefs)
	}
	may := parseHTML(t, filepath.Join(dest, "en", "timeline", "2021", "05", "index.html"))
	if len(findAll(may, func(n *html.Node) bool { return attr(n, "id") == "i-2021-04-30-aws-long" })) != 1 {
		t.Error("the incident running into May is not on May's page")
	}

	// Previous and next months, those with pages.
	nav := func(doc *html.Node) (prev, next string) {
		for _, a := range findAll(findAll(doc, func(n *html.Node) bool { return hasClass(n, "timeline-nav") })[0], tag("a")) {
			switch attr(a, "rel") {
			case "prev":
				prev = attr(a, "href")
			case "next":
				next = attr(a, "href")
			}
		}
		return prev, next
	}
	if prev, next := nav(april); prev != "/en/timeline/2021/03/" || next != "/en/timeline/2021/05/" {
		t.Errorf("April links %q and %q as its neighbours", prev, next)
	}
	march := parseHTML(t, filepath.Join(dest, "en", "timeline", "2021", "03", "index.html"))
	if prev, next := nav(march); prev != "" || next != "/en/timeline/2021/04/" {
		t.Errorf("March, the first month, links %q and %q as its neighbours", prev, next)
	}

	// An organization's heat map leads to its own incidents of a month.
	aws := parseHTML(t, filepath.Join(dest, "en", "organizations", "aws", "index.html"))
	var cells []string
	for _, a := range findAll(aws, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "cell") }) {
		cells = append(cells, attr(a, "href"))
	}
	if !slices.Contains(cells, "/en/timeline/2021/04/#org-aws") || !slices.Contains(cells, "/en/timeline/2021/03/#org-aws") {
		t.Errorf("AWS's heat map links %q, want its months at #org-aws", cells)
	}
	checkLinks(t, dest, "http://127.0.0.1:1313/")
}

// TestYearPage: a year's page draws its months (a column per month with
// incidents, linked to its page, with the month's count), keeps its
// month index, and links the years before and after.
func TestYearPage(t *testing.T) {
	dir := monthSite(t)
	incident := "---\ntitle: T\nsummary: S.\ntimezone: UTC\nbegin: 2019-06-01 10:00\n---\n\n## Timeline {#timeline}\n\n- 2019-06-01 10:00 — Began.\n"
	if err := os.MkdirAll(filepath.Join(dir, "content", "2019-06-01-old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content", "2019-06-01-old", "en.md"), []byte(incident), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	for lang, want := range map[string][2]string{"en": {"March 2021: 1 incident", "April 2021: 4 incidents"}, "ja": {"2021年3月: 1 件のインシデント", "2021年4月: 4 件のインシデント"}} {
		year := parseHTML(t, filepath.Join(dest, lang, "timeline", "2021", "index.html"))
		svgs := findAll(year, func(n *html.Node) bool { return n.Data == "svg" && hasClass(n, "chart-year") })
		if len(svgs) != 1 {
			t.Fatalf("%s: 2021 draws %d year charts", lang, len(svgs))
		}
		var cols []string
		for _, a := range findAll(svgs[0], tag("a")) {
			cols = append(cols, attr(a, "href")+" "+text(findAll(a, tag("title"))[0]))
		}
		wantCols := []string{"/" + lang + "/timeline/2021/03/ " + want[0], "/" + lang + "/timeline/2021/04/ " + want[1]}
		if !slices.Equal(cols, wantCols) {
			t.Errorf("%s: 2021's columns are %q, want %q", lang, cols, wantCols)
		}
		var prev, next string
		for _, a := range findAll(year, func(n *html.Node) bool { return n.Data == "a" && hasClass(n.Parent, "timeline-nav") }) {
			if attr(a, "rel") == "prev" {
				prev = attr(a, "href")
			} else {
				next = attr(a, "href")
			}
		}
		if prev != "/"+lang+"/timeline/2019/" || next != "" {
			t.Errorf("%s: 2021 links %q and %q as its neighbours, want 2019 and none", lang, prev, next)
		}
		if n := len(findAll(year, func(n *html.Node) bool { return n.Data == "a" && hasClass(n.Parent.Parent.Parent, "months") })); n != 3 {
			t.Errorf("%s: 2021's month index links %d months, want 3 (March, April, May)", lang, n)
		}
	}
	old := parseHTML(t, filepath.Join(dest, "en", "timeline", "2019", "index.html"))
	if len(findAll(old, func(n *html.Node) bool {
		return n.Data == "a" && attr(n, "rel") == "next" && attr(n, "href") == "/en/timeline/2021/"
	})) != 1 {
		t.Error("2019 does not link 2021 as the next year")
	}
}

// TestWarmBuildRendersOnlyTheMonthsAnEditTouches: an edit of an
// incident renders its months' pages again and carries every other
// month's over (the same file); a month that gains its page renders the
// months with pages either side of it again, whose links to it are new,
// and no other. Each build equals a cold one.
func TestWarmBuildRendersOnlyTheMonthsAnEditTouches(t *testing.T) {
	src := monthSite(t)
	august := "---\ntitle: August\nsummary: S.\norganization: AWS\ntimezone: UTC\nbegin: 2021-08-02 10:00\nend: 2021-08-02 11:00\n---\n\n## Timeline {#timeline}\n\n- 2021-08-02 10:00 — Began.\n"
	writeFile(t, filepath.Join(src, "content", "2021-08-02-aws-august", "en.md"), august)
	warm := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(buildOpts(src, warm)); err != nil {
		t.Fatal(err)
	}
	months := []string{"03", "04", "05", "06", "08"}
	steps := []struct {
		name    string
		change  func()
		renders []string // the months rendered again; the others are carried
	}{
		{"an event of March's incident", func() {
			edit(t, filepath.Join(src, "content", "2021-03-10-aws-march", "en.md"), "Errors ended.", "Errors stopped after a rollback.")
		}, []string{"03"}},
		{"an incident of the month running into the next", func() {
			edit(t, filepath.Join(src, "content", "2021-04-30-aws-long", "en.md"), "EC2 recovered.", "EC2 recovered fully.")
		}, []string{"04", "05"}},
		{"an incident in June, a month without a page", func() {
			writeFile(t, filepath.Join(src, "content", "2021-06-15-azure-june", "en.md"),
				strings.NewReplacer("August", "June", "AWS", "Azure", "2021-08-02", "2021-06-15").Replace(august))
		}, []string{"05", "06", "08"}},
	}
	for _, st := range steps {
		before := inodes(t, warm)
		st.change()
		res, err := build.Run(buildOpts(src, warm))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		t.Logf("%s: carried %d, warnings %v", st.name, res.Carried, res.Warnings)
		after := inodes(t, warm)
		for _, lang := range []string{"en", "ja", "zh-TW"} {
			for _, m := range months {
				page := lang + "/timeline/2021/" + m + "/index.html"
				b, a := before[page], after[page]
				if a == nil {
					if b != nil {
						t.Errorf("%s: %s is gone", st.name, page)
					}
					continue
				}
				carried := b != nil && os.SameFile(b, a)
				if want := !slices.Contains(st.renders, m); carried != want {
					t.Errorf("%s: %s carried over: %t, want %t", st.name, page, carried, want)
				}
			}
		}
		cold := filepath.Join(t.TempDir(), "public")
		if _, err := build.Run(buildOpts(src, cold)); err != nil {
			t.Fatal(err)
		}
		sameBuild(t, st.name, warm, cold)
	}
}

// TestLongIncidentOnBoundedMonths: an incident stated to have lasted five
// years is on the pages of its first twelve months and of the months its
// events happened in, not on sixty: one file does not make a page per
// month of its window.
func TestLongIncidentOnBoundedMonths(t *testing.T) {
	dir := writeSite(t, files{"content/2020-01-10-long/en.md": "---\ntitle: Long\nsummary: S.\ntimezone: UTC\nbegin: 2020-01-10 10:00\nend: 2025-01-10 10:00\n---\n\n## Timeline {#timeline}\n\n- 2020-01-10 10:00 — Began.\n- 2024-06-01 09:00 — Still going.\n"})
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	months, err := filepath.Glob(filepath.Join(dir, "public", "en", "timeline", "*", "*", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range months {
		rel, _ := filepath.Rel(filepath.Join(dir, "public", "en", "timeline"), filepath.Dir(m))
		got = append(got, filepath.ToSlash(rel))
	}
	want := []string{"2020/01", "2020/02", "2020/03", "2020/04", "2020/05", "2020/06", "2020/07", "2020/08", "2020/09", "2020/10", "2020/11", "2020/12", "2024/06"}
	if !slices.Equal(got, want) {
		t.Errorf("the incident is on the month pages %q, want %q", got, want)
	}
	hrefs, _ := monthEvents(t, filepath.Join(dir, "public", "en", "timeline", "2024", "06", "index.html"))
	if !slices.Equal(hrefs, []string{"/en/incidents/2020-01-10-long/#t-20240601T0900Z"}) {
		t.Errorf("June 2024 links %q, want the event of that month", hrefs)
	}
	checkLinks(t, filepath.Join(dir, "public"), "http://127.0.0.1:1313/")
}
