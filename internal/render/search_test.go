package render_test

import (
	"fmt"
	"testing"

	"github.com/postmortem-archive/gen/internal/render"
)

// TestFacetGroupKeepsTheSelectedValueShown: a selected value past the
// first ten is listed among them, never hidden behind "Show all"; values
// no result has are not listed.
func TestFacetGroupKeepsTheSelectedValueShown(t *testing.T) {
	var values []render.SearchFacet
	for i := range 30 {
		values = append(values, render.SearchFacet{Term: fmt.Sprintf("p%02d", i), Count: 30 - i})
	}
	values = append(values, render.SearchFacet{Term: "none", Count: 0})
	s := &render.Search{
		Request:  render.SearchRequest{Filters: map[string]string{"product": "p20"}},
		Response: &render.SearchResponse{Facets: map[string][]render.SearchFacet{"product": values}, FacetTotals: map[string]int{"product": 31}},
	}
	g := s.Group("product")
	if len(g.Shown) != render.FacetShown+1 || g.Shown[render.FacetShown].Term != "p20" {
		t.Errorf("shown %v, want the first %d and p20", g.Shown, render.FacetShown)
	}
	for _, v := range g.More {
		if v.Term == "p20" || v.Term == "none" {
			t.Errorf("behind show all: %v", v)
		}
	}
	if len(g.More) != 19 {
		t.Errorf("%d behind show all, want 19", len(g.More))
	}
}

// TestResultProductsNamedOnce: a result names its products without its
// own organization beside each, at most five, and counts the rest.
func TestResultProductsNamedOnce(t *testing.T) {
	s := &render.Search{}
	r := render.SearchResult{Organization: "Google Cloud", Products: []string{
		"Gmail (Google Cloud)", "BigQuery (Google Cloud)", "Stripe API (Stripe)", "Cloud SQL (Google Cloud)",
		"Pub/Sub (Google Cloud)", "GKE (Google Cloud)", "Cloud Run (Google Cloud)",
	}}
	got := s.ProductsOf(r)
	want := []string{"Gmail", "BigQuery", "Stripe API (Stripe)", "Cloud SQL", "Pub/Sub"}
	if fmt.Sprint(got.Names) != fmt.Sprint(want) || got.More != 2 {
		t.Errorf("products %q +%d, want %q +2", got.Names, got.More, want)
	}
}
