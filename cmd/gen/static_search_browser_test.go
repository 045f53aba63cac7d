package main

import (
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/locale"
)

// TestBrowserSearchOnStaticHost serves a built public/ folder of the
// bundled archive with Go's plain file server, as a static host would,
// with no gen behind it: a query sent from the header's box or a link
// is kept in the search page's box, the page says in its language that
// search needs the gen server, and typing fetches nothing. Without
// JavaScript the page still says so.
func TestBrowserSearchOnStaticHost(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	chrome := chromiumOrSkip(t)
	site := copySite(t)
	dest := filepath.Join(site, "public")
	if _, err := build.Run(build.Options{Source: site, Dest: dest, BaseURL: "http://127.0.0.1/"}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dest)), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("file server: %v", err)
		}
	}()
	t.Cleanup(func() { srv.Close() })

	langs, err := locale.Load(i18n.Files, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	notice := func(tag string) string {
		s, err := langs.Get(tag).T("search_static_notice")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	ctx := browserTab(t, chrome, 2*time.Minute)
	b := &browser{ctx: ctx, base: "http://" + ln.Addr().String(), urls: map[network.RequestID]string{}, allow404: "http://" + ln.Addr().String() + "/favicon.ico"}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatal(err)
	}
	// searches counts the requests for a search page so far.
	searches := func() int {
		b.mu.Lock()
		defer b.mu.Unlock()
		n := 0
		for _, u := range b.urls {
			if strings.Contains(u, "/search/") {
				n++
			}
		}
		return n
	}
	shown := func(where, tag string) {
		t.Helper()
		if lang := eval[string](t, b, `document.documentElement.lang`); lang != tag {
			t.Errorf("%s: page in %q, want %q", where, lang, tag)
		}
		if !eval[bool](t, b, `document.getElementById("static-notice").checkVisibility()`) {
			t.Errorf("%s: the notice is not shown", where)
		}
		if got, want := strings.TrimSpace(eval[string](t, b, `document.getElementById("static-notice").textContent`)), notice(tag); got != want {
			t.Errorf("%s: the notice says %q, want %q", where, got, want)
		}
	}

	// From the header's box of another page.
	b.open(t, "/en/")
	b.do(t, "type in the header's box", chromedp.SendKeys(chromedp.ID("header-q"), "certificate expired"))
	b.do(t, "send it", chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, "the search page", `location.pathname === "/en/search/" && document.readyState === "complete"`)
	b.waitFor(t, "the query kept in the box", `document.getElementById("q").value === "certificate expired"`)
	shown(t.Name()+": from the header", "en")

	// From a link, with dates, in another language.
	b.open(t, "/ja/search/?q=%E8%A8%BC%E6%98%8E%E6%9B%B8+%E6%9C%9F%E9%99%90&from=2021-03&to=2021-12-31")
	b.waitFor(t, "the query kept in the box", `document.getElementById("q").value === "証明書 期限"`)
	if got := eval[[]string](t, b, `["from", "to"].map(id => document.getElementById(id).value)`); got[0] != "2021-03" || got[1] != "2021-12-31" {
		t.Errorf("the dates in the form: %q", got)
	}
	shown(t.Name()+": from a link", "ja")

	// Typing asks the static host for nothing: its answer would be this
	// same page.
	before := searches()
	b.do(t, "type more", chromedp.SendKeys(chromedp.ID("q"), "切れ"))
	time.Sleep(time.Second) // past the script's pause before it searches
	if n := searches() - before; n != 0 {
		t.Errorf("typing on a static host fetched %d search pages", n)
	}
	if got := eval[string](t, b, `document.getElementById("q").value`); got != "証明書 期限切れ" {
		t.Errorf("the box holds %q after typing", got)
	}
	b.clean(t, "with JavaScript")

	// Without JavaScript nothing can read the address, but the page
	// still says why it has no results.
	b.scripts(t, false)
	b.open(t, "/zh-TW/search/?q=%E6%86%91%E8%AD%89")
	shown(t.Name()+": without JavaScript", "zh-TW")
	b.scripts(t, true)
	b.clean(t, "without JavaScript")
}
