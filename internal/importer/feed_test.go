package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// TestParseFeedTime: zone abbreviations and offsets are read exactly, on
// either side of a change of the clocks; impossible times are refused.
func TestParseFeedTime(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Sun, 10 Mar 2024 01:59:59 PST", "2024-03-10T09:59:59Z"},
		{"Sun, 10 Mar 2024 03:00:00 PDT", "2024-03-10T10:00:00Z"},
		{"Sun, 03 Nov 2024 01:30:00 PDT", "2024-11-03T08:30:00Z"}, // the first 01:30
		{"Sun, 03 Nov 2024 01:30:00 PST", "2024-11-03T09:30:00Z"}, // the second
		{"Mon, 11 Mar 2024 10:00:00 EDT", "2024-03-11T14:00:00Z"},
		{"Mon, 11 Mar 2024 10:00 -0800", "2024-03-11T18:00:00Z"},
		{"11 Mar 2024 10:00:00 +05:30", "2024-03-11T04:30:00Z"},
		{"Mon, 11 Mar 2024 10:00:00 GMT", "2024-03-11T10:00:00Z"},
		{"Thu, 14 Nov 2024 02:05:00 Z", "2024-11-14T02:05:00Z"},
		{"2024-03-11T10:00:00-07:00", "2024-03-11T17:00:00Z"},
	} {
		got, err := parseFeedTime(c.in)
		if err != nil || !got.Equal(utc(c.want)) {
			t.Errorf("%s: %v %v, want %s", c.in, got.UTC(), err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"Fri, 30 Feb 2024 10:00:00 PST", "not a real time"},
		{"Sun, 10 Mar 2024 24:10:00 PST", "not a real time"},
		{"Mon, 10 Mar 2024 10:00:00 PST", "is a Sunday, not a Mon"},
		{"Sun, 10 Mar 2024 10:00:00 XST", `gen does not know the time zone "XST"`},
		{"yesterday", "is not a date"},
		{"Sun, 10 Mar 2024 10:00:00 +2500", "not a time zone offset"},
	} {
		if _, err := parseFeedTime(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.in, err, c.want)
		}
	}
}

// TestReadAWSHealth: updates are grouped into incidents by title, each
// from its first update to the one that says it is resolved.
func TestReadAWSHealth(t *testing.T) {
	incs, errs := read(t, AWSHealth, "aws-ec2-us-east-1.rss")
	if len(errs) > 0 || len(incs) != 3 {
		t.Fatalf("got %d incidents, errors %v", len(incs), errs)
	}
	launch, ami, checks := incs[0], incs[1], incs[2]
	if launch.Title != "Increased launch failures" || launch.ImportID != "ec2-us-east-1_1710062400" ||
		!launch.Begin.Equal(utc("2024-03-10T09:20:00Z")) || !launch.End.Equal(utc("2024-03-10T10:40:05Z")) ||
		launch.Organization != "AWS" || !slices.Equal(launch.Products, []string{"Amazon Elastic Compute Cloud"}) ||
		!slices.Equal(launch.Regions, []string{"us-east-1"}) || launch.URL != "https://status.aws.amazon.com/" || launch.Path != "item[5]" {
		t.Errorf("incident across the spring-forward night: %+v", launch)
	}
	var got []string
	for _, u := range launch.Updates {
		got = append(got, u.At.UTC().Format("15:04:05 ")+u.Status)
	}
	if want := []string{"09:20:00 Informational message", "09:52:30 Informational message", "10:05:00 Service degradation", "10:40:05 Resolved"}; !slices.Equal(got, want) {
		t.Errorf("updates %q, want %q", got, want)
	}
	if ami.Title != "Slow AMI registration" || !ami.Begin.Equal(ami.End) || len(ami.Updates) != 1 {
		t.Errorf("an incident told in one [RESOLVED] update: %+v", ami)
	}
	if !checks.Ongoing() || checks.Title != "Delayed instance status checks" {
		t.Errorf("an incident without an end: %+v", checks)
	}
}

