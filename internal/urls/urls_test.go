package urls

import (
	"net/url"
	"testing"
	"time"
)

var taxonomies = []string{"products", "regions", "causes", "organizations"}

var at = time.Date(2017, 3, 13, 17, 22, 0, 0, time.UTC)

// every kind of location, with the path and file it must have.
var cases = []struct {
	loc  Loc
	path string
	file string
}{
	{HomeLoc(), "/", "index.html"},
	{ListLoc("en"), "/en/", "en/index.html"},
	{ListLoc("zh-TW").Nth(3), "/zh-TW/page/3/", "zh-TW/page/3/index.html"},
	{IncidentLoc("en", "2017-03-13-bq"), "/en/incidents/2017-03-13-bq/", "en/incidents/2017-03-13-bq/index.html"},
	{EventLoc("ja", "2017-03-13-bq", at, 1), "/ja/incidents/2017-03-13-bq/#t-20170313T1722Z", "ja/incidents/2017-03-13-bq/index.html"},
	{EventLoc("ja", "2017-03-13-bq", at, 2), "/ja/incidents/2017-03-13-bq/#t-20170313T1722Z-2", "ja/incidents/2017-03-13-bq/index.html"},
	{TimelineLoc("en"), "/en/timeline/", "en/timeline/index.html"},
	{YearLoc("en", 2017), "/en/timeline/2017/", "en/timeline/2017/index.html"},
	{MonthLoc("en", 2017, time.March), "/en/timeline/2017/03/", "en/timeline/2017/03/index.html"},
	{MonthLoc("ja", 2017, time.December), "/ja/timeline/2017/12/", "ja/timeline/2017/12/index.html"},
	{TimelineEventLoc("en", "2017-03-13-bq", at.In(time.FixedZone("X", -10*3600))), "/en/timeline/2017/03/#i-2017-03-13-bq", "en/timeline/2017/03/index.html"},
	// An incident that began on New Year's Eve in its zone is listed in
	// that year, though it was already the next in UTC.
	{TimelineEventLoc("en", "2016-12-31-x", time.Date(2017, 1, 1, 3, 0, 0, 0, time.UTC).In(time.FixedZone("PST", -8*3600))), "/en/timeline/2016/12/#i-2016-12-31-x", "en/timeline/2016/12/index.html"},
	{TermsLoc("en", "products"), "/en/products/", "en/products/index.html"},
	{TermsLoc("en", "organizations"), "/en/organizations/", "en/organizations/index.html"},
	// A long index of terms has pages, beside a term named "page" and
	// that term's own pages.
	{TermsLoc("en", "products").Nth(2), "/en/products/page/2/", "en/products/page/2/index.html"},
	{TermLoc("en", "products", "page"), "/en/products/page/", "en/products/page/index.html"},
	{TermLoc("en", "products", "page").Nth(2), "/en/products/page/page/2/", "en/products/page/page/2/index.html"},
	{TermLoc("en", "regions", "us-east1"), "/en/regions/us-east1/", "en/regions/us-east1/index.html"},
	{TermLoc("en", "causes", "config change"), "/en/causes/config%20change/", "en/causes/config change/index.html"},
	{TermLoc("zh-TW", "products", "雲端儲存").Nth(2), "/zh-TW/products/" + url.PathEscape("雲端儲存") + "/page/2/", "zh-TW/products/雲端儲存/page/2/index.html"},
	{SearchLoc("en"), "/en/search/", "en/search/index.html"},
	{FeedLoc("en"), "/en/feed.xml", "en/feed.xml"},
	{NotFoundLoc(""), "/404.html", "404.html"},
	{NotFoundLoc("de"), "/de/404.html", "de/404.html"},
	{SitemapLoc(), "/sitemap.xml", "sitemap.xml"},
	{SitemapPartLoc(1), "/sitemap-1.xml", "sitemap-1.xml"},
	{SitemapPartLoc(12), "/sitemap-12.xml", "sitemap-12.xml"},
	{ExportLoc(), "/incidents.json", "incidents.json"},
	{SearchAPILoc(), "/api/search", "api/search"},
	{AssetLoc("style.css"), "/style.css", "style.css"},
}

