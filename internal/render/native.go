package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"time"
)

// The default theme's incident page and its two fragments repeated on
// lists and timelines are written from Go: executing them through
// html/template (reflection for every field and method) was a third of a
// build's time. The Go writers follow the layout files byte for byte, and
// are used only while a site's files are exactly those they follow: a site
// with its own incident.html, or an edited default, gets html/template.
// Tests render sites both ways and compare every page.

// nativeDigests are the SHA-256 of the layout files the Go writers follow.
var nativeDigests = map[string]string{
	"base.html":                    "5bdb77b950232cc84cbef931d200f36c962de9eff95a8e8a65264f5bd2dec727",
	"incident.html":                "e25a6f08d0f0251f49590aae4567c61e4eddc19236ad80065beb96b52fc50ef0",
	"partials/lang-switch.html":    "8bb492d2e82c5c01b60f1ea177ff47bdb6ee75e9385350243ffc6ab7b205af4d",
	"partials/incident-links.html": "8e863da618c40d56a8737612dbd6370c64b3a64e4855a50e8286e2b494b2ee16",
	"partials/incident-item.html":  "c70c60c3c8b02abf969635d42663c56da353fed5a1e0aa2f3a1fb990ca4d18c1",
	"partials/timeline-line.html":  "943accb135213512680654baee6ed36dbd6c9346de9bd90cb42838d942a77bfc",
}

// nativeParts says which layouts are written from Go.
type nativeParts struct {
	incident bool // incident pages: base, incident, lang-switch, incident-links
	item     bool // list entries: incident-item
	line     bool // timeline lines: timeline-line
}

// nativeFor finds which parts of files the Go writers can write.
func nativeFor(files fs.FS) nativeParts {
	same := func(names ...string) bool {
		for _, name := range names {
			data, err := fs.ReadFile(files, name)
			if err != nil {
				return false
			}
			sum := sha256.Sum256(data)
			if hex.EncodeToString(sum[:]) != nativeDigests[name] {
				return false
			}
		}
		return true
	}
	return nativeParts{
		incident: same("base.html", "incident.html", "partials/lang-switch.html", "partials/incident-links.html"),
		item:     same("partials/incident-item.html"),
		line:     same("partials/timeline-line.html"),
	}
}

// incidentPage writes an incident page as base.html with incident.html's
// blocks.
func (r *Renderer) incidentPage(p *PageView) ([]byte, error) {
	w := &htmlw{b: *bytes.NewBuffer(r.buffers.get())}
	w.b.Grow(pageBufferSize)
	w.base(p, func() { w.text(p.Incident.Summary()) }, func() { w.incidentMain(p) })
	if w.err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.Path, w.err)
	}
	r.buffers.lend(w.b.Bytes())
	return w.b.Bytes(), nil
}