// TestReadAzureStatus: one incident per tracking id, from its latest
// review; its begin and end from "What happened?", its timeline from "How
// did we respond?" (undated steps on the date before them), its sections
// mapped to gen's.
func TestReadAzureStatus(t *testing.T) {
	incs, errs := read(t, AzureStatus, "azure-status.rss")
	if len(errs) > 0 || len(incs) != 2 {
		t.Fatalf("got %d incidents, errors %v", len(incs), errs)
	}
	queue, dns := incs[0], incs[1]
	if queue.ImportID != "QK7T-9D0" || queue.Title != "Azure Example Queue – Send failures in West Europe" ||
		!queue.Begin.Equal(utc("2024-11-13T21:42:00Z")) || !queue.End.Equal(utc("2024-11-14T02:05:00Z")) ||
		queue.Organization != "Microsoft Azure" || !slices.Equal(queue.Products, []string{"Azure Example Queue"}) ||
		queue.URL != "https://azure.status.microsoft/en-us/status/history/?trackingId=QK7T-9D0" {
		t.Errorf("the final review: %+v", queue)
	}
	var steps []string
	for _, u := range queue.Updates {
		steps = append(steps, u.At.UTC().Format("2006-01-02 15:04 ")+u.Text)
	}
	if want := []string{
		"2024-11-13 21:42 Customer impact began.",
		"2024-11-13 21:55 Monitoring alerted us to failed sends, and we began investigating.",
		"2024-11-13 22:40 We correlated the failures with the configuration change.",
		"2024-11-13 23:58 We began rolling back the change, one broker group at a time.",
		"2024-11-14 00:45 Half of the broker groups had been rolled back.",
		"2024-11-14 02:05 All broker groups rolled back; customer impact mitigated.",
	}; !slices.Equal(steps, want) {
		t.Errorf("timeline\n got %q\nwant %q", steps, want)
	}
	var ids []string
	for _, s := range queue.Sections {
		ids = append(ids, s.ID)
		if strings.Contains(s.Text, "evil.example") || strings.Contains(s.Text, "alert(1)") || strings.Contains(s.Text, "javascript:") {
			t.Errorf("section %s keeps a script: %q", s.ID, s.Text)
		}
	}
	if want := []string{"impact", "root-cause", "remediation", "pir-how-can-customers-make-incidents-like", "pir-how-can-we-make-our-incident"}; !slices.Equal(ids, want) {
		t.Errorf("sections %q, want %q", ids, want)
	}
	if dns.ImportID != "8MPL-2XZ" || !slices.Equal(dns.Products, []string{"Azure DNS"}) || !dns.Begin.Equal(utc("2024-09-02T08:10:00Z")) ||
		!dns.End.Equal(utc("2024-09-02T09:20:00Z")) || len(dns.Updates) != 3 {
		t.Errorf("a review that gives only its beginning ends at its last step: %+v", dns)
	}
}

// TestFeedBadInput: a bad item is an error at its line and column; the
// incident it belongs to is left out and the others are kept.
func TestFeedBadInput(t *testing.T) {
	incs, errs := read(t, AWSHealth, "aws-bad.rss")
	if len(incs) != 1 || incs[0].Title != "Purge requests failing" {
		t.Errorf("kept %+v, want only the incident whose items are good", incs)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		`testdata/aws-bad.rss:7:5: item[0]: the incident "Elevated receive latency" is not imported, since this update of it cannot be read`,
		`testdata/aws-bad.rss:9:7: item[0].pubDate: "Fri, 30 Feb 2024 11:10:00 PST" is not a real time`,
		`testdata/aws-bad.rss:19:5: item[2].pubDate: missing; it is when the update was posted`,
	}
	if len(msgs) != len(want) {
		t.Fatalf("errors:\n%s", strings.Join(msgs, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(msgs[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s…", i, msgs[i], want[i])
		}
	}
}

// TestWrongFeed: what is not a feed of the format is an error at its
// place, and reading stops there.
func TestWrongFeed(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		format Format
		file   string
		want   string
	}{
		{AWSHealth, "testdata/statuspage.json", "statuspage.json:1:1: not XML: the file begins with text, not an element; gen import aws-health reads the RSS from https://status.aws.amazon.com/rss/<service>-<region>.rss; it looks like a JSON export"},
		{AWSHealth, file("page.html", "<!doctype html>\n<html><body><p>Status</p></body></html>\n"), "page.html:2:1: gen import aws-health reads RSS, whose root element is <rss>, but this is <html>"},
		{AzureStatus, file("atom.xml", "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>x</title></feed>"), "atom.xml:2:1: gen import azure-status reads RSS, whose root element is <rss>, but this is <feed> (an Atom feed)"},
		{AzureStatus, file("cut.rss", "<rss version=\"2.0\">\n  <channel>\n    <item><title>Post Incident Review (PIR) – X"), "cut.rss:3:48: not XML: unexpected EOF; was the download cut short?"},
		{AzureStatus, file("bad.rss", "<rss version=\"2.0\">\n  <channel>\n    <item></channel>"), "bad.rss:3:11: not XML: element <item> closed by </channel>"},
		{AzureStatus, "testdata/aws-ec2-us-east-1.rss", "aws-ec2-us-east-1.rss:2:1: an azure-status feed is Azure's status history, but this is an AWS Health Dashboard feed; gen import aws-health"},
		{AWSHealth, "testdata/azure-status.rss", "azure-status.rss:2:1: an aws-health feed is the RSS of the AWS Health Dashboard, but this is Azure's status history; gen import azure-status"},
		{AWSHealth, filepath.Join(dir, "absent.rss"), "absent.rss: cannot read the feed"},
	} {
		incs, err := c.format.ReadFile(c.file, nil)
		if len(incs) != 0 || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %d incidents, error %v; want %q", c.format.Name, c.file, len(incs), err, c.want)
		}
	}
}

// TestFeedTooLarge: of a 50 MB feed, the items within MaxFeedSize are
// imported, and the first item past it is an error at its place.
func TestFeedTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("<rss version=\"2.0\">\n<channel>\n<title>Amazon Example Service (Oregon) Service Status</title>\n")
	filler := strings.Repeat("The queue drained slowly. ", 40000) // about 1 MB
	items := 0
	for b.Len() < 50<<20 {
		at := utc("2024-01-01T00:00:00Z").Add(-time.Duration(items) * time.Hour)
		fmt.Fprintf(&b, "<item>\n<title>Informational message: [RESOLVED] Slow drain %d</title>\n<pubDate>%s</pubDate>\n<guid>https://status.aws.amazon.com/#example-us-west-2_%d</guid>\n<description>%s</description>\n</item>\n",
			items, at.Format(time.RFC1123Z), at.Unix(), filler)
		items++
	}
	b.WriteString("</channel>\n</rss>\n")
	file := filepath.Join(t.TempDir(), "large.rss")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	incs, err := AWSHealth.ReadFile(file, nil)
	perItem := len(filler) + 200
	if len(incs) < MaxFeedSize/perItem-1 || len(incs) > MaxFeedSize/perItem+1 {
		t.Errorf("%d incidents of %d items read; the first %d MiB hold about %d", len(incs), items, MaxFeedSize>>20, MaxFeedSize/perItem)
	}
	line := 4 + 6*len(incs)
	want := fmt.Sprintf("large.rss:%d:1: the feed goes on past 16 MiB, where gen stops reading", line)
	if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("error %v; want one, %q", err, want)
	}
}

