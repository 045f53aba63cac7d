package build_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/sitetest"
)

// maxPage is the most an HTML page may weigh, whatever the archive's size.
const maxPage = 300 << 10

// maxOutput is the most the served output of a generated archive of at
// least maxOutputFrom incidents may weigh against its Markdown. A small
// archive weighs more for its size: the pages of the whole site (search,
// taxonomies, the timeline's index) are there whatever its size.
const (
	maxOutput     = 6.0
	maxOutputFrom = 10_000
)

// markdownSize is the size of the Markdown files under dir.
func markdownSize(t testing.TB, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		info, err := d.Info()
		total += info.Size()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// largestOf is the largest of the HTML files matching a pattern under
// dest, and its size.
func largestOf(t testing.TB, dest, pattern string) (string, int64) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dest, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s (%v)", pattern, err)
	}
	var largest string
	var size int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil && info.Size() > size {
			largest, size = f, info.Size()
		}
	}
	return largest, size
}

// siteSize walks a built site: its total size, and its largest HTML page.
func siteSize(t testing.TB, dest string) (total int64, largest string, largestSize int64) {
	t.Helper()
	err := filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		if strings.HasSuffix(p, ".html") && info.Size() > largestSize {
			largest, largestSize = p, info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total, largest, largestSize
}

// TestPagesBoundedAtAThousandIncidents builds a generated archive of 1,000
// incidents: no page passes maxPage, and the pages that summarise many
// incidents (the overview, a year, a term's first page) stay well under.
func TestPagesBoundedAtAThousandIncidents(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 1,000 incidents")
	}
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 1000, Langs: []string{"en", "zh-TW"}, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
		t.Fatal(err)
	}
	total, largest, size := siteSize(t, dest)
	t.Logf("output %d bytes, %.2f× the Markdown; largest page %s, %d bytes", total, float64(total)/float64(markdownSize(t, filepath.Join(dir, "content"))), largest, size)
	if size > maxPage {
		t.Errorf("largest page %s is %d bytes, over %d", largest, size, maxPage)
	}
	// Month pages list every event of their month and year pages draw
	// theirs: at 1,000 incidents, a month holds about 4 of them.
	for _, pattern := range []string{"*/timeline/*/*/index.html", "*/timeline/*/index.html"} {
		page, size := largestOf(t, dest, pattern)
		t.Logf("largest %s: %s, %d bytes", pattern, page, size)
		if size > 100<<10 {
			t.Errorf("%s is %d bytes, want under 100 KB at 1,000 incidents", page, size)
		}
	}
	for _, page := range []string{"en/timeline/index.html", "zh-TW/timeline/index.html"} {
		if info, err := os.Stat(filepath.Join(dest, page)); err != nil || info.Size() > 200<<10 {
			t.Errorf("%s: %v bytes (%v), want under 200 KB", page, info.Size(), err)
		}
	}
	// A term's chart is on its first page only.
	matches, _ := filepath.Glob(filepath.Join(dest, "en", "causes", "*", "page", "2", "index.html"))
	if len(matches) == 0 {
		t.Fatal("no cause has a second page")
	}
	for _, m := range matches {
		doc := parseHTML(t, m)
		if svgs := findAll(doc, tag("svg")); len(svgs) != 0 {
			t.Errorf("%s draws %d charts; the term's chart is on its first page", m, len(svgs))
		}
	}
}

