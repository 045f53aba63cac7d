package render

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/timefmt"
	"github.com/postmortem-archive/gen/internal/urls"
)

// The sitemap lists every page in every language, each <url> with the
// page's URLs in all languages (hreflang alternates), as search engines
// expect. The protocol allows one file 50,000 URLs and 50 MB
// uncompressed; past either, /sitemap.xml becomes a <sitemapindex> of
// parts, /sitemap-1.xml, /sitemap-2.xml, …, each within both, and holding
// together what the one file would have held, in the same order. Below
// them the one file is all there is.

// SitemapLimits bound each file of the sitemap.
type SitemapLimits struct {
	URLs  int // <url> elements in one file; 0 is the protocol's 50,000
	Bytes int // bytes of one file, uncompressed; 0 is the protocol's 50 MB
	Files int // files the index lists; 0 is the protocol's 50,000
}

// The protocol's limits (sitemaps.org/protocol.html: "no more than 50,000
// URLs and must not exceed 50MB (52,428,800 bytes)"); an index lists at
// most 50,000 files.
const (
	maxSitemapURLs  = 50_000
	maxSitemapBytes = 52_428_800
	maxSitemapFiles = 50_000
)

func (l SitemapLimits) orDefault() SitemapLimits {
	return SitemapLimits{URLs: cmp.Or(l.URLs, maxSitemapURLs), Bytes: cmp.Or(l.Bytes, maxSitemapBytes), Files: cmp.Or(l.Files, maxSitemapFiles)}
}

const (
	urlsetStart = xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n"
	urlsetEnd   = "</urlset>\n"
	indexStart  = xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	indexEnd    = "</sitemapindex>\n"
)

// sitemapPage is a page of the sitemap, in every language: its location
// in the default language, and the incident it is, if one.
type sitemapPage struct {
	loc urls.Loc
	inc *archive.Incident
}

// sitemapPages are the sitemap's pages in order: lists, the timeline and
// its years and months, incidents, taxonomies and their terms.
func (r *Renderer) sitemapPages() iter.Seq[sitemapPage] {
	def := r.bundle.Default().Tag
	return func(yield func(sitemapPage) bool) {
		for _, loc := range []urls.Loc{urls.ListLoc(def), urls.TimelineLoc(def)} {
			if !yield(sitemapPage{loc: loc}) {
				return
			}
		}
		months := monthPages(r.archive.Incidents)
		next := 0 // the first month not yet listed
		for _, y := range yearSummaries(r.archive.Incidents, months) {
			if !yield(sitemapPage{loc: urls.YearLoc(def, y.Year)}) {
				return
			}
			for ; next < len(months.order) && months.order[next].Year == y.Year; next++ {
				if !yield(sitemapPage{loc: urls.MonthLoc(def, y.Year, months.order[next].Month)}) {
					return
				}
			}
		}
		for _, inc := range r.archive.Incidents {
			if !yield(sitemapPage{loc: urls.IncidentLoc(def, inc.ID), inc: inc}) {
				return
			}
		}
		for _, tax := range r.site.Taxonomies {
			if !yield(sitemapPage{loc: urls.TermsLoc(def, string(tax))}) {
				return
			}
			for _, t := range r.archive.Terms[tax] {
				if !yield(sitemapPage{loc: urls.TermLoc(def, string(tax), t.Slug)}) {
					return
				}
			}
		}
	}
}

// sitemapGroup is a page's <url> elements, one per language, each listing
// all of them. They are kept with the fragments (an incident's under its
// id, another page's under its path, which no incident id is) while the
// authoring server runs: it lists the sitemap's files after every change.
func (r *Renderer) sitemapGroup(p sitemapPage) (string, error) {
	if p.inc == nil {
		return r.fragments.get(fragmentKey{p.loc.Path(), "", partSitemap}, r.born, func() (string, error) {
			return r.sitemapURLs(p.loc, ""), nil
		})
	}
	return r.fragments.get(fragmentKey{p.inc.ID, "", partSitemap}, r.born, func() (string, error) {
		return r.sitemapURLs(p.loc, p.inc.Through.Format(timefmt.Date)), nil
	})
}

