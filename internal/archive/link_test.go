package archive_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
)

var langs = []string{"en", "ja", "zh-TW"}

// inc describes one hand-made incident original.
type inc struct {
	id, tz, begin, end string // end "": not stated
	org                string
	products, regions  []string
	causes, related    []string
	draft              bool
	timeline           []string // "YYYY-MM-DD HH:MM" or "HH:MM"
}

func list(v []string) string { return "[" + strings.Join(v, ", ") + "]" }

func (s inc) source() string {
	var b strings.Builder
	tz := s.tz
	if tz == "" {
		tz = "UTC"
	}
	products := s.products
	if len(products) == 0 {
		products = []string{"Test Product"}
	}
	fmt.Fprintf(&b, "---\ntitle: Incident %s\nsummary: Something broke.\ntimezone: %s\nbegin: %s\n", s.id, tz, s.begin)
	if s.end != "" {
		fmt.Fprintf(&b, "end: %s\n", s.end)
	}
	if s.org != "" {
		fmt.Fprintf(&b, "organization: %s\n", s.org)
	}
	fmt.Fprintf(&b, "products: %s\nseverity: minor\n", list(products))
	if len(s.regions) > 0 {
		fmt.Fprintf(&b, "regions: %s\n", list(s.regions))
	}
	if len(s.causes) > 0 {
		fmt.Fprintf(&b, "causes: %s\n", list(s.causes))
	}
	if len(s.related) > 0 {
		fmt.Fprintf(&b, "related: %s\n", list(s.related))
	}
	if s.draft {
		b.WriteString("draft: true\n")
	}
	b.WriteString("---\n\n## Impact {#impact}\n\nIt broke.\n")
	if len(s.timeline) > 0 {
		b.WriteString("\n## Timeline {#timeline}\n\n")
		for _, m := range s.timeline {
			fmt.Fprintf(&b, "- %s — Something happened.\n", m)
		}
	}
	return b.String()
}

// parse turns hand-made incidents into pages, failing on any load error.
func parse(t *testing.T, incs ...inc) []*content.Page {
	t.Helper()
	var pages []*content.Page
	for _, s := range incs {
		var errs diag.List
		file := "content/" + s.id + "/en.md"
		p := content.Parse(file, s.id, "en", []byte(s.source()), &errs)
		if err := errs.Err(); err != nil || p == nil {
			t.Fatalf("test setup: parsing %s: %v\n%s", file, err, s.source())
		}
		pages = append(pages, p)
	}
	return pages
}

func link(t *testing.T, opts archive.Options, incs ...inc) *archive.Archive {
	t.Helper()
	a, err := archive.Link(parse(t, incs...), langs, opts)
	if err != nil {
		t.Fatalf("Link: %v", err)
	}
	return a
}

func find(t *testing.T, a *archive.Archive, id string) *archive.Incident {
	t.Helper()
	for _, i := range a.Incidents {
		if i.ID == id {
			return i
		}
	}
	t.Fatalf("incident %s is not in the archive", id)
	return nil
}

func ids(list []*archive.Incident) []string {
	out := []string{}
	for _, i := range list {
		out = append(out, i.ID)
	}
	return out
}

