package importer

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/timefmt"
)

// AzureStatus reads the RSS feed of Azure's status history: one item per
// Post Incident Review (PIR), the whole review as HTML in its
// description, under headings such as "What happened?", "What went wrong
// and why?" and "How did we respond?" (the timeline, one list item per
// step: "21:42 UTC on 13 November 2024 – Customer impact began.").
var AzureStatus = Format{
	Name:     "azure-status",
	Where:    "https://azure.status.microsoft/en-us/status/history/feed/",
	readFeed: readAzureStatus,
}

const azureHistory = "https://azure.status.microsoft/en-us/status/history/"

// azureSections map a PIR's headings, by how they begin, to the sections
// of a gen incident; a heading not here is kept as it is.
var azureSections = []struct{ prefix, key, id string }{
	{"what happened", "section_impact", "impact"},
	{"what do we know so far", "section_impact", "impact"},
	{"what went wrong and why", "section_root_cause", "root-cause"},
	{"how are we making incidents like this less likely", "section_remediation", "remediation"},
	{"how did we respond", "", "timeline"},
}

var (
	// A step of the timeline: "21:42 UTC on 13 November 2024 – text",
	// the date left out when it is the previous step's.
	azureStep = regexp.MustCompile(`^(\d{1,2}):(\d{2})\s*UTC(?:\s+on\s+(\d{1,2}\s+[A-Za-z]+,?\s+\d{4}))?\s*(?:[–—:-]\s*)?`)
	// "Between 21:42 UTC on 13 November 2024 and 02:05 UTC on 14
	// November 2024", "Between 09:50 and 17:10 UTC on 30 July 2024".
	azureBetween = regexp.MustCompile(`(?i)\bbetween\s+(\d{1,2}:\d{2})(?:\s*UTC)?(?:\s+on\s+(\d{1,2}\s+[A-Za-z]+,?\s+\d{4}))?,?\s+and\s+(\d{1,2}:\d{2})(?:\s*UTC)?(?:\s+on\s+(\d{1,2}\s+[A-Za-z]+,?\s+\d{4}))?`)
	// "Beginning at 21:42 UTC on 13 November 2024".
	azureBeginning = regexp.MustCompile(`(?i)\b(?:beginning|starting)\s+(?:at\s+)?(\d{1,2}:\d{2})\s*UTC\s+on\s+(\d{1,2}\s+[A-Za-z]+,?\s+\d{4})`)
	azureTitle     = regexp.MustCompile(`(?i)^(preliminary\s+|final\s+)?post[\s-]+incident\s+review\s*(?:\(PIR\))?\s*(?:[–—:-]\s*)?`)
	azureDash      = regexp.MustCompile(`\s+[–—-]\s+`)
	azureTracking  = regexp.MustCompile(`(?i)tracking\s*id:?\s*([A-Z0-9]{3,5}-[A-Z0-9]{2,4})`)
)

func readAzureStatus(src *source, f *feed, errs *diag.List) []Incident {
	if looksAWS(f) && !looksAzure(f) {
		src.fail(errs, &node{offset: f.root.offset}, "an azure-status feed is Azure's status history, but this is an AWS Health Dashboard feed; gen import aws-health %s", src.file)
		return nil
	}
	var out []Incident
	published := map[string]time.Time{} // the latest review of each tracking id
	index := map[string]int{}
	for _, it := range f.items {
		var own diag.List
		inc, pub := readAzureItem(src, it, &own)
		if own.Len() > 0 {
			errs.AddError(own.Err())
			continue
		}
		// The final review and the preliminary one of an incident are
		// one incident; the later says more.
		if i, ok := index[inc.ImportID]; ok {
			if pub.After(published[inc.ImportID]) {
				out[i], published[inc.ImportID] = inc, pub
			}
			continue
		}
		index[inc.ImportID], published[inc.ImportID] = len(out), pub
		out = append(out, inc)
	}
	return out
}

