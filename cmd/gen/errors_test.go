package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// badKeys is how many unknown front-matter keys breakFrontMatter writes:
// listing them all would make every page several megabytes, far past the
// bounds the tests check, while a build under -race stays quick. (The
// bound does not depend on the count; internal/server's test of the
// overlay uses 350,000.)
const badKeys = 20_000

// breakFrontMatter puts badKeys unknown keys at the top of file's front
// matter (short ones: a file is at most 4 MiB). The errors are on lines
// 2 to badKeys+1.
func breakFrontMatter(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(string(data), "---\n")
	if !ok {
		t.Fatalf("%s has no front matter", file)
	}
	var b strings.Builder
	b.WriteString("---\n")
	for i := range badKeys {
		fmt.Fprintf(&b, "k%x: 1\n", i)
	}
	b.WriteString(rest)
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A save that makes hundreds of thousands of errors: the authoring server
// keeps serving pages of a sensible size, with the first errors and how
// many more there are.
func TestServeBoundsManyErrors(t *testing.T) {
	site := copySite(t)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, func(string, ...any) {})
	})
	page := base + "/en/incidents/2017-03-13-bigquery-streaming-inserts/"
	_, body := fetch(t, page)
	version := regexp.MustCompile(`<meta name="gen-version" content="([^"]+)">`).FindStringSubmatch(body)
	if version == nil {
		t.Fatal("no gen-version in the page")
	}
	errorsEvent := waitForEvent(t, base+"/_gen/events?v="+version[1], "errors")

	breakFrontMatter(t, filepath.Join(site, "content", "2017-03-13-bigquery-streaming-inserts", "en.md"))
	data := <-errorsEvent
	var ev struct {
		Count  int
		Errors []diag.Error
		More   string
	}
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		t.Fatalf("errors event %.200q: %v", data, err)
	}
	// Each error comes placed, as a value: no page parses it out of text.
	if e := ev.Errors[0]; e.File != "content/2017-03-13-bigquery-streaming-inserts/en.md" || e.Line != 2 || e.Col != 1 || !strings.HasPrefix(e.Msg, "unknown front-matter key") {
		t.Errorf("first error of the event: %+v", e)
	}
	if ev.Count != badKeys || len(ev.Errors) != 100 || ev.More != "… and 19,900 more" {
		t.Errorf("errors event: count %d, %d errors, more %q", ev.Count, len(ev.Errors), ev.More)
	}

	res, body := fetch(t, page)
	const bound = 256 << 10 // the page is about 60 kB, the first 100 errors about 20 kB
	if res.StatusCode != http.StatusOK || len(body) > bound {
		t.Fatalf("page with the overlay: status %d, %d bytes (bound %d)", res.StatusCode, len(body), bound)
	}
	for _, want := range []string{"Build failed with 20000 errors", `en.md</span>`, "… and 19,900 more"} {
		if !strings.Contains(body, want) && !strings.Contains(body, strings.ReplaceAll(want, "</span>", ":2:1</span>")) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(body, "unknown front-matter key"); n != 100 {
		t.Errorf("page lists %d errors, want 100", n)
	}
}

// waitForEvent opens the live reload stream at url and sends the data of
// the first event named name. The test fails if none comes within five
// minutes: a bound for failures only, as a build of a file with thousands of
// mistakes under -race on a busy machine takes a while.
func waitForEvent(t *testing.T, url, name string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	ch := make(chan string, 1)
	go func() {
		defer res.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				event = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok && event == name {
				ch <- v
				return
			}
			if line == "" {
				event = ""
			}
		}
	}()
	return ch
}

func TestCheckBoundsManyErrors(t *testing.T) {
	site := copySite(t)
	breakFrontMatter(t, filepath.Join(site, "content", "2017-03-13-bigquery-streaming-inserts", "en.md"))

	code, out, _ := runGen("check", "--source", site)
	if code != exitContent || len(out) > 64<<10 {
		t.Fatalf("check: exit %d, %d bytes of output", code, len(out))
	}
	if n := strings.Count(out, "unknown front-matter key"); n != 100 {
		t.Errorf("check prints %d errors, want the first 100", n)
	}
	for _, want := range []string{"en.md:2:1: unknown front-matter key \"k0\"", "en.md:101:1:", "… and 19,900 more errors", "20000 errors"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q", want)
		}
	}

	code, out, _ = runGen("check", "--source", site, "--format", "json")
	var rep struct {
		Errors []struct {
			File    string
			Line    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitContent {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	if len(rep.Errors) != badKeys {
		t.Fatalf("json lists %d errors, want %d", len(rep.Errors), badKeys)
	}
	if last := rep.Errors[badKeys-1]; last.Line != badKeys+1 || !strings.Contains(last.Message, fmt.Sprintf("%q", fmt.Sprintf("k%x", badKeys-1))) {
		t.Errorf("last error %+v", last)
	}
}
