package build_test

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// report is an incident file as real reports give them: only what is
// set is written.
type report struct {
	title, begin, end, org, tz string
	products, causes, related  []string
	timeline                   []string
}

func (r report) source() string {
	var b strings.Builder
	tz := r.tz
	if tz == "" {
		tz = "America/Los_Angeles"
	}
	fmt.Fprintf(&b, "---\ntitle: %q\nsummary: Something failed.\ntimezone: %s\nbegin: %s\n", r.title, tz, r.begin)
	if r.end != "" {
		fmt.Fprintf(&b, "end: %s\n", r.end)
	}
	if r.org != "" {
		fmt.Fprintf(&b, "organization: %s\n", r.org)
	}
	for key, v := range map[string][]string{"products": r.products, "causes": r.causes, "related": r.related} {
		if len(v) > 0 {
			fmt.Fprintf(&b, "%s: [%s]\n", key, strings.Join(v, ", "))
		}
	}
	b.WriteString("---\n\n## Impact {#impact}\n\nRequests failed.\n")
	if len(r.timeline) > 0 {
		b.WriteString("\n## Timeline {#timeline}\n\n")
		for _, e := range r.timeline {
			fmt.Fprintf(&b, "- %s — Something happened.\n", e)
		}
	}
	return b.String()
}

// buildReportsOf builds the incidents, by id, into a new site and returns
// its output folder.
func buildReportsOf(t *testing.T, reports map[string]report) string {
	t.Helper()
	fs := files{}
	for id, r := range reports {
		fs[file(id, "en")] = r.source()
	}
	dir := writeSite(t, fs)
	if _, err := buildSite(dir); err != nil {
		t.Fatalf("build: %v", err)
	}
	return filepath.Join(dir, "public")
}

