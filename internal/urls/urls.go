// Package urls is the site's URL scheme, in one place: it builds the path
// of every page and file the site has (languages, incidents, the timeline
// and its years, taxonomies and their terms, search, feeds, the sitemap,
// the JSON export, 404 pages, assets), the relative links between them,
// and parses a path or an output file name back into what it is. Link
// checking and incremental rebuilds parse with the same rules the render
// stage builds with, so a change to a URL changes all three.
package urls

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is what a location is.
type Kind uint8

// The kinds of location, with the path each has (base path aside).
const (
	Unknown     Kind = iota
	Home             // "/": the choice of language
	List             // "/en/", "/en/page/2/": every incident
	Incident         // "/en/incidents/<id>/"
	Timeline         // "/en/timeline/": the overview and its years
	Year             // "/en/timeline/2017/": one year's months
	Month            // "/en/timeline/2017/03/": one month's incidents
	Terms            // "/en/products/": a taxonomy's terms
	Term             // "/en/products/<slug>/", "/en/products/<slug>/page/2/"
	Search           // "/en/search/"
	Feed             // "/en/feed.xml"
	NotFound         // "/404.html", "/en/404.html"
	Sitemap          // "/sitemap.xml": every page's URLs, or past a file's limits the index of its parts
	SitemapPart      // "/sitemap-1.xml", "/sitemap-2.xml": a part of a sitemap too large for one file
	Export           // "/incidents.json"
	SearchAPI        // "/api/search"
	Asset            // "/style.css": a file of the theme
)

// The fixed names of the scheme.
const (
	incidentsDir = "incidents"
	timelineDir  = "timeline"
	searchDir    = "search"
	pageDir      = "page"
	feedFile     = "feed.xml"
	notFoundFile = "404.html"
	sitemapFile  = "sitemap.xml"
	partPrefix   = "sitemap-" // a sitemap part: partPrefix, its number, partSuffix
	partSuffix   = ".xml"
	exportFile   = "incidents.json"
	apiPath      = "/api/search"
	indexFile    = "index.html"
)

// The servers' routes beside the site's files, as http.ServeMux patterns
// and paths, so that every URL shape is spelled in this package.
const (
	HomeRoute       = "GET /{$}"                          // / sends a reader to their language
	SearchPageRoute = "GET /{lang}/" + searchDir + "/{$}" // /L/search/, rendered per request
	SearchAPIRoute  = "GET " + apiPath                    // the search API
	// ServerDir is the authoring server's own folder, never the site's.
	ServerDir      = "_gen"
	LiveReloadPath = "/" + ServerDir + "/livereload.js"
	OverlayPath    = "/" + ServerDir + "/overlay.css"
	EventsPath     = "/" + ServerDir + "/events"
)

// Loc is one location of the site: a page or a file, and a fragment.
type Loc struct {
	Kind     Kind
	Lang     string // BCP 47 tag; "" for the files of the whole site
	ID       string // Incident: the incident id
	Taxonomy string // Terms, Term: "products", "regions", "causes", …
	Term     string // Term: the slug, not escaped
	Year     int    // Year, Month
	Month    int    // Month: 1 to 12
	Page     int    // List, Term: the page of the list; 0 and 1 are the first. SitemapPart: the part, from 1
	Name     string // Asset: the file name
	Fragment string // the #fragment, without "#"
}

// Constructors, one per kind.

// HomeLoc is the site root, where readers choose a language.
func HomeLoc() Loc { return Loc{Kind: Home} }

// ListLoc is a language's list of incidents.
func ListLoc(lang string) Loc { return Loc{Kind: List, Lang: lang} }

// IncidentLoc is an incident's page in a language.
func IncidentLoc(lang, id string) Loc { return Loc{Kind: Incident, Lang: lang, ID: id} }

// TimelineLoc is the archive-wide timeline.
func TimelineLoc(lang string) Loc { return Loc{Kind: Timeline, Lang: lang} }

// YearLoc is one year of the archive-wide timeline.
func YearLoc(lang string, year int) Loc { return Loc{Kind: Year, Lang: lang, Year: year} }

// MonthLoc is one month of the archive-wide timeline.
func MonthLoc(lang string, year int, month time.Month) Loc {
	return Loc{Kind: Month, Lang: lang, Year: year, Month: int(month)}
}

// TermsLoc lists a taxonomy's terms.
func TermsLoc(lang, taxonomy string) Loc { return Loc{Kind: Terms, Lang: lang, Taxonomy: taxonomy} }