func TestOverlaps(t *testing.T) {
	incs := []inc{
		// Touching: one ends as the next begins.
		{id: "2021-01-01-touch-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00"},
		{id: "2021-01-01-touch-b", begin: "2021-01-01 11:00", end: "2021-01-01 12:00"},
		// Nested.
		{id: "2021-02-01-nest-outer", begin: "2021-02-01 10:00", end: "2021-02-01 14:00"},
		{id: "2021-02-01-nest-inner", begin: "2021-02-01 11:00", end: "2021-02-01 12:00"},
		// Disjoint.
		{id: "2021-03-01-apart-a", begin: "2021-03-01 10:00", end: "2021-03-01 11:00"},
		{id: "2021-03-01-apart-b", begin: "2021-03-01 12:00", end: "2021-03-01 13:00"},
		// Partially overlapping.
		{id: "2021-04-01-part-a", begin: "2021-04-01 10:00", end: "2021-04-01 12:00"},
		{id: "2021-04-01-part-b", begin: "2021-04-01 11:00", end: "2021-04-01 13:00"},
		// A zero-length incident inside another.
		{id: "2021-05-01-long", begin: "2021-05-01 10:00", end: "2021-05-01 14:00"},
		{id: "2021-05-01-blip", begin: "2021-05-01 12:00", end: "2021-05-01 12:00"},
		// A zero-length incident at the end of another only touches it.
		{id: "2021-06-01-ends", begin: "2021-06-01 10:00", end: "2021-06-01 12:00"},
		{id: "2021-06-01-after", begin: "2021-06-01 12:00", end: "2021-06-01 12:00"},
		// One long incident spanning two that do not overlap each other.
		{id: "2021-07-01-span", begin: "2021-07-01 10:00", end: "2021-07-01 16:00"},
		{id: "2021-07-01-first", begin: "2021-07-01 11:00", end: "2021-07-01 12:00"},
		{id: "2021-07-01-second", begin: "2021-07-01 13:00", end: "2021-07-01 14:00"},
		// In different zones: 02:00–04:00 in Tokyo is 17:00–19:00 UTC the
		// day before.
		{id: "2021-08-02-tokyo", tz: "Asia/Tokyo", begin: "2021-08-02 02:00", end: "2021-08-02 04:00"},
		{id: "2021-08-01-london", tz: "Europe/London", begin: "2021-08-01 19:30", end: "2021-08-01 20:30"},
		// Across a year boundary.
		{id: "2021-12-31-newyear", begin: "2021-12-31 23:00", end: "2022-01-01 02:00"},
		{id: "2022-01-01-hangover", begin: "2022-01-01 01:00", end: "2022-01-01 03:00"},
		// Overlapping the year-boundary one across a whole year.
		{id: "2020-06-01-forever", begin: "2020-06-01 00:00", end: "2021-12-31 23:30"},
	}
	a := link(t, archive.Options{}, incs...)
	want := map[string][]string{
		"2021-01-01-touch-a":    {},
		"2021-01-01-touch-b":    {},
		"2021-02-01-nest-outer": {"2021-02-01-nest-inner"},
		"2021-02-01-nest-inner": {"2021-02-01-nest-outer"},
		"2021-03-01-apart-a":    {},
		"2021-03-01-apart-b":    {},
		"2021-04-01-part-a":     {"2021-04-01-part-b"},
		"2021-04-01-part-b":     {"2021-04-01-part-a"},
		"2021-05-01-long":       {"2021-05-01-blip"},
		"2021-05-01-blip":       {"2021-05-01-long"},
		"2021-06-01-ends":       {},
		"2021-06-01-after":      {},
		"2021-07-01-span":       {"2021-07-01-first", "2021-07-01-second"},
		"2021-07-01-first":      {"2021-07-01-span"},
		"2021-07-01-second":     {"2021-07-01-span"},
		"2021-08-02-tokyo":      {"2021-08-01-london"},
		"2021-08-01-london":     {"2021-08-02-tokyo"},
		"2021-12-31-newyear":    {"2022-01-01-hangover"},
		"2022-01-01-hangover":   {"2021-12-31-newyear"},
		"2020-06-01-forever": {"2021-01-01-touch-a", "2021-01-01-touch-b", "2021-02-01-nest-outer", "2021-02-01-nest-inner",
			"2021-03-01-apart-a", "2021-03-01-apart-b", "2021-04-01-part-a", "2021-04-01-part-b",
			"2021-05-01-long", "2021-05-01-blip", "2021-06-01-ends", "2021-06-01-after",
			"2021-07-01-span", "2021-07-01-first", "2021-07-01-second",
			"2021-08-02-tokyo", "2021-08-01-london", "2021-12-31-newyear"},
	}
	// Everything but the last group also overlaps the long 2020 incident.
	for id, w := range want {
		if id != "2020-06-01-forever" && id != "2022-01-01-hangover" {
			want[id] = append([]string{"2020-06-01-forever"}, w...)
		}
	}
	if len(a.Incidents) != len(incs) {
		t.Fatalf("%d incidents, want %d", len(a.Incidents), len(incs))
	}
	for _, i := range a.Incidents {
		if got := ids(i.Overlapping); !slices.Equal(got, want[i.ID]) {
			t.Errorf("%s overlaps %v, want %v", i.ID, got, want[i.ID])
		}
	}
}