// TestPagesBoundedAtAThousandIncidentsInAYear: a year of 1,000 incidents
// (a decade of a busy archive's 10,000) has a page per month, each under
// maxPage, though its lines together would pass it; the year page lists
// months, not incidents.
func TestPagesBoundedAtAThousandIncidentsInAYear(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 1,000 incidents")
	}
	site := files{}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1000 {
		begin := day.Add(time.Duration(i) * 525 * time.Minute).Add(time.Duration(i%60) * time.Minute)
		id := fmt.Sprintf("%s-storage-api-errors-%d", begin.Format("2006-01-02"), i)
		site["content/"+id+"/en.md"] = "---\ntitle: Elevated error rates and latency for Cloud Storage API requests in us-central1 (" + strconv.Itoa(i) +
			")\nsummary: Requests failed.\ntimezone: Asia/Tokyo\nbegin: " + begin.Format("2006-01-02 15:04") +
			"\nend: " + begin.Add(95*time.Minute).Format("2006-01-02 15:04") + "\nproducts: [Cloud Storage]\nseverity: major\n---\n\n## Timeline {#timeline}\n\n- " +
			begin.Format("2006-01-02 15:04") + " — Errors began.\n"
	}
	dir := writeSite(t, site)
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	_, largest, size := siteSize(t, dest)
	t.Logf("largest page %s, %d bytes", largest, size)
	if size > maxPage {
		t.Errorf("largest page %s is %d bytes, over %d", largest, size, maxPage)
	}
	months, err := filepath.Glob(filepath.Join(dest, "en", "timeline", "2024", "[01][0-9]", "index.html"))
	if err != nil || len(months) != 12 {
		t.Fatalf("2024 has %d month pages (%v), want 12", len(months), err)
	}
	lines := 0
	for _, m := range months {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		_, list, _ := strings.Cut(string(data), `<ol class="timeline-lines">`)
		list, _, _ = strings.Cut(list, "</ol>")
		lines += len(list)
	}
	// The year's lines on one page would pass the bound: the test is of
	// something.
	t.Logf("the lines of 2024 weigh %d bytes together", lines)
	if lines <= maxPage {
		t.Errorf("the lines of 2024 weigh %d bytes together, want over %d", lines, maxPage)
	}
	year := parseHTML(t, filepath.Join(dest, "en", "timeline", "2024", "index.html"))
	if n := len(findAll(year, func(n *html.Node) bool { return strings.HasPrefix(attr(n, "id"), "i-") })); n != 0 {
		t.Errorf("the 2024 page lists %d incidents, want none (they are on the month pages)", n)
	}
}

