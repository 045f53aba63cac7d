package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// findChromium returns the browser to drive, or "" when there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func browserPage(marker string) []byte {
	return []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Live</title>` +
		`<link rel="stylesheet" href="/style.css"></head><body><main><p id="marker">` + marker +
		`</p></main></body></html>`)
}

// TestBrowserLiveReload drives a real browser: an open page reloads by
// itself after a swap and keeps its scroll position, a CSS-only change
// swaps the stylesheet without a reload, a failed build shows the
// overlay (styled, escaped, without breaking the Content-Security-Policy)
// and the fix removes it.
func TestBrowserLiveReload(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	chrome := findChromium()
	if chrome == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no chromium: the browser test is required in CI")
		}
		t.Skip("no chromium installed")
	}

	css := func(bg string) []byte {
		return []byte("main { min-height: 6000px; }\nbody { background: " + bg + "; }\n")
	}
	files := func(marker, bg string) map[string][]byte {
		return map[string][]byte{"index.html": browserPage(marker), "style.css": css(bg)}
	}
	m := NewMemSite()
	m.Swap(files("one", "rgb(1, 2, 3)"), nil)
	h := NewHandler(m, Options{LiveReload: true}).(*handler)
	base := startServer(t, h)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Headless,
		chromedp.WindowSize(1000, 800))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	var mu sync.Mutex
	var pageProblems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *log.EventEntryAdded:
			if strings.HasSuffix(ev.Entry.URL, "/favicon.ico") {
				return // the browser asks; the test site has none
			}
			if ev.Entry.Level == log.EntryLevelError || strings.Contains(ev.Entry.Text, "Content Security Policy") {
				pageProblems = append(pageProblems, string(ev.Entry.Source)+": "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *runtime.EventExceptionThrown:
			pageProblems = append(pageProblems, "exception: "+ev.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	// waitFor polls a JavaScript condition.
	waitFor := func(what, cond string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(`+cond+`)`))
			if err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				html, _ := chromedp.Run(ctx, chromedp.OuterHTML("html"))
				t.Fatalf("%s: %s is still false (err %v); page:\n%s", what, cond, err, html)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	streamOpen := func() {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for len(h.streams) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the page did not open the event stream")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	if _, err := chromedp.Run(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	waitFor("first load", `document.getElementById("marker").textContent === "one"`)
	streamOpen()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 1500); window.__notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	waitFor("scrolled", `window.scrollY === 1500`)

	// CSS only: the stylesheet changes in place, no reload.
	m.Swap(files("one", "rgb(4, 5, 6)"), nil)
	waitFor("css swap", `getComputedStyle(document.body).backgroundColor === "rgb(4, 5, 6)"`)
	waitFor("css swap without reload", `window.__notReloaded === true && window.scrollY === 1500`)
	waitFor("old stylesheet removed", `document.querySelectorAll('link[href^="/style.css"]').length === 1`)

	// A page change: reload, same scroll position.
	m.Swap(files("two", "rgb(4, 5, 6)"), nil)
	waitFor("reload", `document.getElementById("marker").textContent === "two"`)
	waitFor("reloaded", `window.__notReloaded === undefined`)
	waitFor("scroll kept", `Math.abs(window.scrollY - 1500) < 2`)
	streamOpen()

	// A failed build: the overlay, from the event, styled by overlay.css.
	msg := `content/x/en.md:3:7: bad <script>alert("x")</script> here`
	m.Swap(nil, problems(msg))
	waitFor("overlay", `document.getElementById("gen-errors") !== null`)
	waitFor("overlay text", fmt.Sprintf(`document.getElementById("gen-errors").textContent.includes(%q)`, msg))
	waitFor("overlay styled", `getComputedStyle(document.getElementById("gen-errors")).position === "fixed"`)
	waitFor("page kept", `document.getElementById("marker").textContent === "two"`)

	// Opening a page while the build fails shows the overlay from the
	// server, before any script.
	if _, err := chromedp.Run(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	waitFor("server overlay", fmt.Sprintf(`document.querySelector("#gen-errors li").textContent === %q`, msg))
	waitFor("no injected script ran", `window.__xss === undefined && document.querySelectorAll("#gen-errors script").length === 0`)
	streamOpen()

	// Many errors, from the event: the first hundred and how many more.
	many := make([]string, 150)
	for i := range many {
		many[i] = fmt.Sprintf("content/x/en.md:%d:1: unknown front-matter key", i+2)
	}
	m.Swap(nil, problems(many...))
	waitFor("bounded overlay", `document.querySelectorAll("#gen-errors li").length === 101 && `+
		`document.querySelector("#gen-errors .gen-errors-more").textContent === "… and 50 more" && `+
		`document.querySelector("#gen-errors .gen-errors-title").textContent.startsWith("Build failed with 150 errors")`)

	// The fix removes it.
	m.Swap(files("three", "rgb(4, 5, 6)"), nil)
	waitFor("fixed", `document.getElementById("marker").textContent === "three" && document.getElementById("gen-errors") === null`)

	mu.Lock()
	defer mu.Unlock()
	for _, p := range pageProblems {
		t.Errorf("browser reported: %s", p)
	}
}