// TestZeroLengthAtBeginConsistent: whether a zero-length incident at the
// very begin of another counts as overlapping must not depend on how the
// two ids sort.
func TestZeroLengthAtBeginConsistent(t *testing.T) {
	a := link(t, archive.Options{},
		// The zero-length id sorts first.
		inc{id: "2021-05-01-a-zero", begin: "2021-05-01 10:00", end: "2021-05-01 10:00"},
		inc{id: "2021-05-01-b-long", begin: "2021-05-01 10:00", end: "2021-05-01 12:00"},
		// The zero-length id sorts last.
		inc{id: "2021-06-01-a-long", begin: "2021-06-01 10:00", end: "2021-06-01 12:00"},
		inc{id: "2021-06-01-b-zero", begin: "2021-06-01 10:00", end: "2021-06-01 10:00"},
	)
	first := len(find(t, a, "2021-05-01-a-zero").Overlapping)
	second := len(find(t, a, "2021-06-01-b-zero").Overlapping)
	if first != second {
		t.Errorf("zero-length incident at another's begin: %d overlaps when its id sorts first, %d when it sorts last", first, second)
	}
	for _, id := range []string{"2021-05-01-a-zero", "2021-05-01-b-long", "2021-06-01-a-long", "2021-06-01-b-zero"} {
		i := find(t, a, id)
		for _, o := range i.Overlapping {
			if !slices.Contains(o.Overlapping, i) {
				t.Errorf("%s overlaps %s but not the other way round", id, o.ID)
			}
		}
	}
}

func TestRelatedSymmetric(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2021-01-01-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00", related: []string{"2021-03-01-c", "2021-02-01-b"}},
		inc{id: "2021-02-01-b", begin: "2021-02-01 10:00", end: "2021-02-01 11:00"},
		// c and a list each other: still one link each way.
		inc{id: "2021-03-01-c", begin: "2021-03-01 10:00", end: "2021-03-01 11:00", related: []string{"2021-01-01-a"}},
		inc{id: "2021-04-01-d", begin: "2021-04-01 10:00", end: "2021-04-01 11:00", related: []string{"2021-02-01-b"}},
		inc{id: "2021-05-01-e", begin: "2021-05-01 10:00", end: "2021-05-01 11:00"},
	)
	want := map[string][]string{
		"2021-01-01-a": {"2021-02-01-b", "2021-03-01-c"}, // by begin, not as listed
		"2021-02-01-b": {"2021-01-01-a", "2021-04-01-d"},
		"2021-03-01-c": {"2021-01-01-a"},
		"2021-04-01-d": {"2021-02-01-b"},
		"2021-05-01-e": {},
	}
	for _, i := range a.Incidents {
		if got := ids(i.Related); !slices.Equal(got, want[i.ID]) {
			t.Errorf("%s related %v, want %v", i.ID, got, want[i.ID])
		}
	}
}

func TestRelatedErrors(t *testing.T) {
	cases := []struct {
		name    string
		incs    []inc
		prefix  string
		errFrag string
	}{
		{
			name:    "itself",
			incs:    []inc{{id: "2021-01-01-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00", related: []string{"2021-01-01-a"}}},
			prefix:  "content/2021-01-01-a/en.md:9:11: ",
			errFrag: "cannot be related to itself",
		},
		{
			name: "unknown, with suggestion",
			incs: []inc{
				{id: "2021-01-01-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00", related: []string{"2021-02-01-bee"}},
				{id: "2021-02-01-b", begin: "2021-02-01 10:00", end: "2021-02-01 11:00"},
			},
			prefix:  "content/2021-01-01-a/en.md:9:11: ",
			errFrag: `related incident "2021-02-01-bee" does not exist; did you mean "2021-02-01-b"?`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := archive.Link(parse(t, c.incs...), langs, archive.Options{})
			if err == nil {
				t.Fatalf("Link succeeded with %d incidents; want an error", len(a.Incidents))
			}
			if a != nil {
				t.Errorf("Link returned an archive along with an error")
			}
			if !strings.Contains(err.Error(), c.prefix+"") || !strings.Contains(err.Error(), c.errFrag) {
				t.Errorf("error %q; want %q … %q", err, c.prefix, c.errFrag)
			}
		})
	}
}

