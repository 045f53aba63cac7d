package render

import (
	"encoding/xml"
	"testing"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/urls"
)

// TestSitemapURLsAsEncodingXML: a page's <url> elements are written as
// encoding/xml writes them (what gen wrote before it wrote them itself),
// escapes included.
func TestSitemapURLsAsEncodingXML(t *testing.T) {
	type xhtmlLink struct {
		Rel      string `xml:"rel,attr"`
		HrefLang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	}
	type sitemapURL struct {
		XMLName    xml.Name    `xml:"url"`
		Loc        string      `xml:"loc"`
		LastMod    string      `xml:"lastmod,omitempty"`
		Alternates []xhtmlLink `xml:"xhtml:link"`
	}
	bundle, err := locale.Load(i18n.Files, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	scheme, err := urls.New("https://example.org/a&b'c/", []string{"products"})
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{bundle: bundle, urls: scheme}
	def := bundle.Default().Tag
	for _, c := range []struct {
		loc     urls.Loc
		lastmod string
	}{
		{urls.ListLoc(def), ""},
		{urls.IncidentLoc(def, "2017-03-13-bq"), "2017-03-13"},
		{urls.TermLoc(def, "products", `Q&A "beta" <x> 雲端`), ""},
	} {
		var alts []xhtmlLink
		for _, l := range bundle.Langs {
			alts = append(alts, xhtmlLink{"alternate", l.Tag, scheme.Abs(c.loc.InLang(l.Tag))})
		}
		alts = append(alts, xhtmlLink{"alternate", "x-default", scheme.Abs(c.loc.InLang(def))})
		var entries []sitemapURL
		for _, l := range bundle.Langs {
			entries = append(entries, sitemapURL{Loc: scheme.Abs(c.loc.InLang(l.Tag)), LastMod: c.lastmod, Alternates: alts})
		}
		want, err := xml.MarshalIndent(entries, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := r.sitemapURLs(c.loc, c.lastmod); got != string(want)+"\n" {
			t.Errorf("%s:\n%s\nwant\n%s", c.loc.Path(), got, want)
		}
	}
}