// productSite writes a one-language site whose single incident names n
// products, beside an incident naming one of them.
func productSite(t *testing.T, n int) string {
	t.Helper()
	var products strings.Builder
	for i := range n {
		fmt.Fprintf(&products, "  - Product %d\n", i)
	}
	en := func(title, begin, products string) string {
		return "---\ntitle: " + title + "\nsummary: Many products failed.\ntimezone: UTC\nbegin: " + begin +
			"\nend: " + begin[:11] + "23:00\nproducts:\n" + products + "severity: minor\n---\n\n## Timeline {#timeline}\n\n- " + begin + " — Errors began.\n"
	}
	dir := writeSite(t, files{
		"content/2021-06-01-many/en.md": en("Many products", "2021-06-01 10:00", products.String()),
		"content/2021-06-02-one/en.md":  en("One product", "2021-06-02 10:00", "  - Product 7\n"),
	})
	data, err := fs.ReadFile(i18n.Files, "en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "i18n", "en.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOutputLinearInTerms: an incident naming 5,000 products is on each
// of their pages, which must not each name all 5,000: five times the
// products make about five times the output, not twenty-five. The index
// of products is paged, each page under maxPage. (The incident's own page
// names its 5,000 products: it grows with its own front matter only.)
func TestOutputLinearInTerms(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 6,000 pages")
	}
	sizes := map[int]int64{}
	for _, n := range []int{1000, 5000} {
		dir := productSite(t, n)
		if _, err := buildSite(dir); err != nil {
			t.Fatal(err)
		}
		total, largest, size := siteSize(t, filepath.Join(dir, "public"))
		sizes[n] = total
		t.Logf("%d products: %d bytes; largest page %s, %d bytes", n, total, largest, size)
		checkTermsIndex(t, filepath.Join(dir, "public"), n)
		page := parseHTML(t, filepath.Join(dir, "public", "en", "products", "product-42", "index.html"))
		var named int
		for _, a := range findAll(page, tag("a")) {
			if strings.HasPrefix(attr(a, "href"), "/en/products/product-") {
				named++
			}
		}
		if named > 10 {
			t.Errorf("%d products: a product's page links %d products", n, named)
		}
		if info, err := os.Stat(filepath.Join(dir, "public", "en", "products", "product-42", "index.html")); err != nil || info.Size() > 30<<10 {
			t.Errorf("%d products: a product's page is %d bytes (%v), want under 30 KB", n, info.Size(), err)
		}
	}
	if ratio := float64(sizes[5000]) / float64(sizes[1000]); ratio > 6 {
		t.Errorf("5× the products gave %.1f× the output (%d → %d bytes), want about 5×", ratio, sizes[1000], sizes[5000])
	}
}

// checkTermsIndex follows the products index of a site of n products
// ("Product 0"…) page by page: every product listed once, in order
// (collation orders the numbers in names as numbers), each page at most
// render.TermsPerPage of them and under maxPage, and a letter index whose
// link leads to the first product.
func checkTermsIndex(t *testing.T, public string, n int) {
	t.Helper()
	var listed []string
	href := "/en/products/"
	for pages := 0; href != ""; pages++ {
		if pages > n/render.TermsPerPage+1 {
			t.Fatalf("the products index has more than %d pages", pages)
		}
		file := filepath.Join(public, strings.TrimPrefix(href, "/"), "index.html")
		if info, err := os.Stat(file); err != nil || info.Size() > maxPage {
			t.Fatalf("%s: %v (%v), over %d bytes", href, info.Size(), err, maxPage)
		}
		doc := parseHTML(t, file)
		var here []string
		for _, li := range findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attr(n.Parent, "class") == "term-list" }) {
			here = append(here, textOf(findAll(li, tag("a"))[0]))
		}
		if len(here) == 0 || len(here) > render.TermsPerPage {
			t.Fatalf("%s lists %d products", href, len(here))
		}
		listed = append(listed, here...)
		if pages == 0 {
			letters := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && attr(n.Parent.Parent.Parent, "class") == "letters" })
			if len(letters) != 1 || textOf(letters[0]) != "P" || attr(letters[0], "href") != "/en/products/#l-P" {
				t.Errorf("the letter index is %d links, first %q", len(letters), attr(letters[0], "href"))
			}
			if len(findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "l-P" })) != 1 {
				t.Error("no term carries the anchor l-P")
			}
		}
		href = ""
		for _, a := range findAll(doc, tag("a")) {
			if attr(a, "rel") == "next" {
				href = attr(a, "href")
				if textOf(a) != "Next →" { // names are in order, not in time
					t.Errorf("%s: the next page is %q", attr(a, "href"), textOf(a))
				}
			}
		}
	}
	if len(listed) != n {
		t.Fatalf("the products index lists %d products, want %d", len(listed), n)
	}
	for i, name := range listed {
		if name != fmt.Sprintf("Product %d", i) {
			t.Fatalf("the products index lists %q in place %d", name, i)
		}
	}
}