func TestPrevNext(t *testing.T) {
	a := link(t, archive.Options{},
		// Same day: begin time decides, not the id.
		inc{id: "2021-06-01-zulu", begin: "2021-06-01 08:00", end: "2021-06-01 09:00"},
		inc{id: "2021-06-01-alpha", begin: "2021-06-01 12:00", end: "2021-06-01 13:00"},
		// Same begin: the id decides.
		inc{id: "2021-06-02-b", begin: "2021-06-02 10:00", end: "2021-06-02 11:00"},
		inc{id: "2021-06-02-a", begin: "2021-06-02 10:00", end: "2021-06-02 12:00"},
		// Earlier in UTC although its local date is later.
		inc{id: "2021-06-01-tokyo", tz: "Asia/Tokyo", begin: "2021-06-01 09:00", end: "2021-06-01 10:00"},
		inc{id: "2019-01-01-old", begin: "2019-01-01 10:00", end: "2019-01-01 11:00"},
	)
	oldestFirst := []string{"2019-01-01-old", "2021-06-01-tokyo", "2021-06-01-zulu", "2021-06-01-alpha", "2021-06-02-a", "2021-06-02-b"}
	newestFirst := slices.Clone(oldestFirst)
	slices.Reverse(newestFirst)
	if got := ids(a.Incidents); !slices.Equal(got, newestFirst) {
		t.Fatalf("Incidents = %v, want newest first %v", got, newestFirst)
	}
	for k, id := range oldestFirst {
		i := find(t, a, id)
		var prev, next string
		if i.Prev != nil {
			prev = i.Prev.ID
		}
		if i.Next != nil {
			next = i.Next.ID
		}
		wantPrev, wantNext := "", ""
		if k > 0 {
			wantPrev = oldestFirst[k-1]
		}
		if k+1 < len(oldestFirst) {
			wantNext = oldestFirst[k+1]
		}
		if prev != wantPrev || next != wantNext {
			t.Errorf("%s: prev %q next %q, want prev %q next %q", id, prev, next, wantPrev, wantNext)
		}
	}
}

