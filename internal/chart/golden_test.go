package chart

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"
)

// pageIncident is drawn as an incident page draws its chart: tick labels
// with the zone's abbreviation, dates for the midnight lines, a legend,
// and events labelled "n. time — text" that link to the timeline.
func pageIncident(prefix string, loc *time.Location, begin, end time.Time, open bool, events []time.Time, texts ...string) IncidentTimeline {
	c := IncidentTimeline{
		IDPrefix: prefix, Title: "Incident timeline",
		Desc:  "Impact from " + begin.Format("15:04 MST") + " for " + end.Sub(begin).String(),
		Begin: begin, End: end, Open: open, Location: loc,
		LocalTick:     func(t time.Time) string { return t.Format("15:04 MST") },
		UTCTick:       func(t time.Time) string { return t.UTC().Format("15:04") + " UTC" },
		MidnightLabel: func(t time.Time) string { return t.Format("Mon Jan 2") },
		Legend: IncidentLegend{Impact: "Impact", Events: "Event, numbered as in the timeline below", Midnight: "Midnight, local time",
			Instant: "Began; no later time stated"},
	}
	for i, at := range events {
		text := texts[i%len(texts)]
		c.Events = append(c.Events, Event{
			At:    at,
			Label: fmt.Sprintf("%d. %s — %s", i+1, at.In(loc).Format("15:04 MST"), text),
			Href:  "#t-" + at.UTC().Format("20060102T1504Z"),
		})
	}
	return c
}

// goldenIncidents are varied incident pictures: a closed and an open
// window, a window over several days and another over months, a burst of
// events, a zone half an hour off the hour, one kept in UTC, CJK and
// markup in labels, default labels, incidents at the same time, ten
// thousand years, and nothing at all.
func goldenIncidents(t testing.TB) map[string]IncidentTimeline {
	la, berlin, kolkata, taipei := mustLoc(t, "America/Los_Angeles"), mustLoc(t, "Europe/Berlin"), mustLoc(t, "Asia/Kolkata"), mustLoc(t, "Asia/Taipei")
	every := func(from time.Time, n int, step time.Duration) []time.Time {
		var out []time.Time
		for i := range n {
			out = append(out, from.Add(time.Duration(i)*step))
		}
		return out
	}
	texts := []string{"Error rate jumps", "Mitigation <rolled back> & \"drained\"", "Resolved", "Postmortem started"}
	b := time.Date(2017, 3, 13, 10, 22, 0, 0, la)
	out := map[string]IncidentTimeline{
		"closed": pageIncident("incident-chart", la, b, b.Add(30*time.Minute), false,
			[]time.Time{b, b.Add(18 * time.Minute), b.Add(30 * time.Minute), b.Add(68 * time.Minute)}, texts...),
		"open": pageIncident("incident-chart", la, b, b.Add(5*time.Hour), true, every(b, 7, 47*time.Minute), texts...),
		// Over two DST-free midnights and then the spring change.
		"multi-day": pageIncident("incident-chart", berlin, time.Date(2021, 3, 26, 21, 5, 0, 0, berlin), time.Date(2021, 3, 29, 6, 40, 0, 0, berlin), false,
			every(time.Date(2021, 3, 26, 21, 5, 0, 0, berlin), 12, 5*time.Hour+13*time.Minute), texts...),
		"months": pageIncident("incident-chart", berlin, time.Date(2019, 11, 2, 8, 0, 0, 0, berlin), time.Date(2020, 4, 20, 8, 0, 0, 0, berlin), false,
			every(time.Date(2019, 11, 2, 8, 0, 0, 0, berlin), 9, 19*24*time.Hour), texts...),
		// Forty events, bursts of them a minute apart: lanes fill and wrap.
		"many-events": pageIncident("incident-chart", la, b, b.Add(3*time.Hour), false,
			append(every(b, 25, time.Minute), every(b.Add(2*time.Hour), 15, 4*time.Minute)...), texts...),
		"half-hour-zone": pageIncident("incident-chart", kolkata, time.Date(2019, 7, 2, 22, 7, 0, 0, kolkata), time.Date(2019, 7, 3, 1, 52, 0, 0, kolkata), false,
			every(time.Date(2019, 7, 2, 22, 7, 0, 0, kolkata), 8, 29*time.Minute), texts...),
		"utc": pageIncident("incident-chart", time.UTC, time.Date(2008, 1, 15, 2, 22, 0, 0, time.UTC), time.Date(2008, 1, 15, 11, 35, 0, 0, time.UTC), false,
			every(time.Date(2008, 1, 15, 2, 22, 0, 0, time.UTC), 9, time.Hour), texts...),
		"cjk": pageIncident("事故-圖表", taipei, time.Date(2020, 12, 31, 23, 40, 0, 0, taipei), time.Date(2021, 1, 1, 0, 50, 0, 0, taipei), false,
			every(time.Date(2020, 12, 31, 23, 40, 0, 0, taipei), 6, 14*time.Minute), "錯誤率上升", "已緩解", "\x00\xff控制字元"),
		"nothing": {IDPrefix: ""},
	}
	cjk := out["cjk"]
	cjk.Title, cjk.Desc = "事故時間軸", "影響自 23:40 起"
	cjk.Legend = IncidentLegend{Impact: "影響", Events: "事件，編號同下方時間軸", Midnight: "當地午夜"}
	out["cjk"] = cjk
	// Default tick labels over nine days: ticks a day or more apart.
	out["days-default-labels"] = IncidentTimeline{IDPrefix: "d", Begin: b, End: b.Add(9 * 24 * time.Hour), Location: berlin,
		Events: []Event{{At: b.Add(time.Hour), Href: "javascript:alert(1)"}, {At: b.Add(100 * time.Hour), Label: "later"}}}
	// Incidents at the same time: one over the whole view, one within,
	// one an instant with a name too long for any room, and more.
	ov := pageIncident("incident-chart", la, b, b.Add(3*time.Hour), false, every(b, 4, 50*time.Minute), texts...)
	ov.Legend.Overlap = "Another incident at the same time"
	ov.Overlaps = []Overlap{
		{Begin: b.Add(-48 * time.Hour), End: b.Add(48 * time.Hour), Text: "Degraded storage across the region", Label: "Degraded storage — Mar 11", Href: "../2017-03-11-storage/"},
		{Begin: b.Add(40 * time.Minute), End: b.Add(90 * time.Minute), Open: true, Text: "Login errors", Label: "Login errors — Mar 13", Href: "../2017-03-13-login/"},
		{Begin: b.Add(2 * time.Hour), End: b.Add(2 * time.Hour), Text: strings.Repeat("A very long name <with markup> & more ", 5), Label: "Long", Href: "../2017-03-13-long/"},
	}
	ov.More, ov.MoreHref = "and 4 more at the same time", "../../timeline/2017/03/"
	out["overlaps"] = ov
	// From year 1 to year 9999: no step gives 4–8 ticks.
	out["millennia"] = IncidentTimeline{IDPrefix: "m", Begin: time.Unix(-62135596800, 0), End: time.Unix(253402300799, 0), Location: la,
		Events: []Event{{At: time.Unix(1, 0), Label: "epoch", Href: "#e"}}}
	return out
}

