package build_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/render"
)

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// sitemapEntry is a <url> of a sitemap.
type sitemapEntry struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
	Links   []struct {
		HrefLang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	} `xml:"http://www.w3.org/1999/xhtml link"`
}

// readSitemap reads the sitemap of the build in dest, served at baseURL:
// the files of its parts when /sitemap.xml is their index (none when it
// is the one file), and every URL of the sitemap in order. It fails
// unless each file is a sitemap, and the index lists /sitemap-1.xml,
// /sitemap-2.xml, … in order.
func readSitemap(t *testing.T, dest, baseURL string) (parts []string, all []sitemapEntry) {
	t.Helper()
	var root struct {
		XMLName  xml.Name
		Sitemaps []struct {
			Loc string `xml:"loc"`
		} `xml:"sitemap"`
		URLs []sitemapEntry `xml:"url"`
	}
	if err := xml.Unmarshal(must(os.ReadFile(filepath.Join(dest, "sitemap.xml"))), &root); err != nil {
		t.Fatalf("sitemap.xml: %v", err)
	}
	switch root.XMLName {
	case xml.Name{Space: sitemapNS, Local: "urlset"}:
		return nil, root.URLs
	case xml.Name{Space: sitemapNS, Local: "sitemapindex"}:
	default:
		t.Fatalf("sitemap.xml is a <%s>", root.XMLName.Local)
	}
	for i, s := range root.Sitemaps {
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		if s.Loc != baseURL+name {
			t.Errorf("the sitemap index lists %s in place %d, want %s", s.Loc, i+1, baseURL+name)
		}
		var part struct {
			XMLName xml.Name
			URLs    []sitemapEntry `xml:"url"`
		}
		if err := xml.Unmarshal(must(os.ReadFile(filepath.Join(dest, name))), &part); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if part.XMLName != (xml.Name{Space: sitemapNS, Local: "urlset"}) {
			t.Errorf("%s is a <%s>", name, part.XMLName.Local)
		}
		parts, all = append(parts, name), append(all, part.URLs...)
	}
	return parts, all
}

// urlsetBody is a <urlset> file's <url> elements, as written.
func urlsetBody(t *testing.T, file string) []byte {
	t.Helper()
	data := must(os.ReadFile(file))
	_, body, ok := bytes.Cut(data, []byte("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"))
	body, end := bytes.CutSuffix(body, []byte("</urlset>\n"))
	if !ok || !end {
		t.Fatalf("%s is not a <urlset> as gen writes one", file)
	}
	return body
}

// TestSitemapSplitAtItsLimits: past the URLs or the bytes a sitemap file
// may hold, /sitemap.xml is an index of parts, each within both, holding
// together exactly what the one file holds under the protocol's limits;
// a page whose URLs cannot fit in one file fails the build, and so do
// more files than an index may list.
func TestSitemapSplitAtItsLimits(t *testing.T) {
	src := generatedSite(t, 60)
	base := buildOpts(src, "").BaseURL
	run := func(limits render.SitemapLimits) (string, error) {
		opts := buildOpts(src, filepath.Join(t.TempDir(), "public"))
		opts.Sitemap = limits
		_, err := build.Run(opts)
		return opts.Dest, err
	}
	one, err := run(render.SitemapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	parts, want := readSitemap(t, one, base)
	if parts != nil || len(want) < 300 {
		t.Fatalf("under the protocol's limits: %d parts, %d URLs; want one file of over 300", len(parts), len(want))
	}
	body := urlsetBody(t, filepath.Join(one, "sitemap.xml"))
	for _, limits := range []render.SitemapLimits{{URLs: 100}, {URLs: 99}, {Bytes: 40_000}} {
		dest, err := run(limits)
		if err != nil {
			t.Fatalf("%+v: %v", limits, err)
		}
		parts, got := readSitemap(t, dest, base)
		if len(parts) < 3 {
			t.Errorf("%+v: %d parts, want at least 3", limits, len(parts))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: the parts hold %d URLs, not the %d of the one file in its order", limits, len(got), len(want))
		}
		var joined []byte
		for _, p := range parts {
			file := filepath.Join(dest, p)
			info, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			_, urls := readPart(t, file)
			if limits.URLs != 0 && urls > limits.URLs || limits.Bytes != 0 && info.Size() > int64(limits.Bytes) {
				t.Errorf("%+v: %s has %d URLs, %d bytes", limits, p, urls, info.Size())
			}
			joined = append(joined, urlsetBody(t, file)...)
		}
		if !bytes.Equal(joined, body) {
			t.Errorf("%+v: the parts' <url> elements are not the one file's, byte for byte", limits)
		}
		stray, _ := filepath.Glob(filepath.Join(dest, "sitemap-*.xml"))
		if len(stray) != len(parts) {
			t.Errorf("%+v: %d files sitemap-*.xml, the index lists %d", limits, len(stray), len(parts))
		}
	}
	// Each page is in the sitemap in both languages, in one file.
	if _, err := run(render.SitemapLimits{URLs: 1}); err == nil || !strings.Contains(err.Error(), "does not fit in one file") {
		t.Errorf("a limit of 1 URL per file with 2 languages: %v, want an error", err)
	}
	// An index lists at most so many files (50,000 in the protocol).
	if _, err := run(render.SitemapLimits{URLs: 100, Files: 2}); err == nil || !strings.Contains(err.Error(), "more than the 2 an index may list") {
		t.Errorf("more parts than an index may list: %v, want an error", err)
	}
}

// readPart reads a part's URLs and counts them.
func readPart(t *testing.T, file string) ([]sitemapEntry, int) {
	t.Helper()
	var part struct {
		URLs []sitemapEntry `xml:"url"`
	}
	if err := xml.Unmarshal(must(os.ReadFile(file)), &part); err != nil {
		t.Fatal(err)
	}
	return part.URLs, len(part.URLs)
}
