package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

func htmlPage(title, body string) []byte {
	return []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>` + title +
		`</title><link rel="stylesheet" href="/style.css"></head><body class="page"><main>` + body + `</main></body></html>`)
}

func liveFiles(body, css string) map[string][]byte {
	return map[string][]byte{
		"index.html":    htmlPage("Home", body),
		"en/index.html": htmlPage("English", body),
		"404.html":      htmlPage("Not found", "missing"),
		"style.css":     []byte(css),
	}
}

func TestLiveReloadScriptOnlyWhenLive(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("hello", "body{}"), nil)
	live := startServer(t, NewHandler(m, Options{LiveReload: true}))
	prod := startServer(t, NewHandler(m, Options{}))

	_, body := get(t, live+"/")
	page := string(body)
	i := strings.Index(page, scriptTag)
	if i < 0 || i > strings.Index(page, "</body>") {
		t.Fatalf("the script is not before </body>:\n%s", page)
	}
	if strings.Count(page, "livereload.js") != 1 {
		t.Errorf("the script appears %d times", strings.Count(page, "livereload.js"))
	}
	if j := strings.Index(page, `href="/_gen/overlay.css"`); j < 0 || j > strings.Index(page, "</head>") {
		t.Errorf("the overlay's stylesheet is not in the head:\n%s", page)
	}
	pageVersion(t, body)
	// The 404 page follows the build too.
	resp, body := get(t, live+"/missing")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), scriptTag) {
		t.Errorf("live 404: %s\n%s", resp.Status, body)
	}
	// Only HTML is touched.
	if _, body := get(t, live+"/style.css"); string(body) != "body{}" {
		t.Errorf("live CSS %q", body)
	}

	resp, body = get(t, live+"/_gen/livereload.js")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || !bytes.Contains(body, []byte("EventSource")) {
		t.Errorf("live script: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	resp, body = get(t, live+"/_gen/overlay.css")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" || !bytes.Contains(body, []byte("#gen-errors")) {
		t.Errorf("overlay css: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	if resp, _ := get(t, live+"/_gen/other"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/_gen/other: %s", resp.Status)
	}

	// Production: nothing of it, even with a failed build.
	m.Swap(nil, problems("content/x/en.md:1:1: broken"))
	for _, path := range []string{"/", "/en/", "/missing"} {
		_, body := get(t, prod+path)
		for _, s := range []string{"livereload", "/_gen/", "gen-errors", "gen-version", "broken"} {
			if bytes.Contains(body, []byte(s)) {
				t.Errorf("production %s contains %q:\n%s", path, s, body)
			}
		}
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"index.html": string(htmlPage("Home", "x")), "_gen/livereload.js": "on disk"})
	for _, base := range []string{prod, startServer(t, Handler(dir))} {
		for _, path := range []string{"/_gen/livereload.js", "/_gen/overlay.css", "/_gen/events", "/_gen/"} {
			if resp, _ := get(t, base+path); resp.StatusCode != http.StatusNotFound {
				t.Errorf("production %s: %s, want 404", path, resp.Status)
			}
		}
	}
}

func TestFailedBuildKeepsLastGoodPageWithOverlay(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("good content", "body{}"), nil)
	base := startServer(t, NewHandler(m, Options{LiveReload: true}))

	_, body := get(t, base+"/en/")
	if bytes.Contains(body, []byte("gen-errors")) {
		t.Fatalf("overlay on a good build:\n%s", body)
	}

	errs := []string{
		"content/2017-03-13-x/en.md:12:3: unknown severity \"<script>alert(1)</script>\"; use minor, major or critical",
		"layouts/base.html:4:9: template: & broken",
	}
	m.Swap(nil, problems(errs...))
	if got := m.Errors(); len(got) != 2 {
		t.Fatalf("Errors() = %v", got)
	}
	for _, path := range []string{"/", "/en/", "/missing"} {
		_, body := get(t, base+path)
		page := string(body)
		if path != "/missing" && !strings.Contains(page, "good content") {
			t.Errorf("%s: the last good page is gone:\n%s", path, page)
		}
		ov := regexp.MustCompile(`(?s)<body class="page"><div id="gen-errors" role="alert">.*?</div>`).FindString(page)
		if ov == "" {
			t.Fatalf("%s: no overlay right after <body>:\n%s", path, page)
		}
		if strings.Contains(ov, "<script>") {
			t.Errorf("%s: an error message is not escaped:\n%s", path, ov)
		}
		for _, want := range []string{
			`content/2017-03-13-x/en.md:12:3`,
			`unknown severity &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34;; use minor, major or critical`,
			`layouts/base.html:4:9`,
			`template: &amp; broken`,
		} {
			if !strings.Contains(ov, want) {
				t.Errorf("%s: overlay lacks %q:\n%s", path, want, ov)
			}
		}
		if strings.Contains(ov, "style=") {
			t.Errorf("%s: inline style in the overlay", path)
		}
	}

	// A build with files but also errors still failed: the files are not
	// taken.
	m.Swap(liveFiles("half-built", "body{}"), problems("content/y/en.md:1:1: bad"))
	_, body = get(t, base+"/")
	if !bytes.Contains(body, []byte("good content")) || bytes.Contains(body, []byte("half-built")) || !bytes.Contains(body, []byte("content/y/en.md:1:1")) {
		t.Errorf("a failed build with files:\n%s", body)
	}

	// Fixing the source removes the overlay.
	m.Swap(liveFiles("fixed content", "body{}"), nil)
	_, body = get(t, base+"/en/")
	if bytes.Contains(body, []byte("gen-errors")) || !bytes.Contains(body, []byte("fixed content")) {
		t.Errorf("after the fix:\n%s", body)
	}
	if m.Errors() != nil {
		t.Errorf("Errors() after the fix: %v", m.Errors())
	}
}

// A build with a huge number of errors shows the first diag.MaxShown
// and how many more there are, on pages and in the event stream.
func TestManyErrorsAreBounded(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("good content", "body{}"), nil)
	base := startServer(t, NewHandler(m, Options{LiveReload: true}))
	_, page := get(t, base+"/en/")
	events, _ := openEvents(t, base+"/_gen/events?v="+pageVersion(t, page))

	errs := make([]string, 350_000)
	for i := range errs {
		errs[i] = fmt.Sprintf("content/x/en.md:%d:1: unknown front-matter key \"k%d\"; remove it", i+2, i)
	}
	m.Swap(nil, problems(errs...))
	_, body := get(t, base+"/en/")
	if len(body) > 64<<10 {
		t.Errorf("page with the overlay is %d bytes", len(body))
	}
	ov := string(body)
	for _, want := range []string{"Build failed with 350000 errors", "en.md:2:1", "en.md:101:1", `<li class="gen-errors-more">… and 349,900 more</li>`} {
		if !strings.Contains(ov, want) {
			t.Errorf("overlay lacks %q", want)
		}
	}
	if strings.Contains(ov, "en.md:102:1") {
		t.Error("overlay shows error 101")
	}

	ev := nextEvent(t, events)
	var got struct {
		Count  int
		Errors []diag.Error
		More   string
	}
	if err := json.Unmarshal([]byte(ev.Data), &got); err != nil || ev.Event != "errors" {
		t.Fatalf("event %s %q: %v", ev.Event, ev.Data, err)
	}
	if got.Count != len(errs) || !slices.Equal(got.Errors, problems(errs[:100]...)) || got.More != "… and 349,900 more" || len(ev.Data) > 64<<10 {
		t.Errorf("event: count %d, %d errors, more %q, %d bytes", got.Count, len(got.Errors), got.More, len(ev.Data))
	}
}

func TestSwapIsAtomic(t *testing.T) {
	m := NewMemSite()
	h := NewHandler(m, Options{LiveReload: true})
	base := startServer(t, h)
	names := []string{"index.html", "en/index.html", "en/a/index.html", "style.css", "data.json"}
	build := func(v int) map[string][]byte {
		files := map[string][]byte{}
		for _, n := range names {
			if strings.HasSuffix(n, ".html") {
				files[n] = htmlPage("v", fmt.Sprintf("v=%d;", v))
			} else {
				files[n] = []byte(fmt.Sprintf("/* v=%d; */", v))
			}
		}
		if v%2 == 0 {
			files["even.txt"] = []byte(fmt.Sprintf("v=%d;", v))
		}
		return files
	}
	m.Swap(build(1), nil)
	versionIn := regexp.MustCompile(`v=(\d+);`)
	contentVersion := func(b []byte) int {
		mm := versionIn.FindSubmatch(b)
		if mm == nil {
			return -1
		}
		n, _ := strconv.Atoi(string(mm[1]))
		return n
	}

	const swaps = 300
	var stop atomic.Bool
	var wg sync.WaitGroup
	var checks atomic.Int64
	// Each kind of reader says when it has checked the last version.
	snapshotSawLast, pageSawLast := make(chan struct{}), make(chan struct{})
	var snapshotOnce, pageOnce sync.Once
	fail := make(chan string, 100)
	report := func(format string, args ...any) {
		select {
		case fail <- fmt.Sprintf(format, args...):
		default:
		}
	}
	// Readers of snapshots: every file of one snapshot is of one build,
	// and a failed build's snapshot carries its own errors over the last
	// good files.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				s := m.Snapshot()
				v := int(s.Version())
				want := v
				if errs := s.Errors(); errs != nil {
					if errs[0].Msg != fmt.Sprintf("build %d failed", v) {
						report("snapshot %d has errors %v", v, errs)
					}
					want = -2 // some earlier build
				}
				seen := -1
				for _, n := range names {
					f, err := s.Open(n)
					if err != nil {
						report("snapshot %d: %s: %v", v, n, err)
						continue
					}
					cv := contentVersion(f.Data)
					if seen == -1 {
						seen = cv
					} else if cv != seen {
						report("snapshot %d mixes builds %d and %d", v, seen, cv)
					}
				}
				if want >= 0 && seen != want {
					report("snapshot %d serves build %d", v, seen)
				}
				if want == -2 && seen >= v {
					report("failed snapshot %d serves build %d", v, seen)
				}
				_, err := s.Open("even.txt")
				if (err == nil) != (seen%2 == 0) {
					report("snapshot %d (build %d): even.txt present: %v", v, seen, err == nil)
				}
				checks.Add(1)
				if v == swaps {
					snapshotOnce.Do(func() { close(snapshotSawLast) })
				}
			}
		}()
	}
	// Readers over HTTP: the page's version and content agree.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				resp, err := http.Get(base + "/en/a/")
				if err != nil {
					report("GET: %v", err)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					report("GET during swaps: %s", resp.Status)
					continue
				}
				m := versionMeta.FindSubmatch(body)
				if m == nil {
					report("no version in page")
					continue
				}
				_, vs, _ := strings.Cut(string(m[1]), ".")
				v, _ := strconv.Atoi(vs)
				cv := contentVersion(body)
				failed := bytes.Contains(body, []byte(`id="gen-errors"`))
				switch {
				case failed && !bytes.Contains(body, []byte(fmt.Sprintf("build %d failed", v))):
					report("page at %d shows other errors", v)
				case failed && cv >= v:
					report("failed page at %d shows build %d", v, cv)
				case !failed && cv != v:
					report("page at %d shows build %d", v, cv)
				}
				checks.Add(1)
				if v == swaps {
					pageOnce.Do(func() { close(pageSawLast) })
				}
			}
		}()
	}
	for v := 2; v <= swaps; v++ {
		if v%7 == 0 {
			m.Swap(nil, problems(fmt.Sprintf("build %d failed", v)))
		} else {
			m.Swap(build(v), nil)
		}
		if v%50 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	// The readers check the last version too. (The bound is for a broken
	// test only.)
	bound := time.NewTimer(time.Minute)
	defer bound.Stop()
wait:
	for _, saw := range []chan struct{}{snapshotSawLast, pageSawLast} {
		select {
		case <-saw:
		case <-bound.C:
			t.Error("the readers never saw the last version")
			break wait
		}
	}
	stop.Store(true)
	wg.Wait()
	close(fail)
	for msg := range fail {
		t.Error(msg)
	}
	if m.Version() != swaps {
		t.Errorf("Version() = %d after %d swaps", m.Version(), swaps)
	}
	if checks.Load() == 0 {
		t.Error("no reads happened")
	}
}

func TestEventStream(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("one", "body{color:red}"), nil)
	base := startServer(t, NewHandler(m, Options{LiveReload: true}))
	_, page := get(t, base+"/")
	tag := pageVersion(t, page)

	events, resp := openEvents(t, base+"/_gen/events?v="+tag)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	// A page changes: reload. The page was current, so this is the
	// stream's first event: its id is the new version (an event for the
	// version the page shows would have come first).
	m.Swap(liveFiles("two", "body{color:red}"), nil)
	ev := nextEvent(t, events)
	if ev.Event != "reload" {
		t.Fatalf("after a page change: %+v, want reload", ev)
	}
	_, page = get(t, base+"/")
	if ev.ID != pageVersion(t, page) {
		t.Errorf("event id %q, page version %q", ev.ID, pageVersion(t, page))
	}

	// Only the stylesheet changes: css, with the version for ?v=.
	m.Swap(liveFiles("two", "body{color:blue}"), nil)
	ev = nextEvent(t, events)
	if ev.Event != "css" || ev.Data == "" || ev.Data != ev.ID {
		t.Fatalf("after a CSS change: %+v, want css", ev)
	}

	// A failed build: errors, as JSON with their count.
	errs := []string{"content/a/en.md:3:1: bad <b>date</b>", "i18n/ja.yaml:2:5: missing key"}
	m.Swap(nil, problems(errs...))
	ev = nextEvent(t, events)
	if ev.Event != "errors" {
		t.Fatalf("after a failed build: %+v, want errors", ev)
	}
	var got struct {
		Count  int
		Errors []diag.Error
		More   string
	}
	if err := json.Unmarshal([]byte(ev.Data), &got); err != nil || got.Count != 2 || !slices.Equal(got.Errors, problems(errs...)) || got.More != "" {
		t.Errorf("errors data %q: %v", ev.Data, err)
	}

	// The fix: a reload (the overlay goes), even if only CSS changed.
	m.Swap(liveFiles("two", "body{color:green}"), nil)
	if ev = nextEvent(t, events); ev.Event != "reload" {
		t.Fatalf("after the fix: %+v, want reload", ev)
	}

	// An identical rebuild still reloads.
	m.Swap(liveFiles("two", "body{color:green}"), nil)
	if ev = nextEvent(t, events); ev.Event != "reload" {
		t.Fatalf("after an identical build: %+v, want reload", ev)
	}

	// A page served before swaps it has not seen catches up at once.
	m.Swap(liveFiles("three", "body{color:green}"), nil)
	nextEvent(t, events)
	late, _ := openEvents(t, base+"/_gen/events?v="+tag)
	if ev = nextEvent(t, late); ev.Event != "reload" {
		t.Errorf("a stale page: %+v, want reload", ev)
	}
	m.Swap(nil, problems("x.md:1:1: broken"))
	nextEvent(t, events)
	late2, _ := openEvents(t, base+"/_gen/events?v="+tag)
	if ev = nextEvent(t, late2); ev.Event != "errors" {
		t.Errorf("a stale page during a failed build: %+v, want errors", ev)
	}
	// A page from another run of the server is stale too.
	other, _ := openEvents(t, base+"/_gen/events?v=zzz."+strconv.FormatUint(m.Version(), 10))
	if ev = nextEvent(t, other); ev.Event != "errors" {
		t.Errorf("a page from another run: %+v, want errors", ev)
	}
}

func TestEventStreamHeartbeatAndLimit(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("one", "x{}"), nil)
	h := NewHandler(m, Options{LiveReload: true}).(*handler)
	h.heartbeat = 30 * time.Millisecond
	h.streams = make(chan struct{}, 2)
	base := startServer(t, h)

	resp, err := http.Get(base + "/_gen/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	buf := make([]byte, 0, 256)
	deadline := time.Now().Add(3 * time.Second)
	for !bytes.Contains(buf, []byte(": heartbeat")) && time.Now().Before(deadline) {
		p := make([]byte, 64)
		n, err := resp.Body.Read(p)
		buf = append(buf, p[:n]...)
		if err != nil {
			break
		}
	}
	if !bytes.Contains(buf, []byte("retry: ")) || !bytes.Contains(buf, []byte(": heartbeat\n\n")) {
		t.Errorf("stream so far: %q", buf)
	}

	openEvents(t, base+"/_gen/events")
	r3, err := http.Get(base + "/_gen/events")
	if err != nil {
		t.Fatal(err)
	}
	r3.Body.Close()
	if r3.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a third stream over a limit of 2: %s, want 503", r3.Status)
	}
}

func TestWatch(t *testing.T) {
	m := NewMemSite()
	ctx, cancel := context.WithCancel(context.Background())
	ch := m.Watch(ctx, m.Version())
	m.Swap(map[string][]byte{"a.html": []byte("a")}, nil)
	if c := <-ch; c.Kind != ChangeReload || c.Version != 1 {
		t.Errorf("first change %+v", c)
	}
	// Swaps while nobody listens merge: the watcher holds at most the
	// change it was sending when the next swap came, and the ones after it
	// become one change to the last version. Two swaps give one or two
	// changes, whatever the timing; the last is version 3.
	m.Swap(map[string][]byte{"a.html": []byte("a"), "s.css": []byte("1")}, nil)
	m.Swap(map[string][]byte{"a.html": []byte("a"), "s.css": []byte("2")}, nil)
	c := <-ch
	if c.Version == 2 {
		c = <-ch
	}
	if c.Version != 3 || c.Kind != ChangeCSS && c.Kind != ChangeReload {
		t.Errorf("change %+v; want version 3", c)
	}
	cancel()
	for range ch {
	}
}

// BenchmarkSwap swaps a build of 5,000 pages of 20 KB in which one page
// changed, as an incremental rebuild does.
func BenchmarkSwap(b *testing.B) {
	files := map[string][]byte{}
	for i := range 5000 {
		files[fmt.Sprintf("en/incidents/%d/index.html", i)] = bytes.Repeat([]byte{byte('a' + i%26)}, 20<<10)
	}
	m := NewMemSite()
	m.Swap(files, nil)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		next := make(map[string][]byte, len(files))
		for k, v := range files {
			next[k] = v
		}
		next["en/incidents/7/index.html"] = []byte(fmt.Sprintf("changed %d", i))
		m.Swap(next, nil)
	}
}
