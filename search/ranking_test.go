package search

import (
	"fmt"
	"strings"
	"testing"
)

// longReport is the body of a full postmortem: impact and root cause
// among several hundred words of detection, remediation and follow-up.
func longReport(impact, cause string) string {
	var b strings.Builder
	b.WriteString("Impact\n" + impact + "\nRoot cause\n" + cause + "\nDetection\n")
	for i := range 12 {
		fmt.Fprintf(&b, "Monitoring in zone %d showed elevated error ratios on the order processing tier; "+
			"on-call engineers followed the runbook, drained traffic from the affected hosts and compared "+
			"the configuration of the fleet against the last known good release before escalating. ", i)
	}
	b.WriteString("\nRemediation\nWe added alerts, extended the canary period and reviewed the runbooks with every team involved.")
	return b.String()
}

// rankingDocs: one incident about a missing database index, told in its
// root cause; another that mentions an index once, in
// passing, in one item of its timeline.
func rankingDocs() []Document {
	about := doc("2023-05-02-orders-missing-index", "en", "en",
		"Order lookups timed out for two hours",
		"Order history pages timed out for two hours after a schema migration.",
		longReport("Customers could not load their order history for two hours; checkout was not affected.",
			"A schema migration recreated the orders table without its index on customer id, so every lookup scanned the whole table."),
		"2023-05-02", []string{"Orders"}, nil, nil)
	about.Timeline = strings.Join([]string{"09:00 Migration starts.", "09:20 Lookup latency alert fires.", "10:10 Migration identified as the trigger.", "11:05 Recreated the missing structure; lookups recover."}, "\n")
	passing := doc("2023-07-19-cdn-purge-delay", "en", "en",
		"Stale pages served after a CDN purge was delayed",
		"Purges to the CDN were delayed for an hour, so edits to product pages did not appear.",
		longReport("Edits to product pages took up to an hour to appear for visitors.",
			"The purge queue consumer crashed on a malformed request and was not restarted."),
		"2023-07-19", []string{"CDN"}, nil, nil)
	passing.Timeline = strings.Join([]string{"14:00 Purge latency rises.", "14:12 Engineers rule out the search index.", "14:30 Consumer restarted.", "15:00 Queue drained."}, "\n")
	return []Document{about, passing}
}

// A match in the root cause outranks a passing mention in
// one timeline item.
func TestPassingMentionRanksLower(t *testing.T) {
	t.Parallel()
	docs := rankingDocs()
	for name, ix := range map[string]*Index{"disk": mustOpen(t, buildDir(t, docs)), "memory": memoryOf(t, docs)} {
		for _, q := range []string{"index", "indexes", "indexed"} {
			resp := search(t, ix, Request{Query: q})
			if got := ids(resp); len(got) != 2 || got[0] != docs[0].ID {
				t.Errorf("%s: %q ranks %v (scores %v), want %s first", name, q, got, scores(resp), docs[0].ID)
			}
		}
	}
}

func scores(resp *Response) []float64 {
	var out []float64
	for _, r := range resp.Results {
		out = append(out, r.Score)
	}
	return out
}