// readAzureItem reads one review and when it was published.
func readAzureItem(src *source, it feedItem, errs *diag.List) (Incident, time.Time) {
	inc := Incident{Path: it.node.path, node: placed{src, it.node}, Organization: "Microsoft Azure", Source: "Azure status history"}
	var pub time.Time
	if strings.TrimSpace(it.PubDate) == "" {
		src.fail(errs, it.at("pubDate"), "missing; it is when the review was published")
	} else if t, err := parseFeedTime(it.PubDate); err != nil {
		src.fail(errs, it.at("pubDate"), "%v", err)
	} else {
		pub = t
	}
	title := oneLine(it.Title)
	rest := azureTitle.ReplaceAllString(title, "")
	parts := azureDash.Split(rest, 2)
	inc.Title = rest
	for _, c := range it.Categories {
		inc.Products = addUnique(inc.Products, c.Value)
	}
	if len(inc.Products) == 0 && len(parts) == 2 {
		inc.Products = addUnique(inc.Products, parts[0])
	}
	if inc.Title == "" {
		src.fail(errs, it.at("title"), "missing; it is the incident's title")
	}
	inc.ImportID = azureTrackingID(it)
	if inc.ImportID == "" {
		src.fail(errs, it.at("guid"), "no tracking id in the item's guid, link or text; it is what finds the incident again on the next import")
	}
	inc.URL = cmpWeb(it.Link)
	if inc.URL == "" && inc.ImportID != "" {
		inc.URL = azureHistory + "?trackingId=" + url.QueryEscape(inc.ImportID)
	}
	readAzureReview(src, it, &inc, errs)
	return inc, pub
}

// azureTrackingID finds the review's tracking id: the trackingId of its
// guid's or link's address, else "Tracking ID: XXXX-XXX" in its text, else
// its guid.
func azureTrackingID(it feedItem) string {
	guid := ""
	if it.GUID != nil {
		guid = strings.TrimSpace(it.GUID.Value)
	}
	for _, a := range []string{guid, it.Link} {
		if u, err := url.Parse(strings.TrimSpace(a)); err == nil {
			q := u.Query()
			for _, k := range slices.Sorted(maps.Keys(q)) {
				if strings.EqualFold(k, "trackingid") && strings.TrimSpace(q[k][0]) != "" {
					return strings.TrimSpace(q[k][0])
				}
			}
		}
	}
	if m := azureTracking.FindStringSubmatch(it.Title + " " + it.Description); m != nil {
		return m[1]
	}
	return guid
}

