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

	"github.com/chromedp/chromedp"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/sitetest"
)

// TestBrowserAtScale opens the pages that summarise many incidents — the
// overview, a year, its busiest month, a term's first page, the index of products — and the
// incident page drawing the most incidents at the same time, of generated archives of 10 and 1,000 incidents, served by
// `gen serve --dir`, at a phone's and a desktop's width, in light and
// dark: nothing is wider than the viewport, no two labels of a chart
// overlap, on a phone every marker of the incident chart is a tap
// target of at least 24 px and no chart text is under 12 px or cut at
// its picture's edge. With SCREENSHOT_DIR set it saves a full-page PNG
// of each, named scale-<n>-<page>-<width>-<scheme>.png.
func TestBrowserAtScale(t *testing.T) {
	sitetest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds 1,010 incidents and drives a browser")
	}
	chrome := chromiumOrSkip(t)
	shots := os.Getenv("SCREENSHOT_DIR")
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx := browserTab(t, chrome, 4*time.Minute)

	for _, n := range []int{10, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			base, pages := serveGenerated(t, n)
			b := &browser{ctx: ctx, base: base}
			for _, name := range []string{"overview", "year", "month", "term", "terms", "incident"} {
				t.Run(name, func(t *testing.T) {
					b.open(t, pages[name])
					for _, scheme := range []string{"light", "dark"} {
						b.media(t, "", scheme)
						for _, w := range []int{phoneWidth, desktopWidth} {
							b.width(t, w)
							checkLayout(t, b, fmt.Sprintf("%s at %d px, %s", pages[name], w, scheme), w == phoneWidth)
							if shots != "" {
								png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(90))
								if err != nil {
									t.Fatal(err)
								}
								file := filepath.Join(shots, fmt.Sprintf("scale-%d-%s-%d-%s.png", n, name, w, scheme))
								if err := os.WriteFile(file, png, 0o644); err != nil {
									t.Fatal(err)
								}
							}
						}
					}
					b.media(t, "", "light")
					b.width(t, desktopWidth)
				})
			}
		})
	}
}

// serveGenerated builds a generated archive of n incidents in English and
// Chinese, serves it as `gen serve --dir` does, and returns its URL and
// the path of a page of each kind: the busiest year, month and product.
func serveGenerated(t *testing.T, n int) (base string, pages map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1/"}); err != nil {
		t.Fatal(err)
	}
	base = startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, t.Logf)
	})
	// busiest is the page under a folder with the most list items, and
	// their number.
	busiest := func(under string) (string, int) {
		entries, err := os.ReadDir(filepath.Join(dest, "en", under))
		if err != nil {
			t.Fatal(err)
		}
		best, most := "", -1
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dest, "en", under, e.Name(), "index.html"))
			if !e.IsDir() || err != nil {
				continue
			}
			if k := strings.Count(string(data), "<li"); k > most {
				best, most = e.Name(), k
			}
		}
		return "/en/" + under + "/" + best + "/", most
	}
	// The busiest month of any year, and its year.
	year, month, most := "", "", -1
	years, err := os.ReadDir(filepath.Join(dest, "en", "timeline"))
	if err != nil {
		t.Fatal(err)
	}
	for _, y := range years {
		if !y.IsDir() {
			continue
		}
		if m, k := busiest("timeline/" + y.Name()); k > most {
			year, month, most = "/en/timeline/"+y.Name()+"/", m, k
		}
	}
	product, _ := busiest("products")
	incidents, err := os.ReadDir(filepath.Join(dest, "en", "incidents"))
	if err != nil || len(incidents) == 0 {
		t.Fatalf("no incident pages: %v", err)
	}
	// The incident whose chart draws the most others at the same time.
	incident, lanes := incidents[0].Name(), -1
	for _, e := range incidents {
		data, err := os.ReadFile(filepath.Join(dest, "en", "incidents", e.Name(), "index.html"))
		if err != nil {
			continue
		}
		if k := strings.Count(string(data), `class="overlap"`); k > lanes {
			incident, lanes = e.Name(), k
		}
	}
	return base, map[string]string{
		"overview": "/en/timeline/",
		"year":     year,
		"month":    month,
		"term":     product,
		"terms":    "/en/products/",
		"incident": "/en/incidents/" + incident + "/",
	}
}