func TestBuildAndParseEveryKind(t *testing.T) {
	s := Scheme{Taxonomies: taxonomies}
	for _, c := range cases {
		if got := c.loc.Path(); got != c.path {
			t.Errorf("%+v: Path %q, want %q", c.loc, got, c.path)
		}
		if got := c.loc.File(); got != c.file {
			t.Errorf("%+v: File %q, want %q", c.loc, got, c.file)
		}
		// Round trip: the path a browser asks for (decoded, as in
		// url.URL.Path) and the file written both read back as the location.
		u, err := url.Parse(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Parse(u.Path + "#" + u.Fragment); got != c.loc {
			t.Errorf("Parse(%q) = %+v, want %+v", u.Path, got, c.loc)
		}
		want := c.loc
		want.Fragment = ""
		if c.loc.Kind == SearchAPI {
			continue // not a file of the site
		}
		if got := s.ParseFile(c.file); got != want {
			t.Errorf("ParseFile(%q) = %+v, want %+v", c.file, got, want)
		}
	}
}

func TestBasePath(t *testing.T) {
	s, err := New("https://example.org/post%20mortems/", taxonomies)
	if err != nil {
		t.Fatal(err)
	}
	inc := IncidentLoc("en", "2017-03-13-bq")
	if got, want := s.URL(inc), "/post%20mortems/en/incidents/2017-03-13-bq/"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got, want := s.Abs(inc), "https://example.org/post%20mortems/en/incidents/2017-03-13-bq/"; got != want {
		t.Errorf("Abs = %q, want %q", got, want)
	}
	if got, want := s.BaseURL(), "https://example.org/post%20mortems/"; got != want {
		t.Errorf("BaseURL = %q, want %q", got, want)
	}
	if got := s.ParseURL("/post mortems/en/incidents/2017-03-13-bq/"); got != inc {
		t.Errorf("ParseURL under the base path = %+v, want %+v", got, inc)
	}
	for _, outside := range []string{"/en/incidents/2017-03-13-bq/", "/post mortemsX/en/", "/post mortems"} {
		if got := s.ParseURL(outside); got.Kind != Unknown {
			t.Errorf("ParseURL(%q) = %+v, want Unknown: it is outside the site", outside, got)
		}
	}
	root, err := New("http://127.0.0.1:1313", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := root.URL(HomeLoc()); got != "/" {
		t.Errorf("home at the root = %q", got)
	}
	for _, bad := range []string{"", "/archive/", "example.org", "://x"} {
		if _, err := New(bad, nil); err == nil {
			t.Errorf("New(%q) accepted a base URL that is not absolute", bad)
		}
	}
}

func TestParseRejects(t *testing.T) {
	s := Scheme{Taxonomies: []string{"products"}}
	for _, p := range []string{
		"", "en/", "/en", "//en/", "/en//", "/en/../de/",
		"/en/incidents/", "/en/incidents/a/b/", "/en/incidents/x/page/2/",
		"/en/timeline/02017/", "/en/timeline/year/", "/en/timeline/2017/page/2/",
		"/en/timeline/2017/3/", "/en/timeline/2017/13/", "/en/timeline/2017/00/", "/en/timeline/2017/+3/", "/en/timeline/2017/03/x/",
		"/en/page/1/", "/en/page/x/", "/en/products/x/page/01/",
		"/en/unknown/", "/en/unknown/x/", "/en/regions/x/", // not a taxonomy of this site
		"/en/feed.xml/", "/en/style.css", "/a.b/", "/api/search/x",
		"/sitemap-01.xml", "/sitemap-+1.xml", "/sitemap-1.xml/", "/en/sitemap-1.xml",
	} {
		if got := s.Parse(p); got.Kind != Unknown {
			t.Errorf("Parse(%q) = %+v, want Unknown", p, got)
		}
	}
}

func TestRel(t *testing.T) {
	inc := IncidentLoc("en", "2017-03-13-bq")
	for _, c := range []struct {
		from, to Loc
		want     string
	}{
		{inc, TimelineEventLoc("en", "2017-03-13-bq", at), "../../timeline/2017/03/#i-2017-03-13-bq"},
		{inc, IncidentLoc("en", "2018-01-02-gcs").At("t-20180102T0000Z"), "../2018-01-02-gcs/#t-20180102T0000Z"},
		{inc, inc.At("impact"), "#impact"},
		{inc, inc, "./"},
		{inc, TermLoc("en", "causes", "a b"), "../../causes/a%20b/"},
		{inc, AssetLoc("style.css"), "../../../style.css"},
		{HomeLoc(), ListLoc("de"), "de/"},
		{ListLoc("en").Nth(2), ListLoc("en"), "../../"},
	} {
		got := Rel(c.from, c.to)
		if got != c.want {
			t.Errorf("Rel(%s, %s) = %q, want %q", c.from.Path(), c.to.Path(), got, c.want)
		}
		// The link resolves, from the page, to the target's path.
		base, _ := url.Parse("https://example.org/x" + c.from.Path())
		ref, err := url.Parse(got)
		if err != nil {
			t.Fatal(err)
		}
		if res, want := base.ResolveReference(ref).String(), "https://example.org/x"+c.to.Path(); res != want {
			t.Errorf("Rel(%s, %s) = %q resolves to %q, want %q", c.from.Path(), c.to.Path(), got, res, want)
		}
	}
}

func TestEventAnchors(t *testing.T) {
	for n := 1; n <= 3; n++ {
		a := EventAnchor(at.In(time.FixedZone("JST", 9*3600)), n)
		got, gotN, ok := ParseEventAnchor(a)
		if !ok || !got.Equal(at) || gotN != n {
			t.Errorf("ParseEventAnchor(%q) = %v, %d, %v; want %v, %d", a, got, gotN, ok, at, n)
		}
	}
	for _, bad := range []string{"", "timeline", "t-2017", "t-20170313T1722", "t-20170313T1722Z-1", "t-20170313T1722Z-02", "t-20170313T1722Z-x", "t-20171313T1722Z"} {
		if _, _, ok := ParseEventAnchor(bad); ok {
			t.Errorf("ParseEventAnchor(%q) accepted it", bad)
		}
	}
}

func TestInLang(t *testing.T) {
	if got, want := TermLoc("en", "products", "gcs").Nth(2).InLang("ja").Path(), "/ja/products/gcs/page/2/"; got != want {
		t.Errorf("InLang = %q, want %q", got, want)
	}
	if got := SitemapLoc().InLang("ja"); got != SitemapLoc() {
		t.Errorf("the sitemap has no language; InLang gave %+v", got)
	}
}

func TestEventAnchorIsTheUTCMinute(t *testing.T) {
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	la := zone("America/Los_Angeles")
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2017, 3, 13, 10, 22, 0, 0, la), "t-20170313T1722Z"},
		{time.Date(2017, 3, 13, 10, 22, 59, 999, la), "t-20170313T1722Z"},
		{time.Date(2021, 12, 31, 23, 5, 0, 0, time.UTC), "t-20211231T2305Z"},
		{time.Date(2021, 6, 1, 9, 0, 0, 0, zone("Asia/Taipei")), "t-20210601T0100Z"},
	} {
		if got := EventAnchor(c.t, 1); got != c.want {
			t.Errorf("EventAnchor(%s) = %q, want %q", c.t, got, c.want)
		}
	}
}
