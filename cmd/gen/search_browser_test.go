package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/sitetest"
)

// TestBrowserSearchPage drives the search page of a generated archive of
// 300 incidents (and one with a long URL, path and hash) at 360 px, a phone's and a desktop's width, in light and dark,
// with and without JavaScript: nothing scrolls sideways; a date's label
// stays beside its field; a chip's name holds the words it shows; a
// result's date, severity and duration and an order's name are never
// broken across lines; Tab from the orders reaches what is seen next
// (on a desktop the results, not the facets beside them); result pages
// are a window of buttons; each facet shows at most ten values, on a
// phone behind "Filters" below which the results come first; a facet's
// value, an order, a page and a chip each lead where they say, in place
// with JavaScript (checkChoices); and typing
// letter by letter ("b", "bi", "big", "europe-w") always shows results
// or says to keep typing, never that no incident matches.
func TestBrowserSearchPage(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 300 incidents and drives a browser")
	}
	chrome := chromiumOrSkip(t)
	ctx := browserTab(t, chrome, 4*time.Minute)

	base := serveGeneratedWith(t, 300, map[string]string{
		// What real reports hold and a phone's width cannot: a long URL,
		// a path and a hash, unbroken.
		"2023-05-04-long-identifiers/en.md": `---
title: Uploads failed for bucket prod-eu-archive-0123456789abcdef0123456789abcdef
summary: Uploads to https://storage.example.com/v1/buckets/prod-eu-archive-0123456789abcdef0123456789abcdef/objects?uploadType=resumable failed.
organization: ExampleCloud
timezone: UTC
begin: 2023-05-04 10:00
end: 2023-05-04 11:00
products: [Object Storage]
---

Overflowprobe: requests to https://storage.example.com/v1/buckets/prod-eu-archive-0123456789abcdef0123456789abcdef/objects?uploadType=resumable&name=backups%2F2023%2F05%2F04%2Fdb.tar.zst
failed while /var/lib/objectstore/shards/0000000000000000000a/segments/00000000000000000000000000000042.log
was compacted; the build e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 was rolled back.
`,
	})
	b := &browser{ctx: ctx, base: base, urls: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatal(err)
	}

	for _, scripts := range []bool{true, false} {
		b.scripts(t, scripts)
		for _, path := range []string{"/en/search/?q=latency&page=6", "/en/search/?q=b&page=6", "/en/search/?q=overflowprobe", "/en/search/?q=uploads",
			"/en/search/?q=latency&organization=Google+Cloud&from=2019-01&to=2021-06", "/zh-TW/search/?q=latency&organization=Google+Cloud&from=2019-01"} {
			b.open(t, path)
			for _, scheme := range []string{"light", "dark"} {
				b.media(t, "", scheme)
				for _, w := range []int{narrowWidth, phoneWidth, desktopWidth} {
					b.width(t, w)
					where := fmt.Sprintf("%s at %d px, %s, scripts %v", path, w, scheme, scripts)
					checkLayout(t, b, where, w <= phoneWidth)
					checkSearchForm(t, b, where)
					if strings.Contains(path, "page=6") && w != narrowWidth {
						checkSearchLayout(t, b, where, w == phoneWidth)
						checkFocusOrder(t, b, where, w == phoneWidth)
					}
				}
			}
		}
	}
	b.media(t, "", "light")
	for _, scripts := range []bool{false, true} {
		b.scripts(t, scripts)
		checkChoices(t, b, scripts)
	}
	b.clean(t, "search pages")

	// Typing letter by letter, with the script answering as one types.
	for _, w := range []int{phoneWidth, desktopWidth} {
		b.width(t, w)
		b.open(t, "/en/search/")
		for _, word := range []string{"big", "europe-w"} {
			b.do(t, "clear", chromedp.Evaluate[chromedp.Void](`document.getElementById("q").value = ""`))
			for i := range word {
				typed := word[:i+1]
				b.do(t, "type", chromedp.SendKeys(chromedp.ID("q"), word[i:i+1]))
				b.waitFor(t, "the answer to "+typed, fmt.Sprintf(`new URLSearchParams(location.search).get("q") === %q && !document.getElementById("search-results").hasAttribute("aria-busy")`, typed))
				text := eval[string](t, b, `document.getElementById("search-results").innerText`)
				results := eval[int](t, b, `document.querySelectorAll("#search-results .result").length`)
				keep := eval[bool](t, b, `!!document.getElementById("keep-typing")`)
				if strings.Contains(text, "No incident matches") || results == 0 && !keep {
					t.Errorf("%d px, %q: %d results, keep typing %v: %.200q", w, typed, results, keep, text)
				}
				checkLayout(t, b, fmt.Sprintf("typing %q at %d px", typed, w), w == phoneWidth)
			}
		}
	}
	b.clean(t, "typing")
}

