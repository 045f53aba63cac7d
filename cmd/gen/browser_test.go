package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests drive Debian's chromium against a real `gen serve` of
// a temp copy of the bundled archive. Locally they skip without chromium
// (and the accessibility checks skip without AXE_JS, the path of axe-core's
// axe.min.js); with CI set, both are required. With SCREENSHOT_DIR set they
// save full-page PNG screenshots of every page type there.

// noAxe says why the accessibility checks did not run.
const noAxe = "AXE_JS is not set: accessibility checks skipped (set AXE_JS to axe-core's axe.min.js to run them; CI=true requires it)"

// findChromium returns the browser to drive, or "" when there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// chromiumOrSkip returns chromium's path, or skips t where it is not
// installed (and fails it in CI, where the browser tests are required).
func chromiumOrSkip(t *testing.T) string {
	t.Helper()
	chrome := findChromium()
	if chrome == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no chromium: the browser tests are required in CI")
		}
		t.Skip("no chromium installed")
	}
	return chrome
}

// browserTab starts chromium at a desktop's size with the flags it needs
// on a closed network, and extra, and returns a tab's context that ends
// after timeout or with t.
func browserTab(t *testing.T, chrome string, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(desktopWidth, desktopHeight),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(tab, timeout)
	t.Cleanup(cancel)
	return ctx
}

// browser is one headless chromium tab shared by every subtest, with the
// problems it reported since they were last checked.
type browser struct {
	ctx  context.Context
	base string // the server's URL, without a trailing slash

	mu       sync.Mutex
	problems []string
	urls     map[network.RequestID]string
	allow404 string // the URL of a deliberate 404 page
}

// listen records console errors, uncaught exceptions, failed requests and
// error responses. It runs on the tab's event loop and must return fast.
func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.urls[ev.RequestID] = ev.Request.URL
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 && !(ev.Response.Status == 404 && ev.Response.URL == b.allow404) {
			b.problems = append(b.problems, fmt.Sprintf("HTTP %d for %s %s", ev.Response.Status, ev.Type, ev.Response.URL))
		}
	case *network.EventLoadingFailed:
		if ev.Canceled && ev.Type == network.ResourceTypeEventSource {
			return // the live-reload stream, closed by leaving the page
		}
		b.problems = append(b.problems, fmt.Sprintf("request failed: %s %s: %s %s", ev.Type, b.urls[ev.RequestID], ev.ErrorText, ev.BlockedReason))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				if a.Description != "" {
					args = append(args, a.Description)
				} else {
					args = append(args, string(a.Value))
				}
			}
			b.problems = append(b.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *log.EventEntryAdded:
		e := ev.Entry
		if e.Level != log.EntryLevelError && !strings.Contains(e.Text, "Content Security Policy") {
			return
		}
		if e.URL != "" && e.URL == b.allow404 && strings.Contains(e.Text, "404") {
			return
		}
		b.problems = append(b.problems, fmt.Sprintf("%s %s: %s %s", e.Source, e.Level, e.Text, e.URL))
	}
}

// clean fails t with every problem reported since the last call.
func (b *browser) clean(t *testing.T, where string) {
	t.Helper()
	b.mu.Lock()
	problems := b.problems
	b.problems = nil
	b.mu.Unlock()
	for _, p := range problems {
		t.Errorf("%s: the browser reported %s", where, p)
	}
}

func (b *browser) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// open loads path and waits for it to be complete.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	b.do(t, "open "+path, chromedp.Navigate(b.base+path))
	b.waitFor(t, "open "+path, `document.readyState === "complete"`)
}

// eval runs expression in the page and decodes its value.
func eval[T any](t *testing.T, b *browser, expression string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expression, opts...))
	if err != nil {
		t.Fatalf("evaluating %.80q: %v", expression, err)
	}
	return v
}

