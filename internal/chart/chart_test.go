package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// node is a minimal DOM built from the encoding/xml token stream.
type node struct {
	name   string
	space  string
	attr   map[string]string
	kids   []*node
	text   string // character data directly inside
	parent *node
}

// parse decodes s fully and strictly as XML and returns a synthetic root.
func parse(t *testing.T, s string) *node {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	root := &node{name: "#root", attr: map[string]string{}}
	cur := root
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, s[:min(len(s), 2000)])
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, space: tok.Name.Space, attr: map[string]string{}, parent: cur}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			cur.kids = append(cur.kids, n)
			cur = n
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			cur.text += string(tok)
		}
	}
	if cur != root {
		t.Fatal("unbalanced document")
	}
	return root
}

func (n *node) all(pred func(*node) bool) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if pred(m) {
			out = append(out, m)
		}
		for _, k := range m.kids {
			walk(k)
		}
	}
	walk(n)
	return out
}

func (n *node) class(c string) bool {
	for _, f := range strings.Fields(n.attr["class"]) {
		if f == c {
			return true
		}
	}
	return false
}

func byClass(c string) func(*node) bool { return func(n *node) bool { return n.class(c) } }

func byName(name string) func(*node) bool { return func(n *node) bool { return n.name == name } }

func (n *node) child(name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

func fnum(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q: %v", s, err)
	}
	return v
}

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("no tzdata for %s: %v", name, err)
	}
	return loc
}

// Tick labellers that encode the instant, so tests can read ticks back.
func encLocal(t time.Time) string { return "L|" + t.Format(time.RFC3339) }
func encUTC(t time.Time) string   { return "U|" + t.Format(time.RFC3339) }

type tick struct {
	x float64
	t time.Time
}

func readTicks(t *testing.T, root *node, class, prefix string) []tick {
	t.Helper()
	var out []tick
	for _, n := range root.all(byClass(class)) {
		if n.name != "text" {
			continue
		}
		if !strings.HasPrefix(n.text, prefix) {
			t.Fatalf("%s label %q not made by its tick function", class, n.text)
		}
		at, err := time.Parse(time.RFC3339, strings.TrimPrefix(n.text, prefix))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tick{fnum(t, n.attr["x"]), at})
	}
	return out
}

func checkRoot(t *testing.T, root *node, prefix string) *node {
	t.Helper()
	if len(root.kids) != 1 || root.kids[0].name != "svg" {
		t.Fatalf("want one <svg> root, got %d elements", len(root.kids))
	}
	svg := root.kids[0]
	if svg.space != "http://www.w3.org/2000/svg" {
		t.Errorf("namespace %q", svg.space)
	}
	if svg.attr["role"] != "img" || svg.attr["width"] != "100%" || !strings.HasPrefix(svg.attr["viewBox"], "0 0 720 ") {
		t.Errorf("root attributes %v", svg.attr)
	}
	if got, want := svg.attr["aria-labelledby"], prefix+"-title "+prefix+"-desc"; got != want {
		t.Errorf("aria-labelledby %q, want %q", got, want)
	}
	if ti := svg.child("title"); ti == nil || ti.attr["id"] != prefix+"-title" {
		t.Error("missing <title> with id")
	}
	if de := svg.child("desc"); de == nil || de.attr["id"] != prefix+"-desc" {
		t.Error("missing <desc> with id")
	}
	return svg
}

const nasty = `<script>alert("x")</script> & 'quoted' "double" ]]> ` + "\x00\x1b"

func baseIncident(t testing.TB) IncidentTimeline {
	la := mustLoc(t, "America/Los_Angeles")
	at := func(h, m int) time.Time { return time.Date(2017, 3, 13, h, m, 0, 0, la) }
	return IncidentTimeline{
		IDPrefix:  "inc",
		Title:     "BigQuery timeline",
		Desc:      "Impact 10:22 to 10:52 PDT",
		Begin:     at(10, 22),
		End:       at(10, 52),
		Location:  la,
		LocalTick: encLocal,
		UTCTick:   encUTC,
		Events: []Event{
			{At: at(10, 22), Label: "10:22 PDT · 17:22 UTC — Error rate jumps", Href: "#t-20170313T1722Z"},
			{At: at(10, 40), Label: "10:40 PDT — Mitigation", Href: "#t-20170313T1740Z"},
			{At: at(10, 52), Label: "10:52 PDT — Resolved", Href: "#t-20170313T1752Z"},
			{At: at(11, 30), Label: "11:30 PDT — Postmortem started", Href: "#t-20170313T1830Z"},
		},
	}
}

func TestIncidentEscaping(t *testing.T) {
	c := baseIncident(t)
	c.Title, c.Desc = nasty, nasty
	c.Events[0].Label = nasty
	c.Events[1].Href = `#a"b<c>&d'e`
	c.Events[2].Href = " JavaScript:alert(1)"
	c.LocalTick = func(time.Time) string { return "<script>&\"'" }
	out := Incident(c)
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Fatal("raw <script appears in output")
	}
	root := parse(t, out)
	svg := checkRoot(t, root, "inc")
	want := strings.Map(func(r rune) rune {
		if r < 0x20 {
			return -1
		}
		return r
	}, nasty)
	if got := svg.child("title").text; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	markers := root.all(byClass("marker"))
	hrefs := map[string]bool{}
	for _, m := range markers {
		hrefs[m.attr["href"]] = true
		if m.child("title").text == want {
			hrefs["label-ok"] = true
		}
	}
	if !hrefs[`#a"b<c>&d'e`] || !hrefs["#"] || !hrefs["label-ok"] {
		t.Errorf("hrefs/labels not round-tripped: %v", hrefs)
	}
	if len(root.all(byName("script"))) != 0 {
		t.Error("script element present")
	}
}

func TestIncidentMarkers(t *testing.T) {
	c := baseIncident(t)
	root := parse(t, Incident(c))
	markers := root.all(byClass("marker"))
	if len(markers) != len(c.Events) {
		t.Fatalf("%d markers for %d events", len(markers), len(c.Events))
	}
	seen := map[string]int{}
	for _, m := range markers {
		if m.name != "a" {
			t.Errorf("marker is <%s>, want <a>", m.name)
		}
		seen[m.attr["href"]]++
		if m.child("title") == nil || len(m.all(byName("circle"))) == 0 {
			t.Error("marker without <title> or circle")
		}
	}
	for _, e := range c.Events {
		if seen[e.Href] != 1 {
			t.Errorf("href %s used by %d markers", e.Href, seen[e.Href])
		}
	}
	// Each marker's label is its own event's.
	for _, m := range markers {
		for _, e := range c.Events {
			if e.Href == m.attr["href"] && m.child("title").text != e.Label {
				t.Errorf("marker %s has title %q", e.Href, m.child("title").text)
			}
		}
	}
}