func TestTerms(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2019-01-01-old", begin: "2019-01-01 10:00", end: "2019-01-01 11:00",
			products: []string{"Cloud Pub/Sub", "BigQuery"}, regions: []string{"us-central1"}, causes: []string{"config-change"}},
		inc{id: "2020-01-01-mid", begin: "2020-01-01 10:00", end: "2020-01-01 11:00",
			products: []string{"cloud pub sub"}, regions: []string{"us-central1", "global"}},
		inc{id: "2021-01-01-new", begin: "2021-01-01 10:00", end: "2021-01-01 11:00",
			products: []string{"Virtual Private Cloud (VPC)", "Cloud Pub/Sub"}, causes: []string{"config-change"}},
	)
	type term struct{ name, slug string }
	check := func(tax archive.Taxonomy, want []term, members map[string][]string) {
		t.Helper()
		var got []term
		for _, tm := range a.Terms[tax] {
			got = append(got, term{tm.Name, tm.Slug})
			if tm.Taxonomy != tax {
				t.Errorf("%s term %q has taxonomy %q", tax, tm.Slug, tm.Taxonomy)
			}
			if w, ok := members[tm.Slug]; ok {
				if g := ids(tm.Incidents); !slices.Equal(g, w) {
					t.Errorf("%s/%s incidents %v, want newest first %v", tax, tm.Slug, g, w)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s terms %v, want %v", tax, got, want)
		}
	}
	check(archive.Products,
		[]term{{"BigQuery", "bigquery"}, {"Cloud Pub/Sub", "cloud-pub-sub"}, {"Virtual Private Cloud (VPC)", "virtual-private-cloud-vpc"}},
		map[string][]string{
			"cloud-pub-sub":             {"2021-01-01-new", "2020-01-01-mid", "2019-01-01-old"},
			"bigquery":                  {"2019-01-01-old"},
			"virtual-private-cloud-vpc": {"2021-01-01-new"},
		})
	check(archive.Regions,
		[]term{{"global", "global"}, {"us-central1", "us-central1"}},
		map[string][]string{"us-central1": {"2020-01-01-mid", "2019-01-01-old"}, "global": {"2020-01-01-mid"}})
	check(archive.Causes,
		[]term{{"config-change", "config-change"}},
		map[string][]string{"config-change": {"2021-01-01-new", "2019-01-01-old"}})

	// Each incident's own terms keep the order its original lists them in.
	newest := find(t, a, "2021-01-01-new")
	var slugs []string
	for _, tm := range newest.Terms.Of(archive.Products) {
		slugs = append(slugs, tm.Slug)
	}
	if want := []string{"virtual-private-cloud-vpc", "cloud-pub-sub"}; !slices.Equal(slugs, want) {
		t.Errorf("new's products %v, want %v", slugs, want)
	}
	if got := len(find(t, a, "2020-01-01-mid").Terms.Of(archive.Causes)); got != 0 {
		t.Errorf("mid has %d causes, want 0", got)
	}
}

func TestSlug(t *testing.T) {
	cases := map[string]string{
		"Cloud Pub/Sub":               "cloud-pub-sub",
		"cloud pub sub":               "cloud-pub-sub",
		"Virtual Private Cloud (VPC)": "virtual-private-cloud-vpc",
		"europe-west2":                "europe-west2",
		"  Leading and trailing  ":    "leading-and-trailing",
		"a -- b":                      "a-b",
		"Übersicht":                   "übersicht",
		"日本語 サービス":                    "日本語-サービス",
		"BigQuery":                    "bigquery",
		"--":                          "-",
	}
	for in, want := range cases {
		if got := archive.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSimilar(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2021-06-10-subject", begin: "2021-06-10 10:00", end: "2021-06-10 11:00",
			products: []string{"BigQuery"}, regions: []string{"us"}, causes: []string{"disk-full"}, related: []string{"2021-06-12-related"}},
		// Shares only the cause, but is far away in time.
		inc{id: "2018-01-01-cause", begin: "2018-01-01 10:00", end: "2018-01-01 11:00",
			products: []string{"Cloud SQL"}, causes: []string{"disk-full"}},
		// Shares only the product, and is close in time.
		inc{id: "2021-06-09-product", begin: "2021-06-09 10:00", end: "2021-06-09 11:00",
			products: []string{"BigQuery"}},
		// Shares only the region, closer still.
		inc{id: "2021-06-10-region", begin: "2021-06-10 12:00", end: "2021-06-10 13:00",
			products: []string{"Cloud CDN"}, regions: []string{"us"}},
		// Shares the product and the region: outranks product alone.
		inc{id: "2020-01-01-product-region", begin: "2020-01-01 10:00", end: "2020-01-01 11:00",
			products: []string{"BigQuery"}, regions: []string{"us"}},
		// Shares everything but is related: listed there, not here.
		inc{id: "2021-06-12-related", begin: "2021-06-12 10:00", end: "2021-06-12 11:00",
			products: []string{"BigQuery"}, regions: []string{"us"}, causes: []string{"disk-full"}},
		// Shares nothing.
		inc{id: "2021-06-11-unrelated", begin: "2021-06-11 10:00", end: "2021-06-11 11:00",
			products: []string{"Gmail"}, regions: []string{"eu"}, causes: []string{"bgp"}},
	)
	subject := find(t, a, "2021-06-10-subject")
	want := []string{"2018-01-01-cause", "2020-01-01-product-region", "2021-06-09-product", "2021-06-10-region"}
	if got := ids(subject.Similar); !slices.Equal(got, want) {
		t.Errorf("similar %v, want %v", got, want)
	}
	rel := find(t, a, "2021-06-12-related")
	if slices.Contains(rel.Similar, subject) {
		t.Errorf("related incident lists the subject as similar too")
	}
	if got := ids(find(t, a, "2021-06-11-unrelated").Similar); len(got) != 0 {
		t.Errorf("an incident sharing nothing has similar %v", got)
	}
	for _, i := range a.Incidents {
		if len(i.Similar) > 5 {
			t.Errorf("%s lists %d similar incidents", i.ID, len(i.Similar))
		}
		if slices.Contains(i.Similar, i) {
			t.Errorf("%s is similar to itself", i.ID)
		}
	}
}

func TestDrafts(t *testing.T) {
	incs := []inc{
		{id: "2021-01-01-public", begin: "2021-01-01 10:00", end: "2021-01-01 11:00",
			products: []string{"BigQuery"}, related: []string{"2021-02-01-draft"}},
		{id: "2021-02-01-draft", begin: "2021-02-01 10:00", end: "2021-02-01 11:00", draft: true,
			products: []string{"BigQuery", "Secret Product"}, timeline: []string{"2021-02-01 10:00"}},
		{id: "2021-03-01-later", begin: "2021-03-01 10:00", end: "2021-03-01 11:00"},
	}

	t.Run("hidden", func(t *testing.T) {
		a := link(t, archive.Options{}, incs...)
		if got := ids(a.Incidents); !slices.Equal(got, []string{"2021-03-01-later", "2021-01-01-public"}) {
			t.Errorf("Incidents = %v, want the draft left out", got)
		}
		pub := find(t, a, "2021-01-01-public")
		if len(pub.Related) != 0 {
			t.Errorf("related to a hidden draft: %v", ids(pub.Related))
		}
		if pub.Next == nil || pub.Next.ID != "2021-03-01-later" {
			t.Errorf("public's next is not the later incident, skipping the draft")
		}
		for _, tm := range a.Terms[archive.Products] {
			if tm.Slug == "secret-product" {
				t.Errorf("a term only a draft has is listed")
			}
			for _, i := range tm.Incidents {
				if i.Draft {
					t.Errorf("term %s lists draft %s", tm.Slug, i.ID)
				}
			}
		}
	})

	t.Run("shown with Drafts", func(t *testing.T) {
		a := link(t, archive.Options{Drafts: true}, incs...)
		if len(a.Incidents) != 3 {
			t.Fatalf("Incidents = %v, want all three", ids(a.Incidents))
		}
		d := find(t, a, "2021-02-01-draft")
		if !d.Draft {
			t.Errorf("draft incident not marked Draft")
		}
		if got := ids(d.Related); !slices.Equal(got, []string{"2021-01-01-public"}) {
			t.Errorf("draft related %v", got)
		}
		if got := ids(find(t, a, "2021-01-01-public").Related); !slices.Equal(got, []string{"2021-02-01-draft"}) {
			t.Errorf("public related %v", got)
		}
	})

	t.Run("a draft is still checked", func(t *testing.T) {
		bad := incs[1]
		bad.tz = "Mars/Olympus_Mons"
		_, err := archive.Link(parse(t, incs[0], bad, incs[2]), langs, archive.Options{})
		if err == nil || !strings.Contains(err.Error(), "content/2021-02-01-draft/en.md:4:11: unknown time zone") {
			t.Errorf("error %v; want the draft's bad time zone reported", err)
		}
	})
}

func TestDurationAcrossDST(t *testing.T) {
	a := link(t, archive.Options{},
		// Clocks jump from 02:00 to 03:00: 01:30–03:30 lasts one hour.
		inc{id: "2021-03-14-spring", tz: "America/Los_Angeles", begin: "2021-03-14 01:30", end: "2021-03-14 03:30"},
		// Clocks fall back from 02:00 to 01:00: 00:30–02:30 lasts three.
		inc{id: "2021-11-07-fall", tz: "America/Los_Angeles", begin: "2021-11-07 00:30", end: "2021-11-07 02:30"},
		// Sydney's summer time ends in April: 01:00–04:00 lasts four hours.
		inc{id: "2021-04-04-sydney", tz: "Australia/Sydney", begin: "2021-04-04 01:00", end: "2021-04-04 04:00"},
		// An RFC 3339 end with its offset.
		inc{id: "2021-11-07-offset", tz: "America/Los_Angeles", begin: "2021-11-07 00:50", end: "2021-11-07T01:10:00-08:00"},
		// Zero length is allowed.
		inc{id: "2021-06-01-zero", tz: "Europe/London", begin: "2021-06-01 10:00", end: "2021-06-01 10:00"},
	)
	cases := []struct {
		id         string
		dur        time.Duration
		begin, end string
	}{
		{"2021-03-14-spring", time.Hour, "2021-03-14T09:30:00Z", "2021-03-14T10:30:00Z"},
		{"2021-11-07-fall", 3 * time.Hour, "2021-11-07T07:30:00Z", "2021-11-07T10:30:00Z"},
		{"2021-04-04-sydney", 4 * time.Hour, "2021-04-03T14:00:00Z", "2021-04-03T18:00:00Z"},
		{"2021-11-07-offset", 80 * time.Minute, "2021-11-07T07:50:00Z", "2021-11-07T09:10:00Z"},
		{"2021-06-01-zero", 0, "2021-06-01T09:00:00Z", "2021-06-01T09:00:00Z"},
	}
	for _, c := range cases {
		i := find(t, a, c.id)
		if i.Duration != c.dur {
			t.Errorf("%s lasts %s, want %s", c.id, i.Duration, c.dur)
		}
		b, _ := time.Parse(time.RFC3339, c.begin)
		e, _ := time.Parse(time.RFC3339, c.end)
		if !i.Begin.Equal(b) || !i.End.Equal(e) {
			t.Errorf("%s from %s to %s, want %s to %s", c.id, i.Begin, i.End, b, e)
		}
		if i.Begin.Location() != time.UTC || i.End.Location() != time.UTC {
			t.Errorf("%s times are not in UTC", c.id)
		}
		if i.Location == nil || i.Location.String() != i.Original.Meta.Timezone.V {
			t.Errorf("%s location %v, want %s", c.id, i.Location, i.Original.Meta.Timezone.V)
		}
	}
}

// TestTranslations: a translation inherits the facts and keeps its own
// timeline text at the original's instants; a language without a version
// falls back to the original.
func TestTranslations(t *testing.T) {
	orig := inc{id: "2021-06-01-a", tz: "Asia/Taipei", begin: "2021-06-01 09:00", end: "2021-06-01 10:00", timeline: []string{"2021-06-01 09:00", "09:30"}}
	pages := parse(t, orig)
	// The translation writes the date again on its second item, where the
	// original does not: its page shows the day there, the original's not.
	tr := "---\ntitle: 事故\nsummary: 壞了。\n---\n\n## 時間軸 {#timeline}\n\n- 2021-06-01 09:00 — 開始。\n- 2021-06-01 09:30 — 結束。\n"
	var errs diag.List
	p := content.Parse("content/2021-06-01-a/zh-TW.md", "2021-06-01-a", "zh-TW", []byte(tr), &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.Err())
	}
	a, err := archive.Link(append(pages, p), langs, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := find(t, a, "2021-06-01-a")
	if i.Original.Lang != "en" {
		t.Errorf("original is %s, want en", i.Original.Lang)
	}
	if got, ok := i.Page("zh-TW"); !ok || got != p {
		t.Errorf("Page(zh-TW) is not the translation")
	}
	if got, ok := i.Page("ja"); ok || got != i.Original {
		t.Errorf("Page(ja) does not fall back to the original")
	}
	zh := i.Timeline("zh-TW")
	if len(zh) != 2 || zh[1].Text != "結束。" || zh[1].Anchor != "t-20210601T0130Z" || !zh[1].Instant.Equal(i.Events()[1].Instant) {
		t.Errorf("zh-TW timeline %+v", zh)
	}
	if len(zh) == 2 && (!zh[0].NewDay || !zh[1].NewDay || !i.Events()[0].NewDay || i.Events()[1].NewDay) {
		t.Errorf("days started: zh-TW %v %v, en %v %v; want true true, true false", zh[0].NewDay, zh[1].NewDay, i.Events()[0].NewDay, i.Events()[1].NewDay)
	}
	if len(zh) > 0 && zh[0].Text == i.Events()[0].Text {
		t.Errorf("zh-TW's first event has the original's text %q", zh[0].Text)
	}
	if ja := i.Timeline("ja"); len(ja) != 2 || ja[1].Text != "Something happened." {
		t.Errorf("ja timeline does not fall back to the original: %+v", ja)
	}
}

// An incident without a stated end lasts, as far as anything knows, until
// its last event, or an instant when none follows its begin: overlaps and
// durations use that window.
func TestOpenIncidentWindow(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2022-07-19-open", begin: "2022-07-19 14:00", timeline: []string{"2022-07-19 14:00", "17:30"}},
		inc{id: "2022-07-19-later", begin: "2022-07-19 17:00", end: "2022-07-19 18:00"},
		inc{id: "2022-07-19-after", begin: "2022-07-19 17:30", end: "2022-07-19 18:00"},
		inc{id: "2022-07-19-instant", begin: "2022-07-19 17:45"},
	)
	open := find(t, a, "2022-07-19-open")
	if open.EndStated() || !open.End.IsZero() || open.Duration != 3*time.Hour+30*time.Minute || !open.Through.Equal(time.Date(2022, 7, 19, 17, 30, 0, 0, time.UTC)) {
		t.Errorf("open: end %v, through %v, duration %v", open.End, open.Through, open.Duration)
	}
	if got := ids(open.Overlapping); !slices.Equal(got, []string{"2022-07-19-later"}) {
		t.Errorf("open overlaps %v; want the one that began before its last event, not the one beginning at it", got)
	}
	instant := find(t, a, "2022-07-19-instant")
	if instant.Duration != 0 || !instant.Through.Equal(instant.Begin) {
		t.Errorf("instant: duration %v, through %v", instant.Duration, instant.Through)
	}
	if got := ids(instant.Overlapping); !slices.Equal(got, []string{"2022-07-19-later", "2022-07-19-after"}) {
		t.Errorf("instant overlaps %v; want the windows it falls in", got)
	}
}