// readAzureReview splits the review at its headings into sections, reads
// its timeline and its begin and end.
func readAzureReview(src *source, it feedItem, inc *Incident, errs *diag.List) {
	body := parseHTML(it.Description)
	var steps []*html.Node // the timeline's list items
	for _, part := range splitAtHeadings(body) {
		key, id := "", "pir-"+headingID(part.title)
		if part.title == "" {
			key, id = "section_postmortem", "postmortem" // a review without headings
		}
		for _, s := range azureSections {
			if strings.HasPrefix(strings.ToLower(part.title), s.prefix) {
				key, id = s.key, s.id
				break
			}
		}
		if id == "timeline" {
			var rest []*html.Node
			for _, n := range part.nodes {
				if items := listItems(n); len(items) > 0 {
					steps = append(steps, items...)
				} else {
					rest = append(rest, n)
				}
			}
			part.nodes, key, id = rest, "", "pir-"+headingID(part.title)
		}
		text := strings.TrimSpace(toMarkdown(wrap(part.nodes)))
		if text == "" {
			continue
		}
		if slices.ContainsFunc(inc.Sections, func(s Section) bool { return s.ID == id }) {
			id = fmt.Sprintf("%s-%d", id, len(inc.Sections)+1)
		}
		inc.Sections = append(inc.Sections, Section{Key: key, Title: part.title, ID: id, Text: text})
	}
	begin, end, ok := azureWindow(inc.Sections)
	if !ok {
		src.fail(errs, it.at("description"), "the \"What happened?\" section gives a time that is not a real one")
	}
	date := begin
	for i, li := range steps {
		text := strings.TrimSpace(plainText(li))
		m := azureStep.FindStringSubmatchIndex(text)
		if m == nil {
			src.fail(errs, it.at("description"), "\"How did we respond?\" item %d (%q) does not begin with a time like 21:42 UTC on 13 November 2024; each item is a step of the timeline", i+1, shorten(text))
			continue
		}
		hh, _ := strconv.Atoi(text[m[2]:m[3]])
		mm, _ := strconv.Atoi(text[m[4]:m[5]])
		if m[6] >= 0 {
			d, ok := azureDate(text[m[6]:m[7]])
			if !ok {
				src.fail(errs, it.at("description"), "\"How did we respond?\" item %d: %q is not a date; the review writes dates like 13 November 2024", i+1, text[m[6]:m[7]])
				continue
			}
			date = d
		}
		if date.IsZero() {
			src.fail(errs, it.at("description"), "\"How did we respond?\" item %d has no date, and no item or sentence before it gives one", i+1)
			continue
		}
		if hh > 23 || mm > 59 {
			src.fail(errs, it.at("description"), "\"How did we respond?\" item %d: %02d:%02d is not a time of day", i+1, hh, mm)
			continue
		}
		at := time.Date(date.Year(), date.Month(), date.Day(), hh, mm, 0, 0, time.UTC)
		if n := len(inc.Updates); m[6] < 0 && n > 0 && at.Before(inc.Updates[n-1].At) {
			// Steps are listed in order: an undated step earlier in the
			// day than the one before it is past midnight.
			at = at.Add(24 * time.Hour)
			date = date.Add(24 * time.Hour)
		}
		inc.Updates = append(inc.Updates, Update{At: at, Text: stepText(li, text[m[1]:]), textAt: it.at("description")})
	}
	if begin.IsZero() && len(inc.Updates) > 0 {
		begin = inc.Updates[0].At
	}
	if end.IsZero() && len(inc.Updates) > 1 {
		end = inc.Updates[len(inc.Updates)-1].At
	}
	if begin.IsZero() {
		src.fail(errs, it.at("description"), "no begin: neither a sentence of \"What happened?\" (Between 21:42 UTC on 13 November 2024 and …) nor a timeline item gives one")
	}
	if !end.IsZero() && end.Before(begin) {
		src.fail(errs, it.at("description"), "the review ends (%s) before it begins (%s)", timefmt.UTC(end), timefmt.UTC(begin))
	}
	inc.Begin, inc.End = begin, end
}

// azureWindow finds the incident's begin and end in the sentence of "What
// happened?" that states them; ok is false when it states an impossible
// one.
func azureWindow(sections []Section) (begin, end time.Time, ok bool) {
	for _, s := range sections {
		if s.ID != "impact" {
			continue
		}
		text := oneLine(strings.NewReplacer("**", "", "*", "", "_", "").Replace(s.Text))
		if m := azureBetween.FindStringSubmatch(text); m != nil {
			d1, d2 := cmp.Or(m[2], m[4]), cmp.Or(m[4], m[2])
			if d1 == "" {
				return time.Time{}, time.Time{}, true // no date: the timeline gives them
			}
			b, ok1 := azureInstant(d1, m[1])
			e, ok2 := azureInstant(d2, m[3])
			if m[2] == "" || m[4] == "" {
				if e.Before(b) { // "between 23:10 and 01:20 UTC on 13 November"
					e = e.Add(24 * time.Hour)
				}
			}
			return b, e, ok1 && ok2
		}
		if m := azureBeginning.FindStringSubmatch(text); m != nil {
			b, ok := azureInstant(m[2], m[1])
			return b, time.Time{}, ok
		}
	}
	return time.Time{}, time.Time{}, true
}