// TestIncidentResponsive: the picture drawn for a phone is 360 units wide
// (about a CSS px a unit there), with every marker a tap target of at
// least 24 units, no two markers' dots overlapping, its own ids, and the
// same links as the wide one; the style sheet shows one of them.
func TestIncidentResponsive(t *testing.T) {
	c := baseIncident(t)
	at := c.Events[0].At
	for i := range 9 { // a burst of events a minute apart
		c.Events = append(c.Events, Event{At: at.Add(time.Duration(i) * time.Minute), Label: "burst", Href: fmt.Sprintf("#b%d", i)})
	}
	c.Legend = IncidentLegend{Impact: "Impact", Events: "Event, numbered as in the timeline below", Midnight: "Midnight, local time"}
	root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
	svgs := root.all(byName("svg"))
	if len(svgs) != 2 || !svgs[0].class("chart-wide") || !svgs[1].class("chart-phone") {
		t.Fatalf("%d pictures, want the wide one then the phone's", len(svgs))
	}
	ids := map[string]bool{}
	for _, n := range root.all(func(n *node) bool { return n.attr["id"] != "" }) {
		if ids[n.attr["id"]] {
			t.Errorf("id %q twice", n.attr["id"])
		}
		ids[n.attr["id"]] = true
	}
	phone := svgs[1]
	if vb := strings.Fields(phone.attr["viewBox"]); len(vb) != 4 || vb[2] != "360" {
		t.Errorf("phone viewBox %q, want 360 wide", phone.attr["viewBox"])
	}
	type dot struct{ x, y, r float64 }
	var dots []dot
	for _, m := range phone.all(byClass("marker")) {
		if m.child("title") != nil {
			t.Error("a phone's marker has a tooltip")
		}
		for _, circle := range m.all(byName("circle")) {
			r := fnum(t, circle.attr["r"])
			if circle.class("hit") && 2*r < 24 {
				t.Errorf("tap target %v units across", 2*r)
			}
			if circle.class("dot") {
				dots = append(dots, dot{fnum(t, circle.attr["cx"]), fnum(t, circle.attr["cy"]), r})
			}
		}
	}
	if len(dots) != len(c.Events) {
		t.Fatalf("%d dots for %d events", len(dots), len(c.Events))
	}
	for i, a := range dots {
		for _, b := range dots[i+1:] {
			if dx, dy := a.x-b.x, a.y-b.y; dx*dx+dy*dy < (a.r+b.r)*(a.r+b.r) {
				t.Errorf("dots at %v and %v overlap", a, b)
			}
		}
	}
	if w, p := len(svgs[0].all(byClass("marker"))), len(phone.all(byClass("marker"))); w != p {
		t.Errorf("%d markers wide, %d on the phone", w, p)
	}
	css := Stylesheet()
	for _, want := range []string{"svg.chart.chart-phone{display:none}", "svg.chart.chart-wide{display:none}"} {
		if !strings.Contains(css, want) {
			t.Errorf("style sheet lacks %s", want)
		}
	}
}

func TestIncidentStaggersCoincidentEvents(t *testing.T) {
	c := baseIncident(t)
	at := c.Begin.Add(5 * time.Minute)
	c.Events = nil
	for i := range 4 {
		c.Events = append(c.Events, Event{At: at.Add(time.Duration(i) * time.Second), Label: "e", Href: fmt.Sprintf("#e%d", i)})
	}
	root := parse(t, Incident(c))
	ys := map[string]bool{}
	for _, m := range root.all(byClass("dot")) {
		ys[m.attr["cy"]] = true
	}
	if len(ys) != 4 {
		t.Errorf("4 coincident markers on %d distinct rows", len(ys))
	}
}

// checkAxis verifies tick rows (counts, monotonic x, labels made by the
// tick functions, local labels in the incident's zone) and that the band
// and markers sit where the scale implied by the UTC ticks puts them.
func checkAxis(t *testing.T, c IncidentTimeline) {
	t.Helper()
	out := Incident(c)
	root := parse(t, out)
	checkRoot(t, root, cleanID(c.IDPrefix))
	utc := readTicks(t, root, "tick-utc", "U|")
	local := readTicks(t, root, "tick-local", "L|")
	for name, row := range map[string][]tick{"utc": utc, "local": local} {
		if len(row) < 4 || len(row) > 8 {
			t.Errorf("%s: %d ticks, want 4–8", name, len(row))
		}
		for i := 1; i < len(row); i++ {
			if !(row[i].x > row[i-1].x) || !row[i].t.After(row[i-1].t) {
				t.Errorf("%s ticks not increasing at %d: %v", name, i, row)
			}
		}
	}
	for _, tk := range utc {
		if _, off := tk.t.Zone(); off != 0 {
			t.Errorf("UTC tick label %v not in UTC", tk.t)
		}
	}
	for _, tk := range local {
		_, want := tk.t.In(c.Location).Zone()
		if _, off := tk.t.Zone(); off != want {
			t.Errorf("local tick label %v: offset %d, want %d", tk.t, off, want)
		}
	}
	if len(utc) < 2 {
		return
	}
	a, z := utc[0], utc[len(utc)-1]
	perNS := (z.x - a.x) / float64(z.t.Sub(a.t))
	sx := func(at time.Time) float64 { return a.x + float64(at.Sub(a.t))*perNS }
	const tol = 0.25 // coordinates are rounded to 0.1
	for _, tk := range local {
		if math.Abs(sx(tk.t)-tk.x) > tol {
			t.Errorf("local tick %v at x=%v, scale says %v", tk.t, tk.x, sx(tk.t))
		}
	}
	if c.Begin.Equal(c.End) {
		// An instant is a line, not a band.
		lines := root.all(byClass("instant"))
		if len(lines) != 1 || len(root.all(byClass("band"))) != 0 {
			t.Fatalf("an instant: %d lines, %d bands; want a line", len(lines), len(root.all(byClass("band"))))
		}
		if x := fnum(t, lines[0].attr["x1"]); math.Abs(x-sx(c.Begin)) > tol {
			t.Errorf("the instant's line at x=%v, want %v", x, sx(c.Begin))
		}
	} else {
		bands := root.all(byClass("band"))
		if len(bands) != 1 || bands[0].name != "rect" {
			t.Fatalf("want one band rect, got %d", len(bands))
		}
		bx, bw := fnum(t, bands[0].attr["x"]), fnum(t, bands[0].attr["width"])
		if math.Abs(bx-sx(c.Begin)) > tol || math.Abs(bx+bw-sx(c.End)) > tol {
			t.Errorf("band x=%v..%v, want %v..%v", bx, bx+bw, sx(c.Begin), sx(c.End))
		}
	}
	for _, m := range root.all(byClass("marker")) {
		dot := m.all(byClass("dot"))[0]
		for _, e := range c.Events {
			if e.Href == m.attr["href"] && math.Abs(fnum(t, dot.attr["cx"])-sx(e.At)) > tol {
				t.Errorf("marker %s at x=%s, want %v", e.Href, dot.attr["cx"], sx(e.At))
			}
		}
	}
	// Everything stays inside the viewBox horizontally.
	for _, n := range root.all(func(n *node) bool { return n.attr["x"] != "" || n.attr["cx"] != "" }) {
		x := n.attr["x"] + n.attr["cx"]
		if v := fnum(t, x); v < 0 || v > 720 {
			t.Errorf("<%s> at x=%v outside the viewBox", n.name, v)
		}
	}
}