// base is base.html; description and main are its blocks.
func (w *htmlw) base(p *PageView, description, main func()) {
	l := p.L
	w.raw("<!DOCTYPE html>\n<html lang=\"")
	w.text(l.Tag)
	w.raw("\" dir=\"")
	w.text(l.Dir)
	w.raw("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	if p.Title != "" {
		w.text(p.Title)
		w.raw(" · ")
	}
	w.textErr(l.T("site_title"))
	w.raw("</title>\n<meta name=\"description\" content=\"")
	description()
	w.raw("\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<link rel=\"icon\" href=\"" + favicon + "\">\n<link rel=\"stylesheet\" href=\"")
	w.url(p.Site.AssetURL("style.css"))
	w.raw("\">\n<link rel=\"stylesheet\" href=\"")
	w.url(p.Site.AssetURL("chart.css"))
	w.raw("\">")
	for _, a := range p.Alternates {
		w.raw("\n<link rel=\"alternate\" hreflang=\"")
		w.text(a.Lang.Tag)
		w.raw("\" href=\"")
		w.url(a.AbsURL)
		w.raw("\">")
	}
	if len(p.Alternates) > 0 {
		w.raw("\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"")
		w.textErr(l.T("feed"))
		w.raw("\" href=\"")
		w.url(p.FeedURL())
		w.raw("\">")
	}
	w.raw("\n</head>\n<body class=\"kind-")
	w.text(p.Kind)
	w.raw("\">\n<a class=\"skip\" href=\"#main\">")
	w.textErr(l.T("skip_to_content"))
	w.raw("</a>\n<header class=\"site-header\">\n  <div class=\"wrap header-row\">\n    <a class=\"site-title\" href=\"")
	w.url(p.ListURL())
	w.raw("\">")
	w.textErr(l.T("site_title"))
	w.raw("</a>\n    ")
	w.langSwitch(p)
	w.raw("\n    <nav class=\"site-nav\" aria-label=\"")
	w.textErr(l.T("main_navigation"))
	w.raw("\">\n      <ul class=\"nav\">\n        <li><a href=\"")
	w.url(p.ListURL())
	w.raw("\"")
	w.current(p.Kind == "list")
	w.raw(">")
	w.textErr(l.T("nav_incidents"))
	w.raw("</a></li>\n        <li><a href=\"")
	w.url(p.TimelineURL())
	w.raw("\"")
	w.current(p.Kind == "timeline")
	w.raw(">")
	w.textErr(l.T("nav_timeline"))
	w.raw("</a></li>")
	for _, tax := range p.Site.Taxonomies {
		w.raw("\n        <li><a href=\"")
		w.url(p.TermsURL(tax))
		w.raw("\"")
		w.current(p.Kind == "terms" && p.Taxonomy == tax)
		w.raw(">")
		w.textErr(l.T("nav_" + string(tax)))
		w.raw("</a></li>")
	}
	w.raw("\n      </ul>\n    </nav>\n    <form class=\"header-search\" role=\"search\" method=\"get\" action=\"")
	w.url(p.SearchURL())
	w.raw("\">\n      <label for=\"header-q\" class=\"visually-hidden\">")
	w.textErr(l.T("search_label"))
	w.raw("</label>\n      <input id=\"header-q\" name=\"q\" type=\"search\" placeholder=\"")
	w.textErr(l.T("nav_search"))
	w.raw("\" maxlength=\"512\">\n    </form>\n  </div>\n</header>\n<main id=\"main\" tabindex=\"-1\">\n<div class=\"wrap\">\n")
	main()
	w.raw("\n</div>\n</main>\n<footer class=\"site-footer\">\n  <div class=\"wrap\">\n    <p>")
	w.textErr(l.T("footer"))
	if len(p.Alternates) > 0 {
		w.raw(" · <a href=\"")
		w.url(p.FeedURL())
		w.raw("\">")
		w.textErr(l.T("feed"))
		w.raw("</a>")
	}
	w.raw("</p>\n  </div>\n</footer>\n</body>\n</html>")
}

// favicon is base.html's icon, a data URL written as it is (spaces
// escaped: a URL may hold none).
const favicon = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2016%2016'%3E%3Crect%20width='16'%20height='16'%20rx='3'%20fill='%230b5cad'/%3E%3Cpath%20d='M3%2011h3l2-6%202%209%202-3h1'%20fill='none'%20stroke='%23fff'%20stroke-width='1.6'/%3E%3C/svg%3E"

func (w *htmlw) current(yes bool) {
	if yes {
		w.raw(" aria-current=\"page\"")
	}
}

// langSwitch is partials/lang-switch.html.
func (w *htmlw) langSwitch(p *PageView) {
	if len(p.Alternates) > 0 {
		w.raw("\n<nav class=\"lang-switch\" aria-label=\"")
		w.textErr(p.L.T("this_page_in"))
		w.raw("\">\n  <ul>")
		for _, a := range p.Alternates {
			w.raw("\n    <li>")
			if a.Current {
				w.raw("<span aria-current=\"page\" lang=\"")
				w.text(a.Lang.Tag)
				w.raw("\">")
				w.text(a.Lang.Name)
				w.raw("</span>")
			} else {
				w.raw("<a href=\"")
				w.url(a.URL)
				w.raw("\" hreflang=\"")
				w.text(a.Lang.Tag)
				w.raw("\" lang=\"")
				w.text(a.Lang.Tag)
				w.raw("\">")
				w.text(a.Lang.Name)
				w.raw("</a>")
			}
			w.raw("</li>")
		}
		w.raw("\n  </ul>\n</nav>")
	}
	w.raw("\n")
}

// textLang writes the lang attribute of text not in the page language.
func (w *htmlw) textLang(v *IncidentView) {
	if !v.Translated() {
		w.raw(" lang=\"")
		w.text(v.TextLang())
		w.raw("\"")
	}
}

// incidentMain is incident.html's main block.
func (w *htmlw) incidentMain(p *PageView) {
	v, l := p.Incident, p.L
	w.raw("\n\n<article class=\"incident\"")
	w.textLang(v)
	w.raw(">\n  ")
	if !v.Translated() {
		w.raw("\n  <p class=\"notice\" role=\"note\" lang=\"")
		w.text(l.Tag)
		w.raw("\">")
		w.textErr(l.T("not_translated", "original", v.OriginalLang().Name))
		w.raw("</p>\n  ")
	}
	w.raw("\n  <header class=\"incident-header\">\n    <h1>")
	w.text(v.Title())
	w.raw("</h1>\n    <p class=\"summary\">")
	w.text(v.Summary())
	w.raw("</p>\n    <dl class=\"facts\" lang=\"")
	w.text(l.Tag)
	w.raw("\">")
	w.facts(v)
	w.raw("\n    </dl>\n    ")
	if v.Translated() && v.TextLang() != v.Original.Lang {
		w.raw("<p class=\"meta\" lang=\"")
		w.text(l.Tag)
		w.raw("\">")
		w.textErr(l.T("written_in", "lang", v.OriginalLang().Name))
		w.raw("</p>")
	}
	w.raw("\n  </header>\n  \n  <figure class=\"chart\" lang=\"")
	w.text(l.Tag)
	w.raw("\" aria-labelledby=\"incident-chart-title\" aria-describedby=\"incident-chart-desc\">\n    <div aria-hidden=\"true\">")
	w.keep(v.WriteChart(&w.b))
	w.raw("</div>\n  </figure>\n  <div class=\"body\">\n  ")
	w.keep(v.writeBody(&w.b))
	w.raw("\n  </div>\n  ")
	w.sources(v)
	w.raw("\n</article>\n")
	w.crosslinks(v)
	w.raw("\n\n")
}

// html writes HTML made by a trusted writer (goldmark, the charts).
func (w *htmlw) html(h template.HTML, err error) {
	w.keep(err)
	w.raw(string(h))
}

// facts is the incident's facts list.
func (w *htmlw) facts(v *IncidentView) {
	l := v.L
	w.raw("\n      <div class=\"when\"><dt>")
	w.textErr(l.T("began"))
	w.raw("</dt><dd>")
	w.when(v, v.Begin, v.LocalBegin())
	w.raw("</dd></div>")
	if v.EndStated() {
		w.raw("\n      <div class=\"when\"><dt>")
		w.textErr(l.T("ended"))
		w.raw("</dt><dd>")
		w.when(v, v.End, v.LocalEnd())
		w.raw("</dd></div>")
	} else {
		w.raw("\n      <div class=\"when end-")
		if v.Ongoing {
			w.raw("ongoing")
		} else {
			w.raw("not-stated")
		}
		w.raw("\"><dt>")
		w.textErr(l.T("ended"))
		w.raw("</dt><dd>")
		w.textErr(v.EndStatus())
		w.raw("</dd></div>")
	}
	if d, err := v.DurationText(); err != nil || d != "" {
		w.raw("\n      <div><dt>")
		w.textErr(l.T("duration"))
		w.raw("</dt><dd>")
		w.textErr(d, err)
		w.raw("</dd></div>")
	}
	w.raw("\n      <div class=\"zone\"><dt>")
	w.textErr(l.T("timezone"))
	w.raw("</dt><dd>")
	w.text(v.Zone())
	w.raw("</dd></div>\n      <div><dt>")
	w.textErr(l.T("severity"))
	w.raw("</dt><dd><span class=\"severity severity-")
	w.text(v.SeverityClass())
	w.raw("\">")
	w.textErr(v.SeverityLabel())
	w.raw("</span></dd></div>")
	for _, tax := range v.site.Taxonomies {
		terms, err := v.TermLinks(tax)
		if err != nil {
			w.textErr("", err)
			continue
		}
		if len(terms) == 0 {
			continue
		}
		w.raw("\n      <div class=\"wide\"><dt>")
		w.textErr(l.T(string(terms[0].Taxonomy)))
		w.raw("</dt><dd><ul class=\"terms\">")
		for _, t := range terms {
			w.raw("<li><a href=\"")
			w.url(t.URL())
			w.raw("\">")
			w.text(t.Label)
			w.raw("</a></li>")
		}
		w.raw("</ul></dd></div>")
	}
}

// when is a begin or end: its UTC instant for machines, its local date
// and time for readers.
func (w *htmlw) when(v *IncidentView, at, local time.Time) {
	w.raw("<time datetime=\"")
	w.text(datetime(at))
	w.raw("\"><span class=\"date\">")
	w.text(v.L.Date(local))
	w.raw("</span> <span class=\"clock\">")
	w.text(v.L.Time(at, v.Location))
	w.raw("</span></time>")
}

// sources is the incident's sources section.
func (w *htmlw) sources(v *IncidentView) {
	if len(v.Sources) == 0 {
		return
	}
	w.raw("\n  <section class=\"sources\" lang=\"")
	w.text(v.L.Tag)
	w.raw("\" aria-labelledby=\"sources\">\n    <h2 id=\"sources\">")
	w.textErr(v.L.T("sources"))
	w.raw("</h2>\n    <ul>")
	for _, s := range v.Sources {
		w.raw("<li>")
		if s.URL != "" {
			w.raw("<a href=\"")
			w.url(s.URL)
			w.raw("\" rel=\"noopener\">")
			w.text(s.Title)
			w.raw("</a>")
		} else {
			w.text(s.Title)
		}
		w.raw("</li>")
	}
	w.raw("</ul>\n  </section>\n  ")
}

// crosslinks is the aside of related, overlapping, similar, previous and
// next incidents.
func (w *htmlw) crosslinks(v *IncidentView) {
	l := v.L
	w.raw("<aside class=\"crosslinks\" aria-label=\"")
	w.textErr(l.T("related"))
	w.raw("\">\n  ")
	for i, list := range [][]*IncidentView{v.RelatedIncidents(), v.OverlappingIncidents(), v.SimilarIncidents()} {
		if i > 0 {
			w.raw("\n  ")
		}
		if len(list) == 0 {
			continue
		}
		w.raw("<section><h2>")
		w.textErr(l.T([]string{"related", "overlapping", "similar"}[i]))
		w.raw("</h2>")
		w.incidentLinks(list)
		w.raw("</section>")
	}
	w.raw("\n  <nav class=\"prev-next\" aria-label=\"")
	w.textErr(l.T("previous"))
	w.raw(" / ")
	w.textErr(l.T("next"))
	w.raw("\">\n    ")
	if prev := v.PrevIncident(); prev != nil {
		w.raw("<a rel=\"prev\" href=\"")
		w.url(prev.URL())
		w.raw("\"><span>← ")
		w.textErr(l.T("previous"))
		w.raw("</span> ")
		w.text(prev.Title())
		w.raw("</a>")
	}
	w.raw("\n    ")
	if next := v.NextIncident(); next != nil {
		w.raw("<a rel=\"next\" href=\"")
		w.url(next.URL())
		w.raw("\"><span>")
		w.textErr(l.T("next"))
		w.raw(" →</span> ")
		w.text(next.Title())
		w.raw("</a>")
	}
	w.raw("\n  </nav>\n</aside>")
}

// incidentLinks is partials/incident-links.html.
func (w *htmlw) incidentLinks(list []*IncidentView) {
	w.raw("\n<ul class=\"link-list\">")
	for _, v := range list {
		w.raw("\n  <li><a href=\"")
		w.url(v.URL())
		w.raw("\"")
		w.textLang(v)
		w.raw(">")
		w.text(v.Title())
		w.raw("</a> <span class=\"meta\"><time datetime=\"")
		w.text(datetime(v.Begin))
		w.raw("\">")
		w.text(v.L.Date(v.LocalBegin()))
		w.raw("</time></span></li>")
	}
	w.raw("\n</ul>\n")
}

// item is partials/incident-item.html.
func (w *htmlw) item(v *IncidentView) {
	w.raw("\n<li class=\"incident-item\">\n  <article>\n    <h2><a href=\"")
	w.url(v.URL())
	w.raw("\"")
	w.textLang(v)
	w.raw(">")
	w.text(v.Title())
	w.raw("</a></h2>\n    <p class=\"meta\">")
	if org, err := v.OrganizationLink(); err != nil || org != nil {
		w.raw("<a class=\"organization\" href=\"")
		if org != nil {
			w.url(org.URL())
		}
		w.raw("\">")
		if org != nil {
			w.text(org.Label)
		}
		w.textErr("", err)
		w.raw("</a> · ")
	}
	w.raw("\n      <time datetime=\"")
	w.text(datetime(v.Begin))
	w.raw("\">")
	w.text(v.L.Date(v.LocalBegin()))
	w.raw("</time>")
	if d, err := v.DurationText(); err != nil || d != "" {
		w.raw(" · ")
		w.textErr(d, err)
	}
	if s, err := v.StatusShort(); err != nil || s != "" {
		w.raw(" · <span class=\"status\">")
		w.textErr(s, err)
		w.raw("</span>")
	}
	w.raw("\n      · <a class=\"severity severity-")
	w.text(v.SeverityClass())
	w.raw("\" href=\"")
	w.url(v.SeverityURL())
	w.raw("\">")
	w.textErr(v.SeverityLabel())
	w.raw("</a>")
	w.listedProducts(v)
	w.raw("\n    </p>\n    <p class=\"summary\"")
	w.textLang(v)
	w.raw(">")
	w.text(v.Summary())
	w.raw("</p>\n  </article>\n</li>\n")
}

// listedProducts is incident-item.html's products: the first few linked,
// then how many more.
func (w *htmlw) listedProducts(v *IncidentView) {
	shown, err := v.ListedTerms("products")
	w.textErr("", err)
	if shown == nil {
		return
	}
	w.raw(" · <span class=\"products\">")
	for i, t := range shown.Terms {
		if i > 0 {
			w.raw(", ")
		}
		w.raw("<a href=\"")
		w.url(t.URL())
		w.raw("\">")
		w.text(t.Label)
		w.raw("</a>")
	}
	if shown.More > 0 {
		w.raw(", <a href=\"")
		w.url(v.URL())
		w.raw("\">")
		w.textErr(v.L.N("more_count", shown.More))
		w.raw("</a>")
	}
	w.raw("</span>")
}

// line is partials/timeline-line.html.
func (w *htmlw) line(v *IncidentView) {
	w.raw("\n      <li id=\"")
	w.text(v.TimelineID())
	w.raw("\" class=\"line line-")
	w.text(v.SeverityClass())
	w.raw("\"><time datetime=\"")
	w.text(datetime(v.Begin))
	w.raw("\">")
	w.text(v.L.DateShort(v.LocalBegin()))
	w.raw("</time> <a href=\"")
	w.url(v.URL())
	w.raw("\"")
	w.textLang(v)
	w.raw(">")
	w.text(v.Title())
	w.raw("</a> <span class=\"meta\"><span class=\"severity severity-")
	w.text(v.SeverityClass())
	w.raw("\">")
	w.textErr(v.SeverityLabel())
	w.raw("</span>")
	if d, err := v.DurationText(); err != nil || d != "" {
		w.raw(" · ")
		w.textErr(d, err)
	}
	if s, err := v.StatusShort(); err != nil || s != "" {
		w.raw(" · ")
		w.textErr(s, err)
	}
	w.raw("</span></li>")
}

// fragment runs a fragment writer; its HTML is what html/template would
// have made of the partial.
func fragment(write func(w *htmlw)) (template.HTML, error) {
	w := &htmlw{}
	write(w)
	if w.err != nil {
		return "", w.err
	}
	return template.HTML(w.b.String()), nil // #nosec G203: escaped like html/template
}
