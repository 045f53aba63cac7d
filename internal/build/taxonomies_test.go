package build_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
)

var regionsLine = regexp.MustCompile(`(?m)^regions:.*\n`)

// TestEmptyTaxonomyNotListed: a taxonomy no report names (regions here)
// is not in the navigation, its index page is not written, nor is it in
// the sitemap or the bundle a server renders search pages from; once a
// report names one, a warm build and the authoring server list it on
// every page.
func TestEmptyTaxonomyNotListed(t *testing.T) {
	dir := copySite(t)
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, p)
		return os.WriteFile(p, regionsLine.ReplaceAll(data, nil), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	dest := filepath.Join(dir, "public")
	opts := build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/", Generator: "gen test"}
	if _, err := build.Run(opts); err != nil {
		t.Fatal(err)
	}
	// An incident page no edit below touches, and pages every build writes.
	other := filepath.Base(filepath.Dir(files[len(files)-1]))
	listed := func(when string, want bool) {
		t.Helper()
		for _, page := range []string{"en/incidents/" + other + "/index.html", "en/index.html", "ja/timeline/index.html", "zh-TW/search/index.html", "en/products/index.html"} {
			data, err := os.ReadFile(filepath.Join(dest, page))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(data), `/regions/"`); got != want {
				t.Errorf("%s: %s links to the regions: %v, want %v", when, page, got, want)
			}
		}
		if _, err := os.Stat(filepath.Join(dest, "en", "regions", "index.html")); (err == nil) != want {
			t.Errorf("%s: the index of regions written: %v, want %v", when, err == nil, want)
		}
		sitemap, err := os.ReadFile(filepath.Join(dest, "sitemap.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(sitemap), "/regions/"); got != want {
			t.Errorf("%s: the sitemap lists regions: %v, want %v", when, got, want)
		}
		dirB, err := output.BundleOf(dest)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dirB, bundle.InfoFile))
		if err != nil {
			t.Fatal(err)
		}
		var info bundle.Info
		if err := json.Unmarshal(data, &info); err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(info.Taxonomies, "regions"); got != want || !slices.Contains(info.Taxonomies, "products") {
			t.Errorf("%s: the bundle lists %v", when, info.Taxonomies)
		}
	}
	listed("no region named", false)

	// A report names a region: warm, every page lists them.
	first := files[0]
	edit(t, first, "causes:", "regions: [us-east-1]\ncauses:")
	if _, err := build.Run(opts); err != nil {
		t.Fatal(err)
	}
	listed("a region named", true)

	// The authoring server: the same as a full build after each change.
	s := newSession(t, dir)
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	withPages(t, s) // every page made, as a reader's browser asks for them
	edit(t, first, "regions: [us-east-1]\n", "")
	if _, err := s.Update([]string{first}); err != nil {
		t.Fatal(err)
	}
	sameOutput(t, s, dir)
	home, err := s.Pages()["en/incidents/"+other+"/index.html"].Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(home), `/regions/"`) {
		t.Error("the authoring server's incident page links to the regions after the last one went")
	}
}