func TestIncidentAxis(t *testing.T) {
	checkAxis(t, baseIncident(t))
}

func TestIncidentDSTFallBack(t *testing.T) {
	la := mustLoc(t, "America/Los_Angeles")
	begin := time.Date(2021, 11, 7, 0, 30, 0, 0, la) // PDT
	end := time.Date(2021, 11, 7, 3, 0, 0, 0, la)    // PST
	c := IncidentTimeline{
		IDPrefix: "dst", Title: "t", Desc: "d", Begin: begin, End: end, Location: la,
		LocalTick: encLocal, UTCTick: encUTC,
		Events: []Event{
			{At: begin, Label: "start", Href: "#a"},
			{At: time.Date(2021, 11, 7, 8, 30, 0, 0, time.UTC), Label: "01:30 PDT", Href: "#b"},
			{At: time.Date(2021, 11, 7, 9, 30, 0, 0, time.UTC), Label: "01:30 PST", Href: "#c"},
			{At: end, Label: "end", Href: "#d"},
		},
	}
	checkAxis(t, c)
	// Both 01:00 hours appear as distinct local ticks if the step is hourly
	// or finer, and every local tick is on a round wall-clock time.
	root := parse(t, Incident(c))
	for _, tk := range readTicks(t, root, "tick-local", "L|") {
		if tk.t.Second() != 0 || tk.t.Minute()%15 != 0 {
			t.Errorf("local tick %v not on a round time", tk.t)
		}
	}
}

func TestIncidentDSTSpringForward(t *testing.T) {
	la := mustLoc(t, "America/Los_Angeles")
	c := IncidentTimeline{
		IDPrefix: "spring", Begin: time.Date(2021, 3, 14, 0, 45, 0, 0, la), End: time.Date(2021, 3, 14, 4, 10, 0, 0, la),
		Location: la, LocalTick: encLocal, UTCTick: encUTC,
	}
	checkAxis(t, c)
}

func TestIncidentMidnight(t *testing.T) {
	tokyo := mustLoc(t, "Asia/Tokyo")
	c := IncidentTimeline{
		IDPrefix: "mid", Title: "東京", Desc: "日付をまたぐ",
		Begin: time.Date(2020, 12, 31, 23, 40, 0, 0, tokyo), End: time.Date(2021, 1, 1, 0, 50, 0, 0, tokyo),
		Location: tokyo, LocalTick: encLocal, UTCTick: encUTC,
		Events: []Event{{At: time.Date(2021, 1, 1, 0, 0, 0, 0, tokyo), Label: "新年", Href: "#n"}},
	}
	checkAxis(t, c)
}

// São Paulo's clocks went from 23:59 on 3 November 2018 to 01:00 on the
// 4th: that day has no midnight, and the line marks when it began.
func TestIncidentSkippedMidnight(t *testing.T) {
	sp := mustLoc(t, "America/Sao_Paulo")
	begin := time.Date(2018, 11, 3, 22, 0, 0, 0, sp)
	c := IncidentTimeline{
		IDPrefix: "sp", Begin: begin, End: begin.Add(5 * time.Hour), Location: sp,
		LocalTick: encLocal, UTCTick: encUTC,
		MidnightLabel: func(t time.Time) string { return t.Format("2006-01-02 15:04 -0700") },
	}
	checkAxis(t, c)
	labels := parse(t, Incident(c)).all(byClass("midnight-label"))
	if len(labels) != 1 || labels[0].text != "2018-11-04 01:00 -0200" {
		t.Errorf("%d midnight labels (%v), want one, at 2018-11-04 01:00 -0200", len(labels), labels)
	}
}

func TestIncidentHalfHourZoneAndLongSpans(t *testing.T) {
	kol := mustLoc(t, "Asia/Kolkata")
	for _, d := range []time.Duration{3 * time.Hour, 20 * time.Hour, 3 * 24 * time.Hour, 40 * 24 * time.Hour, 400 * 24 * time.Hour} {
		b := time.Date(2019, 7, 2, 14, 7, 0, 0, kol)
		checkAxis(t, IncidentTimeline{IDPrefix: "k", Begin: b, End: b.Add(d), Location: kol, LocalTick: encLocal, UTCTick: encUTC,
			Events: []Event{{At: b.Add(d / 3), Href: "#x"}}})
	}
}

// TestIncidentInUTC: an incident kept in UTC has one row of times, not
// the same labels twice; the legend names the midnight line only where
// one is drawn.
func TestIncidentInUTC(t *testing.T) {
	legend := IncidentLegend{Impact: "Impact", Events: "Events", Midnight: "Midnight"}
	at := time.Date(2008, 1, 15, 2, 22, 0, 0, time.UTC)
	c := IncidentTimeline{IDPrefix: "u", Begin: at, End: at.Add(9 * time.Hour), Location: time.UTC, Legend: legend,
		Events: []Event{{At: at, Href: "#a"}, {At: at.Add(9 * time.Hour), Href: "#b"}}}
	root := parse(t, Incident(c))
	if local, utc := len(root.all(byClass("tick-local"))), len(root.all(byClass("tick-utc"))); local < 2 || utc != 0 {
		t.Errorf("%d local and %d UTC ticks, want the times once", local, utc)
	}
	if n := len(root.all(byClass("midnight"))); n != 0 {
		t.Errorf("%d midnight marks, none in view", n)
	}
	c.End = at.Add(30 * time.Hour) // over the next midnight
	root = parse(t, Incident(c))
	if n := len(root.all(byClass("midnight"))); n != 2 { // the line and its key
		t.Errorf("%d midnight marks, want the line and its key", n)
	}
	la := mustLoc(t, "America/Los_Angeles")
	c.Location = la
	root = parse(t, Incident(c))
	if utc := len(root.all(byClass("tick-utc"))); utc < 2 {
		t.Errorf("%d UTC ticks for an incident in Los Angeles", utc)
	}
}

func TestIncidentDegenerate(t *testing.T) {
	at := time.Date(2017, 3, 13, 17, 22, 0, 0, time.UTC)
	cases := map[string]IncidentTimeline{
		"zero-length, no events": {IDPrefix: "z", Begin: at, End: at},
		"nothing at all":         {IDPrefix: "n"},
		"events only":            {IDPrefix: "e", Events: []Event{{At: at, Href: "#a"}, {At: at.Add(time.Hour), Href: "#b"}}},
		"end before begin":       {IDPrefix: "r", Begin: at.Add(time.Hour), End: at},
		"nil tick funcs, 9 days": {IDPrefix: "d", Begin: at, End: at.Add(9 * 24 * time.Hour), Location: mustLoc(t, "Europe/Berlin")},
		"100 coincident events": func() IncidentTimeline {
			c := IncidentTimeline{IDPrefix: "h", Begin: at, End: at.Add(time.Minute)}
			for i := range 100 {
				c.Events = append(c.Events, Event{At: at, Href: "#" + strconv.Itoa(i)})
			}
			return c
		}(),
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out := Incident(c)
			root := parse(t, out)
			checkRoot(t, root, c.IDPrefix)
			if n := len(root.all(byClass("marker"))); n != len(c.Events) {
				t.Errorf("%d markers for %d events", n, len(c.Events))
			}
			// A picture in UTC (a nil Location) shows its times once.
			local, utc := len(root.all(byClass("tick-local"))), len(root.all(byClass("tick-utc")))
			if local < 2 || utc < 2 && c.Location != nil {
				t.Errorf("%d local ticks, %d UTC ticks", local, utc)
			}
		})
	}
	// A zero-length window is still visible: a line at its instant.
	root := parse(t, Incident(cases["zero-length, no events"]))
	if n := len(root.all(byClass("instant"))); n != 1 {
		t.Errorf("zero-length window: %d lines", n)
	}
	checkAxis(t, IncidentTimeline{IDPrefix: "z", Begin: at, End: at, Location: time.UTC, LocalTick: encLocal, UTCTick: encUTC})
}