func azureInstant(date, clock string) (time.Time, bool) {
	d, ok := azureDate(date)
	hh, _ := strconv.Atoi(clock[:strings.IndexByte(clock, ':')])
	mm, _ := strconv.Atoi(clock[strings.IndexByte(clock, ':')+1:])
	if !ok || hh > 23 || mm > 59 {
		return time.Time{}, false
	}
	return time.Date(d.Year(), d.Month(), d.Day(), hh, mm, 0, 0, time.UTC), true
}

// azureDate reads "13 November 2024" (or "13 Nov 2024").
func azureDate(s string) (time.Time, bool) {
	f := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(f) != 3 || len(f[1]) < 3 {
		return time.Time{}, false
	}
	month, ok := months[strings.ToLower(f[1][:3])]
	if !ok || !strings.HasPrefix(strings.ToLower(month.String()), strings.ToLower(f[1])) {
		return time.Time{}, false
	}
	day, _ := strconv.Atoi(f[0])
	year, _ := strconv.Atoi(f[2])
	t := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
	return t, t.Day() == day && year > 0
}

// reviewPart is the content under one heading.
type reviewPart struct {
	title string
	nodes []*html.Node
}

// splitAtHeadings cuts a review at its headings: h1–h6, or a paragraph
// all in bold, as Azure writes them ("<p><strong>What happened?</strong></p>").
func splitAtHeadings(body *html.Node) []reviewPart {
	top := body
	// A review wrapped in one <div> is split inside it.
	for {
		var only *html.Node
		n := 0
		for c := top.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				only, n = c, n+1
			} else if strings.TrimSpace(c.Data) != "" {
				n += 2
			}
		}
		if n != 1 || only.DataAtom != atom.Div {
			break
		}
		top = only
	}
	parts := []reviewPart{{}}
	for c := top.FirstChild; c != nil; c = c.NextSibling {
		if t, ok := headingText(c); ok {
			parts = append(parts, reviewPart{title: t})
			continue
		}
		parts[len(parts)-1].nodes = append(parts[len(parts)-1].nodes, c)
	}
	// What comes before the first heading (a note, a link to a video)
	// closes the first section, whose first sentence is the summary.
	if len(parts) > 1 {
		parts[1].nodes = append(parts[1].nodes, parts[0].nodes...)
		return parts[1:]
	}
	return parts
}

// headingText is the text of a heading, or ok false when n is not one.
func headingText(n *html.Node) (string, bool) {
	if n.Type != html.ElementNode {
		return "", false
	}
	text := oneLine(plainText(n))
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return strings.Trim(text, "{}# "), text != ""
	case atom.P, atom.Div:
		if text == "" || len(text) > 200 || n.FirstChild == nil {
			return "", false
		}
		bold := ""
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.ElementNode && (c.DataAtom == atom.Strong || c.DataAtom == atom.B):
				bold += plainText(c)
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
			case c.Type == html.ElementNode && c.DataAtom == atom.Br:
			default:
				return "", false
			}
		}
		return strings.Trim(text, "{}# "), oneLine(bold) == text
	}
	return "", false
}

// listItems are the items of a list, or of the lists inside n.
func listItems(n *html.Node) []*html.Node {
	var out []*html.Node
	if n.Type != html.ElementNode {
		return nil
	}
	if n.DataAtom == atom.Ul || n.DataAtom == atom.Ol {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Li {
				out = append(out, c)
			}
		}
		return out
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, listItems(c)...)
	}
	return out
}

// stepText is a timeline item's text after its time, as Markdown: the
// item's Markdown from where its plain text after the time begins.
func stepText(li *html.Node, after string) string {
	md := strings.TrimSpace(toMarkdown(wrap(childNodes(li))))
	words := strings.Fields(after)
	if len(words) == 0 {
		return ""
	}
	if i := strings.Index(md, words[0]); i >= 0 {
		return md[i:]
	}
	return strings.TrimSpace(after)
}

func childNodes(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, c)
	}
	return out
}

// headingID makes an id from a heading's first six words.
func headingID(title string) string {
	return slug(Incident{Title: title, ImportID: "x"})
}

// shorten cuts a quoted text for a message.
func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