// waitFor polls a JavaScript condition for up to 10 seconds.
func (b *browser) waitFor(t *testing.T, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!!(`+cond+`)`))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) || b.ctx.Err() != nil {
			loc, _ := chromedp.Run(b.ctx, chromedp.Location())
			main, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(document.querySelector("main") || document.documentElement).outerHTML.slice(0, 1500)`))
			t.Fatalf("%s: still false after 10s at %s: %s (%v)\npage: %s", what, loc, cond, err, main)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// media emulates a media type ("" for the screen, or "print") and a colour
// scheme.
func (b *browser) media(t *testing.T, media, scheme string) {
	t.Helper()
	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Media:    media,
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// prefer makes the browser, whose user agent is ua, say it prefers the
// languages accept: in Accept-Language and navigator.languages.
func (b *browser) prefer(t *testing.T, ua, accept string) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: accept}); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) scripts(t *testing.T, on bool) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on}); err != nil {
		t.Fatal(err)
	}
}

const desktopWidth, desktopHeight, phoneWidth, phoneHeight = 1280, 900, 390, 844

// narrowWidth is the narrowest phone a page is made for.
const narrowWidth = 360

func (b *browser) width(t *testing.T, w int) {
	t.Helper()
	h := desktopHeight
	if w <= phoneWidth {
		h = phoneHeight
	}
	b.do(t, "viewport", chromedp.EmulateViewport(int64(w), int64(h)))
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	ci := os.Getenv("CI") != ""
	chrome := findChromium()
	if chrome == "" {
		if ci {
			t.Fatal("no chromium: the browser tests are required in CI")
		}
		t.Skip("no chromium installed")
	}
	var axeSource string
	if p := os.Getenv("AXE_JS"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("AXE_JS: %v", err)
		}
		axeSource = string(data)
	} else if ci {
		t.Fatal("AXE_JS is not set: .ci/run installs axe-core and the accessibility checks are required in CI")
	} else {
		t.Log(noAxe)
	}
	shots := os.Getenv("SCREENSHOT_DIR")
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, t.Logf)
	})

	ctx := browserTab(t, chrome, 3*time.Minute,
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		// The reader prefers Traditional Chinese: the Accept-Language
		// header and navigator.languages both say so.
		chromedp.Flag("accept-lang", "zh-TW,zh,en"),
		chromedp.Flag("lang", "zh-TW"),
	)

	b := &browser{ctx: ctx, base: base, urls: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatal(err)
	}
	b.do(t, "viewport", chromedp.EmulateViewport(desktopWidth, desktopHeight))

	t.Run("AcceptLanguage", func(t *testing.T) {
		b.open(t, "/")
		b.waitFor(t, "the Chinese list", `location.pathname === "/zh-TW/" && document.documentElement.lang === "zh-TW"`)
		b.waitFor(t, "the list", `document.querySelectorAll(".incident-list .incident-item").length > 0`)
		// The static language chooser does the same with lang.js.
		b.open(t, "/index.html")
		b.waitFor(t, "lang.js to pick Chinese", `location.pathname === "/zh-TW/"`)
		// Readers of other Chinese: by script, as the server's CLDR
		// matching sends them (Hong Kong and Macau write Traditional).
		ua := eval[string](t, b, `navigator.userAgent`)
		for accept, want := range map[string]string{"zh-HK,en": "/zh-TW/", "zh-MO": "/zh-TW/", "zh-Hant": "/zh-TW/", "zh-SG,en": "/zh-CN/", "zh": "/zh-CN/", "en-GB,zh-TW": "/en/"} {
			b.prefer(t, ua, accept)
			b.open(t, "/index.html")
			b.waitFor(t, "lang.js to pick "+want+" for "+accept, `location.pathname === "`+want+`"`)
		}
		b.prefer(t, ua, "zh-TW,zh,en")
		b.clean(t, "home")
	})

	t.Run("LanguageSwitch", func(t *testing.T) {
		const id = "2017-03-13-bigquery-streaming-inserts"
		b.open(t, "/en/incidents/"+id+"/")
		enTitle := eval[string](t, b, `document.querySelector("h1").textContent`)
		b.do(t, "switch to Chinese", chromedp.Click(chromedp.CSS(`.lang-switch a[hreflang="zh-TW"]`)))
		b.waitFor(t, "the same incident in Chinese", `location.pathname === "/zh-TW/incidents/`+id+`/" && document.readyState === "complete"`)
		zhTitle := eval[string](t, b, `document.querySelector("h1").textContent`)
		if zhTitle == "" || zhTitle == enTitle {
			t.Errorf("title after switching: %q (English %q)", zhTitle, enTitle)
		}
		if cur := eval[string](t, b, `document.querySelector('.lang-switch [aria-current="page"]').getAttribute("lang")`); cur != "zh-TW" {
			t.Errorf("current language in the switcher: %q", cur)
		}
		b.do(t, "switch back", chromedp.Click(chromedp.CSS(`.lang-switch a[hreflang="en"]`)))
		b.waitFor(t, "the same incident in English", `location.pathname === "/en/incidents/`+id+`/" && document.readyState === "complete"`)
		b.clean(t, "language switch")
	})

	t.Run("TimelineEventLink", func(t *testing.T) {
		// Year timeline → its first month with incidents → the incident page.
		b.open(t, "/en/timeline/2020/")
		b.do(t, "follow the first month", chromedp.Click(chromedp.CSS(`.months a`)))
		b.waitFor(t, "a month of 2020", `/^\/en\/timeline\/2020\/[01][0-9]\/$/.test(location.pathname) && document.readyState === "complete"`)
		month := eval[string](t, b, `location.pathname`)
		href := eval[string](t, b, `(() => {
			const a = document.querySelectorAll(".timeline-lines li a")[0];
			a.setAttribute("data-pick", "");
			return a.getAttribute("href");
		})()`)
		u, err := url.Parse(href)
		if err != nil || u.Path == "" {
			t.Fatalf("incident link %q", href)
		}
		b.do(t, "follow the incident link", chromedp.Click(chromedp.CSS(`a[data-pick]`)))
		b.waitFor(t, "the incident page", fmt.Sprintf(`location.pathname === %q && document.readyState === "complete"`, u.Path))

		// The event's time is its permalink: the reader stays on the
		// page, the event targeted.
		b.do(t, "follow the event time", chromedp.Click(chromedp.CSS(`li.event a.event-time`)))
		b.waitFor(t, "the event targeted on its page", fmt.Sprintf(`location.pathname === %q && location.hash !== "" && document.querySelector("li.event:target") !== null && document.querySelector("li.event:target").id === location.hash.slice(1)`, u.Path))
		// And back: an event's "on the archive timeline" on the incident page → the incident's line on its month's timeline.
		b.do(t, "follow the event's timeline link", chromedp.Click(chromedp.CSS(`li.event a.event-timeline`)))
		b.waitFor(t, "the month timeline at the event", fmt.Sprintf(`location.pathname === %q && location.hash !== "" && document.readyState === "complete"`, month))
		targetInView(t, b, strings.TrimPrefix(eval[string](t, b, `location.hash`), "#"))
		b.clean(t, "timeline links")
	})

	t.Run("MonthPage", func(t *testing.T) {
		const month = "/en/timeline/2020/08/"
		for _, w := range []int{phoneWidth, desktopWidth} {
			b.width(t, w)
			b.open(t, month)
			b.waitFor(t, "the month's picture", `document.readyState === "complete" && document.querySelectorAll("svg.chart-month a.bar-link").length > 0`)
			// The page never scrolls sideways: the picture keeps its
			// width in a box of its own, its text at 12 px or more.
			if eval[bool](t, b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
				t.Errorf("%d px: the month's page scrolls sideways", w)
			}
			smallest := eval[float64](t, b, `(() => {
				const svg = document.querySelector("svg.chart-month");
				const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
				return Math.min(...Array.from(svg.querySelectorAll("text")).map(el => parseFloat(getComputedStyle(el).fontSize) * k));
			})()`)
			if smallest < 12 {
				t.Errorf("%d px: the month's picture has text of %.1f px", w, smallest)
			}
		}
		// An event leads to its place on its incident's page.
		href := eval[string](t, b, `(() => {
			const a = document.querySelector(".events a");
			a.setAttribute("data-pick", "");
			return a.getAttribute("href");
		})()`)
		u, err := url.Parse(href)
		if err != nil || u.Fragment == "" {
			t.Fatalf("event link %q", href)
		}
		b.do(t, "follow the event", chromedp.Click(chromedp.CSS(`a[data-pick]`)))
		b.waitFor(t, "the incident page at the event", fmt.Sprintf(`location.pathname === %q && location.hash === %q && document.readyState === "complete"`, u.Path, "#"+u.Fragment))
		targetInView(t, b, u.Fragment)
		b.clean(t, "month page")
	})

	t.Run("SearchWithoutJavaScript", func(t *testing.T) {
		b.scripts(t, false)
		defer b.scripts(t, true)
		b.open(t, "/en/search/")
		b.do(t, "type a query", chromedp.SendKeys(chromedp.ID("q"), "storage"))
		b.do(t, "submit", chromedp.Click(chromedp.CSS(`.search-form button[type="submit"]`)))
		b.waitFor(t, "the results page", `location.search === "?q=storage" && document.readyState === "complete"`)
		b.waitFor(t, "highlighted results", `document.querySelectorAll("#search-results .result").length > 0 && document.querySelector("#search-results .fragment mark") !== null`)
		b.do(t, "open the first result", chromedp.Click(chromedp.CSS(`#search-results .result h2 a`)))
		b.waitFor(t, "an incident page", `location.pathname.startsWith("/en/incidents/") && document.querySelector("article.incident h1") !== null`)
		b.clean(t, "search without JavaScript")
	})

	t.Run("SearchWithJavaScript", func(t *testing.T) {
		for _, c := range []struct{ lang, query string }{{"en", "gmail"}, {"zh-TW", "儲存"}} {
			b.open(t, "/"+c.lang+"/search/")
			b.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.__samePage = true`))
			b.do(t, "type a query", chromedp.SendKeys(chromedp.ID("q"), c.query))
			b.waitFor(t, "results as you type", `window.__samePage === true && document.querySelectorAll("#search-results .result").length > 0 && document.querySelector("#search-results mark") !== null`)
			b.waitFor(t, "the address to follow", fmt.Sprintf(`new URLSearchParams(location.search).get("q") === %q`, c.query))
			b.do(t, "open the first result", chromedp.Click(chromedp.CSS(`#search-results .result h2 a`)))
			b.waitFor(t, "an incident page", `window.__samePage === undefined && location.pathname.startsWith("/`+c.lang+`/incidents/") && document.querySelector("article.incident h1") !== null`)
			b.clean(t, "search with JavaScript in "+c.lang)
		}
	})

	t.Run("SimplifiedChinese", func(t *testing.T) {
		// The interface is the Mainland's, in Simplified characters; the
		// incident, never translated into zh-CN, is shown in its zh-TW
		// translation, which the notice names.
		b.open(t, "/zh-CN/incidents/2017-03-13-bigquery-streaming-inserts/")
		nav := eval[string](t, b, `document.documentElement.lang + " " + document.querySelector("nav.site-nav").textContent + " " + document.getElementById("header-q").placeholder`)
		if !strings.HasPrefix(nav, "zh-CN ") || !strings.Contains(nav, "搜索") || !strings.Contains(nav, "时间线") || strings.Contains(nav, "搜尋") || strings.Contains(nav, "時間軸") {
			t.Errorf("the zh-CN page's language and navigation: %q; want zh-CN, 搜索 and 时间线", nav)
		}
		notice := eval[string](t, b, `(n => n ? n.lang + " " + n.textContent : "")(document.querySelector("article.incident .notice"))`)
		if article := eval[string](t, b, `document.querySelector("article.incident").lang`); article != "zh-TW" || !strings.HasPrefix(notice, "zh-CN ") || !strings.Contains(notice, "尚未翻译成简体中文") {
			t.Errorf("article in %q with notice %q; want the zh-TW text and a Simplified notice", article, notice)
		}
		// Search in the Mainland's words (数据, Taiwan's 資料) finds the
		// Traditional texts.
		b.open(t, "/zh-CN/search/")
		if label := eval[string](t, b, `document.querySelector(".search-form button[type=submit]").textContent`); label != "搜索" {
			t.Errorf("the zh-CN search button says %q, want 搜索", label)
		}
		b.do(t, "type a query", chromedp.SendKeys(chromedp.ID("q"), "数据"))
		b.waitFor(t, "results as you type", `document.querySelectorAll("#search-results .result").length > 0 && document.querySelector("#search-results mark") !== null`)
		if count := eval[string](t, b, `document.getElementById("result-count").textContent`); !strings.Contains(count, "起故障") {
			t.Errorf("the result count says %q, want the Mainland's 起故障", count)
		}
		// A result links to the version it shows (package search's
		// choice): here a zh-TW text.
		b.do(t, "open the first result", chromedp.Click(chromedp.CSS(`#search-results .result h2 a`)))
		b.waitFor(t, "an incident page", `location.pathname.includes("/incidents/") && document.querySelector("article.incident h1") !== null`)
		b.clean(t, "Simplified Chinese")
	})

	t.Run("SearchKeepsFilters", func(t *testing.T) {
		// Browsing without words, filtered by year: typing keeps the
		// filter, its chip removes it, and Clear filters is a link.
		b.open(t, "/en/search/?year=2017")
		b.waitFor(t, "the year's incidents and a chip", `document.querySelectorAll("#search-results .result").length > 0 && document.querySelector('.chip[data-facet="year"]') !== null`)
		b.do(t, "type a query", chromedp.SendKeys(chromedp.ID("q"), "bigquery"))
		b.waitFor(t, "the address with both", `new URLSearchParams(location.search).get("q") === "bigquery" && new URLSearchParams(location.search).get("year") === "2017"`)
		b.waitFor(t, "the chip still there", `document.querySelector('.chip[data-facet="year"]') !== null && document.querySelectorAll("#search-results .result").length > 0`)
		b.do(t, "remove the filter", chromedp.Click(chromedp.CSS(`.chip[data-facet="year"]`)))
		b.waitFor(t, "the words without the filter", `document.readyState === "complete" && location.search === "?q=bigquery" && document.querySelector(".chip") === null`)
		b.clean(t, "search keeps filters")
	})

	t.Run("SearchWhileComposing", func(t *testing.T) {
		b.open(t, "/zh-TW/search/?q=gmail")
		b.waitFor(t, "results", `document.querySelectorAll("#search-results .result").length > 0`)
		// Record the script's requests and address changes.
		b.do(t, "watch requests", chromedp.Evaluate[chromedp.Void](`(() => {
			window.__fetched = []; window.__addresses = [];
			const f = window.fetch, r = history.replaceState;
			window.fetch = function (u, o) { window.__fetched.push(String(u)); return f.call(this, u, o); };
			history.replaceState = function (s, t, u) { window.__addresses.push(String(u)); return r.call(this, s, t, u); };
		})()`))
		// An input method composes 儲 from ㄔ, ㄔㄨ, ㄔㄨˇ: no search and
		// no address until compositionend.
		b.do(t, "compose", chromedp.Evaluate[chromedp.Void](`(() => {
			const q = document.getElementById("q");
			q.focus(); q.value = "";
			q.dispatchEvent(new CompositionEvent("compositionstart", {data: ""}));
			for (const s of ["ㄔ", "ㄔㄨ", "ㄔㄨˇ"]) {
				q.value = s;
				q.dispatchEvent(new CompositionEvent("compositionupdate", {data: s}));
				q.dispatchEvent(new InputEvent("input", {data: s, inputType: "insertCompositionText", isComposing: true}));
			}
			window.__composedAt = performance.now();
		})()`))
		// Longer than the script waits after typing before it searches
		// and before it updates the address.
		b.waitFor(t, "time to pass", `performance.now() - window.__composedAt > 1500`)
		if n := eval[int](t, b, `window.__fetched.length + window.__addresses.length`); n != 0 {
			t.Fatalf("%d requests or address changes while composing: %v %v", n,
				eval[[]string](t, b, `window.__fetched`), eval[[]string](t, b, `window.__addresses`))
		}
		// The previous results are still shown.
		if n := eval[int](t, b, `document.querySelectorAll("#search-results .result").length`); n == 0 {
			t.Error("the results were cleared while composing")
		}
		b.do(t, "end the composition", chromedp.Evaluate[chromedp.Void](`(() => {
			const q = document.getElementById("q");
			q.value = "儲存";
			q.dispatchEvent(new CompositionEvent("compositionend", {data: "儲存"}));
		})()`))
		b.waitFor(t, "a search for the composed word", `window.__fetched.length === 1 && new URL(window.__fetched[0]).searchParams.get("q") === "儲存"`)
		b.waitFor(t, "the address to follow", `new URLSearchParams(location.search).get("q") === "儲存"`)
		if got := eval[[]string](t, b, `window.__addresses.map(u => new URL(u, location.href).searchParams.get("q"))`); len(got) != 1 || got[0] != "儲存" {
			t.Errorf("addresses: %q, want only the composed word", got)
		}
		b.clean(t, "search while composing")
	})

	t.Run("PageTypes", func(t *testing.T) {
		for _, p := range pageTypes() {
			t.Run(p.name, func(t *testing.T) { checkPage(t, b, p, axeSource, shots) })
		}
	})

	t.Run("Keyboard", func(t *testing.T) {
		for _, path := range []string{
			"/en/incidents/2020-08-19-blob-storage-metadata-overload/",
			"/zh-TW/search/?q=" + url.QueryEscape("儲存"),
			"/en/timeline/",
		} {
			keyboard(t, b, path)
		}
		b.clean(t, "keyboard")
	})

	// Last: it edits the site.
	t.Run("LiveReload", func(t *testing.T) {
		const id = "2017-03-13-bigquery-streaming-inserts"
		b.open(t, "/en/incidents/"+id+"/")
		b.do(t, "mark the page", chromedp.Evaluate[chromedp.Void](`window.__notReloaded = true`))
		file := filepath.Join(site, "content", id, "en.md")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.Replace(data, []byte("title: "), []byte("title: Freshly edited "), 1)
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		b.waitFor(t, "the page to reload with the edit", `window.__notReloaded === undefined && document.readyState === "complete" && document.querySelector("h1").textContent.startsWith("Freshly edited ") && document.title.startsWith("Freshly edited ")`)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b.waitFor(t, "the page to reload without it", `document.readyState === "complete" && !document.querySelector("h1").textContent.startsWith("Freshly edited ")`)
		b.clean(t, "live reload")
	})
}