// summaryCharts are the pictures of many incidents, one after the other.
func summaryCharts(spans []Span) string {
	return HeatmapSVG(testHeatmap(spans)) + GridSVG(testGrid(len(spans))) + DurationsSVG(Durations{IDPrefix: "d", Spans: spans})
}

// testGrid has a few rows whose counts grow with n.
func testGrid(n int) Grid {
	return Grid{IDPrefix: "g", Title: "Grid", Rows: []GridRow{
		{Label: "Cloud", Href: "/en/organizations/cloud/", Years: map[int]int{2019: n, 2021: 1}},
		{Label: "SaaS", Years: map[int]int{2020: n / 2}},
	}}
}

func manySpans(n int) []Span {
	sevs := []string{"minor", "major", "critical"}
	out := make([]Span, n)
	b := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range out {
		// deterministic pseudo-random spread over 15 years
		at := b.Add(time.Duration(uint64(i)*2654435761%uint64(15*365*24)) * time.Hour)
		d := time.Duration(uint64(i)*40503%(72*60)) * time.Minute
		out[i] = Span{Begin: at, End: at.Add(d), Severity: sevs[i%3]}
	}
	return out
}

func TestUniqueIDsAcrossCharts(t *testing.T) {
	c1 := baseIncident(t)
	c1.IDPrefix = "tl-en"
	c2 := baseIncident(t)
	c2.IDPrefix = "tl-ja"
	doc := "<div>" + Incident(c1) + summaryCharts(manySpans(50)) + Incident(c2) + "</div>"
	root := parse(t, doc)
	ids := map[string]int{}
	for _, n := range root.all(func(n *node) bool { return n.attr["id"] != "" }) {
		ids[n.attr["id"]]++
	}
	for id, k := range ids {
		if k > 1 {
			t.Errorf("id %q used %d times", id, k)
		}
	}
	for _, svg := range root.all(byName("svg")) {
		for _, ref := range strings.Fields(svg.attr["aria-labelledby"]) {
			if len(svg.all(func(n *node) bool { return n.attr["id"] == ref })) != 1 {
				t.Errorf("aria-labelledby %q does not resolve inside its chart", ref)
			}
		}
	}
}

// TestNoInlineStyles: the site's Content-Security-Policy (style-src 'self')
// blocks <style> elements and style attributes, so the charts must carry
// neither; their presentation comes from Stylesheet.
func TestNoInlineStyles(t *testing.T) {
	var outs []string
	inc := baseIncident(t)
	outs = append(outs, Incident(inc), Incident(IncidentTimeline{IDPrefix: "n"}))
	inc.Title, inc.Events[0].Label = nasty, nasty
	outs = append(outs, Incident(inc))
	for _, n := range []int{0, 1, 4, 50, 3000} {
		spans := manySpans(n)
		outs = append(outs, HeatmapSVG(testHeatmap(spans)), DurationsSVG(Durations{IDPrefix: "d", Spans: spans}), GridSVG(testGrid(n)))
	}
	for i, out := range outs {
		low := strings.ToLower(out)
		if strings.Contains(low, "<style") || strings.Contains(low, " style=") {
			t.Errorf("output %d carries inline style: %s", i, out[:min(len(out), 300)])
		}
		root := parse(t, out)
		if n := len(root.all(func(n *node) bool { return n.name == "style" || n.attr["style"] != "" })); n != 0 {
			t.Errorf("output %d: %d style elements or attributes", i, n)
		}
		svg := root.kids[0]
		if !svg.class("chart") || !(svg.class("chart-incident") || svg.class("chart-heatmap") || svg.class("chart-grid") || svg.class("chart-durations")) {
			t.Errorf("output %d: root classes %q", i, svg.attr["class"])
		}
	}
}

func TestStylesheet(t *testing.T) {
	css := Stylesheet()
	if css != Stylesheet() {
		t.Error("Stylesheet differs between calls")
	}
	depth := 0
	for i, r := range css {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				t.Fatalf("unbalanced '}' at %d", i)
			}
		case '<':
			t.Fatalf("'<' at %d", i) // the text must also be safe inside HTML
		}
	}
	if depth != 0 {
		t.Fatalf("%d unclosed braces", depth)
	}
	for _, want := range []string{
		"svg.chart{", "svg.chart text{", ".chart-incident ", ".chart-durations ", ".chart-heatmap ",
		"@media (prefers-color-scheme:dark)", "@media print", "@media (forced-colors:active)", "@media " + narrowQuery,
		"var(--fg,", "var(--muted,", "var(--line,", "var(--bg,", "var(--accent,", "var(--minor,", "var(--major,", "var(--critical,",
		".severity-critical{", ".dot{", ".band{",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("style sheet lacks %q", want)
		}
	}
	// Every selector is scoped to a chart (by class, not by id), and
	// every class the charts use has a rule.
	rest := css
	for rest != "" {
		sel, body, ok := strings.Cut(rest, "{")
		if !ok {
			break
		}
		sel = strings.TrimSpace(sel)
		if i := strings.LastIndex(sel, "*/"); i >= 0 {
			sel = strings.TrimSpace(sel[i+2:])
		}
		if strings.HasPrefix(sel, "@media") {
			rest = body
			continue
		}
		for _, part := range strings.Split(sel, ",") {
			p := strings.TrimSpace(part)
			if !strings.HasPrefix(p, "svg.chart") || strings.Contains(p, "#") {
				t.Errorf("unscoped CSS selector %q", p)
			}
		}
		_, rest, _ = strings.Cut(body, "}")
		rest = strings.TrimLeft(rest, "} \n")
	}
	used := map[string]bool{}
	for _, out := range []string{Incident(baseIncident(t)), HeatmapSVG(testHeatmap(manySpans(50))), GridSVG(testGrid(50)), DurationsSVG(Durations{IDPrefix: "d", Spans: manySpans(50)}), DurationsSVG(Durations{IDPrefix: "e"})} {
		for _, n := range parse(t, out).all(func(n *node) bool { return n.attr["class"] != "" }) {
			for _, c := range strings.Fields(n.attr["class"]) {
				used[c] = true
			}
		}
	}
	for _, c := range []string{"muted", "h", "cnt", "grid", "axis", "tk", "nh", "band", "band-edge", "stem", "dot", "hit", "marker",
		"severity-minor", "severity-major", "severity-critical", "heat", "cell", "bar", "frame"} {
		if !strings.Contains(css, "."+c+"{") && !strings.Contains(css, "."+c+" ") && !strings.Contains(css, "."+c+":") {
			t.Errorf("no rule for class %q", c)
		}
		if !used[c] {
			t.Errorf("class %q has a rule but the test charts do not use it", c)
		}
	}
}

