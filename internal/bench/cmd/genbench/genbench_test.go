package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestMain lets the test binary stand in for a measured child process:
// with GENBENCH_TEST_TOUCH_MB set it touches that many megabytes and exits.
func TestMain(m *testing.M) {
	if mb, err := strconv.Atoi(os.Getenv("GENBENCH_TEST_TOUCH_MB")); err == nil {
		b := make([]byte, mb<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println(len(b))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestMeasureReadsTheChildsRusage(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "GENBENCH_TEST_TOUCH_MB=96")
	u, err := measure(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if u.MaxRSS < 96<<20 || u.MaxRSS > 1<<30 {
		t.Errorf("peak RSS %d bytes; the child touched 96 MB", u.MaxRSS)
	}
	if u.CPU() <= 0 || u.Wall <= 0 {
		t.Errorf("usage %+v; CPU and wall time must be positive", u)
	}
}

func TestMeasureReportsAFailedCommandWithItsOutput(t *testing.T) {
	_, err := measure(exec.Command("sh", "-c", "echo broken layout >&2; exit 3"))
	if err == nil || !strings.Contains(err.Error(), "broken layout") {
		t.Fatalf("error %v; want the command's stderr in it", err)
	}
}

// TestBuildRunsDeleteNoEarlierOutput checks that each run builds into a
// new folder and leaves the last run's files in place: deleting them just
// before a build makes ext4 scan past the freed inodes while the build
// creates its own.
func TestBuildRunsDeleteNoEarlierOutput(t *testing.T) {
	b := &bench{work: t.TempDir(), log: io.Discard}
	res := &buildResult{name: "fake build"}
	var dests []string
	write := func(dest, cache string) *exec.Cmd {
		dests = append(dests, dest)
		return exec.Command("sh", "-c", `mkdir -p "$1" "$2" && echo '<p>' > "$1/index.html"`, "sh", dest, cache)
	}
	for i := range 3 {
		if err := b.buildOnce(res, write, i); err != nil {
			t.Fatal(err)
		}
	}
	if len(res.runs) != 3 || res.out.Files != 1 {
		t.Fatalf("%d runs recorded, last output %+v; want 3 runs of one file", len(res.runs), res.out)
	}
	for _, d := range dests {
		if _, err := os.Stat(filepath.Join(d, "index.html")); err != nil {
			t.Errorf("a later run removed an earlier run's output: %v", err)
		}
	}
	if len(slices.Compact(slices.Clone(dests))) != 3 {
		t.Errorf("runs built into %q; want a folder each", dests)
	}
	if err := b.buildOnce(res, write, 0); err == nil {
		t.Error("a run into an existing folder was not refused")
	}
}

func TestMedian(t *testing.T) {
	if got := median([]int64{9, 1, 5}); got != 5 {
		t.Errorf("median of 9 1 5 = %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 {
		t.Errorf("median of 4 1 3 2 = %d (integer mean of 2 and 3)", got)
	}
	xs := []int64{3, 1, 2}
	median(xs)
	if !slices.Equal(xs, []int64{3, 1, 2}) {
		t.Errorf("median reordered its argument: %v", xs)
	}
}

// prepareSites generates n incidents as a gen site and its Hugo twin.
func prepareSites(t *testing.T, n int) *bench {
	t.Helper()
	a := archiveFlags{n: n, langs: "en,zh-TW", seed: 7}
	work := t.TempDir()
	b := &bench{work: work, genSite: filepath.Join(work, "gen-site"), hugoSite: filepath.Join(work, "hugo-site"),
		langs: a.langList(), log: io.Discard}
	if err := b.writeSites(&a); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHugoSiteHasTheSameIncidents(t *testing.T) {
	b := prepareSites(t, 12)
	ids, err := incidentIDs(filepath.Join(b.genSite, "content"))
	if err != nil || len(ids) != 12 || b.incidents != 12 {
		t.Fatalf("%d incident folders (%v), %d converted; want 12", len(ids), err, b.incidents)
	}
	for _, id := range ids {
		orig, err := readGenFile(filepath.Join(b.genSite, "content", id, "en.md"))
		if err != nil {
			t.Fatal(err)
		}
		if orig.facts.Begin == "" {
			continue // an incident first written in Chinese
		}
		for _, lang := range []string{"en", "zh-TW"} {
			gen, err := readGenFile(filepath.Join(b.genSite, "content", id, lang+".md"))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(b.hugoSite, "content", "incidents", id, "index."+strings.ToLower(lang)+".md"))
			if err != nil {
				t.Fatal(err)
			}
			fm, body, ok := bytes.Cut(bytes.TrimPrefix(raw, []byte("---\n")), []byte("\n---\n"))
			if !ok {
				t.Fatalf("%s/%s: no front matter:\n%s", id, lang, raw)
			}
			var h hugoFront
			if err := yaml.Unmarshal(fm, &h); err != nil {
				t.Fatal(err)
			}
			if h.Title != gen.facts.Title || h.Summary != gen.facts.Summary {
				t.Errorf("%s/%s: title %q summary %q; want the %s file's", id, lang, h.Title, h.Summary, lang)
			}
			if !slices.Equal(h.Products, orig.facts.Products) || !slices.Equal(h.Causes, orig.facts.Causes) ||
				!slices.Equal(h.Regions, orig.facts.Regions) || h.Severity != orig.facts.Severity {
				t.Errorf("%s/%s: facts %+v; want the original's %+v", id, lang, h, orig.facts)
			}
			loc, _ := time.LoadLocation(orig.facts.Timezone)
			begin, _ := time.ParseInLocation("2006-01-02 15:04", orig.facts.Begin, loc)
			date, err := time.Parse(time.RFC3339, h.Date)
			if err != nil || !date.Equal(begin) {
				t.Errorf("%s/%s: date %q (%v); want %s in %s = %s", id, lang, h.Date, err, orig.facts.Begin, orig.facts.Timezone, begin.UTC())
			}
			if !bytes.Equal(body, gen.body) {
				t.Errorf("%s/%s: the Hugo body differs from gen's", id, lang)
			}
		}
	}
}

// hugoOrSkip finds Debian's hugo; the build comparison needs it, the
// module's tests do not.
func hugoOrSkip(t *testing.T) string {
	p, err := exec.LookPath("hugo")
	if err != nil {
		t.Skip("hugo is not installed (apt-get install hugo)")
	}
	return p
}

func TestHugoBuildsTheComparableSite(t *testing.T) {
	hugo := hugoOrSkip(t)
	b := prepareSites(t, 2*pageSize+5)
	out := filepath.Join(b.work, "out")
	cmd := exec.Command(hugo, "--source", b.hugoSite, "--destination", out, "--cacheDir", filepath.Join(b.work, "cache"))
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	if bytes.Contains(msg, []byte("WARN")) {
		t.Errorf("hugo warned (a missing layout?):\n%s", msg)
	}
	for _, lang := range []string{"en", "zh-tw"} {
		// Lists of pageSize: two full pages and a third with the rest.
		for page, want := range map[string]int{"index.html": pageSize, "page/3/index.html": 5} {
			if got := strings.Count(readFile(t, filepath.Join(out, lang, page)), `class="incident-item"`); got != want {
				t.Errorf("/%s/%s lists %d incidents; want %d", lang, page, got, want)
			}
		}
		for _, tax := range []string{"products", "regions", "causes"} {
			terms, _ := filepath.Glob(filepath.Join(out, lang, tax, "*", "index.html"))
			if len(terms) == 0 {
				t.Errorf("no term pages under /%s/%s/", lang, tax)
			}
		}
		var feed struct {
			Items []struct{} `xml:"channel>item"`
		}
		if err := xml.Unmarshal([]byte(readFile(t, filepath.Join(out, lang, "index.xml"))), &feed); err != nil || len(feed.Items) != 50 {
			t.Errorf("/%s/index.xml: %d items (%v); want 50 as gen's feed", lang, len(feed.Items), err)
		}
	}
	ids, _ := incidentIDs(filepath.Join(b.genSite, "content"))
	page := readFile(t, filepath.Join(out, "zh-tw", "incidents", ids[0], "index.html"))
	for _, want := range []string{`id="timeline"`, `hreflang="en"`, "/zh-tw/products/", "<time datetime="} {
		if !strings.Contains(page, want) {
			t.Errorf("incident page lacks %q", want)
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEditAndWaitSeesTheAppendedLine(t *testing.T) {
	source := filepath.Join(t.TempDir(), "en.md")
	if err := os.WriteFile(source, []byte("# An incident\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, source)
	}))
	defer srv.Close()
	if _, err := editAndWait(context.Background(), srv.Client(), source, srv.URL, "marker-1"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, source), "An edit: marker-1.") {
		t.Error("the source was not edited")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := pollUntil(ctx, srv.Client(), srv.URL, "never there", time.Minute); err == nil {
		t.Error("pollUntil found text the page does not have")
	}
}

// A wrk report as wrk 4.1 prints it with --latency, after a run in which
// some requests failed.
const wrkReport = `Running 10s test @ http://127.0.0.1:40001
  1 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.10ms    1.31ms  30.12ms   90.21%
    Req/Sec     3.91k   210.33     4.30k    71.00%
  Latency Distribution
     50%    1.83ms
     75%    2.41ms
     90%    3.22ms
     99%  812.00us
  38921 requests in 10.00s, 1.02GB read
  Socket errors: connect 0, read 2, write 1, timeout 0
  Non-2xx or 3xx responses: 4
Requests/sec:   3891.72
Transfer/sec:    104.33MB
`

func TestParseWrk(t *testing.T) {
	r, err := parseWrk(wrkReport)
	if err != nil {
		t.Fatal(err)
	}
	want := wrkResult{perSec: 3891.72, p50: 1830 * time.Microsecond, p99: 812 * time.Microsecond, requests: 38921, failed: 7}
	if r != want {
		t.Errorf("parseWrk = %+v; want %+v", r, want)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil {
		t.Error("a report without Requests/sec: parsed")
	}
}

// TestNginxRetriesTheNextReplica runs the generated configuration in a
// real nginx: one upstream answers 503 to everything and the other 200;
// every request through nginx must succeed.
func TestNginxRetriesTheNextReplica(t *testing.T) {
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		t.Skip("nginx is not installed (apt-get install nginx)")
	}
	var failing atomic.Int64
	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		failing.Add(1)
		http.Error(w, "stopping", http.StatusServiceUnavailable)
	}))
	defer sick.Close()
	well := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok "+r.URL.Path)
	}))
	defer well.Close()
	dir := t.TempDir()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, nginxConfig(dir, port, []int{serverPort(t, sick), serverPort(t, well)}), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stopProcess(cmd)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := pollUntil(context.Background(), http.DefaultClient, base+"/ready", "ok /ready", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		res, err := http.Get(fmt.Sprintf("%s/en/page/%d/", base, i))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: status %d; nginx should have tried the other replica", i, res.StatusCode)
		}
	}
	stopProcess(cmd)
	if failing.Load() == 0 {
		t.Error("the failing replica was never tried; the test proves nothing")
	}
}