// targetInView checks that the element with id is the :target and that it
// is on screen.
func targetInView(t *testing.T, b *browser, id string) {
	t.Helper()
	b.waitFor(t, "the :target "+id, fmt.Sprintf(`(() => {
		const el = document.querySelector(":target");
		if (!el || el.id !== %q) return false;
		const r = el.getBoundingClientRect();
		return r.top >= -1 && r.top < innerHeight && r.height > 0;
	})()`, id))
}

type pageType struct {
	name, path string
	status     int  // 404 for the not-found page
	noScript   bool // opened with JavaScript off (the chooser redirects)
	print      bool // also checked as printed
}

// pageTypes lists one page of every type, in English and Chinese, plus the
// language chooser, an incident shown in its original language, and a
// Simplified Chinese incident and search.
func pageTypes() []pageType {
	pages := []pageType{
		{name: "home", path: "/index.html", noScript: true},
		{name: "ja-incident-untranslated", path: "/ja/incidents/2024-08-12-europe-west2-connectivity/"},
		{name: "zh-CN-incident", path: "/zh-CN/incidents/2020-08-19-blob-storage-metadata-overload/"},
		{name: "zh-CN-search", path: "/zh-CN/search/?q=" + url.QueryEscape("数据")},
	}
	for _, lang := range []string{"en", "zh-TW"} {
		query := map[string]string{"en": "storage", "zh-TW": "儲存"}[lang]
		for _, p := range []pageType{
			{name: "list", path: "/"},
			{name: "incident", path: "/incidents/2020-08-19-blob-storage-metadata-overload/", print: true},
			{name: "timeline", path: "/timeline/"},
			{name: "timeline-year", path: "/timeline/2020/"},
			{name: "timeline-month", path: "/timeline/2020/08/"},
			{name: "terms", path: "/products/"},
			{name: "term", path: "/products/google-cloud-cloud-storage/"},
			{name: "search", path: "/search/?q=" + url.QueryEscape(query)},
			{name: "search-empty", path: "/search/"},
			{name: "search-filtered", path: "/search/?organization=Google+Cloud&from=2016-01&sort=oldest"},
			{name: "404", path: "/no-such-page/", status: 404},
		} {
			p.name = lang + "-" + p.name
			p.path = "/" + lang + p.path
			pages = append(pages, p)
		}
	}
	return pages
}