// checkChoices chooses on the search page, with and without
// JavaScript, a facet's value, an order, a result page and a chip (each
// a button of a small form that holds the query): each leads to the
// address a link would, with what was chosen kept in the next; with
// JavaScript, in place, the address following, Back going back a
// choice, and the focus on the value chosen, now shown chosen, or on
// the count of results.
func checkChoices(t *testing.T, b *browser, scripts bool) {
	t.Helper()
	where := fmt.Sprintf("choices, scripts %v", scripts)
	b.width(t, desktopWidth)
	b.open(t, "/en/search/?q=latency")
	b.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.__samePage = true`))
	param := func(name string) string {
		return fmt.Sprintf(`new URLSearchParams(location.search).get(%q)`, name)
	}
	// same is true while the page is the one first opened: with
	// JavaScript every choice is answered in place, without a new page.
	same := `window.__samePage === true`
	if !scripts {
		same = `window.__samePage === undefined`
	}
	choose := func(what, selector string) string {
		t.Helper()
		value := eval[string](t, b, fmt.Sprintf(`(el => { el.setAttribute("data-pick", ""); return el.value; })(document.querySelector(%q))`, selector))
		b.do(t, what, chromedp.Click(chromedp.CSS(`[data-pick]`)))
		return value
	}
	org := choose("choose an organization", `.facets section[data-facet="organization"] button:not([aria-current])`)
	b.waitFor(t, where+": the organization chosen", fmt.Sprintf(`%s && document.readyState === "complete" && %s === %q && %s === "latency" &&
		document.querySelector('.chip[data-facet="organization"]') !== null &&
		document.querySelector('.search-form input[type="hidden"][name="organization"]').value === %q`, same, param("organization"), org, param("q"), org))
	chosen := fmt.Sprintf(`(el => el && el.value === %q && el.getAttribute("aria-current") === "true" && el.getAttribute("aria-label").startsWith("Remove the filter Organization: "))`, org)
	if !eval[bool](t, b, chosen+`(document.querySelector('.facets section[data-facet="organization"] button[aria-current]'))`) {
		t.Errorf("%s: %s is not shown chosen", where, org)
	}
	if scripts && !eval[bool](t, b, chosen+`(document.activeElement)`) {
		t.Errorf("%s: after choosing %s the focus is on %s", where, org, eval[string](t, b, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	countFocused := `document.activeElement === document.getElementById("result-count")`
	choose("sort oldest first", `.sort button[value="oldest"]`)
	b.waitFor(t, where+": oldest first", fmt.Sprintf(`%s && document.readyState === "complete" && %s === "oldest" && %s === %q`, same, param("sort"), param("organization"), org))
	choose("the next page", `.pagination li:last-child button`)
	b.waitFor(t, where+": the second page", fmt.Sprintf(`%s && document.readyState === "complete" && %s === "2" && %s === "oldest" && %s === %q && document.querySelector('.pagination [aria-current="page"]').textContent === "2"`,
		same, param("page"), param("sort"), param("organization"), org))
	if scripts {
		if !eval[bool](t, b, countFocused) {
			t.Errorf("%s: after a page the focus is on %s, want the count of results", where, eval[string](t, b, `document.activeElement.outerHTML.slice(0, 120)`))
		}
		b.do(t, "back", chromedp.Evaluate[chromedp.Void](`history.back()`))
		b.waitFor(t, where+": back on the first page", fmt.Sprintf(`%s && %s === null && %s === "oldest" && document.querySelector('.pagination [aria-current="page"]').textContent === "1"`, same, param("page"), param("sort")))
	}
	choose("remove the organization", `.chip[data-facet="organization"]`)
	b.waitFor(t, where+": the organization removed", fmt.Sprintf(`%s && document.readyState === "complete" && %s === null && %s === "oldest" && %s === "latency" && document.querySelector(".chip") === null`,
		same, param("organization"), param("sort"), param("q")))
	if scripts && !eval[bool](t, b, countFocused) {
		t.Errorf("%s: after removing a filter the focus is on %s, want the count of results", where, eval[string](t, b, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	b.clean(t, where)
}

// checkSearchLayout fails t unless the result pages are a window of at
// most 7 numbers with a gap, each facet shows at most ten values, and on
// a phone the filters are one closed disclosure above results that start
// within the first screen; on a desktop the facets are shown beside them.
func checkSearchLayout(t *testing.T, b *browser, where string, phone bool) {
	t.Helper()
	numbers := eval[int](t, b, `Array.from(document.querySelectorAll(".pagination li")).filter(li => /^\d+$/.test(li.innerText.trim())).length`)
	gaps := eval[int](t, b, `document.querySelectorAll(".pagination .gap").length`)
	if numbers > 7 || gaps == 0 {
		t.Errorf("%s: %d page numbers and %d gaps", where, numbers, gaps)
	}
	if phone {
		b.do(t, "close the filters", chromedp.Evaluate[chromedp.Void](`document.querySelector(".filter-panel").open = false`))
	}
	// A closed disclosure's content still has boxes when asked for them
	// (content-visibility: hidden): ask whether it is seen.
	shown := eval[[]int](t, b, `Array.from(document.querySelectorAll(".facets section")).map(s => Array.from(s.querySelectorAll("li")).filter(li => li.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})).length)`)
	for i, n := range shown {
		if n > 10 || !phone && n == 0 {
			t.Errorf("%s: facet %d shows %d values", where, i, n)
		}
		if phone && n != 0 {
			t.Errorf("%s: facet %d shows %d values behind a closed disclosure", where, i, n)
		}
	}
	summary := eval[float64](t, b, `document.querySelector(".filter-panel > summary").getBoundingClientRect().height`)
	resultsTop := eval[float64](t, b, `document.querySelector(".results").getBoundingClientRect().top + scrollY`)
	if phone && (summary == 0 || resultsTop > phoneHeight) {
		t.Errorf("%s: the filters' summary %.0f px high, results from %.0f px", where, summary, resultsTop)
	}
	if !phone && summary != 0 {
		t.Errorf("%s: a Filters disclosure on a desktop", where)
	}
	if phone {
		b.do(t, "open the filters", chromedp.Click(chromedp.CSS(".filter-panel > summary")))
		if n := eval[int](t, b, `Array.from(document.querySelectorAll(".facets li")).filter(li => li.checkVisibility()).length`); n == 0 {
			t.Errorf("%s: the opened filters show no value", where)
		}
		b.do(t, "close the filters", chromedp.Evaluate[chromedp.Void](`document.querySelector(".filter-panel").open = false`))
	}
}

// checkSearchForm fails t when a date's label is not on the line of its
// field, when a chip's name, as a screen reader or voice control
// knows it, does not hold the words it shows ("Organization: Google
// Cloud"): a reader who says what is seen must reach it, or when one
// fact of a result or the name of an order is broken across lines.
func checkSearchForm(t *testing.T, b *browser, where string) {
	t.Helper()
	apart := eval[[]string](t, b, `Array.from(document.querySelectorAll(".search-dates label")).filter(l => {
		const a = l.getBoundingClientRect(), i = document.getElementById(l.htmlFor).getBoundingClientRect();
		return a.bottom <= i.top || i.bottom <= a.top;
	}).map(l => l.htmlFor)`)
	if len(apart) > 0 {
		t.Errorf("%s: the labels of %v are on another line than their fields", where, apart)
	}
	names := eval[[]string](t, b, `Array.from(document.querySelectorAll(".chip")).filter(c => {
		const shown = Array.from(c.querySelectorAll(":scope > span:not([aria-hidden])")).map(s => s.innerText).join(" ").replace(/\s+/g, " ").trim();
		const name = (c.getAttribute("aria-label") || c.innerText).replace(/\s+/g, " ");
		return !name.includes(shown);
	}).map(c => c.getAttribute("aria-label") + " / " + c.innerText)`)
	if len(names) > 0 {
		t.Errorf("%s: chips named without the words they show: %q", where, names)
	}
	broken := eval[[]string](t, b, `Array.from(document.querySelectorAll(".result .meta time, .result .severity, .result .lasted, .sort button, .sort span")).filter(el => {
		const lines = new Set(Array.from(el.getClientRects()).map(r => Math.round(r.top)));
		return lines.size > 1;
	}).slice(0, 5).map(el => el.textContent)`)
	if len(broken) > 0 {
		t.Errorf("%s: broken across lines: %q", where, broken)
	}
}

// checkFocusOrder fails t unless Tab from the last order reaches what
// is seen next: on a phone the Filters disclosure above the results, on
// a desktop the first result, not the facets beside it.
func checkFocusOrder(t *testing.T, b *browser, where string, phone bool) {
	t.Helper()
	b.do(t, "focus the last order", chromedp.Evaluate[chromedp.Void](`document.querySelector(".sort > :last-child").focus()`))
	want, got := ".results a", ""
	if phone {
		want = ".filter-panel > summary"
	}
	for range 200 {
		b.do(t, "tab", chromedp.KeyEvent(kb.Tab))
		got = eval[string](t, b, `(el => el.closest(".results") ? ".results a" : el.closest(".facets") ? ".facets button" : el.matches(".filter-panel > summary") ? ".filter-panel > summary" : "")(document.activeElement)`)
		if got != "" {
			break
		}
	}
	if got != want {
		t.Errorf("%s: Tab after the orders reaches %q first, want %q", where, got, want)
	}
}

// serveGeneratedWith builds a generated archive of n incidents in English
// and Chinese with extra files in its content folder, and serves it as
// gen serve --dir does.
func serveGeneratedWith(t *testing.T, n int, extra map[string]string) (base string) {
	t.Helper()
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 1, VariedLength: true}); err != nil {
		t.Fatal(err)
	}
	for name, text := range extra {
		file := filepath.Join(dir, "content", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1/"}); err != nil {
		t.Fatal(err)
	}
	return startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, t.Logf)
	})
}