// A product belongs to its incident's organization: the same name under
// two organizations is two terms, each marked shared; under one it is one.
func TestProductsBelongToOrganizations(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2021-01-01-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00", org: "AWS", products: []string{"Storage", "DNS"}},
		inc{id: "2021-02-01-b", begin: "2021-02-01 10:00", end: "2021-02-01 11:00", org: "Google Cloud", products: []string{"Storage"}},
		inc{id: "2021-03-01-c", begin: "2021-03-01 10:00", end: "2021-03-01 11:00", org: "AWS", products: []string{"storage"}},
		inc{id: "2021-04-01-d", begin: "2021-04-01 10:00", end: "2021-04-01 11:00", products: []string{"DNS"}},
	)
	got := map[string]string{}
	for _, t := range a.Terms[archive.Products] {
		org := ""
		if t.Organization != nil {
			org = t.Organization.Name
		}
		got[t.Slug] = fmt.Sprintf("%s|%s|%v|%d", t.Key(), org, t.Shared, len(t.Incidents))
	}
	want := map[string]string{
		"aws-storage":          "Storage (AWS)|AWS|true|2",
		"google-cloud-storage": "Storage (Google Cloud)|Google Cloud|true|1",
		"aws-dns":              "DNS (AWS)|AWS|true|1",
		"dns":                  "DNS||true|1",
	}
	if !maps.Equal(got, want) {
		t.Errorf("product terms:\n got %v\nwant %v", got, want)
	}
	if n := len(a.Terms[archive.Organizations]); n != 2 {
		t.Errorf("%d organizations, want 2", n)
	}
	if org := find(t, a, "2021-04-01-d").Organization(); org != nil {
		t.Errorf("an incident without organization has %q", org.Name)
	}
}