// checkLayout fails t when the page is wider than the viewport (but for
// what scrolls in its own box: wide tables, code, a month's picture), when two
// visible labels of a chart overlap, or, on a phone, when a visible
// marker of a chart is under 24 px across or a chart's text under 12 px
// or cut at its picture's edge.
func checkLayout(t *testing.T, b *browser, where string, phone bool) {
	t.Helper()
	over := eval[[]string](t, b, `Array.from(document.querySelectorAll("body *")).filter(el => {
		const r = el.getBoundingClientRect();
		return r.width > 0 && r.right > document.documentElement.clientWidth + 1 && !el.closest(".body table, pre, .visually-hidden, .skip, .chart-scroll svg");
	}).slice(0, 5).map(el => el.tagName.toLowerCase() + "." + String(el.className.baseVal ?? el.className).trim().replace(/\s+/g, ".") + " " + Math.round(el.getBoundingClientRect().right) + "px")`)
	if len(over) > 0 {
		t.Errorf("%s: wider than the viewport: %s", where, strings.Join(over, ", "))
	}
	// Labels are the texts of a chart that are shown, less the numbers
	// written on markers (inside their dot) and on heat map cells.
	overlaps := eval[[]string](t, b, `(() => {
		const boxes = [];
		for (const svg of document.querySelectorAll("svg.chart")) {
			if (svg.getBoundingClientRect().width === 0) continue;
			for (const el of svg.querySelectorAll("text")) {
				if (el.closest(".marker, .cell") || el.classList.contains("num")) continue;
				const r = el.getBoundingClientRect();
				if (r.width > 0 && r.height > 0) boxes.push({t: el.textContent, r});
			}
		}
		const out = [];
		for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
			const a = boxes[i].r, b = boxes[j].r;
			if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(boxes[i].t + " / " + boxes[j].t);
		}
		return out.slice(0, 5);
	})()`)
	if len(overlaps) > 0 {
		t.Errorf("%s: chart labels overlap: %s", where, strings.Join(overlaps, "; "))
	}
	if !phone {
		return
	}
	// A chart drawn 720 wide is scaled to about half on a phone; its text
	// is enlarged to stay readable (chart.Stylesheet's narrow sizes).
	tiny := eval[[]string](t, b, `Array.from(document.querySelectorAll("svg.chart text")).filter(el => {
		const r = el.getBoundingClientRect();
		return r.width > 0 && parseFloat(getComputedStyle(el).fontSize) * el.ownerSVGElement.getScreenCTM().a < 12;
	}).slice(0, 5).map(el => JSON.stringify(el.textContent) + " " + (parseFloat(getComputedStyle(el).fontSize) * el.ownerSVGElement.getScreenCTM().a).toFixed(1) + "px")`)
	if len(tiny) > 0 {
		t.Errorf("%s: chart text under 12 px: %s", where, strings.Join(tiny, ", "))
	}
	// Larger text must still fit its picture: what passes the edge is cut.
	cut := eval[[]string](t, b, `Array.from(document.querySelectorAll("svg.chart text")).filter(el => {
		const r = el.getBoundingClientRect(), s = el.ownerSVGElement.getBoundingClientRect();
		return r.width > 0 && (r.left < s.left - 1 || r.right > s.right + 1);
	}).slice(0, 5).map(el => JSON.stringify(el.textContent))`)
	if len(cut) > 0 {
		t.Errorf("%s: chart text cut at the picture's edge: %s", where, strings.Join(cut, ", "))
	}
	small := eval[[]string](t, b, `Array.from(document.querySelectorAll("svg.chart .marker .hit")).filter(c => {
		const r = c.getBoundingClientRect();
		return r.width > 0 && (r.width < 24 || r.height < 24);
	}).slice(0, 5).map(c => c.closest("a").getAttribute("href") + " " + Math.round(c.getBoundingClientRect().width) + "px")`)
	if len(small) > 0 {
		t.Errorf("%s: tap targets under 24 px: %s", where, strings.Join(small, ", "))
	}
}
