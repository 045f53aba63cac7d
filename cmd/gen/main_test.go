package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/sitetest"
)

func copySite(t *testing.T) string { return sitetest.Copy(t, "../..") }

func runGen(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestExitCodes(t *testing.T) {
	site := copySite(t)
	if code, out, errs := runGen("build", "--source", site); code != exitOK || !strings.Contains(out, "built 4 incidents in 4 languages") {
		t.Fatalf("build: %d %q %q", code, out, errs)
	}
	if code, _, _ := runGen("build", "--no-such-flag"); code != exitUsage {
		t.Errorf("unknown flag: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runGen("frobnicate"); code != exitUsage {
		t.Errorf("unknown command: exit %d, want %d", code, exitUsage)
	}
	if code, out, _ := runGen("build", "-h"); code != exitOK || !strings.Contains(out, "--base-url") {
		t.Errorf("build -h: %d %q", code, out)
	}
	if code, out, _ := runGen("help", "serve"); code != exitOK || !strings.Contains(out, "--dir") {
		t.Errorf("help serve: %d %q", code, out)
	}
	if code, out, _ := runGen("version"); code != exitOK || !strings.HasPrefix(out, "gen ") {
		t.Errorf("version: %d %q", code, out)
	}
	bad := filepath.Join(site, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	data, _ := os.ReadFile(bad)
	os.WriteFile(bad, bytes.Replace(data, []byte("severity: major"), []byte("severity: huge"), 1), 0o644)
	code, _, errs := runGen("build", "--source", site)
	if code != exitContent || !strings.Contains(errs, "content/2017-03-13-bigquery-streaming-inserts/en.md:") || !strings.Contains(errs, "previous output is unchanged") {
		t.Errorf("broken build: exit %d, stderr %q", code, errs)
	}
}

// syncBuffer is an io.Writer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs serve in the background on a free port and returns its URL.
func startServe(t *testing.T, serveFn func(ctx context.Context, ln net.Listener, out io.Writer) int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan int)
	go func() { done <- serveFn(ctx, ln, &out) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("serve exited %d: %s", code, out.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not shut down")
		}
	})
	return "http://" + ln.Addr().String()
}

func fetch(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// liveEvents follows the authoring server's live reload stream from now
// on: the name of every event it sends, until the test ends.
func liveEvents(t *testing.T, base string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/_gen/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /_gen/events: %s", res.Status)
	}
	ch := make(chan string, 64)
	go func() {
		defer res.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				select {
				case ch <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return ch
}

// afterEvents checks again after every event of the live reload stream
// until check passes. Every build that changes what is served sends one,
// so a check that never passes fails at the bound, which is there only so
// that a broken server does not hang the tests.
func afterEvents(t *testing.T, events <-chan string, what string, check func() bool) {
	t.Helper()
	bound := time.NewTimer(time.Minute)
	defer bound.Stop()
	for !check() {
		select {
		case _, ok := <-events:
			if !ok {
				t.Fatalf("the event stream ended before %s", what)
			}
		case <-bound.C:
			t.Fatalf("no build brought %s", what)
		}
	}
}

func TestServeSourcesRebuildsOnSave(t *testing.T) {
	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, t.Logf)
	})
	page := base + "/en/incidents/2017-03-13-bigquery-streaming-inserts/"
	res, body := fetch(t, page)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "/_gen/livereload.js") {
		t.Fatalf("status %d; live reload script present: %v", res.StatusCode, strings.Contains(body, "livereload"))
	}
	// Accept-Language picks the reader's language at /.
	if res, _ := fetch(t, base+"/", "Accept-Language", "zh-TW,zh;q=0.9"); res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/zh-TW/" {
		t.Errorf("/ with zh-TW: %d → %q", res.StatusCode, res.Header.Get("Location"))
	}

	file := filepath.Join(site, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	data, _ := os.ReadFile(file)
	events := liveEvents(t, base)
	if err := os.WriteFile(file, bytes.Replace(data, []byte("title: "), []byte("title: Freshly edited "), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	afterEvents(t, events, "the edit to show", func() bool { _, body := fetch(t, page); return strings.Contains(body, "Freshly edited") })
	afterEvents(t, events, "search to find the edit", func() bool {
		_, body := fetch(t, base+"/api/search?q=freshly&lang=en")
		return strings.Contains(body, "2017-03-13-bigquery-streaming-inserts")
	})

	// A broken save keeps the last good page and shows the error on it.
	if err := os.WriteFile(file, bytes.Replace(data, []byte("severity: major"), []byte("severity: huge"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	afterEvents(t, events, "the error overlay", func() bool {
		res, body := fetch(t, page)
		return res.StatusCode == http.StatusOK && strings.Contains(body, "gen-errors") && strings.Contains(body, "en.md:")
	})
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	afterEvents(t, events, "the overlay to go", func() bool { _, body := fetch(t, page); return !strings.Contains(body, "gen-errors") })
}

func TestServeBuiltFolderUnderBasePath(t *testing.T) {
	site := copySite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if code, _, errs := runGen("build", "--source", site, "--dest", dest, "--base-url", "https://example.org/archive/"); code != exitOK {
		t.Fatalf("build: %s", errs)
	}
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, t.Logf)
	})
	res, body := fetch(t, base+"/archive/en/incidents/2017-03-13-bigquery-streaming-inserts/")
	if res.StatusCode != http.StatusOK || strings.Contains(body, "livereload") {
		t.Fatalf("incident page: %d, reload script present: %v", res.StatusCode, strings.Contains(body, "livereload"))
	}
	if res.Header.Get("Content-Security-Policy") == "" || res.Header.Get("ETag") == "" {
		t.Errorf("missing headers: %v", res.Header)
	}
	if res, body := fetch(t, base+"/archive/api/search?q=Gmail&lang=en"); res.StatusCode != http.StatusOK || !strings.Contains(body, `"url":"/archive/en/incidents/2020-08-19`) {
		t.Errorf("search under base path: %d %s", res.StatusCode, body)
	}
	if res, body := fetch(t, base+"/archive/ja/search/?q=%E8%B3%87%E6%BA%90"); res.StatusCode != http.StatusOK || !strings.Contains(body, "<mark>") {
		t.Errorf("search page: %d", res.StatusCode)
	}
	if res, body := fetch(t, base+"/archive/zh-TW/no-such-page/"); res.StatusCode != http.StatusNotFound || !strings.Contains(body, `<html lang="zh-TW"`) {
		t.Errorf("missing page under /zh-TW/: %d, Chinese 404 page: %v", res.StatusCode, strings.Contains(body, `lang="zh-TW"`))
	}
	if res, _ := fetch(t, base+"/archive/.gen/site.json"); res.StatusCode != http.StatusNotFound {
		t.Errorf(".gen is served: %d", res.StatusCode)
	}
	if res, _ := fetch(t, base+"/archive/", "Accept-Language", "ja"); res.Header.Get("Location") != "/archive/ja/" {
		t.Errorf("/archive/ with ja → %q", res.Header.Get("Location"))
	}
}

func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	code, _, errs := runGen("serve", "--port", strconv.Itoa(port), "--source", copySite(t))
	if code != exitUsage || !strings.Contains(errs, strconv.Itoa(port)) || !strings.Contains(errs, "--port") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestCheckCommand(t *testing.T) {
	site := copySite(t)
	// A site in a repository, as sites are: without readable history check
	// warns that staleness is judged only by translated_from.
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "site"}} {
		if out, err := exec.Command("git", append([]string{"-C", site}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	code, out, errs := runGen("check", "--source", site)
	if code != exitOK || !strings.Contains(out, "complete and clean") || !strings.Contains(out, "2024-08-12-europe-west2-connectivity") {
		t.Fatalf("check of the bundled archive: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runGen("check", "--source", site, "--format", "json")
	var rep struct {
		Errors       []any `json:"errors"`
		Translations []struct {
			ID        string            `json:"id"`
			Languages map[string]string `json:"languages"`
		} `json:"translations"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK || len(rep.Translations) != 4 {
		t.Fatalf("json report: exit %d, %v, %d rows", code, err, len(rep.Translations))
	}
	for _, row := range rep.Translations {
		if row.ID == "2024-08-12-europe-west2-connectivity" && row.Languages["ja"] != "missing" {
			t.Errorf("2024 incident in ja: %q, want missing", row.Languages["ja"])
		}
	}
	bad := filepath.Join(site, "content", "2016-10-31-pubsub-subscription-creation", "ja.md")
	data, _ := os.ReadFile(bad)
	os.WriteFile(bad, bytes.Replace(data, []byte("- 13:11 —"), []byte("- 13:12 —"), 1), 0o644)
	code, out, _ = runGen("check", "--source", site)
	if code != exitContent || !strings.Contains(out, "content/2016-10-31-pubsub-subscription-creation/ja.md:") {
		t.Errorf("check of a broken translation: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(site, "public")); err == nil {
		t.Error("check wrote public/")
	}
}

func TestNewIncidentBuilds(t *testing.T) {
	site := copySite(t)
	code, out, errs := runGen("new", "--source", site, "--timezone", "Asia/Taipei", "--begin", "2025-01-02 00:30", "--lang", "zh-TW", "cdn-purge-storm")
	if code != exitOK || !strings.Contains(out, filepath.Join("2025-01-02-cdn-purge-storm", "zh-TW.md")) {
		t.Fatalf("new: %d %q %q", code, out, errs)
	}
	written, err := os.ReadFile(filepath.Join(site, "content", "2025-01-02-cdn-purge-storm", "zh-TW.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"## 影響 {#impact}", "## 根本原因 {#root-cause}", "## 修復措施 {#remediation}", "## 時間軸 {#timeline}"} {
		if !strings.Contains(string(written), h) {
			t.Errorf("the zh-TW original has no %q:\n%s", h, written)
		}
	}
	if code, _, errs := runGen("new", "--source", site, "--lang", "de", "cdn-purge-storm"); code != exitUsage || !strings.Contains(errs, "the site has no language de") {
		t.Errorf("a language the site does not have: %d %q", code, errs)
	}
	// A draft: the archive builds without it, and with --drafts it is there.
	if code, out, errs := runGen("build", "--source", site); code != exitOK || !strings.Contains(out, "built 4 incidents") {
		t.Errorf("build without drafts: %d %q %q", code, out, errs)
	}
	if code, out, errs := runGen("build", "--source", site, "--drafts"); code != exitOK || !strings.Contains(out, "built 5 incidents") {
		t.Errorf("build with drafts: %d %q %q", code, out, errs)
	}
	if code, _, _ := runGen("new", "--source", site, "--begin", "2025-01-02 00:30", "--timezone", "Asia/Taipei", "cdn-purge-storm"); code != exitUsage {
		t.Errorf("creating it twice: exit %d", code)
	}
}

// TestNewRefusesTimesTheBuildRefuses: a begin the clocks skip or show
// twice, or outside the years dates are written in, is refused with the
// build's own message, and nothing is written.
func TestNewRefusesTimesTheBuildRefuses(t *testing.T) {
	site := copySite(t)
	for _, tc := range []struct{ begin, zone string }{
		{"2018-11-04 00:30", "America/Sao_Paulo"}, // the clocks skip 00:00–01:00
		{"2021-11-07 01:30", "America/Los_Angeles"},
		{"0000-01-01 00:00", "America/Los_Angeles"},
		{"9999-12-31 23:59", "America/Los_Angeles"}, // 10000 in UTC
	} {
		_, want := content.ParseTime(tc.begin, mustLoad(t, tc.zone))
		code, out, errs := runGen("new", "--source", site, "--begin", tc.begin, "--timezone", tc.zone, "odd-time")
		if want == nil || code != exitUsage || out != "" || errs != "gen new: --begin: "+want.Error()+"\n" {
			t.Errorf("--begin %q in %s: %d %q %q; want the build's %v", tc.begin, tc.zone, code, out, errs, want)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(site, "content", "*-odd-time")); len(matches) > 0 {
		t.Errorf("wrote %q", matches)
	}
	// The hour after the gap is what the message says to use; it builds.
	if code, out, errs := runGen("new", "--source", site, "--begin", "2018-11-04 01:30", "--timezone", "America/Sao_Paulo", "odd-time"); code != exitOK {
		t.Fatalf("after the gap: %d %q %q", code, out, errs)
	}
	if code, out, errs := runGen("build", "--source", site, "--drafts", "--dest", filepath.Join(t.TempDir(), "public")); code != exitOK || !strings.Contains(out, "built 5 incidents") {
		t.Errorf("build with the new draft: %d %q %q", code, out, errs)
	}
}

func mustLoad(t *testing.T, zone string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestBuildWarnsWhenOldOutputStays: the new output is in place, the old
// one cannot be deleted: a warning naming it, and exit 0.
func TestBuildWarnsWhenOldOutputStays(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root deletes read-only folders; internal/output's TestOldOutputNotRemovable injects the failure instead")
	}
	site := copySite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if code, _, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build: %s", errs)
	}
	stuck := filepath.Join(dest, "en", "incidents")
	if err := os.Chmod(stuck, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(filepath.Dir(dest), func(p string, d os.DirEntry, err error) error { os.Chmod(p, 0o755); return nil })
	})
	// Cold: a warm build keeps the old output as its spare instead.
	code, out, errs := runGen("build", "--source", site, "--dest", dest, "--cold")
	if code != exitOK || !strings.Contains(out, "built 4 incidents") {
		t.Fatalf("build with an undeletable old output: exit %d, %q %q", code, out, errs)
	}
	if !strings.Contains(errs, "warning: could not remove the previous output "+filepath.Dir(dest)+string(filepath.Separator)+".public.new-") {
		t.Errorf("no warning naming the old output: %q", errs)
	}
}

// Help is printed once, on stdout, whether asked with help CMD or -h.
func TestHelpPrintedOnce(t *testing.T) {
	for _, args := range [][]string{{"help", "check"}, {"check", "-h"}, {"help", "build"}, {"help", "new"}} {
		code, out, errs := runGen(args...)
		if code != exitOK || strings.Count(out, "Usage: gen ") != 1 || errs != "" {
			t.Errorf("%v: exit %d, %d usages on stdout, stderr %q", args, code, strings.Count(out, "Usage: gen "), errs)
		}
	}
	if code, out, errs := runGen("check", "--no-such-flag"); code != exitUsage || out != "" || !strings.Contains(errs, "no-such-flag") {
		t.Errorf("a bad flag: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// One of a thing is said in the singular; a site whose content has
// errors is still counted, and a missing content folder is named.
func TestCountsAndPlurals(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	en, err := os.ReadFile("../../i18n/en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "i18n", "en.yaml"), en, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runGen("build", "--source", dir)
	want := filepath.ToSlash(filepath.Join(dir, "content")) + ": no such folder;"
	if code != exitContent || !strings.Contains(errs, want) || !strings.Contains(errs, "build failed: 1 error;") {
		t.Errorf("no content folder: exit %d, stderr %q; want %q and 1 error", code, errs, want)
	}

	page := "---\ntitle: One\nsummary: One incident.\ntimezone: UTC\nbegin: 2021-06-01 10:00\nend: 2021-06-01 11:00\norganization: AWS\nproducts: [DNS]\nregions: [us-east-1]\ncauses: [load]\nseverity: minor\n---\n\n## Impact {#impact}\n\nx\n\n## Root cause {#root-cause}\n\nx\n\n## Remediation {#remediation}\n\nx\n\n## Timeline {#timeline}\n\n- 2021-06-01 10:00 — Began.\n- 11:00 — Ended.\n"
	inc := filepath.Join(dir, "content", "2021-06-01-one")
	if err := os.MkdirAll(inc, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inc, "en.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runGen("build", "--source", dir); code != exitOK || !strings.Contains(out, "built 1 incident in 1 language: ") {
		t.Errorf("build: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// Outside a repository check warns that the git history is unread.
	if code, out, _ := runGen("check", "--source", dir); code != exitOK || !strings.Contains(out, "1 incident in 1 language: 0 errors, ") || strings.Contains(out, "1 warnings") {
		t.Errorf("check: exit %d, %q", code, out)
	}
	// An error in the front matter: the incident is still counted.
	if err := os.WriteFile(filepath.Join(inc, "en.md"), []byte(strings.Replace(page, "severity: minor", "severity: [minor", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runGen("check", "--source", dir); code != exitContent || !strings.Contains(out, "1 incident in 1 language: 1 error, 0 warnings;") {
		t.Errorf("check with an error: exit %d, %q", code, out)
	}
}

// A second gen build carries the unchanged files over and says so;
// --cold renders everything.
func TestBuildWarmAndCold(t *testing.T) {
	site := copySite(t)
	dest := filepath.Join(t.TempDir(), "public")
	for _, run := range []struct {
		args    []string
		carried bool
	}{{nil, false}, {nil, true}, {[]string{"--cold"}, false}} {
		code, out, errs := runGen(append([]string{"build", "--source", site, "--dest", dest}, run.args...)...)
		if code != exitOK {
			t.Fatalf("build %v: %s", run.args, errs)
		}
		if got := strings.Contains(out, "carried over"); got != run.carried {
			t.Errorf("build %v: %q; carried over: %v, want %v", run.args, out, got, run.carried)
		}
	}
}

// Removing content/ while serving is the error gen build reports for a
// site without one, not an archive with no incidents: the last good
// pages stay, with the error over them.
func TestServeContentRemovedIsAnError(t *testing.T) {
	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, t.Logf)
	})
	page := base + "/en/incidents/2017-03-13-bigquery-streaming-inserts/"
	if res, _ := fetch(t, page); res.StatusCode != http.StatusOK {
		t.Fatalf("before: %s", res.Status)
	}
	events := liveEvents(t, base)
	if err := os.RemoveAll(filepath.Join(site, "content")); err != nil {
		t.Fatal(err)
	}
	afterEvents(t, events, "the error overlay", func() bool {
		res, body := fetch(t, page)
		return res.StatusCode == http.StatusOK && strings.Contains(body, "gen-errors") && strings.Contains(body, "/content</span>: no such folder")
	})
	if _, body := fetch(t, base+"/en/"); strings.Contains(body, "No incidents yet") || !strings.Contains(body, "2017-03-13-bigquery-streaming-inserts") {
		t.Errorf("/en/ lost the last good incidents:\n%s", body)
	}
	// Put back, the folder is watched again.
	if err := os.CopyFS(filepath.Join(site, "content"), os.DirFS(filepath.Join("..", "..", "content"))); err != nil {
		t.Fatal(err)
	}
	afterEvents(t, events, "the overlay to go", func() bool { _, body := fetch(t, page); return !strings.Contains(body, "gen-errors") })
}

// A layout that fails when run fails the build as one that does not
// parse does: the page asked for first after the save and a page not
// visited yet both show the last good build with the error over it.
func TestServeLayoutRunErrorKeepsLastGood(t *testing.T) {
	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, t.Logf)
	})
	visited := base + "/en/incidents/2017-03-13-bigquery-streaming-inserts/"
	notVisited := base + "/ja/incidents/2016-10-31-pubsub-subscription-creation/"
	if res, _ := fetch(t, visited); res.StatusCode != http.StatusOK {
		t.Fatalf("before: %s", res.Status)
	}
	layout := filepath.Join(site, "layouts", "incident.html")
	data, err := os.ReadFile(layout)
	if err != nil {
		t.Fatal(err)
	}
	events := liveEvents(t, base)
	broken := bytes.Replace(data, []byte(`{{define "main"}}`), []byte(`{{define "main"}}{{ index .Site 99 }}`), 1)
	if err := os.WriteFile(layout, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	var kind string
	select {
	case kind = <-events:
	case <-time.After(time.Minute):
		t.Fatal("no build after the layout was saved")
	}
	if kind != "errors" {
		t.Fatalf("the broken layout brought event %q, want errors", kind)
	}
	for _, page := range []string{visited, notVisited} {
		res, body := fetch(t, page)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "gen-errors") || !strings.Contains(body, "incident.html:") || !strings.Contains(body, `class="incident"`) {
			t.Errorf("%s: %s; want the last good page with the layout's error over it:\n%s", page, res.Status, body)
		}
	}
}

// Serving sources answers the loopback names and --allowed-host names
// only; --allowed-host is refused with --dir, whose server answers any.
func TestServeSourcesAnswersOnlyItsHosts(t *testing.T) {
	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), []string{"127.0.0.1", "docs.test"}, out, t.Logf)
	})
	for host, want := range map[string]int{"localhost": http.StatusOK, "docs.test:1313": http.StatusOK, "rebound.example": http.StatusForbidden} {
		req, _ := http.NewRequest(http.MethodGet, base+"/en/", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %s, want %d", host, res.Status, want)
		}
	}
	if code, _, stderr := runGen("serve", "--dir", t.TempDir(), "--allowed-host", "docs.test"); code != exitUsage || !strings.Contains(stderr, "--allowed-host") {
		t.Errorf("serve --dir --allowed-host: exit %d: %s", code, stderr)
	}
}
