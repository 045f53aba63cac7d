package importer

import (
	"slices"
	"strings"
	"testing"
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