// goldenSums are the SHA-256 of IncidentResponsive's markup for each of
// goldenIncidents, and of summaryCharts(manySpans(300)) (which share the
// markup's writers): drawing them with less memory must not change a
// byte. A change meant to alter the pictures replaces these (the test
// prints the new sums).
var goldenSums = map[string]string{
	"closed":              "5d9137d7b64a1a4082bfac639762d52d4766773fddeb6b64906160efbe4f365f",
	"open":                "e3fb82579ff1abdf28b62f0483279654be87dd8e4f2ea269114496fc51b68727",
	"multi-day":           "4747974d941499eedc995c2ec66bc9281b493465be948a59bbc2a6932b9b0665",
	"months":              "62d54b83701867e63514ed9714df83c07e56d161ec97d62bb91f36942fa586db",
	"many-events":         "fc4468d04200cc9d85d20cfb0f6a9ee2f6532b28c61c99f5e02da94c5f859a01",
	"half-hour-zone":      "449b813706fe345092cb6e76c688a611a895f432b7453258a6d9b89940c7995b",
	"utc":                 "f88492110c859d7734347cca19ca486bef96043f7bea9eab760292ea6d593b4d",
	"cjk":                 "2a098df28dfea1d6b92e0e15d32ae8581af007d298b3ac83ba36e2edbbe95930",
	"days-default-labels": "6f9fab5d23569b0fd5233dd821f857b7680867b04fd447bb5b94297fdb7a3b35",
	"nothing":             "31b438129542e88333ea1924988568d2128fc08ef3c0828c5c0501a217dd3dfe",
	"millennia":           "20de9ba6878f080ee4a49f3341e2cfcdb55b2a0c4cd80ef30468b5bfe3f1be36",
	"summary":             "ceb04f4aad49682750212f9f4e83e745f50443e63259c6fb5577e9641782c941",
	"overlaps":            "cd0ab0d3826e36e7a14380d4d65fbe648d0ff2654301b6694baecb1cd65eb7a3",
}

func TestMarkupUnchanged(t *testing.T) {
	markup := map[string]string{"summary": summaryCharts(manySpans(300))}
	for name, c := range goldenIncidents(t) {
		markup[name] = IncidentResponsive(c)
		parse(t, "<div>"+markup[name]+"</div>")
	}
	var sums []string
	for name, out := range markup {
		sum := sha256.Sum256([]byte(out))
		got := hex.EncodeToString(sum[:])
		if got != goldenSums[name] {
			t.Errorf("%s: the markup (%d bytes) has SHA-256 %s, want %s", name, len(out), got, goldenSums[name])
		}
		sums = append(sums, fmt.Sprintf("%q: %q,", name, got))
	}
	if t.Failed() {
		t.Logf("the sums now:\n%s", strings.Join(sums, "\n"))
	}
}

// typicalIncident is drawn as a generated archive's incident page draws
// its chart: nine events over a window of a few hours, in a zone with
// daylight saving time.
func typicalIncident(t testing.TB) IncidentTimeline {
	la := mustLoc(t, "America/Los_Angeles")
	b := time.Date(2017, 3, 13, 10, 22, 0, 0, la)
	var at []time.Time
	for _, m := range []int{0, 6, 19, 33, 58, 95, 140, 172, 190} {
		at = append(at, b.Add(time.Duration(m)*time.Minute))
	}
	return pageIncident("incident-chart", la, b, b.Add(172*time.Minute), false, at,
		"Error rate jumps", "Engineers paged", "Mitigation rolled out to the first region", "Resolved")
}

// An incident page's chart is drawn for every incident in every language:
// what it allocates is a cost of every build. Counted, not timed. On main
// before the markup was written piece by piece into one writer and tick
// labels were made only for steps giving 4–8 ticks, this chart took 940
// allocations (67,848 bytes); now 96, of which 56 are the strings the
// caller's tick-label functions make.
func TestIncidentChartAllocations(t *testing.T) {
	c := typicalIncident(t)
	if n := testing.AllocsPerRun(20, func() { _ = IncidentResponsive(c) }); n > 110 {
		t.Errorf("IncidentResponsive: %v allocations, want at most 110", n)
	}
}

func BenchmarkIncidentResponsive(b *testing.B) {
	c := typicalIncident(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = IncidentResponsive(c)
	}
}