// sitemapURLs writes a page's <url> elements, as encoding/xml's
// MarshalIndent with two spaces would (sitemap_test.go compares them),
// without its reflection: a build makes them twice, to cut the sitemap
// into files and to write them.
func (r *Renderer) sitemapURLs(loc urls.Loc, lastmod string) string {
	hrefs := make([]string, len(r.bundle.Langs))
	for i, l := range r.bundle.Langs {
		hrefs[i] = r.urls.Abs(loc.InLang(l.Tag))
	}
	var alts strings.Builder
	link := func(lang, href string) {
		alts.WriteString(`  <xhtml:link rel="alternate" hreflang="`)
		escapeXML(&alts, lang)
		alts.WriteString(`" href="`)
		escapeXML(&alts, href)
		alts.WriteString(`"></xhtml:link>` + "\n")
	}
	for i, l := range r.bundle.Langs {
		link(l.Tag, hrefs[i])
	}
	link("x-default", r.urls.Abs(loc.InLang(r.bundle.Default().Tag)))
	var b strings.Builder
	for _, href := range hrefs {
		b.WriteString("<url>\n  <loc>")
		escapeXML(&b, href)
		b.WriteString("</loc>\n")
		if lastmod != "" {
			b.WriteString("  <lastmod>")
			escapeXML(&b, lastmod)
			b.WriteString("</lastmod>\n")
		}
		b.WriteString(alts.String())
		b.WriteString("</url>\n")
	}
	return b.String()
}

// escapeXML writes s as XML text or an attribute's value, escaped as
// encoding/xml escapes them.
func escapeXML(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\'' || c == '&' || c == '<' || c == '>' {
			_ = xml.EscapeText(b, []byte(s)) // a strings.Builder does not fail
			return
		}
	}
	b.WriteString(s)
}

// sitemapParts cuts the sitemap into files within the limits: the number
// of pages each holds, in order. One file is the sitemap itself; more are
// the parts of an index. A page's URLs in every language stay in one file.
func (r *Renderer) sitemapParts() ([]int, error) {
	limits := r.sitemapLimits
	perPage := len(r.bundle.Langs)
	fixed := len(urlsetStart) + len(urlsetEnd)
	var parts []int
	n, count, size := 0, 0, fixed
	for p := range r.sitemapPages() {
		group, err := r.sitemapGroup(p)
		if err != nil {
			return nil, err
		}
		if perPage > limits.URLs || fixed+len(group) > limits.Bytes {
			return nil, fmt.Errorf("%s in every language (%d URLs, %d bytes) does not fit in one file of at most %d URLs and %d bytes",
				r.urls.Abs(p.loc), perPage, fixed+len(group), limits.URLs, limits.Bytes)
		}
		if count+perPage > limits.URLs || size+len(group) > limits.Bytes {
			parts = append(parts, n)
			n, count, size = 0, 0, fixed
		}
		n, count, size = n+1, count+perPage, size+len(group)
	}
	if parts = append(parts, n); len(parts) > limits.Files {
		return nil, fmt.Errorf("the sitemap needs %d files, more than the %d an index may list: raise the limits of a file", len(parts), limits.Files)
	}
	return parts, nil
}

// writeSitemap writes a <urlset> of the n pages of the sitemap after the
// first skip.
func (r *Renderer) writeSitemap(w io.Writer, skip, n int) error {
	if _, err := io.WriteString(w, urlsetStart); err != nil {
		return err
	}
	i := 0
	for p := range r.sitemapPages() {
		if i >= skip+n {
			break
		}
		if i >= skip {
			group, err := r.sitemapGroup(p)
			if err != nil {
				return err
			}
			if _, err := io.WriteString(w, group); err != nil {
				return err
			}
		}
		i++
	}
	_, err := io.WriteString(w, urlsetEnd)
	return err
}

// writeSitemapIndex writes the <sitemapindex> of the sitemap's parts.
func (r *Renderer) writeSitemapIndex(w io.Writer, parts int) error {
	if _, err := io.WriteString(w, indexStart); err != nil {
		return err
	}
	for i := range parts {
		if _, err := io.WriteString(w, "  <sitemap>\n    <loc>"); err != nil {
			return err
		}
		if err := xml.EscapeText(w, []byte(r.urls.Abs(urls.SitemapPartLoc(i+1)))); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "</loc>\n  </sitemap>\n"); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, indexEnd)
	return err
}

// sitemap makes /sitemap.xml and, past a file's limits, its parts, when
// wanted.
func (ps *pass) sitemap() {
	r := ps.r
	if !ps.in(urls.Sitemap, urls.SitemapPart) {
		return
	}
	parts, err := r.sitemapParts()
	if err != nil {
		ps.fail(fmt.Errorf("sitemap: %w", err))
		return
	}
	if len(parts) == 1 {
		ps.writeFile(urls.SitemapLoc().File(), func(w io.Writer) error { return r.writeSitemap(w, 0, parts[0]) })
		return
	}
	ps.writeFile(urls.SitemapLoc().File(), func(w io.Writer) error { return r.writeSitemapIndex(w, len(parts)) })
	skip := 0
	for i, n := range parts {
		first := skip
		ps.writeFile(urls.SitemapPartLoc(i+1).File(), func(w io.Writer) error { return r.writeSitemap(w, first, n) })
		skip += n
	}
}