// TermLoc is one term's page.
func TermLoc(lang, taxonomy, slug string) Loc {
	return Loc{Kind: Term, Lang: lang, Taxonomy: taxonomy, Term: slug}
}

// SearchLoc is a language's search page.
func SearchLoc(lang string) Loc { return Loc{Kind: Search, Lang: lang} }

// FeedLoc is a language's Atom feed.
func FeedLoc(lang string) Loc { return Loc{Kind: Feed, Lang: lang} }

// NotFoundLoc is the 404 page of a language, or of the site when lang is "".
func NotFoundLoc(lang string) Loc { return Loc{Kind: NotFound, Lang: lang} }

// SitemapLoc is the sitemap of every page.
func SitemapLoc() Loc { return Loc{Kind: Sitemap} }

// SitemapPartLoc is part n, from 1, of a sitemap split into several
// files: /sitemap.xml is then their index.
func SitemapPartLoc(n int) Loc { return Loc{Kind: SitemapPart, Page: n} }

// ExportLoc is the JSON export of every incident.
func ExportLoc() Loc { return Loc{Kind: Export} }

// SearchAPILoc is the JSON search API of the server.
func SearchAPILoc() Loc { return Loc{Kind: SearchAPI} }

// AssetLoc is a static file of the theme, such as style.css.
func AssetLoc(name string) Loc { return Loc{Kind: Asset, Name: name} }

// EventLoc is an event on its incident's page.
func EventLoc(lang, id string, at time.Time, n int) Loc {
	return IncidentLoc(lang, id).At(EventAnchor(at, n))
}

// TimelineEventLoc is where an incident's events are on the archive-wide
// timeline: its line on the page of the month it began in, by its local
// date (localBegin is its begin in its own zone), the date it is listed
// under everywhere.
func TimelineEventLoc(lang, id string, localBegin time.Time) Loc {
	return MonthLoc(lang, localBegin.Year(), localBegin.Month()).At(TimelineID(id))
}

// At is l with a fragment.
func (l Loc) At(fragment string) Loc { l.Fragment = fragment; return l }

// Nth is page n of a list (List, Terms or Term), counting from 1; other
// kinds have one page.
func (l Loc) Nth(n int) Loc {
	l.Page = 0
	if n > 1 {
		l.Page = n
	}
	return l
}

// InLang is the same location in another language. Files of the whole
// site (the home page, the sitemap, assets) are the same in every language.
func (l Loc) InLang(lang string) Loc {
	if l.Lang != "" {
		l.Lang = lang
	}
	return l
}

// Paged reports whether the kind is a list split into pages.
func (k Kind) Paged() bool { return k == List || k == Terms || k == Term }

// segments are the path's parts, not escaped; dir reports whether the path
// is a folder (served by its index.html).
func (l Loc) segments() (segs []string, dir bool) {
	lang := []string{l.Lang}
	switch l.Kind {
	case Home:
		return nil, true
	case List:
		segs, dir = lang, true
	case Incident:
		return append(lang, incidentsDir, l.ID), true
	case Timeline:
		return append(lang, timelineDir), true
	case Year:
		return append(lang, timelineDir, strconv.Itoa(l.Year)), true
	case Month:
		return append(lang, timelineDir, strconv.Itoa(l.Year), fmt.Sprintf("%02d", l.Month)), true
	case Terms:
		segs, dir = append(lang, l.Taxonomy), true
	case Term:
		segs, dir = append(lang, l.Taxonomy, l.Term), true
	case Search:
		return append(lang, searchDir), true
	case Feed:
		return append(lang, feedFile), false
	case NotFound:
		if l.Lang == "" {
			return []string{notFoundFile}, false
		}
		return append(lang, notFoundFile), false
	case Sitemap:
		return []string{sitemapFile}, false
	case SitemapPart:
		return []string{partPrefix + strconv.Itoa(l.Page) + partSuffix}, false
	case Export:
		return []string{exportFile}, false
	case SearchAPI:
		return strings.Split(strings.Trim(apiPath, "/"), "/"), false
	case Asset:
		return []string{l.Name}, false
	default:
		panic(fmt.Sprintf("urls: location of unknown kind %d", l.Kind))
	}
	if l.Page > 1 {
		segs = append(segs, pageDir, strconv.Itoa(l.Page))
	}
	return segs, dir
}