// TestMonthPagesGroupByLocalMonth: an incident is listed on the page of
// the month of the date shown for it, its begin in its own zone, even
// where that is another month (or year) in UTC, and on the page of the
// month its events happened in, in UTC, where that is another; its year
// page counts it under its local month and links there, without listing
// it.
func TestMonthPagesGroupByLocalMonth(t *testing.T) {
	incident := func(zone, begin string) string {
		return "---\ntitle: At " + begin + " in " + zone + "\nsummary: S.\ntimezone: " + zone + "\nbegin: " + begin +
			"\nseverity: minor\n---\n\n## Timeline {#timeline}\n\n- " + begin + " — Errors began.\n"
	}
	cases := []struct {
		id, zone, begin, year, month, shown, utc string
	}{
		// 2021-02-28 20:00 UTC: March in Tokyo.
		{"2021-03-01-tokyo", "Asia/Tokyo", "2021-03-01 05:00", "2021", "03", "2021-03-01", "2021/02"},
		// 2021-01-01 04:00 UTC: still December 2020 in Los Angeles.
		{"2020-12-31-la", "America/Los_Angeles", "2020-12-31 20:00", "2020", "12", "2020-12-31", "2021/01"},
		// 2021-01-01 00:00 UTC: 2021 in Tokyo, before Los Angeles's
		// 2020 incident in time.
		{"2021-01-01-tokyo", "Asia/Tokyo", "2021-01-01 09:00", "2021", "01", "2021-01-01", ""},
		// 2021-05-01 03:30 UTC: April in New York.
		{"2021-04-30-ny", "America/New_York", "2021-04-30 23:30", "2021", "04", "2021-04-30", "2021/05"},
		// 2021-06-30 18:30 UTC: July in Kolkata.
		{"2021-07-01-kolkata", "Asia/Kolkata", "2021-07-01 00:00", "2021", "07", "2021-07-01", "2021/06"},
		{"2021-01-31-utc", "UTC", "2021-01-31 23:59", "2021", "01", "2021-01-31", ""},
	}
	site := files{}
	for _, c := range cases {
		site["content/"+c.id+"/en.md"] = incident(c.zone, c.begin)
	}
	dir := writeSite(t, site)
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	lead := func(page string) string {
		for _, p := range findAll(parseHTML(t, page), tag("p")) {
			if attr(p, "class") == "lead" {
				return textOf(p)
			}
		}
		return ""
	}
	for lang, want := range map[string][2]string{
		"en":    {"5 incidents began in 2021", "One incident began in March 2021"},
		"ja":    {"2021年に始まったインシデントは 5 件", "2021年3月に始まったインシデントは 1 件"},
		"zh-TW": {"2021 年開始的事故共 5 件", "2021年3月開始的事故共 1 件"},
	} {
		// A year or month page says what it holds, not the overview's sentence.
		year, overview := lead(filepath.Join(dir, "public", lang, "timeline", "2021", "index.html")), lead(filepath.Join(dir, "public", lang, "timeline", "index.html"))
		if !strings.HasPrefix(year, want[0]) || year == overview {
			t.Errorf("%s: the 2021 page's lead is %q (the overview's %q), want it to begin %q", lang, year, overview, want[0])
		}
		if month := lead(filepath.Join(dir, "public", lang, "timeline", "2021", "03", "index.html")); !strings.HasPrefix(month, want[1]) {
			t.Errorf("%s: the March 2021 page's lead is %q, want it to begin %q", lang, month, want[1])
		}
	}
	for _, lang := range []string{"en", "ja", "zh-TW"} {
		for _, c := range cases {
			// The line is on its month's page and on that of its event
			// in UTC, and on no other page of the timeline.
			var on []string
			err := filepath.WalkDir(filepath.Join(dir, "public", lang, "timeline"), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				if len(findAll(parseHTML(t, p), func(n *html.Node) bool { return attr(n, "id") == "i-"+c.id })) > 0 {
					rel, _ := filepath.Rel(filepath.Join(dir, "public", lang, "timeline"), p)
					on = append(on, filepath.ToSlash(rel))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{c.year + "/" + c.month + "/index.html"}
			if c.utc != "" {
				want = append(want, c.utc+"/index.html")
			}
			slices.Sort(want)
			if !slices.Equal(on, want) {
				t.Errorf("%s: %s is on the timeline pages %q, want %q", lang, c.id, on, want)
				continue
			}
			doc := parseHTML(t, filepath.Join(dir, "public", lang, "timeline", c.year, c.month, "index.html"))
			line := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "i-"+c.id })[0]
			if got := textOf(findAll(line, tag("time"))[0]); !strings.HasPrefix(got, c.shown+" ") {
				t.Errorf("%s: %s shows %q, want it to begin %s", lang, c.id, got, c.shown)
			}
			// The month's year is marked among the years, which come
			// after the month's lines.
			years := findAll(doc, func(n *html.Node) bool { return attr(n, "class") == "years" })
			if len(years) != 1 {
				t.Fatalf("%s: %s/%s has %d lists of years", lang, c.year, c.month, len(years))
			}
			current := findAll(years[0], func(n *html.Node) bool { return attr(n, "aria-current") != "" })
			if len(current) != 1 || textOf(current[0]) != c.year || !strings.HasSuffix(attr(current[0], "href"), "/timeline/"+c.year+"/") {
				t.Errorf("%s: %s/%s marks %d years as its own, want one: a link to %s", lang, c.year, c.month, len(current), c.year)
			}
			if !precedes(line, years[0]) {
				t.Errorf("%s: %s/%s lists the years before its incidents", lang, c.year, c.month)
			}
			// The year's month index links to the month's page.
			year := parseHTML(t, filepath.Join(dir, "public", lang, "timeline", c.year, "index.html"))
			index := findAll(year, func(n *html.Node) bool { return hasClass(n, "months") })
			if len(index) != 1 || len(findAll(index[0], func(n *html.Node) bool {
				return strings.HasSuffix(attr(n, "href"), "/timeline/"+c.year+"/"+c.month+"/")
			})) != 1 {
				t.Errorf("%s: the %s index has no link to its month %s", lang, c.year, c.month)
			}
		}
	}
	// Only months with incidents or events have a page.
	if _, err := os.Stat(filepath.Join(dir, "public", "en", "timeline", "2021", "09", "index.html")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("September 2021, with no incident, has a page (%v)", err)
	}
	// Each year and month is in the sitemap once.
	_, entries := readSitemap(t, filepath.Join(dir, "public"), "")
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Loc] {
			t.Errorf("the sitemap lists %s twice", e.Loc)
		}
		seen[e.Loc] = true
	}
}