func serverPort(t *testing.T, s *httptest.Server) int {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWrkScriptRequestsEveryPath(t *testing.T) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			http.Error(w, "no gzip", http.StatusBadRequest)
			return
		}
		mu.Lock()
		seen[r.URL.RequestURI()] = true
		mu.Unlock()
	}))
	defer srv.Close()
	paths := []string{"/en/", "/zh-TW/incidents/x/", "/api/search?q=%22error+rates%22"}
	script := filepath.Join(t.TempDir(), "s.lua")
	if err := os.WriteFile(script, wrkScript(paths), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := wrkCommand(context.Background(), wrk, script, srv.URL, time.Second, 2).Output()
	if err != nil {
		t.Fatalf("wrk: %v\n%s", err, out)
	}
	r, err := parseWrk(string(out))
	if err != nil {
		t.Fatal(err)
	}
	if r.failed != 0 || r.requests < len(paths) {
		t.Fatalf("wrk: %+v\n%s", r, out)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range paths {
		if !seen[p] {
			t.Errorf("wrk never requested %s (requested %v)", p, seen)
		}
	}
}

func TestServeTableKeepsOneServersFiguresWhenTheOtherFailed(t *testing.T) {
	gen := &serverResult{name: "gen serve", ready: 2 * time.Second, rssReady: 300e6, rssHWM: 400e6,
		edits: []time.Duration{90 * time.Millisecond, 40 * time.Millisecond, 60 * time.Millisecond}}
	var b strings.Builder
	printServeTable(&b, gen, nil)
	for _, want := range []string{"| ready (start to first incident page) | 2.00 s | — | — |", "| 60 ms (40 ms–90 ms) | — | — |", "| 400.0 MB | — |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestGrowthRunsAlternateTheSizes checks that the larger archive is built
// right after the smaller one each time, every run into a folder of its
// own, and that each build's archive was read just before it.
func TestGrowthRunsAlternateTheSizes(t *testing.T) {
	b := &bench{work: t.TempDir(), log: io.Discard}
	var sizes []growthSize
	for i, name := range []string{"10 incidents", "100 incidents"} {
		site := filepath.Join(b.work, fmt.Sprint("site-", i))
		if err := writeFile(filepath.Join(site, "content", "a", "en.md"), bytes.Repeat([]byte("x"), 10*(i+1))); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, growthSize{res: &buildResult{name: name}, site: site})
	}
	var order []string
	fake := func(site, dest string) *exec.Cmd {
		order = append(order, filepath.Base(site)+" → "+filepath.Base(dest))
		return exec.Command("sh", "-c", `mkdir -p "$1" && echo '<p>' > "$1/index.html"`, "sh", dest)
	}
	if err := b.growthRuns(sizes, 2, fake); err != nil {
		t.Fatal(err)
	}
	want := []string{"site-0 → 10-1", "site-1 → 100-1", "site-0 → 10-2", "site-1 → 100-2"}
	if !slices.Equal(order, want) {
		t.Errorf("builds %q; want %q", order, want)
	}
	if len(sizes[0].res.runs) != 2 || len(sizes[1].res.runs) != 2 {
		t.Errorf("runs recorded %d and %d; want 2 each", len(sizes[0].res.runs), len(sizes[1].res.runs))
	}
	read, err := settle(sizes[1].site)
	if err != nil || read != 20 {
		t.Errorf("settle read %d bytes (%v); want the archive's 20", read, err)
	}
}

func TestGrowthTableDividesEachLargerRunByTheSmallerBeforeIt(t *testing.T) {
	small := &buildResult{name: "10 incidents", runs: []usage{
		{Wall: 2 * time.Second, User: 3 * time.Second, Sys: time.Second, MaxRSS: 100e6},
		{Wall: 2 * time.Second, User: 4 * time.Second, Sys: time.Second, MaxRSS: 110e6}}}
	large := &buildResult{name: "100 incidents", runs: []usage{
		{Wall: 22 * time.Second, User: 36 * time.Second, Sys: 4 * time.Second, MaxRSS: 900e6},
		{Wall: 24 * time.Second, User: 54 * time.Second, Sys: 6 * time.Second, MaxRSS: 1000e6}}}
	var out strings.Builder
	printGrowthTable(&out, small, large)
	for _, want := range []string{
		"| CPU (user + system) | 4.50 s (3.50 s + 1.00 s) | 50.00 s (45.00 s + 5.00 s) | 11.11× |",
		"| wall | 2.00 s | 23.00 s | 11.50× |",
		"- run 1: CPU 40.00 s / 4.00 s = 10.00×",
		"- run 2: CPU 60.00 s / 5.00 s = 12.00×",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestWarmRunsEditBeforeEachWarmBuild checks the order: a cold build, a
// warm one with no change, then one warm build after each edit, all into
// the same folder.
func TestWarmRunsEditBeforeEachWarmBuild(t *testing.T) {
	b := &bench{work: t.TempDir(), log: io.Discard}
	b.genSite = filepath.Join(b.work, "gen-site")
	source := filepath.Join(b.genSite, "content", "a", "en.md")
	if err := writeFile(source, []byte("# A\n")); err != nil {
		t.Fatal(err)
	}
	var edits []int
	var dests []string
	runs, err := b.warmRuns(3, source, func(dest string) *exec.Cmd {
		src, err := os.ReadFile(source)
		if err != nil {
			t.Fatal(err)
		}
		edits = append(edits, strings.Count(string(src), "An edit:"))
		dests = append(dests, dest)
		return exec.Command("true")
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 2, 3}; !slices.Equal(edits, want) {
		t.Errorf("edits seen by each build %v; want %v", edits, want)
	}
	if len(slices.Compact(dests)) != 1 {
		t.Errorf("builds into %q; want one folder", dests)
	}
	if len(runs.edited) != 3 || runs.cold.Wall == 0 || runs.first.Wall == 0 {
		t.Errorf("recorded %+v; want a cold, a first and 3 edited builds", runs)
	}
}
