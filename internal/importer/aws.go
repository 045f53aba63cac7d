package importer

import (
	"regexp"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
)

// AWSHealth reads an RSS feed of the AWS Health Dashboard: one feed per
// service and Region, one item per update, newest first. An item's title
// is a status, then the incident's title ("Service degradation: Increased
// API error rates"), its guid ends #<service>-<region>_<epoch>, its
// pubDate is local to the Pacific (PST or PDT).
var AWSHealth = Format{
	Name:     "aws-health",
	Where:    "https://status.aws.amazon.com/rss/<service>-<region>.rss",
	readFeed: readAWSHealth,
}

// awsStatuses are the statuses an AWS title opens with, as gen writes
// them; "operating normally" ends an incident.
var awsStatuses = map[string]string{
	"informational message":         "Informational message",
	"performance issues":            "Performance issues",
	"service degradation":           "Service degradation",
	"service disruption":            "Service disruption",
	"service is operating normally": "Resolved",
}

// awsRegion finds the Region in a guid (…#ec2-us-east-1_1710064212) or a
// feed's address (…/rss/ec2-us-east-1.rss).
var awsRegion = regexp.MustCompile(`(?:^|[-#/_])([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d{1,2})(?:_\d+|\.rss)$`)

// awsUpdate is one item of the feed.
type awsUpdate struct {
	Update
	key, title, guid, link string
	item                   *node
	ends                   bool // operating normally, or [RESOLVED]
}

func readAWSHealth(src *source, f *feed, errs *diag.List) []Incident {
	if looksAzure(f) && !looksAWS(f) {
		src.fail(errs, &node{offset: f.root.offset}, "an aws-health feed is the RSS of the AWS Health Dashboard, but this is Azure's status history; gen import azure-status %s", src.file)
		return nil
	}
	product, region := awsChannel(f)
	var updates []awsUpdate
	bad := map[string]*node{}                // the incidents with an update gen cannot read, by key
	for i := len(f.items) - 1; i >= 0; i-- { // oldest first
		var own diag.List
		u := readAWSItem(src, f.items[i], &own)
		if own.Len() > 0 {
			errs.AddError(own.Err())
			if u.key != "" {
				bad[u.key] = f.items[i].node
			}
			continue
		}
		updates = append(updates, u)
	}
	slices.SortStableFunc(updates, func(a, b awsUpdate) int { return a.At.Compare(b.At) })

	var incs []Incident
	open := map[string]int{} // an incident not yet ended, by key
	for _, u := range updates {
		i, ok := open[u.key]
		if !ok {
			i = len(incs)
			incs = append(incs, Incident{
				Path: u.item.path, node: placed{src, u.item}, ImportID: u.guid, Begin: u.At, Organization: "AWS", Source: "AWS Health Dashboard",
				Products: addUnique(nil, product), Regions: addUnique(nil, region), URL: cmpWeb(u.link, f.Link),
			})
			open[u.key] = i
		}
		inc := &incs[i]
		inc.Title = u.title
		inc.Updates = append(inc.Updates, u.Update)
		if u.ends {
			inc.End = u.At
			delete(open, u.key)
		}
	}
	var out []Incident
	for _, inc := range incs {
		if n := bad[strings.ToLower(inc.Title)]; n != nil {
			src.fail(errs, n, "the incident %q is not imported, since this update of it cannot be read", inc.Title)
			continue
		}
		out = append(out, inc)
	}
	return out
}

// readAWSItem reads one update; problems are placed in errs.
func readAWSItem(src *source, it feedItem, errs *diag.List) awsUpdate {
	u := awsUpdate{item: it.node}
	title := oneLine(it.Title)
	if i := strings.Index(title, ": "); i > 0 {
		if w, ok := awsStatuses[strings.ToLower(title[:i])]; ok {
			u.Status, title = w, strings.TrimSpace(title[i+2:])
			u.ends = w == "Resolved"
		}
	}
	if len(title) >= 10 && strings.EqualFold(title[:10], "[RESOLVED]") {
		title, u.ends = strings.TrimSpace(title[10:]), true
		u.Status = "Resolved"
	}
	u.title, u.key = title, strings.ToLower(title)
	if title == "" {
		src.fail(errs, it.at("title"), "missing; an update's title says which incident it is of")
	}
	if it.GUID != nil {
		u.guid = strings.TrimSpace(it.GUID.Value)
		// The part after # is the update's own (ec2-us-east-1_1710062400);
		// before it is the same address for every update of every feed.
		if i := strings.LastIndex(u.guid, "#"); i >= 0 && i < len(u.guid)-1 {
			u.guid = u.guid[i+1:]
		}
	}
	if u.guid == "" {
		src.fail(errs, it.at("guid"), "missing; the first update's guid is what finds its incident again on the next import")
	}
	u.link = strings.TrimSpace(it.Link)
	if strings.TrimSpace(it.PubDate) == "" {
		src.fail(errs, it.at("pubDate"), "missing; it is when the update was posted")
	} else if at, err := parseFeedTime(it.PubDate); err != nil {
		src.fail(errs, it.at("pubDate"), "%v", err)
	} else {
		u.At = at
	}
	u.Text, u.textAt = cleanText(it.Description), it.at("description")
	if isHTML(u.Text) {
		u.Text = htmlToMarkdown(u.Text)
		src.warn(it.at("description"), "HTML converted to Markdown")
	}
	return u
}

// awsChannel is the product and Region a feed is about: the channel's
// title less its place and " Service Status" ("Amazon Elastic Compute
// Cloud (N. Virginia) Service Status"), and the Region of its first guid
// or of its own address.
func awsChannel(f *feed) (product, region string) {
	product = strings.TrimSuffix(oneLine(f.Title), " Service Status")
	if i := strings.LastIndex(product, " ("); i > 0 && strings.HasSuffix(product, ")") {
		product = product[:i]
	}
	var places []string
	for _, it := range f.items {
		if it.GUID != nil {
			places = append(places, strings.TrimSpace(it.GUID.Value))
		}
	}
	places = append(places, feedSelf(f), f.Link)
	for _, p := range places {
		if m := awsRegion.FindStringSubmatch(p); m != nil {
			return product, m[1]
		}
	}
	return product, ""
}

// feedSelf is the address a feed gives for itself (atom:link rel="self").
func feedSelf(f *feed) string {
	for _, l := range f.Extensions["atom"]["link"] {
		if l.Attrs["rel"] == "self" {
			return l.Attrs["href"]
		}
	}
	return ""
}

func looksAWS(f *feed) bool {
	return strings.Contains(f.Generator, "AWS") || strings.Contains(f.Link, "aws.amazon.com") || strings.Contains(feedSelf(f), "aws.amazon.com")
}

func looksAzure(f *feed) bool {
	if strings.Contains(f.Link, "azure") || strings.Contains(feedSelf(f), "azure") {
		return true
	}
	for _, it := range f.items {
		if strings.Contains(it.Title, "Post Incident Review") {
			return true
		}
	}
	return false
}

// cmpWeb is the first of its arguments that is a web address.
func cmpWeb(urls ...string) string {
	for _, u := range urls {
		if u = strings.TrimSpace(u); isWebURL(u) {
			return u
		}
	}
	return ""
}