type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

const axeRun = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
	.filter(v => v.impact === "serious" || v.impact === "critical")
	.map(v => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.map(n => n.target.join(" ") + (n.failureSummary ? " — " + n.failureSummary.replace(/\s+/g, " ") : ""))})))`

// checkPage opens one page and checks it: it loads without problems, has
// no serious accessibility violations in light and dark, does not
// overflow a phone's width, and is photographed when shots is set.
func checkPage(t *testing.T, b *browser, p pageType, axeSource, shots string) {
	if p.status == 404 {
		b.mu.Lock()
		b.allow404 = b.base + p.path
		b.mu.Unlock()
		defer func() {
			b.mu.Lock()
			b.allow404 = ""
			b.mu.Unlock()
		}()
	}
	if p.noScript {
		b.scripts(t, false)
		defer b.scripts(t, true)
	}
	defer b.media(t, "", "light")
	defer b.width(t, desktopWidth)

	res, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(b.base+p.path))
	if err != nil {
		t.Fatal(err)
	}
	want := p.status
	if want == 0 {
		want = 200
	}
	if res.Status != int64(want) {
		t.Errorf("status %d, want %d", res.Status, want)
	}
	b.waitFor(t, "load", `document.readyState === "complete"`)
	if p.noScript {
		b.scripts(t, true) // for axe; the page's own scripts did not run
	}

	for _, scheme := range []string{"light", "dark"} {
		b.media(t, "", scheme)
		t.Run("axe-"+scheme, func(t *testing.T) {
			if axeSource == "" {
				t.Skip(noAxe)
			}
			if !eval[bool](t, b, `typeof axe === "object"`) {
				b.do(t, "inject axe-core", chromedp.Evaluate[chromedp.Void](axeSource))
			}
			actx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
			violations, err := chromedp.Run(actx, chromedp.Evaluate[[]axeViolation](axeRun, chromedp.EvalAwaitPromise))
			cancel()
			if err != nil {
				t.Fatalf("axe (%s scheme): %v", scheme, err)
			}
			for _, v := range violations {
				t.Errorf("axe %s (%s, %s scheme): %s\n\t%s", v.ID, v.Impact, scheme, v.Help, strings.Join(v.Nodes, "\n\t"))
			}
		})
		for _, w := range []int{phoneWidth, desktopWidth} {
			b.width(t, w)
			if w == phoneWidth && scheme == "light" {
				over := eval[[]string](t, b, `Array.from(document.querySelectorAll("body *")).filter(el => {
					const r = el.getBoundingClientRect();
					return r.width > 0 && r.right > document.documentElement.clientWidth + 1 && !el.closest(".body table, pre, .visually-hidden, .skip, .chart-scroll svg");
				}).slice(0, 5).map(el => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().replace(/\s+/g, ".") : "") + " " + Math.round(el.getBoundingClientRect().right) + "px")`)
				if len(over) > 0 {
					t.Errorf("wider than a %d px phone: %s", phoneWidth, strings.Join(over, ", "))
				}
			}
			if shots != "" {
				png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s-%d-%s.png", p.name, w, scheme)
				if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if p.print {
		// Printed: no navigation, but the chart and the timeline.
		b.media(t, "print", "light")
		b.waitFor(t, "the print style", `getComputedStyle(document.querySelector(".site-header")).display === "none" &&
			getComputedStyle(document.querySelector(".site-footer")).display === "none" &&
			document.querySelector("figure.chart svg").getBoundingClientRect().height > 50 &&
			Array.from(document.querySelectorAll(".body li.event")).every(li => li.getBoundingClientRect().height > 0)`)
		if shots != "" {
			png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, p.name+"-print.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.clean(t, p.path)
}

// keyboard tabs through the page at path: the skip link comes first and
// moves focus to the main content, every control can be reached, and the
// focused one always shows a focus style.
func keyboard(t *testing.T, b *browser, path string) {
	t.Helper()
	b.open(t, path)
	b.do(t, "tab", chromedp.KeyEvent(kb.Tab))
	first := eval[string](t, b, `document.activeElement.className + " " + document.activeElement.getAttribute("href")`)
	if first != "skip #main" {
		t.Errorf("%s: the first Tab focuses %q, want the skip link", path, first)
	}
	b.waitFor(t, path+": the skip link to show when focused", `(() => {
		const r = document.activeElement.getBoundingClientRect();
		return r.left >= 0 && r.top >= 0 && r.width > 20 && r.bottom <= innerHeight;
	})()`)
	b.do(t, "follow the skip link", chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, path+": focus on main after the skip link", `document.activeElement === document.getElementById("main") && location.hash === "#main"`)
	b.do(t, "tab", chromedp.KeyEvent(kb.Tab))
	if in := eval[bool](t, b, `document.getElementById("main").contains(document.activeElement)`); !in {
		t.Errorf("%s: Tab after the skip link leaves main: %s", path, eval[string](t, b, `document.activeElement.outerHTML.slice(0, 120)`))
	}

	// Now from the top, through the whole page.
	b.open(t, path)
	const step = `(() => {
		const el = document.activeElement;
		if (!el || el === document.body || el === document.documentElement) return {done: true};
		if (el.dataset.tabbed) return {done: true, again: true};
		el.dataset.tabbed = "1";
		const cs = getComputedStyle(el);
		const visible = (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== "none";
		const closed = el.tagName === "SUMMARY" && !el.parentElement.open;
		return {what: el.outerHTML.slice(0, 100), visible, closed};
	})()`
	type stepResult struct {
		Done    bool   `json:"done"`
		Again   bool   `json:"again"`
		What    string `json:"what"`
		Visible bool   `json:"visible"`
		Closed  bool   `json:"closed"`
	}
	count := 0
	for ; count < 400; count++ {
		b.do(t, "tab", chromedp.KeyEvent(kb.Tab))
		r := eval[stepResult](t, b, step)
		if r.Done {
			if count == 0 {
				t.Fatalf("%s: Tab focuses nothing", path)
			}
			break
		}
		if !r.Visible {
			t.Errorf("%s: no visible focus style on %s", path, r.What)
		}
		if r.Closed {
			// A disclosure opens with Enter and its links come next.
			b.do(t, "open the disclosure", chromedp.KeyEvent(kb.Enter))
			b.waitFor(t, path+": the disclosure to open", `document.activeElement.parentElement.open`)
		}
	}
	missed := eval[[]string](t, b, `Array.from(document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]'))
		.filter(el => el.tabIndex >= 0 && !el.disabled && el.checkVisibility({visibilityProperty: true}) && !el.dataset.tabbed)
		.map(el => el.outerHTML.slice(0, 100))`)
	for _, m := range missed {
		t.Errorf("%s: not reached with Tab: %s", path, m)
	}
	t.Logf("%s: %d stops with Tab", path, count)
}