// Two different products whose pages would have the same address are an
// error at the later one, naming the earlier.
func TestProductPageClash(t *testing.T) {
	pages := parse(t,
		inc{id: "2021-01-01-a", begin: "2021-01-01 10:00", end: "2021-01-01 11:00", org: "Google", products: []string{"Cloud Storage"}},
		inc{id: "2021-02-01-b", begin: "2021-02-01 10:00", end: "2021-02-01 11:00", org: "Google Cloud", products: []string{"Storage"}},
	)
	_, err := archive.Link(pages, langs, archive.Options{})
	if err == nil {
		t.Fatal("two products on one page linked without an error")
	}
	want := `content/2021-02-01-b/en.md:8:12: product "Storage" of Google Cloud would have the same page (google-cloud-storage) as the product "Cloud Storage" of Google in content/2021-01-01-a/en.md; name one`
	if !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestSimilarFromStatedFactsOnly: incidents sharing only a cause (or a
// product) that says the report does not know it, or only lacking the
// same facts, are not similar; a stated cause still makes them so.
func TestSimilarFromStatedFactsOnly(t *testing.T) {
	a := link(t, archive.Options{},
		inc{id: "2021-06-10-a", begin: "2021-06-10 10:00", org: "Example", products: []string{"Alpha"}, causes: []string{"unknown"}},
		inc{id: "2021-06-11-b", begin: "2021-06-11 10:00", org: "Other", products: []string{"Beta"}, causes: []string{"Unknown"}},
		inc{id: "2021-06-12-c", begin: "2021-06-12 10:00", org: "Third", products: []string{"Gamma"}, causes: []string{"N/A"}, regions: []string{"none"}},
		inc{id: "2021-06-13-d", begin: "2021-06-13 10:00", org: "Fourth", products: []string{"n/a"}, causes: []string{"none"}},
		inc{id: "2021-06-14-e", begin: "2021-06-14 10:00", org: "Fifth", products: []string{"N/A"}, causes: []string{"TBD"}},
		// No causes at all, like the next one.
		inc{id: "2021-06-15-f", begin: "2021-06-15 10:00", org: "Sixth", products: []string{"Delta"}},
		inc{id: "2021-06-16-g", begin: "2021-06-16 10:00", org: "Seventh", products: []string{"Epsilon"}},
		// Two that state the same cause beside "unknown".
		inc{id: "2021-06-17-h", begin: "2021-06-17 10:00", org: "Eighth", products: []string{"Zeta"}, causes: []string{"unknown", "disk-full"}},
		inc{id: "2021-06-18-i", begin: "2021-06-18 10:00", org: "Ninth", products: []string{"Eta"}, causes: []string{"disk-full"}},
	)
	for _, i := range a.Incidents {
		want := []string{}
		switch i.ID {
		case "2021-06-17-h":
			want = []string{"2021-06-18-i"}
		case "2021-06-18-i":
			want = []string{"2021-06-17-h"}
		}
		if got := ids(i.Similar); !slices.Equal(got, want) {
			t.Errorf("%s: similar %v, want %v", i.ID, got, want)
		}
	}
	// "Unknown" is still a cause with its page: what is written is shown.
	unknown := 0
	for _, term := range a.Terms[archive.Causes] {
		if strings.EqualFold(term.Name, "unknown") {
			unknown = len(term.Incidents)
			if term.Stated() {
				t.Errorf("the cause %q states a fact", term.Name)
			}
		}
	}
	if unknown != 3 {
		t.Errorf("%d incidents under the cause Unknown, want 3", unknown)
	}
}