// fuzzFeed: whatever the bytes, reading them as a feed of format never
// panics, every error and warning is placed, and every incident is
// written as a page gen reads without error.
func fuzzFeed(f *testing.F, format Format, seeds ...string) {
	for _, name := range seeds {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	english := lang(f, "en")
	f.Fuzz(func(t *testing.T, data []byte) {
		var errs, warns diag.List
		for _, inc := range format.Read("feed.rss", data, &errs, &warns) {
			var rerrs diag.List
			if file, ok := Render(inc, Options{Location: time.UTC, Lang: english}, &rerrs); ok {
				parse(t, file)
			}
		}
		for _, e := range append(errs.Errors(), warns.Errors()...) {
			if e.File != "feed.rss" || e.Line < 1 || e.Col < 1 {
				t.Errorf("not placed: %v", e)
			}
		}
	})
}

func FuzzReadAWSHealth(f *testing.F) {
	fuzzFeed(f, AWSHealth, "aws-ec2-us-east-1.rss", "aws-bad.rss")
}

func FuzzReadAzureStatus(f *testing.F) {
	fuzzFeed(f, AzureStatus, "azure-status.rss")
}

// generatedFeed is a feed of n items: AWS updates, three to an incident,
// or Azure reviews of six timeline steps each.
func generatedFeed(format Format, n int) []byte {
	var b strings.Builder
	start := utc("2020-01-01T00:00:00Z")
	if format.Name == "aws-health" {
		b.WriteString("<rss version=\"2.0\"><channel><title>Amazon Example Service (Oregon) Service Status</title><link>https://status.aws.amazon.com/</link>\n")
		pst := time.FixedZone("PST", -8*3600)
		for i := n - 1; i >= 0; i-- { // newest first
			at := start.Add(time.Duration(i/3)*24*time.Hour + time.Duration(i%3)*40*time.Minute).In(pst)
			status := []string{"Informational message: ", "Service degradation: ", "Service is operating normally: [RESOLVED] "}[i%3]
			fmt.Fprintf(&b, "<item><title><![CDATA[%sElevated error rates %d]]></title><pubDate>%s</pubDate><guid isPermaLink=\"false\">https://status.aws.amazon.com/#example-us-west-2_%d</guid><description><![CDATA[Requests to the example API in the US-WEST-2 Region fail at an elevated rate; update %d. We are working on it and will post again within the hour.]]></description></item>\n",
				status, i/3, at.Format("Mon, 02 Jan 2006 15:04:05 MST"), at.Unix(), i)
		}
	} else {
		b.WriteString("<rss version=\"2.0\"><channel><title>Azure Status History</title><link>https://azure.status.microsoft/en-us/status/history/</link>\n")
		for i := n - 1; i >= 0; i-- {
			day := start.Add(time.Duration(i) * 24 * time.Hour)
			desc := fmt.Sprintf("<p><strong>What happened?</strong></p><p>Between 21:10 UTC on %s and 01:40 UTC on %s, requests to Example Service %d failed.</p><p><strong>What went wrong and why?</strong></p><p>A <em>configuration</em> change.</p><p><strong>How did we respond?</strong></p><ul>",
				day.Format("2 January 2006"), day.Add(24*time.Hour).Format("2 January 2006"), i)
			for s, clock := range []string{"21:10", "21:30", "22:15", "23:40", "00:20", "01:40"} {
				desc += fmt.Sprintf("<li>%s UTC – Step %d of the response.</li>", clock, s)
			}
			desc += "</ul><p><strong>How are we making incidents like this less likely or less impactful?</strong></p><ul><li>Checks.</li></ul>"
			fmt.Fprintf(&b, "<item><title>Post Incident Review (PIR) – Example Service – Failures %d</title><link>https://azure.status.microsoft/en-us/status/history/?trackingId=T%03d-X%d</link><pubDate>%s</pubDate><description>%s</description></item>\n",
				i, i%1000, i/1000, day.Add(72*time.Hour).Format(time.RFC1123Z), strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(desc))
		}
	}
	b.WriteString("</channel></rss>\n")
	return []byte(b.String())
}

// BenchmarkImportFeed reads a generated feed of 3,000 items and renders
// every incident, as gen import does before it writes.
func BenchmarkImportFeed(b *testing.B) {
	english := lang(b, "en")
	for _, format := range []Format{AWSHealth, AzureStatus} {
		data := generatedFeed(format, 3000)
		b.Run(format.Name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var errs diag.List
				incs := format.Read("feed.rss", data, &errs, nil)
				if errs.Len() > 0 {
					b.Fatal(errs.Err())
				}
				for _, inc := range incs {
					if _, ok := Render(inc, Options{Location: time.UTC, Lang: english}, &errs); !ok {
						b.Fatal(errs.Err())
					}
				}
			}
			b.ReportMetric(float64(len(data)), "feed-bytes")
		})
	}
}

