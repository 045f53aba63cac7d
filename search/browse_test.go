package search

import (
	"slices"
	"testing"
	"time"
)

// browseDocs are four incidents of different lengths and severities, one
// of them also in Japanese and one with no known end.
func browseDocs() []Document {
	mk := func(id, lang, orig, date, severity string, d time.Duration) Document {
		x := doc(id, lang, orig, "Incident "+id, "Summary.", "Body text.", date, nil, nil, nil)
		x.Severity, x.Duration = severity, d
		return x
	}
	return []Document{
		mk("2020-01-01-short", "en", "en", "2020-01-01", "minor", 30*time.Minute),
		mk("2021-01-01-long", "en", "en", "2021-01-01", "major", 30*time.Hour),
		mk("2021-01-01-long", "ja", "en", "2021-01-01", "major", 30*time.Hour),
		mk("2019-01-01-critical", "en", "en", "2019-01-01", "critical", 2*time.Hour),
		mk("2022-01-01-open", "ja", "ja", "2022-01-01", "unknown", 0),
	}
}

func browseIndex(t *testing.T) *Index {
	t.Helper()
	return diskIndex(t, browseDocs())
}

func terms(fc []FacetCount) []string {
	var out []string
	for _, c := range fc {
		out = append(out, c.Term)
	}
	return out
}

func TestBrowseSortsAndFilters(t *testing.T) {
	ix := browseIndex(t)
	for _, c := range []struct {
		name string
		req  Request
		want []string
	}{
		{"everything, newest first", Request{}, []string{"2022-01-01-open", "2021-01-01-long", "2020-01-01-short", "2019-01-01-critical"}},
		{"by date", Request{Sort: SortDate}, []string{"2022-01-01-open", "2021-01-01-long", "2020-01-01-short", "2019-01-01-critical"}},
		{"longest first", Request{Sort: SortDuration}, []string{"2021-01-01-long", "2019-01-01-critical", "2020-01-01-short", "2022-01-01-open"}},
		{"most severe first", Request{Sort: SortSeverity}, []string{"2019-01-01-critical", "2021-01-01-long", "2020-01-01-short", "2022-01-01-open"}},
		{"one duration band", Request{Duration: "over-1d"}, []string{"2021-01-01-long"}},
		{"unknown duration", Request{Duration: DurationUnknown}, []string{"2022-01-01-open"}},
		{"one language", Request{Language: "ja"}, []string{"2022-01-01-open", "2021-01-01-long"}},
		{"unknown severity", Request{Severity: "unknown"}, []string{"2022-01-01-open"}},
		{"a word, by severity", Request{Query: "incident", Sort: SortSeverity}, []string{"2019-01-01-critical", "2021-01-01-long", "2020-01-01-short", "2022-01-01-open"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := search(t, ix, c.req)
			if got := ids(res); !slices.Equal(got, c.want) || res.Total != len(c.want) {
				t.Errorf("%d results %q, want %q", res.Total, got, c.want)
			}
		})
	}
}

func TestBrowseFacetOrder(t *testing.T) {
	res := search(t, browseIndex(t), Request{})
	for name, want := range map[string][]string{
		FacetYear:     {"2022", "2021", "2020", "2019"},
		FacetDuration: {"under-1h", "1-4h", "over-1d", DurationUnknown},
		FacetSeverity: {"critical", "major", "minor", "unknown"},
		FacetLang:     {"en", "ja"},
	} {
		if got := terms(res.Facets[name]); !slices.Equal(got, want) {
			t.Errorf("facet %s: %q, want %q", name, got, want)
		}
	}
}

func TestBrowseRejectsUnknownValues(t *testing.T) {
	ix := browseIndex(t)
	for _, r := range []Request{{Sort: "price"}, {Duration: "forever"}, {Language: "not a tag!"}} {
		if _, err := ix.Search(t.Context(), r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}
