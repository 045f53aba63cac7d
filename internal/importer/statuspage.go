package importer

import (
	"net/url"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/timefmt"
)

// Statuspage reads the incidents.json of an Atlassian Statuspage page
// (public API v2): {"page": {…}, "incidents": [{"id", "name", "status",
// "impact", "created_at", "started_at", "resolved_at", "shortlink",
// "components": [{"name"}], "incident_updates": [{"status", "body",
// "created_at", "display_at"}], "postmortem_body"}]}.
var Statuspage = Format{
	Name:  "statuspage",
	Where: "https://<status page>/api/v2/incidents.json",
	read:  readStatuspage,
}

// statuspageImpact maps Statuspage's impact to gen's severity; "none" and
// "maintenance" have no equivalent and are left out.
var statuspageImpact = map[string]string{"minor": "minor", "major": "major", "critical": "critical"}

func readStatuspage(src *source, root *node, errs *diag.List) []Incident {
	if !isStatuspage(root) {
		other := ""
		if isGoogleCloud(root) {
			other = "google-cloud"
		}
		wrongShape(src, root, errs, "statuspage", `an object with an "incidents" list`, other)
		return nil
	}
	var pageName, pageURL string
	if page := field(root, "page"); page != nil && src.want(errs, page, object) {
		pageName = src.str(errs, page, "name", "")
		pageURL = src.str(errs, page, "url", "")
	}
	return readEach(src, src.list(errs, root, "incidents"), errs, func(n *node, errs *diag.List) (Incident, bool) {
		if !src.want(errs, n, object) {
			return Incident{}, false
		}
		return readStatuspageIncident(src, n, pageName, pageURL, errs), true
	})
}

func isStatuspage(root *node) bool { return root.kind == object && root.fields["incidents"] != nil }

func readStatuspageIncident(src *source, n *node, pageName, pageURL string, errs *diag.List) Incident {
	inc := Incident{
		Path:         n.path,
		ImportID:     src.str(errs, n, "id", "it is what finds the incident again on the next import"),
		Title:        oneLine(src.str(errs, n, "name", "it is the incident's title")),
		Severity:     statuspageImpact[src.str(errs, n, "impact", "")],
		Organization: pageName,
	}
	begin, ok := src.time(errs, n, "started_at", "")
	if !ok && field(n, "started_at") == nil {
		begin, _ = src.time(errs, n, "created_at", "it is when the incident began")
	}
	inc.Begin = begin
	if end, ok := src.time(errs, n, "resolved_at", ""); ok {
		if end.Before(begin) {
			src.fail(errs, field(n, "resolved_at"), "%s is before the incident began (%s); an incident is resolved after it begins",
				timefmt.Offset(end), timefmt.Offset(begin))
		}
		inc.End = end
	}
	for _, c := range src.list(errs, n, "components") {
		if src.want(errs, c, object) {
			inc.Products = addUnique(inc.Products, src.str(errs, c, "name", "it is the affected product's name"))
		}
	}
	for _, u := range src.list(errs, n, "incident_updates") {
		if !src.want(errs, u, object) {
			continue
		}
		key := "display_at" // the time the page shows, which may be backdated
		if field(u, key) == nil {
			key = "created_at"
		}
		at, _ := src.time(errs, u, key, "it is when the update was posted")
		body := src.markdown(errs, u, "body")
		inc.Updates = append(inc.Updates, Update{At: at, Status: statusWord(src.str(errs, u, "status", "")), Text: body, textAt: field(u, "body")})
	}
	if inc.End.IsZero() {
		// Some pages resolve without a resolved_at; the last update says so.
		if s := src.str(errs, n, "status", ""); (s == "resolved" || s == "postmortem") && len(inc.Updates) > 0 {
			for _, u := range inc.Updates {
				inc.End = later(inc.End, u.At)
			}
		}
	}
	inc.Postmortem = src.markdown(errs, n, "postmortem_body")
	inc.postmortemAt = field(n, "postmortem_body")
	inc.URL = src.str(errs, n, "shortlink", "")
	if !isWebURL(inc.URL) {
		inc.URL = ""
		if isWebURL(pageURL) && inc.ImportID != "" {
			inc.URL = strings.TrimSuffix(pageURL, "/") + "/incidents/" + url.PathEscape(inc.ImportID)
		}
	}
	inc.Source = "Status page"
	if pageName != "" {
		inc.Source = pageName + " status page"
	}
	return inc
}