// Path is the location's URL path from the site root, escaped, with its
// fragment: "/en/incidents/<id>/#t-20170313T1722Z". Prefix it with the
// base path (Scheme.URL) to link to it.
func (l Loc) Path() string {
	segs, dir := l.segments()
	var b strings.Builder
	for _, s := range segs {
		b.WriteString("/")
		b.WriteString(url.PathEscape(s))
	}
	if dir {
		b.WriteString("/")
	}
	if l.Fragment != "" {
		b.WriteString("#")
		b.WriteString(url.PathEscape(l.Fragment))
	}
	return b.String()
}

// File is the output file the location is written to, relative to the
// site folder, with forward slashes and nothing escaped:
// "en/incidents/<id>/index.html".
func (l Loc) File() string {
	segs, dir := l.segments()
	if dir {
		segs = append(segs, indexFile)
	}
	return path.Join(segs...)
}

// Rel is the relative link from a page to a location: what a page can
// write so that it works under any base path, e.g. from an incident page
// to its year on the timeline "../../timeline/2017/#<id>-t-20170313T1722Z".
func Rel(from, to Loc) string {
	fromSegs, _ := from.segments() // a page: its segments are its folder
	target := to.Path()
	toSegs := strings.Split(strings.TrimPrefix(target, "/"), "/")
	common := 0
	for common < len(fromSegs) && common < len(toSegs)-1 && url.PathEscape(fromSegs[common]) == toSegs[common] {
		common++
	}
	rel := strings.Repeat("../", len(fromSegs)-common) + strings.Join(toSegs[common:], "/")
	if rel == "" {
		rel = "./"
	}
	return rel
}

// Anchors of events.

// eventAnchorLayout is an event's UTC minute in its anchor: "t-20170313T1722Z".
const eventAnchorLayout = "t-20060102T1504Z"

// EventAnchor is the fragment id of an event at instant t on its incident
// page: its UTC minute, with "-2", "-3", … for the second and later events
// of the same minute (n counts from 1).
func EventAnchor(t time.Time, n int) string {
	a := t.UTC().Format(eventAnchorLayout)
	if n > 1 {
		a += "-" + strconv.Itoa(n)
	}
	return a
}

// ParseEventAnchor reads an event anchor back: its minute and which event
// of that minute it is.
func ParseEventAnchor(fragment string) (t time.Time, n int, ok bool) {
	minute, count, more := strings.Cut(fragment, "Z-")
	if more {
		minute += "Z"
		c, err := strconv.Atoi(count)
		if err != nil || c < 2 || strconv.Itoa(c) != count {
			return time.Time{}, 0, false
		}
		n = c
	} else {
		n = 1
	}
	t, err := time.Parse(eventAnchorLayout, minute)
	if err != nil {
		return time.Time{}, 0, false
	}
	return t, n, true
}

// TimelineID is the fragment id of an incident's line on a timeline page.
func TimelineID(incidentID string) string { return "i-" + incidentID }

// OrganizationID is the fragment id of an organization's incidents on a
// month's page of the timeline, given the organization's slug.
func OrganizationID(slug string) string { return "org-" + slug }

// Scheme is one site's URLs: where it is served and which taxonomies it
// has (the path segments after the language that are neither incidents,
// timeline nor search).
type Scheme struct {
	Origin     string // "https://example.org", for absolute URLs
	BasePath   string // "" or "/archive": no trailing slash
	Taxonomies []string
}

// New is the scheme of a site served at baseURL, an absolute URL such as
// https://example.org/archive/.
func New(baseURL string, taxonomies []string) (Scheme, error) {
	u, err := url.Parse(baseURL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return Scheme{}, fmt.Errorf("base URL %q must be absolute, like https://example.org/ or http://127.0.0.1:1313/", baseURL)
	}
	base := strings.TrimSuffix(u.EscapedPath(), "/")
	return Scheme{Origin: u.Scheme + "://" + u.Host, BasePath: base, Taxonomies: taxonomies}, nil
}

// URL is the link to l from anywhere on the site: the base path and l's path.
func (s Scheme) URL(l Loc) string { return s.BasePath + l.Path() }

// Abs is l's absolute URL, for feeds, the sitemap and alternate links.
func (s Scheme) Abs(l Loc) string { return s.Origin + s.URL(l) }

// BaseURL is the site's absolute URL, with a trailing slash.
func (s Scheme) BaseURL() string { return s.Origin + s.BasePath + "/" }

// ParseURL reads a URL path (not escaped, as in url.URL.Path) under the
// base path; a path outside the site is Unknown.
func (s Scheme) ParseURL(p string) Loc {
	base, err := url.PathUnescape(s.BasePath)
	if err != nil {
		return Loc{}
	}
	rest, ok := strings.CutPrefix(p, base)
	if !ok || !strings.HasPrefix(rest, "/") {
		return Loc{}
	}
	return s.Parse(rest)
}