// TestHTMLEmbedding parses the charts the way a browser does when they are
// inlined in a page: they must land in the SVG namespace, keep their text
// and links, and not smuggle in any HTML element.
func TestHTMLEmbedding(t *testing.T) {
	c := baseIncident(t)
	c.Title = nasty
	c.Events[0].Label = nasty
	h := testHeatmap([]Span{{Begin: time.Date(2020, 1, 2, 3, 4, 0, 0, time.UTC), Severity: "minor"}})
	h.Title = nasty
	h.CellLabel = func(int, time.Month, int, [4]int) string { return nasty }
	page := "<!doctype html><html><head><title>p</title></head><body><figure>" + Incident(c) + "</figure><figure>" +
		HeatmapSVG(h) + "</figure><p id=after>after</p></body></html>"
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var svgs, markers, cells, htmlInSVG int
	var after bool
	var walk func(n *html.Node, inSVG bool)
	walk = func(n *html.Node, inSVG bool) {
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Script || n.Data == "script" {
				t.Error("script element in the parsed page")
			}
			if inSVG && n.Namespace != "svg" {
				htmlInSVG++
			}
			if n.Data == "svg" && n.Namespace == "svg" {
				svgs++
				inSVG = true
			}
			for _, a := range n.Attr {
				if a.Key == "class" && strings.Contains(" "+a.Val+" ", " marker ") {
					markers++
				}
				if a.Key == "class" && a.Val == "cell" {
					cells++
				}
				if a.Key == "id" && a.Val == "after" && !inSVG {
					after = true
				}
			}
			if n.Data == "title" && inSVG && n.Parent.Data == "svg" && n.Parent.Namespace == "svg" {
				if n.FirstChild == nil || n.FirstChild.Data != strings.Map(func(r rune) rune {
					if r < 0x20 {
						return -1
					}
					return r
				}, nasty) {
					t.Errorf("svg title text not preserved")
				}
			}
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k, inSVG)
		}
	}
	walk(doc, false)
	if svgs != 2 || markers != len(c.Events) || cells != 1 || htmlInSVG != 0 || !after {
		t.Errorf("svgs=%d markers=%d cells=%d html-in-svg=%d after=%v", svgs, markers, cells, htmlInSVG, after)
	}
}

func TestDeterministic(t *testing.T) {
	c := baseIncident(t)
	if Incident(c) != Incident(c) {
		t.Error("Incident output differs between runs")
	}
	for _, n := range []int{10, 3000} {
		spans := manySpans(n)
		if summaryCharts(spans) != summaryCharts(spans) {
			t.Errorf("summary charts (%d spans) differ between runs", n)
		}
	}
}