// precedes says whether a comes before b in document order.
func precedes(a, b *html.Node) bool {
	seen := false
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		if n == b {
			return true // b first, or a inside it: stop
		}
		if n == a {
			seen = true
			return true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	root := a
	for root.Parent != nil {
		root = root.Parent
	}
	walk(root)
	return seen
}

// TestWordsNotSlugs: causes are named in each language (from the i18n
// files), and the language an incident was written in is named in the
// reader's language, not its own.
func TestWordsNotSlugs(t *testing.T) {
	dest := buildSeed(t, "http://127.0.0.1:1313/")
	for lang, want := range map[string]string{"en": "Load spike", "ja": "負荷の急増", "zh-TW": "負載暴增"} {
		doc := parseHTML(t, filepath.Join(dest, lang, "causes", "load-spike", "index.html"))
		if h := findAll(doc, tag("h1")); len(h) != 1 || textOf(h[0]) != want {
			t.Errorf("%s: the load-spike page is headed %q, want %q", lang, textOf(h[0]), want)
		}
		incident := parseHTML(t, filepath.Join(dest, lang, "incidents", "2017-03-13-bigquery-streaming-inserts", "index.html"))
		var causes []string
		for _, a := range findAll(incident, tag("a")) {
			if strings.HasPrefix(attr(a, "href"), "/"+lang+"/causes/") {
				causes = append(causes, textOf(a))
			}
		}
		if len(causes) == 0 || slices.Contains(causes, "load-spike") || !slices.Contains(causes, want) {
			t.Errorf("%s: the incident names its causes %q", lang, causes)
		}
	}
	for lang, want := range map[string]string{"en": "Originally written in Chinese (Taiwan).", "ja": "原文（中国語 (台湾)）で表示しています。"} {
		doc := parseHTML(t, filepath.Join(dest, lang, "incidents", "2020-08-19-blob-storage-metadata-overload", "index.html"))
		var found bool
		for _, p := range findAll(doc, tag("p")) {
			found = found || strings.HasSuffix(textOf(p), want)
		}
		if !found {
			t.Errorf("%s: no %q", lang, want)
		}
	}
}

// BenchmarkPageSizes builds the generated archive of -build.incidents
// (go test -run '^$' -bench PageSizes -benchtime 1x ./internal/build
// -build.incidents=10000) and fails when a page passes maxPage: the bound
// at 10,000 incidents, too slow for the tests. It reports sizes, not time.
func BenchmarkPageSizes(b *testing.B) {
	dir := benchSite(b, *benchIncidents)
	for i := 0; i < b.N; i++ {
		dest := filepath.Join(b.TempDir(), "public")
		if _, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
			b.Fatal(err)
		}
		total, largest, size := siteSize(b, dest)
		ratio := float64(total) / float64(markdownSize(b, filepath.Join(dir, "content")))
		b.ReportMetric(float64(total)/1e6, "MB")
		b.ReportMetric(ratio, "x-markdown")
		b.ReportMetric(float64(size)/1e3, "KB-largest")
		if size > maxPage {
			b.Errorf("%d incidents: %s is %d bytes, over %d", *benchIncidents, largest, size, maxPage)
		}
		if ratio > maxOutput && *benchIncidents >= maxOutputFrom {
			b.Errorf("%d incidents: the output is %.2f× the Markdown, over %g×", *benchIncidents, ratio, maxOutput)
		}
		// The timeline's pages are bounded too: each month lists every
		// event of its month.
		for unit, pattern := range map[string]string{"KB-month": "*/timeline/*/*/index.html", "KB-year": "*/timeline/*/index.html"} {
			page, size := largestOf(b, dest, pattern)
			b.ReportMetric(float64(size)/1e3, unit)
			if size > maxPage {
				b.Errorf("%d incidents: %s is %d bytes, over %d", *benchIncidents, page, size, maxPage)
			}
		}
	}
}

