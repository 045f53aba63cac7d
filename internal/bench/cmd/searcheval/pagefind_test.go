package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/searcheval"
)

// An incident page gets Pagefind's markup: its article is the body, its
// chart ignored, its term links filters; navigation links stay as they are.
func TestTunePage(t *testing.T) {
	page := `<nav><a href="/en/products/">Products</a></nav>` +
		`<article class="incident"><figure class="chart" lang="en"></figure>` +
		`<a href="/en/products/skyreach-dns/">Skyreach DNS</a><a href="/en/regions/us-east-1/">us-east-1</a>` +
		`<a href="/en/causes/memory-leak/">memory-leak</a><a href="/en/incidents/x/">x</a></article>`
	got := string(tunePage([]byte(page)))
	for _, want := range []string{
		`<nav><a href="/en/products/">Products</a></nav>`,
		`<article class="incident" data-pagefind-body>`,
		`<figure class="chart" data-pagefind-ignore lang="en">`,
		`<a href="/en/products/skyreach-dns/" data-pagefind-filter="product">`,
		`<a href="/en/regions/us-east-1/" data-pagefind-filter="region">`,
		`<a href="/en/causes/memory-leak/" data-pagefind-filter="cause:memory-leak">`,
		`<a href="/en/incidents/x/">x</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tuned page lacks %s:\n%s", want, got)
		}
	}
	if id := incidentID("/ja/incidents/2021-05-13-hanhai-grid-power-outage/"); id != "2021-05-13-hanhai-grid-power-outage" {
		t.Errorf("incidentID: %q", id)
	}
	if id := incidentID("/ja/products/x/"); id != "" {
		t.Errorf("incidentID of a term page: %q", id)
	}
}

// Facet terms of gen's syntax become Pagefind filters; the rest is the term.
func TestSplitFacets(t *testing.T) {
	term, filters := splitFacets(`product:"Skyreach Compute" power cause:disk-full 縮圖 org:瀚海雲端`)
	if term != "power 縮圖" || filters["product"] != "Skyreach Compute" || filters["cause"] != "disk-full" ||
		filters["organization"] != "瀚海雲端" || len(filters) != 3 {
		t.Errorf("got %q %v", term, filters)
	}
}

// The copy Pagefind indexes marks every incident page of a real build of
// the judged site, so a change of the theme's markup cannot quietly leave
// Pagefind indexing whole pages, and it leaves out what is not served.
func TestTunedCopyOfTheJudgedSite(t *testing.T) {
	dir := t.TempDir()
	public, err := searcheval.Site{}.Build(filepath.Join(dir, "site"))
	if err != nil {
		t.Fatal(err)
	}
	tuned := filepath.Join(dir, "tuned")
	if err := tunedCopy(public, tuned); err != nil {
		t.Fatal(err)
	}
	ids, err := searcheval.FixtureIDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ja", "zh-TW"} {
		for _, id := range ids {
			b, err := os.ReadFile(filepath.Join(tuned, lang, "incidents", id, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			if strings.Count(page, "data-pagefind-body") != 1 || !strings.Contains(page, `data-pagefind-filter="organization"`) {
				t.Errorf("%s/%s: not marked for Pagefind (one body, an organization filter)", lang, id)
			}
		}
	}
	list, err := os.ReadFile(filepath.Join(tuned, "en", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(list), "data-pagefind") {
		t.Error("the list page is marked for Pagefind")
	}
}
