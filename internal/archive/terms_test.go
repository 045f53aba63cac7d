package archive_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/postmortem-archive/gen/internal/archive"
)

// TestTermLists: an incident's terms, kept as one list cut by taxonomy,
// come back by taxonomy in the order added, once each, whatever order the
// taxonomies are added in; All yields the taxonomies that have terms, in
// display order.
func TestTermLists(t *testing.T) {
	term := func(tax archive.Taxonomy, name string) *archive.Term {
		return &archive.Term{Taxonomy: tax, Name: name, Slug: name}
	}
	bq, gcs := term(archive.Products, "bigquery"), term(archive.Products, "gcs")
	leak, power := term(archive.Causes, "leak"), term(archive.Causes, "power")
	google, eu := term(archive.Organizations, "google"), term(archive.Regions, "eu")
	var l archive.TermLists
	for _, tm := range []*archive.Term{leak, bq, google, gcs, power, eu} {
		if !l.Add(tm) {
			t.Fatalf("%s was not added", tm.Name)
		}
	}
	if l.Add(bq) || l.Add(power) {
		t.Error("a term was added twice")
	}
	want := map[archive.Taxonomy][]*archive.Term{
		archive.Organizations: {google}, archive.Products: {bq, gcs}, archive.Regions: {eu}, archive.Causes: {leak, power},
	}
	for tax, terms := range want {
		if got := l.Of(tax); !slices.Equal(got, terms) {
			t.Errorf("%s: %v, want %v", tax, got, terms)
		}
	}
	if got := maps.Collect(l.All()); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("All: %v, want %v", got, want)
	}
	var order []archive.Taxonomy
	for tax := range l.All() {
		order = append(order, tax)
	}
	if !slices.Equal(order, archive.Taxonomies) {
		t.Errorf("All yields %v, want %v", order, archive.Taxonomies)
	}
	var few archive.TermLists
	few.Add(leak)
	for tax, terms := range few.All() {
		if tax != archive.Causes || !slices.Equal(terms, []*archive.Term{leak}) {
			t.Errorf("All yields %s %v; want only the causes", tax, terms)
		}
	}
	if len(few.Of(archive.Products)) != 0 {
		t.Error("a taxonomy without terms has some")
	}
	if l.Add(&archive.Term{Taxonomy: "colours", Name: "red"}) || l.Of("colours") != nil {
		t.Error("a term of no taxonomy was kept")
	}
}