// pageLink resolves a link on the page at rel (under public/) to the file
// it leads to and its fragment.
func pageLink(t *testing.T, rel, href string) (string, string) {
	t.Helper()
	page, _ := url.Parse("http://127.0.0.1:1313/" + strings.TrimSuffix(rel, "index.html"))
	u, err := url.Parse(href)
	if err != nil {
		t.Fatalf("%s: link %q: %v", rel, href, err)
	}
	target := page.ResolveReference(u)
	p := strings.TrimPrefix(target.Path, "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return path.Clean(p), target.Fragment
}

func incidentIDOf(file string) string {
	return strings.TrimSuffix(strings.TrimPrefix(file, "en/incidents/"), "/index.html")
}

// TestIncidentPageDrawsOverlaps: an incident that overlapped seven others
// draws five of them in its chart, a lane each linking to its incident,
// and a line linking to the month for the other two; the one stated as
// related is listed under "Related" and not again under "At the same
// time".
func TestIncidentPageDrawsOverlaps(t *testing.T) {
	const main = "2024-03-10-main"
	reports := map[string]report{
		main: {title: "Main outage", begin: "2024-03-10 10:00", end: "2024-03-10 14:00", related: []string{"2024-03-10-other-3"},
			timeline: []string{"2024-03-10 10:00", "12:00"}},
		"2024-03-12-apart": {title: "Later", begin: "2024-03-12 10:00", end: "2024-03-12 11:00"},
	}
	var overlapping []string
	for i := range 7 {
		id := fmt.Sprintf("2024-03-10-other-%d", i)
		overlapping = append(overlapping, id)
		reports[id] = report{title: fmt.Sprintf("Other %d", i), begin: fmt.Sprintf("2024-03-10 %02d:%02d", 9+i/3, i%3*20), end: "2024-03-10 16:00"}
	}
	delete(reports, "2024-03-10-other-6")
	reports["2024-03-10-other-6"] = report{title: "Other 6, no end stated", begin: "2024-03-10 11:00", timeline: []string{"2024-03-10 11:00", "13:00"}}
	public := buildReportsOf(t, reports)
	rel := "en/incidents/" + main + "/index.html"
	doc := parseHTML(t, filepath.Join(public, rel))

	svgs := findAll(doc, func(n *html.Node) bool {
		return n.Data == "svg" && strings.Contains(attrOf(n, "class"), "chart-incident")
	})
	if len(svgs) != 2 {
		t.Fatalf("%d incident charts, want the wide one and the phone's", len(svgs))
	}
	for _, svg := range svgs {
		lanes := findAll(svg, func(n *html.Node) bool { return n.Data == "a" && attrOf(n, "class") == "overlap-lane" })
		if len(lanes) != 5 {
			t.Errorf("%s: %d lanes, want 5", attrOf(svg, "class"), len(lanes))
		}
		seen := map[string]bool{}
		for _, lane := range lanes {
			target, _ := pageLink(t, rel, attrOf(lane, "href"))
			id := incidentIDOf(target)
			if !slices.Contains(overlapping, id) || seen[id] {
				t.Errorf("a lane links to %s (%q), not another overlapping incident", target, attrOf(lane, "href"))
			}
			seen[id] = true
			titles := findAll(lane, func(n *html.Node) bool { return n.Data == "title" })
			if len(titles) != 1 || !strings.HasPrefix(textOf(titles[0]), reports[id].title+" — ") {
				t.Errorf("the lane of %s is not titled with its title", id)
			}
		}
		more := findAll(svg, func(n *html.Node) bool { return n.Data == "a" && attrOf(n, "class") == "overlap-more" })
		if len(more) != 1 {
			t.Fatalf("%s: %d lines for the ones not drawn, want 1", attrOf(svg, "class"), len(more))
		}
		if target, _ := pageLink(t, rel, attrOf(more[0], "href")); target != "en/timeline/2024/03/index.html" || textOf(more[0]) != "and 2 more at the same time" {
			t.Errorf("the line for the others reads %q and links to %s, want the month's page", textOf(more[0]), target)
		}
	}

	lists := map[string][]string{}
	for _, sec := range findAll(doc, func(n *html.Node) bool { return n.Data == "section" }) {
		h := findAll(sec, func(n *html.Node) bool { return n.Data == "h2" })
		if len(h) == 0 {
			continue
		}
		for _, a := range findAll(sec, func(n *html.Node) bool { return n.Data == "a" }) {
			target, _ := pageLink(t, rel, attrOf(a, "href"))
			lists[textOf(h[0])] = append(lists[textOf(h[0])], incidentIDOf(target))
		}
	}
	if got := lists["Related incidents"]; !slices.Equal(got, []string{"2024-03-10-other-3"}) {
		t.Errorf("related: %v", got)
	}
	same := lists["At the same time"]
	if len(same) != 6 || slices.Contains(same, "2024-03-10-other-3") {
		t.Errorf("at the same time: %v; want the six overlapping incidents not related", same)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestListsGiveTimeAndZone: every list (the incidents, an organization's,
// a product's) gives an incident's beginning as its date and time in its
// own zone, named, in a <time> of the UTC instant; the page says once
// whose zone that is.
func TestListsGiveTimeAndZone(t *testing.T) {
	public := buildReportsOf(t, map[string]report{
		"2020-08-19-evening": {title: "Evening errors", begin: "2020-08-19 20:55", org: "Example Cloud", products: []string{"Widgets"}},
		"2020-08-20-tokyo":   {title: "Tokyo errors", tz: "Asia/Tokyo", begin: "2020-08-20 09:10", end: "2020-08-20 10:00", org: "Example Cloud", products: []string{"Widgets"}},
	})
	want := map[string]struct{ datetime, shown string }{
		"2020-08-19-evening": {"2020-08-20T03:55:00Z", "August 19, 2020, 20:55 PDT"},
		"2020-08-20-tokyo":   {"2020-08-20T00:10:00Z", "August 20, 2020, 09:10 JST"},
	}
	pages, _ := filepath.Glob(filepath.Join(public, "en", "*", "*", "index.html"))
	pages = append(pages, filepath.Join(public, "en", "index.html"))
	checked := 0
	for _, page := range pages {
		rel, _ := filepath.Rel(public, page)
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, "en/organizations/") && !strings.HasPrefix(rel, "en/products/") && rel != "en/index.html" {
			continue
		}
		doc := parseHTML(t, page)
		items := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attrOf(n, "class") == "incident-item" })
		if len(items) == 0 {
			continue
		}
		checked++
		for _, item := range items {
			link := findAll(item, func(n *html.Node) bool { return n.Data == "a" })[0]
			target, _ := pageLink(t, rel, attrOf(link, "href"))
			w := want[incidentIDOf(target)]
			times := findAll(item, func(n *html.Node) bool { return n.Data == "time" })
			if len(times) != 1 || attrOf(times[0], "datetime") != w.datetime || textOf(times[0]) != w.shown {
				t.Errorf("%s: %s begins %v, want <time datetime=%q>%s</time>", rel, incidentIDOf(target), func() []string {
					var out []string
					for _, tm := range times {
						out = append(out, attrOf(tm, "datetime")+" "+textOf(tm))
					}
					return out
				}(), w.datetime, w.shown)
			}
		}
		if n := strings.Count(textOf(doc), "Times are in each incident’s own time zone."); n != 1 {
			t.Errorf("%s: the zone of the times is said %d times, want once", rel, n)
		}
	}
	if checked != 3 {
		t.Errorf("checked %d lists, want the incidents, the organization's and the product's", checked)
	}
}

// TestReportsInstantChart: a report that states its beginning and nothing
// after is drawn as that instant, a line, and its chart says so; the
// legend names what is drawn, not an impact band or events it lacks.
func TestReportsInstantChart(t *testing.T) {
	dest := buildReports(t)
	for _, lang := range []string{"en", "ja", "zh-TW"} {
		doc := parseHTML(t, filepath.Join(dest, lang, "incidents", awsS3ID, "index.html"))
		svgs := findAll(doc, func(n *html.Node) bool { return n.Data == "svg" })
		if len(svgs) != 2 {
			t.Fatalf("%s: %d charts", lang, len(svgs))
		}
		for _, svg := range svgs {
			if n := len(findAll(svg, func(n *html.Node) bool { return attrOf(n, "class") == "band" || attrOf(n, "class") == "band open" })); n != 0 {
				t.Errorf("%s: an instant is shaded as a band (%d)", lang, n)
			}
			if n := len(findAll(svg, func(n *html.Node) bool { return n.Data == "line" && attrOf(n, "class") == "instant" })); n != 2 {
				t.Errorf("%s: %d instant lines, want the line and its key", lang, n)
			}
		}
	}
	doc := parseHTML(t, filepath.Join(dest, "en", "incidents", awsS3ID, "index.html"))
	text := textOf(findAll(doc, func(n *html.Node) bool { return n.Data == "svg" })[0])
	for _, absent := range []string{"Impact", "Event, numbered"} {
		if strings.Contains(text, absent) {
			t.Errorf("the chart names %q, which it does not draw", absent)
		}
	}
	for _, present := range []string{"Began; no later time stated", "no later time is stated, so a line marks that instant"} {
		if !strings.Contains(text, present) {
			t.Errorf("the chart does not say %q:\n%s", present, text)
		}
	}
}