func TestIDPrefixSanitised(t *testing.T) {
	c := baseIncident(t)
	c.IDPrefix = `x"><script>`
	out := Incident(c)
	if strings.Contains(out, "<script") {
		t.Fatal("id prefix injected markup")
	}
	parse(t, out)
	if got := cleanID("2017-03-13 bigquery"); got != "c2017-03-13_bigquery" {
		t.Errorf("cleanID = %q", got)
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{0: "0", -0.04: "0", 12.25: "12.3", 12.0: "12", 719.96: "720", -3.14: "-3.1", 0.3: "0.3"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkSummaryCharts10000(b *testing.B) {
	spans := manySpans(10000)
	b.ReportAllocs()
	for b.Loop() {
		_ = summaryCharts(spans)
	}
}

func BenchmarkIncident(b *testing.B) {
	c := baseIncident(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = Incident(c)
	}
}

func FuzzIncident(f *testing.F) {
	f.Add("label", int64(1489425720), int64(1489427520), int64(1489426000), int64(60))
	f.Add("<script>&", int64(0), int64(0), int64(-1), int64(0))
	f.Add("\xff\x00", int64(-62135596800), int64(253402300799), int64(1), int64(1))
	f.Fuzz(func(t *testing.T, label string, b, e, at, step int64) {
		la := mustLoc(t, "America/Los_Angeles")
		c := IncidentTimeline{IDPrefix: label, Title: label, Desc: label, Begin: time.Unix(b, 0), End: time.Unix(e, 0), Location: la}
		for i := range 5 {
			c.Events = append(c.Events, Event{At: time.Unix(at+int64(i)*step, 0), Label: label, Href: label})
		}
		out := Incident(c)
		root := parse(t, out)
		if n := len(root.all(byClass("marker"))); n != 5 {
			t.Errorf("%d markers", n)
		}
		if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
			t.Error("non-finite number in output")
		}
	})
}

func FuzzSummaryCharts(f *testing.F) {
	f.Add("label", "major", int64(1489425720), int64(3600), 3)
	f.Add("<script>", "\"><x", int64(-62135596800), int64(-5), 1)
	f.Fuzz(func(t *testing.T, label, sev string, b, d int64, n int) {
		n = n%50 + 1
		if n < 1 {
			n = 1
		}
		var spans []Span
		for i := range n {
			bt := time.Unix(b+int64(i)*d, 0)
			spans = append(spans, Span{Begin: bt, End: bt.Add(time.Duration(d) * time.Second), Severity: sev})
		}
		h := testHeatmap(spans)
		h.IDPrefix, h.Title = label, label
		out := HeatmapSVG(h)
		parse(t, out)
		parse(t, DurationsSVG(Durations{IDPrefix: label, Title: label, Spans: spans, Buckets: []string{label}}))
		if len(out) > 3_000_000 {
			t.Errorf("output %d bytes", len(out))
		}
	})
}

// An incident whose end was not stated is drawn open-ended, and the
// durations histogram counts it in a duration row of its own, shown only when there
// is one.
func TestOpenIncidents(t *testing.T) {
	t0 := time.Date(2022, 7, 19, 14, 13, 0, 0, time.UTC)
	closed := Span{Begin: t0, End: t0.Add(30 * time.Minute), Severity: "major"}
	open := Span{Begin: t0, End: t0.Add(3 * time.Hour), Severity: "unknown", Open: true}

	svg := DurationsSVG(Durations{IDPrefix: "o", Spans: []Span{closed, open}})
	for _, want := range []string{`data-bucket="5" data-count="1"`, `data-bucket="0" data-count="1"`, `data-bucket="1" data-count="0"`, "end not stated"} {
		if !strings.Contains(svg, want) {
			t.Errorf("durations lack %s", want)
		}
	}
	if svg := DurationsSVG(Durations{IDPrefix: "o", Spans: []Span{closed}}); strings.Contains(svg, `data-bucket="5"`) {
		t.Error("durations without open incidents have an end-not-stated row")
	}

	inc := Incident(IncidentTimeline{IDPrefix: "i", Begin: t0, End: t0.Add(3 * time.Hour), Open: true, Events: []Event{{At: t0}, {At: t0.Add(3 * time.Hour)}}})
	if !strings.Contains(inc, `class="band open"`) || strings.Count(inc, `class="band-edge open"`) != 1 || strings.Count(inc, `class="band-edge"`) != 1 {
		t.Errorf("an open incident's band is not open at its end only:\n%s", inc)
	}
}

// TestMidnightLabelClearOfMarkers: where a midnight is labelled, the top
// lane's markers (their hit area) stay below the label's line, on the
// phone and the wide picture, however many lanes a burst of events just
// after midnight fills.
func TestMidnightLabelClearOfMarkers(t *testing.T) {
	taipei := mustLoc(t, "Asia/Taipei")
	midnight := time.Date(2024, 4, 3, 0, 0, 0, 0, taipei)
	for _, n := range []int{1, 3, 8} {
		var at []time.Time
		for i := range n {
			at = append(at, midnight.Add(time.Duration(2+i)*time.Minute))
		}
		c := pageIncident("incident-chart", taipei, midnight.Add(-3*time.Hour), midnight.Add(time.Hour), false, at, "Error rate jumps")
		for name, geo := range map[string]incGeom{"phone": phoneGeom, "wide": wideGeom} {
			var g incidentLayout
			g.layout(c, geo)
			if len(g.days) == 0 {
				t.Fatalf("%d events, %s: no midnight in view", n, name)
			}
			labelBottom := incGridTop + 12 + 4 // the baseline, and descenders
			if top := g.laneY(g.lanes-1) - geo.hitR; top < labelBottom {
				t.Errorf("%d events, %s: the top lane's markers reach up to %.0f, over the midnight label's line (down to %.0f)", n, name, top, labelBottom)
			}
		}
	}
}

// TestBurstBeyondLanesKeepsMarkersApart: more events within minutes than
// the picture has lanes, in the middle of the window or at its very end,
// still give markers whose dots do not overlap and stay in the picture,
// on the phone and the wide picture.
func TestBurstBeyondLanesKeepsMarkersApart(t *testing.T) {
	c := baseIncident(t)
	begin, end := c.Begin, c.Begin.Add(6*time.Hour)
	c.End = end
	for _, n := range []int{7, 12, 20} {
		for _, at := range []time.Time{begin.Add(2 * time.Hour), end} {
			c.Events = nil
			for i := range n {
				c.Events = append(c.Events, Event{At: at.Add(time.Duration(i) * 5 * time.Second), Label: "burst", Href: fmt.Sprintf("#b%d", i)})
			}
			root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
			for _, svg := range root.all(byName("svg")) {
				width := fnum(t, strings.Fields(svg.attr["viewBox"])[2])
				type dot struct{ x, y, r float64 }
				var dots []dot
				for _, circle := range svg.all(byClass("dot")) {
					d := dot{fnum(t, circle.attr["cx"]), fnum(t, circle.attr["cy"]), fnum(t, circle.attr["r"])}
					if d.x-d.r < 0 || d.x+d.r > width {
						t.Errorf("%d events at %s, %s: dot at %v leaves the picture %v wide", n, at.Format("15:04"), svg.attr["class"], d, width)
					}
					dots = append(dots, d)
				}
				if len(dots) != n {
					t.Fatalf("%d dots for %d events", len(dots), n)
				}
				for i, a := range dots {
					for _, b := range dots[i+1:] {
						if dx, dy := a.x-b.x, a.y-b.y; dx*dx+dy*dy < (a.r+b.r)*(a.r+b.r) {
							t.Errorf("%d events at %s, %s: dots at %v and %v overlap", n, at.Format("15:04"), svg.attr["class"], a, b)
						}
					}
				}
			}
		}
	}
}

// extremeIncidents are the pictures real reports give at the extremes: an
// incident of three weeks, one that is a single instant (no end, nothing
// after its beginning), and 31 events over a midnight whose date an edge
// of the band would cross, on one side of its line or on both.
func extremeIncidents(t *testing.T) map[string]IncidentTimeline {
	la := mustLoc(t, "America/Los_Angeles")
	every := func(from time.Time, n int, step time.Duration) []time.Time {
		var out []time.Time
		for i := range n {
			out = append(out, from.Add(time.Duration(i)*step))
		}
		return out
	}
	midnight := time.Date(2023, 3, 14, 0, 0, 0, 0, la)
	b21 := time.Date(2023, 1, 4, 9, 12, 0, 0, la)
	out := map[string]IncidentTimeline{
		"21 days": pageIncident("d21", la, b21, b21.Add(21*24*time.Hour), false, every(b21, 6, 4*24*time.Hour), "Degraded"),
		"instant": pageIncident("one", la, b21, b21, true, []time.Time{b21}, "Reported"),
		"31 events, an edge after midnight": pageIncident("e31", la, midnight.Add(-80*time.Minute), midnight.Add(15*time.Minute), false,
			every(midnight.Add(-80*time.Minute), 31, 3*time.Minute), "Error rate jumps"),
		"31 events, edges either side of midnight": pageIncident("e31b", la, midnight.Add(-9*time.Minute), midnight.Add(9*time.Minute), false,
			every(midnight.Add(-4*time.Hour), 31, 16*time.Minute), "Error rate jumps"),
	}
	for name, c := range out {
		c.DayTick = func(t time.Time) string { return t.Format("Jan 2 MST") }
		out[name] = c
	}
	return out
}

// TestIncidentExtremes: three weeks are labelled by their dates at the
// starts of local days, never "00:00 PST" again and again; an instant is
// a line on two hours, without a key for an impact band it does not draw.
func TestIncidentExtremes(t *testing.T) {
	cases := extremeIncidents(t)
	la := cases["21 days"].Location

	root := parse(t, Incident(cases["21 days"]))
	seen := map[string]bool{}
	local := root.all(byClass("tick-local"))
	if len(local) < 4 {
		t.Fatalf("21 days: %d local ticks", len(local))
	}
	for _, n := range local {
		at, err := time.ParseInLocation("Jan 2 MST 2006", n.text+" 2023", la)
		if err != nil || at.Hour() != 0 || at.Minute() != 0 {
			t.Errorf("21 days: local tick %q is not the date of a local midnight (%v)", n.text, err)
		}
		if seen[n.text] {
			t.Errorf("21 days: local tick %q twice", n.text)
		}
		seen[n.text] = true
	}
	for _, n := range root.all(byClass("tick-utc")) {
		if _, err := time.Parse("Jan 2 MST", n.text); err != nil || !strings.HasSuffix(n.text, " UTC") {
			t.Errorf("21 days: UTC tick %q is not a date in UTC", n.text)
		}
	}

	c := cases["instant"]
	root = parse(t, Incident(c))
	if n := len(root.all(byClass("band"))); n != 0 {
		t.Errorf("instant: %d bands", n)
	}
	if n := len(root.all(func(n *node) bool { return n.class("instant") && !n.parent.class("chart-key") })); n != 1 {
		t.Errorf("instant: %d lines, want one", n)
	}
	keys := map[string]bool{}
	for _, n := range root.all(byName("text")) {
		keys[n.text] = true
	}
	if keys[c.Legend.Impact] || !keys[c.Legend.Instant] {
		t.Errorf("instant: the legend names an impact band (%v) or not the instant's line (%v)", keys[c.Legend.Impact], keys[c.Legend.Instant])
	}
	// Nothing else stated: no event, no key for events.
	c.Events = nil
	if out := Incident(c); strings.Contains(out, c.Legend.Events) || strings.Count(out, `class="instant"`) != 2 {
		t.Errorf("an instant without events: a key for events, or not the line and its key")
	}
	var first, last time.Time
	for i, n := range root.all(byClass("tick-local")) {
		at, err := time.ParseInLocation("15:04 MST", n.text, la)
		if err != nil {
			t.Fatalf("instant: tick %q: %v", n.text, err)
		}
		if i == 0 {
			first = at
		}
		last = at
	}
	if last.Sub(first) < time.Hour {
		t.Errorf("instant: ticks from %s to %s; want an axis of about two hours", first.Format("15:04"), last.Format("15:04"))
	}
	checkAxis(t, IncidentTimeline{IDPrefix: "z", Begin: c.Begin, End: c.Begin, Open: true, Location: la, LocalTick: encLocal, UTCTick: encUTC})

	// 31 events over a midnight: a marker each, times of day named once
	// each, the date of the midnight on its line.
	for _, name := range []string{"31 events, an edge after midnight", "31 events, edges either side of midnight"} {
		c := cases[name]
		root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
		for _, svg := range root.all(byName("svg")) {
			if n := len(svg.all(byClass("marker"))); n != 31 {
				t.Errorf("%s, %s: %d markers", name, svg.attr["class"], n)
			}
			seen := map[string]bool{}
			for _, n := range svg.all(byClass("tick-local")) {
				if _, err := time.ParseInLocation("15:04 MST", n.text, la); err != nil || seen[n.text] {
					t.Errorf("%s, %s: local tick %q not a time of day, or twice", name, svg.attr["class"], n.text)
				}
				seen[n.text] = true
			}
			if len(seen) < 4 {
				t.Errorf("%s, %s: %d local ticks", name, svg.attr["class"], len(seen))
			}
			if days := svg.all(byClass("midnight-label")); len(days) != 1 || days[0].text != "Tue Mar 14" {
				t.Errorf("%s, %s: midnights %v, want Tue Mar 14", name, svg.attr["class"], len(days))
			}
		}
	}
}

// TestIncidentLabelsClearOfBandEdges: no text of the picture (ticks,
// midnights' dates) is crossed by an edge of the band or the instant's
// line, on the phone and the wide picture, each text measured at the
// largest size it is shown at.
func TestIncidentLabelsClearOfBandEdges(t *testing.T) {
	cases := extremeIncidents(t)
	for _, name := range []string{"multi-day", "cjk", "half-hour-zone", "closed"} {
		cases[name] = goldenIncidents(t)[name]
	}
	for name, c := range cases {
		root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
		for _, svg := range root.all(byName("svg")) {
			geo := wideGeom
			if svg.class("chart-phone") {
				geo = phoneGeom
			}
			var edges [][3]float64 // x, y0, y1
			for _, l := range svg.all(func(n *node) bool { return n.name == "line" && (n.class("band-edge") || n.class("instant")) }) {
				edges = append(edges, [3]float64{fnum(t, l.attr["x1"]), fnum(t, l.attr["y1"]), fnum(t, l.attr["y2"])})
			}
			texts := 0
			for _, tx := range svg.all(func(n *node) bool { return n.name == "text" && (n.class("tick") || n.class("midnight-label")) }) {
				size := geo.font
				if tx.class("midnight-label") {
					size = geo.dayFont
				}
				w, x, y := textWidth(tx.text, size), fnum(t, tx.attr["x"]), fnum(t, tx.attr["y"])
				anchor := tx.attr["text-anchor"]
				if anchor == "" && tx.parent != nil {
					anchor = tx.parent.attr["text-anchor"]
				}
				x0 := x
				switch anchor {
				case "middle":
					x0 -= w / 2
				case "end":
					x0 -= w
				}
				y0, y1 := y-size, y+size/4
				texts++
				for _, e := range edges {
					if e[0] >= x0 && e[0] <= x0+w && e[1] < y1 && e[2] > y0 {
						t.Errorf("%s, %s: %q (x %.1f–%.1f, y %.1f–%.1f) is crossed by the edge at x=%.1f (y %.1f–%.1f)",
							name, svg.attr["class"], tx.text, x0, x0+w, y0, y1, e[0], e[1], e[2])
					}
				}
			}
			if texts == 0 || len(edges) == 0 {
				t.Errorf("%s, %s: %d texts, %d edges", name, svg.attr["class"], texts, len(edges))
			}
		}
	}
	// The cases cross where they are meant to: a date is after its
	// midnight unless an edge is there.
	for _, name := range []string{"31 events, an edge after midnight", "31 events, edges either side of midnight"} {
		var g incidentLayout
		g.layout(cases[name], wideGeom)
		if len(g.dayLabels) != 1 {
			t.Fatalf("%s: %d midnights", name, len(g.dayLabels))
		}
		x0, x1, _, _ := dayLabel{text: g.dayLabels[0].text, x: g.sx(g.days[0]) + 4}.box(wideGeom.dayFont)
		if e := g.sx(g.end); e < x0 || e > x1 {
			t.Errorf("%s: the end's edge at %.1f does not reach the date after midnight (%.1f–%.1f): the case tests nothing", name, e, x0, x1)
		}
	}
}

// TestMidnightDatesInsideThePicture: wherever a midnight falls, up to the
// right end of the axis, its date is inside the picture (a date after a
// late midnight goes before its line), on the phone and the wide picture.
func TestMidnightDatesInsideThePicture(t *testing.T) {
	la := mustLoc(t, "America/Los_Angeles")
	begin := time.Date(2015, 4, 27, 18, 0, 0, 0, la)
	before := 0
	for end := begin.Add(5 * time.Hour); end.Before(begin.Add(30 * time.Hour)); end = end.Add(10 * time.Minute) {
		c := pageIncident("late", la, begin, end, false, []time.Time{begin, end}, "Errors")
		c.MidnightLabel = func(t time.Time) string { return t.Format("2006-01-02") }
		for _, geo := range []incGeom{wideGeom, phoneGeom} {
			var g incidentLayout
			g.layout(c, geo)
			for _, l := range g.dayLabels {
				x0, x1, _, _ := l.box(geo.dayFont)
				if x0 < 0 || x1 > geo.width {
					t.Errorf("end %s, %.0f wide: %q at %.1f–%.1f, outside 0–%.0f", end.Format("Jan 2 15:04"), geo.width, l.text, x0, x1, geo.width)
				}
				if l.before {
					before++
				}
			}
		}
	}
	if before == 0 {
		t.Error("no date went before its line: the cases test nothing")
	}
	if dayFont < 12 {
		t.Errorf("midnights' dates at %v px on a phone, under 12", dayFont)
	}
}

// TestTickLabelsInsideThePicture: a tick's label near an end of the axis
// stays inside the picture, even with a long zone name ("BST, UTC+1"), and
// the labels shown do not run into each other, on the phone and the wide
// picture.
func TestTickLabelsInsideThePicture(t *testing.T) {
	london := mustLoc(t, "Europe/London")
	checked := 0
	for m := 0; m < 60; m += 7 {
		begin := time.Date(2022, 7, 19, 15, m, 0, 0, london)
		c := pageIncident("bst", london, begin, begin.Add(3*time.Hour+17*time.Minute), true, []time.Time{begin, begin.Add(52 * time.Minute)}, "Cooling fails")
		// As the pages name a zone whose abbreviation others share.
		c.LocalTick = func(t time.Time) string { return t.Format("15:04") + " BST, UTC+1" }
		root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
		for _, svg := range root.all(byName("svg")) {
			// The wide picture is seen at its own size, its text at
			// fontText, every label shown; the phone's at phoneGeom's.
			geo, font := wideGeom, fontText
			if svg.class("chart-phone") {
				geo, font = phoneGeom, phoneGeom.font
			}
			for _, row := range []string{"tick-local", "tick-utc"} {
				prevEnd, prev := math.Inf(-1), ""
				for _, tx := range svg.all(byClass(row)) {
					w, x := textWidth(tx.text, font), fnum(t, tx.attr["x"])
					if dx, ok := tx.attr["dx"]; ok {
						x += fnum(t, dx)
					}
					checked++
					if x-w/2 < 0 || x+w/2 > geo.width {
						t.Errorf("begin %s, %s: %q at %.1f–%.1f, outside 0–%.0f", begin.Format("15:04"), svg.attr["class"], tx.text, x-w/2, x+w/2, geo.width)
					}
					if tx.class("crowded") || svg.class("chart-phone") && tx.class("nh") {
						continue // hidden
					}
					if x-w/2 < prevEnd {
						t.Errorf("begin %s, %s: %q runs into %q", begin.Format("15:04"), svg.attr["class"], tx.text, prev)
					}
					prevEnd, prev = x+w/2, tx.text
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no tick labels")
	}
}

// TestIncidentOverlaps: each overlapping incident is a lane under the
// axis and its UTC times, a link to its page titled with its name, its
// bar over the part of its window in view, its name inside the picture;
// More is a last line linking on; the legend names the lanes.
func TestIncidentOverlaps(t *testing.T) {
	la := mustLoc(t, "America/Los_Angeles")
	b := time.Date(2020, 8, 19, 20, 55, 0, 0, la)
	c := pageIncident("ov", la, b, b.Add(2*time.Hour), false, []time.Time{b, b.Add(time.Hour)}, "Errors")
	c.Legend.Overlap = "Another incident at the same time"
	c.Overlaps = []Overlap{
		{Begin: b.Add(-30 * 24 * time.Hour), End: b.Add(30 * 24 * time.Hour), Text: "A month-long degradation of everything", Label: "A month-long degradation (Jul 20)", Href: "../2020-07-20-long/"},
		{Begin: b.Add(30 * time.Minute), End: b.Add(45 * time.Minute), Text: "Short", Label: "Short (Aug 19)", Href: "../2020-08-19-short/"},
		{Begin: b.Add(time.Hour), End: b.Add(time.Hour), Open: true, Text: strings.Repeat("A very long title that cannot fit anywhere ", 4), Label: "Long", Href: "../2020-08-19-instant/"},
		{Begin: b.Add(100 * time.Minute), End: b.Add(5 * time.Hour), Text: "Late & <loud>", Label: "Late", Href: "../2020-08-19-late/"},
	}
	c.More, c.MoreHref = "and 12 more", "../../timeline/2020/08/"
	root := parse(t, "<div>"+IncidentResponsive(c)+"</div>")
	for _, svg := range root.all(byName("svg")) {
		width := fnum(t, strings.Fields(svg.attr["viewBox"])[2])
		axis := svg.all(byClass("axis"))[0]
		axisY := fnum(t, axis.attr["y1"])
		lowestTick := axisY
		for _, tx := range svg.all(byClass("tick-utc")) {
			lowestTick = max(lowestTick, fnum(t, tx.attr["y"]))
		}
		lanes := svg.all(byClass("overlap-lane"))
		if len(lanes) != len(c.Overlaps) {
			t.Fatalf("%s: %d lanes for %d overlapping incidents", svg.attr["class"], len(lanes), len(c.Overlaps))
		}
		lastY := lowestTick
		for i, lane := range lanes {
			o := c.Overlaps[i]
			if lane.name != "a" || lane.attr["href"] != o.Href || lane.child("title") == nil || lane.child("title").text != o.Label {
				t.Errorf("lane %d: <%s href=%q> titled %v, want a link to %s titled %q", i, lane.name, lane.attr["href"], lane.child("title"), o.Href, o.Label)
			}
			bar := lane.all(byClass("overlap"))[0]
			y, x0, w := fnum(t, bar.attr["y"]), fnum(t, bar.attr["x"]), fnum(t, bar.attr["width"])
			if y <= lastY {
				t.Errorf("lane %d at y=%v, not below the UTC times and the lane before (%v)", i, y, lastY)
			}
			lastY = y + fnum(t, bar.attr["height"])
			if x0 < 0 || x0+w > width || w < 3 {
				t.Errorf("lane %d: bar %v–%v outside the picture (%v wide) or too thin", i, x0, x0+w, width)
			}
			label := lane.all(byClass("overlap-label"))[0]
			lw, lx := textWidth(label.text, overlapFont), fnum(t, label.attr["x"])
			if label.attr["text-anchor"] == "end" {
				lx -= lw
			}
			if label.text == "" || lx < 0 || lx+lw > width {
				t.Errorf("lane %d: its name %q at %v–%v leaves the picture (%v wide)", i, label.text, lx, lx+lw, width)
			}
			if !strings.HasPrefix(o.Text, strings.TrimSuffix(label.text, "…")) {
				t.Errorf("lane %d: shows %q for %q", i, label.text, o.Text)
			}
		}
		if bar := lanes[2].all(byClass("overlap"))[0]; !bar.class("open") {
			t.Errorf("an overlapping incident without a stated end is not drawn open")
		}
		more := svg.all(byClass("overlap-more"))
		if len(more) != 1 || more[0].attr["href"] != c.MoreHref || len(more[0].all(byClass("overlap-label"))) != 1 || more[0].all(byClass("overlap-label"))[0].text != c.More {
			t.Errorf("%s: no line linking to the ones not drawn", svg.attr["class"])
		}
		key := false
		for _, tx := range svg.all(byName("text")) {
			key = key || tx.text == c.Legend.Overlap
		}
		if !key {
			t.Errorf("%s: the legend does not name the lanes", svg.attr["class"])
		}
	}
	// Without overlapping incidents, no lane and no key.
	c.Overlaps, c.More = nil, ""
	if out := IncidentResponsive(c); strings.Contains(out, "overlap") || strings.Contains(out, "same time") {
		t.Errorf("lanes or their key drawn without overlapping incidents")
	}
}
