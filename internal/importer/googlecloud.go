package importer

import (
	"net/url"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/timefmt"
)

// GoogleCloud reads the incidents.json of the Google Cloud status
// dashboard: a list of [{"id", "number", "begin", "end", "external_desc",
// "severity", "service_name", "uri", "affected_products": [{"title"}],
// "currently_affected_locations" and "previously_affected_locations":
// [{"id"}], "updates": [{"when", "text", "status"}]}].
var GoogleCloud = Format{
	Name:  "google-cloud",
	Where: "https://status.cloud.google.com/incidents.json",
	read:  readGoogleCloud,
}

const googleCloudSite = "https://status.cloud.google.com/"

// googleSeverity maps the dashboard's severity to gen's.
var googleSeverity = map[string]string{"low": "minor", "medium": "major", "high": "critical"}

func readGoogleCloud(src *source, root *node, errs *diag.List) []Incident {
	if !isGoogleCloud(root) {
		other := ""
		if isStatuspage(root) {
			other = "statuspage"
		}
		wrongShape(src, root, errs, "google-cloud", "a list of incidents", other)
		return nil
	}
	return readEach(src, root.items, errs, func(n *node, errs *diag.List) (Incident, bool) {
		if !src.want(errs, n, object) {
			return Incident{}, false
		}
		return readGoogleCloudIncident(src, n, errs), true
	})
}

// isGoogleCloud reports whether root is a list, as the dashboard's export
// is; its items are checked one by one.
func isGoogleCloud(root *node) bool { return root.kind == array }

func readGoogleCloudIncident(src *source, n *node, errs *diag.List) Incident {
	inc := Incident{
		Path:         n.path,
		ImportID:     src.str(errs, n, "id", "it is what finds the incident again on the next import"),
		Title:        oneLine(src.str(errs, n, "external_desc", "it is the incident's title")),
		Severity:     googleSeverity[src.str(errs, n, "severity", "")],
		Organization: "Google Cloud",
		Source:       "Google Cloud Service Health",
	}
	inc.Begin, _ = src.time(errs, n, "begin", "it is when the incident began")
	if end, ok := src.time(errs, n, "end", ""); ok {
		if end.Before(inc.Begin) {
			src.fail(errs, field(n, "end"), "%s is before the incident began (%s); an incident ends after it begins",
				timefmt.Offset(end), timefmt.Offset(inc.Begin))
		}
		inc.End = end
	}
	for _, p := range src.list(errs, n, "affected_products") {
		if src.want(errs, p, object) {
			inc.Products = addUnique(inc.Products, src.str(errs, p, "title", "it is the affected product's name"))
		}
	}
	if len(inc.Products) == 0 {
		inc.Products = addUnique(inc.Products, src.str(errs, n, "service_name", ""))
	}
	for _, key := range []string{"currently_affected_locations", "previously_affected_locations"} {
		for _, l := range src.list(errs, n, key) {
			if src.want(errs, l, object) {
				inc.Regions = addUnique(inc.Regions, src.str(errs, l, "id", ""))
			}
		}
	}
	for _, u := range src.list(errs, n, "updates") {
		if !src.want(errs, u, object) {
			continue
		}
		at, _ := src.time(errs, u, "when", "it is when the update was posted")
		body := src.markdown(errs, u, "text")
		inc.Updates = append(inc.Updates, Update{At: at, Status: statusWord(src.str(errs, u, "status", "")), Text: body, textAt: field(u, "text")})
	}
	uri := src.str(errs, n, "uri", "")
	if isWebURL(uri) {
		inc.URL = uri
		return inc
	}
	uri = strings.TrimPrefix(uri, "/")
	if uri == "" && inc.ImportID != "" {
		uri = "incidents/" + url.PathEscape(inc.ImportID)
	}
	if uri != "" {
		if u, err := url.Parse(googleCloudSite + uri); err == nil && isWebURL(u.String()) {
			inc.URL = u.String()
		}
	}
	return inc
}
