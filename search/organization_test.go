package search

import (
	"slices"
	"testing"
)

// orgDocs are three organizations' incidents, two of them with a product
// named Storage (a facet value carries its organization) and two whose
// severity the report did not state.
func orgDocs() []Document {
	aws := doc("2023-01-10-aws-console", "en", "en", "Errors listing buckets", "Listing failed.", "The console failed to list buckets.",
		"2023-01-10", []string{"Storage (AWS)"}, []string{"us-west-2"}, nil)
	aws.Organization, aws.Severity = "AWS", "unknown"
	gcs := doc("2022-07-19-gcs-cooling", "en", "en", "Cooling failure", "A zone powered down.", "Buckets in the zone failed.",
		"2022-07-19", []string{"Storage (Google Cloud)", "Compute Engine (Google Cloud)"}, []string{"europe-west2"}, nil)
	gcs.Organization, gcs.Severity = "Google Cloud", "major"
	wiki := doc("2022-11-03-wikimedia-saves", "en", "en", "Saving edits failed", "Edits could not be saved.", "A replica lagged.",
		"2022-11-03", nil, []string{"eqiad"}, nil)
	wiki.Organization, wiki.Severity = "Wikimedia", "unknown"
	return []Document{aws, gcs, wiki}
}

func eachOrgIndex(t *testing.T, f func(t *testing.T, ix Searcher)) {
	t.Run("disk", func(t *testing.T) {
		ix := diskIndex(t, orgDocs())
		f(t, ix)
	})
	t.Run("editable", func(t *testing.T) { f(t, editableOf(t, orgDocs())) })
}

func TestOrganizationAndSeverityFacets(t *testing.T) {
	eachOrgIndex(t, func(t *testing.T, ix Searcher) {
		all := search(t, ix, Request{Lang: "en"})
		if all.Total != 3 {
			t.Fatalf("browsing found %d, want 3", all.Total)
		}
		for _, org := range []string{"AWS", "Google Cloud", "Wikimedia"} {
			if n := facet(all, FacetOrganization, org); n != 1 {
				t.Errorf("organization facet %s = %d, want 1 (%v)", org, n, all.Facets[FacetOrganization])
			}
		}
		if n := facet(all, FacetSeverity, "unknown"); n != 2 {
			t.Errorf("severity facet unknown = %d, want 2 (%v)", n, all.Facets[FacetSeverity])
		}
		if n := facet(all, FacetSeverity, "major"); n != 1 {
			t.Errorf("severity facet major = %d, want 1", n)
		}
		if facet(all, FacetProduct, "Storage (AWS)") != 1 || facet(all, FacetProduct, "Storage (Google Cloud)") != 1 {
			t.Errorf("same-named products are not two facet values: %v", all.Facets[FacetProduct])
		}
		for _, r := range all.Results {
			if r.Organization == "" || r.Severity == "" {
				t.Errorf("result %s has organization %q, severity %q", r.ID, r.Organization, r.Severity)
			}
		}

		cases := []struct {
			req  Request
			want []string
		}{
			{Request{Lang: "en", Organization: "aws"}, []string{"2023-01-10-aws-console"}},
			{Request{Lang: "en", Severity: "unknown"}, []string{"2023-01-10-aws-console", "2022-11-03-wikimedia-saves"}},
			{Request{Lang: "en", Query: "org:google"}, []string{"2022-07-19-gcs-cooling"}},
			{Request{Lang: "en", Query: `organization:"google cloud"`}, []string{"2022-07-19-gcs-cooling"}},
			{Request{Lang: "en", Query: "severity:unknown -org:wikimedia"}, []string{"2023-01-10-aws-console"}},
			{Request{Lang: "en", Query: "product:storage"}, []string{"2023-01-10-aws-console", "2022-07-19-gcs-cooling"}},
			{Request{Lang: "en", Product: "Storage (AWS)"}, []string{"2023-01-10-aws-console"}},
		}
		for _, c := range cases {
			got := ids(search(t, ix, c.req))
			slices.Sort(got)
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("%+v found %v, want %v", c.req, got, want)
			}
		}
	})
}
