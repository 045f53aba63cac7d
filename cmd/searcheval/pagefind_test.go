package main

import (
	"strings"
	"testing"
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
		`<a href="/en/causes/memory-leak/" data-pagefind-filter="cause">`,
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