// ParseFile reads an output file name, as File writes it.
func (s Scheme) ParseFile(name string) Loc {
	if d, ok := strings.CutSuffix(name, indexFile); ok && (d == "" || strings.HasSuffix(d, "/")) {
		name = d
	}
	return s.Parse("/" + name)
}

// Parse reads a path from the site root, not escaped, with or without
// its fragment, into the location it names; a path the site does not
// have is Unknown. Languages are not checked: any first segment without a
// dot can be one.
func (s Scheme) Parse(p string) Loc {
	p, frag, _ := strings.Cut(p, "#")
	l := s.parse(p)
	if l.Kind == Unknown || l.rawPath() != p {
		return Loc{} // not the one spelling the scheme writes ("/en/timeline/02017/")
	}
	l.Fragment = frag
	return l
}

// rawPath is Path without escaping and without the fragment.
func (l Loc) rawPath() string {
	segs, dir := l.segments()
	p := "/" + strings.Join(segs, "/")
	if dir && len(segs) > 0 {
		p += "/"
	}
	return p
}

func (s Scheme) parse(p string) Loc {
	if !strings.HasPrefix(p, "/") || path.Clean(p) != strings.TrimSuffix(p, "/") && p != "/" {
		return Loc{}
	}
	dir := strings.HasSuffix(p, "/")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case p == "/":
		return HomeLoc()
	case p == apiPath:
		return SearchAPILoc()
	case len(segs) == 1 && !dir:
		switch segs[0] {
		case notFoundFile:
			return NotFoundLoc("")
		case sitemapFile:
			return SitemapLoc()
		case exportFile:
			return ExportLoc()
		}
		if n, ok := strings.CutPrefix(segs[0], partPrefix); ok {
			if n, ok := strings.CutSuffix(n, partSuffix); ok {
				if k, err := strconv.Atoi(n); err == nil && k >= 1 {
					return SitemapPartLoc(k)
				}
			}
		}
		if strings.Contains(segs[0], ".") {
			return AssetLoc(segs[0])
		}
		return Loc{}
	}
	lang := segs[0]
	if strings.Contains(lang, ".") || lang == "" {
		return Loc{}
	}
	if !dir {
		switch {
		case len(segs) == 2 && segs[1] == feedFile:
			return FeedLoc(lang)
		case len(segs) == 2 && segs[1] == notFoundFile:
			return NotFoundLoc(lang)
		}
		return Loc{}
	}
	return s.parsePage(lang, segs[1:])
}

// parsePage reads the folders after the language.
func (s Scheme) parsePage(lang string, segs []string) Loc {
	paged, page := segs, 0
	if n := len(segs); n >= 2 && segs[n-2] == pageDir {
		k, err := strconv.Atoi(segs[n-1])
		if err != nil || k < 2 {
			return Loc{}
		}
		paged, page = segs[:n-2], k
	}
	switch {
	case len(paged) == 0:
		return ListLoc(lang).Nth(page)
	case len(paged) == 1 && slices.Contains(s.Taxonomies, paged[0]):
		return TermsLoc(lang, paged[0]).Nth(page)
	case len(paged) == 2 && paged[0] != incidentsDir && slices.Contains(s.Taxonomies, paged[0]):
		return TermLoc(lang, paged[0], paged[1]).Nth(page)
	case page != 0:
		return Loc{}
	case len(segs) == 1 && segs[0] == timelineDir:
		return TimelineLoc(lang)
	case len(segs) == 1 && segs[0] == searchDir:
		return SearchLoc(lang)
	case len(segs) == 1 && slices.Contains(s.Taxonomies, segs[0]):
		return TermsLoc(lang, segs[0])
	case len(segs) == 2 && segs[0] == incidentsDir:
		return IncidentLoc(lang, segs[1])
	case len(segs) == 2 && segs[0] == timelineDir:
		y, err := strconv.Atoi(segs[1])
		if err != nil || y < 1 || y > 9999 {
			return Loc{}
		}
		return YearLoc(lang, y)
	case len(segs) == 3 && segs[0] == timelineDir:
		y, err := strconv.Atoi(segs[1])
		m, merr := strconv.Atoi(segs[2])
		if err != nil || merr != nil || y < 1 || y > 9999 || len(segs[2]) != 2 || m < 1 || m > 12 {
			return Loc{}
		}
		return MonthLoc(lang, y, time.Month(m))
	}
	return Loc{}
}