// TestGeneratedFeed: the benchmark's feeds read as the incidents they
// were made of.
func TestGeneratedFeed(t *testing.T) {
	for _, c := range []struct {
		format           Format
		incidents, steps int
	}{{AWSHealth, 100, 3}, {AzureStatus, 300, 6}} {
		var errs diag.List
		incs := c.format.Read("feed.rss", generatedFeed(c.format, 300), &errs, nil)
		if errs.Len() > 0 || len(incs) != c.incidents {
			t.Errorf("%s: %d incidents, %v", c.format.Name, len(incs), errs.Err())
		}
		for _, inc := range incs {
			if inc.Ongoing() || len(inc.Updates) != c.steps {
				t.Fatalf("%s: %+v", c.format.Name, inc)
			}
		}
	}
}

// TestAWSHTMLDescription: an update written in HTML is converted, with a
// warning at its description.
func TestAWSHTMLDescription(t *testing.T) {
	feed := `<rss version="2.0"><channel><title>Amazon Example (Oregon) Service Status</title>
<item><title>Informational message: Slow reads</title><pubDate>Mon, 11 Mar 2024 10:00:00 PDT</pubDate><guid>https://status.aws.amazon.com/#example-us-west-2_1710176400</guid>
  <description><![CDATA[<p>Reads are <b>slow</b>.</p><script>alert(1)</script>]]></description></item></channel></rss>`
	var errs, warns diag.List
	incs := AWSHealth.Read("f.rss", []byte(feed), &errs, &warns)
	if errs.Len() > 0 || len(incs) != 1 || incs[0].Updates[0].Text != "Reads are **slow**." {
		t.Fatalf("%v %+v", errs.Err(), incs)
	}
	if w := warns.Error(); w != "f.rss:3:3: item[0].description: HTML converted to Markdown" {
		t.Errorf("warnings %q", w)
	}
}

// TestFeedTooLargeAndBroken: a feed past the bound that breaks before it
// is reported where it breaks, not as too large.
func TestFeedTooLargeAndBroken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "broken.rss")
	data := "<rss version=\"2.0\">\n<channel>\n<item></channel>\n" + strings.Repeat(" ", MaxFeedSize)
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := AWSHealth.ReadFile(file, nil)
	if err == nil || !strings.Contains(err.Error(), "broken.rss:3:7: not XML: element <item> closed by </channel>") || strings.Contains(err.Error(), "16 MiB") {
		t.Errorf("got %v", err)
	}
}