// TestOverviewBoundedAcrossMillennia: incidents in years 1, 2020 and 9999
// keep the overview under maxPage (its heat map once drew a row for each
// of the 10,000 years, 9.5 MB), and every incident is reached from it by
// following links through the timeline.
func TestOverviewBoundedAcrossMillennia(t *testing.T) {
	site := files{}
	var ids []string
	for _, begin := range []string{"0001-01-01 10:00", "2020-06-01 10:00", "9999-12-31 10:00"} {
		id := begin[:10] + "-outage"
		ids = append(ids, id)
		site["content/"+id+"/en.md"] = "---\ntitle: Outage\nsummary: Requests failed.\ntimezone: UTC\nbegin: " + begin +
			"\nend: " + begin[:11] + "11:00\norganization: Example\nseverity: major\n---\n\n## Timeline {#timeline}\n\n- " + begin + " — Errors began.\n"
	}
	dir := writeSite(t, site)
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	overview := filepath.Join(dest, "en", "timeline", "index.html")
	if info, err := os.Stat(overview); err != nil || info.Size() > maxPage {
		t.Fatalf("the overview: %v bytes (%v), want under %d", info.Size(), err, maxPage)
	}
	// Breadth first through the timeline's pages, to the incidents.
	reached := map[string]bool{}
	todo := []string{"/en/timeline/"}
	for len(todo) > 0 {
		page := todo[0]
		todo = todo[1:]
		if reached[page] {
			continue
		}
		reached[page] = true
		if !strings.HasPrefix(page, "/en/timeline/") {
			continue
		}
		doc := parseHTML(t, filepath.Join(dest, filepath.FromSlash(page), "index.html"))
		for _, a := range findAll(doc, tag("a")) {
			href, _, _ := strings.Cut(strings.TrimPrefix(attr(a, "href"), "http://127.0.0.1:1313"), "#")
			if strings.HasPrefix(href, "/en/timeline/") || strings.HasPrefix(href, "/en/incidents/") {
				todo = append(todo, href)
			}
		}
	}
	for _, id := range ids {
		if !reached["/en/incidents/"+id+"/"] {
			t.Errorf("%s is not reached from the overview", id)
		}
	}
}
