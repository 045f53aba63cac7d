package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// writeTree writes files (slash paths relative to dir) into dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startServer serves h on a free port of 127.0.0.1 and returns its base
// URL; the server is closed when the test ends.
func startServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// startServe runs serve (with limits l) on a free port and returns the
// base URL and a function that stops it and returns serve's result.
func startServe(t *testing.T, h http.Handler, l limits) (string, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, h, l) }()
	var stopped bool
	var result error
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case result = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not return after its context was canceled")
			}
		}
		return result
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), stop
}

// client neither follows redirects nor decompresses on its own.
var client = &http.Client{
	Transport: &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
	Timeout: 10 * time.Second,
}

// do sends a request with the given headers ("Name: value") and returns
// the response and its whole body.
func do(t *testing.T, method, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		if strings.EqualFold(strings.TrimSpace(k), "Host") {
			req.Host = strings.TrimSpace(v) // the client sends this, not the header
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return resp, body
}

func get(t *testing.T, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return do(t, http.MethodGet, url, headers...)
}

// rawGet sends target exactly as given in the request line, bypassing
// any cleaning a client might do.
func rawGet(t *testing.T, base, target string) (*http.Response, []byte) {
	t.Helper()
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", target)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %q: %v", target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

var versionMeta = regexp.MustCompile(`<meta name="gen-version" content="([^"]+)">`)

// pageVersion is the version tag a live page was served with.
func pageVersion(t *testing.T, page []byte) string {
	t.Helper()
	m := versionMeta.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no gen-version meta in page:\n%s", page)
	}
	return string(m[1])
}

type sseEvent struct {
	ID, Event, Data string
}

// openEvents connects to a live reload stream and delivers its events
// (not its comments) on the returned channel, closed at the end of the
// stream. The connection is closed when the test ends.
func openEvents(t *testing.T, url string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	resp, err := (&http.Client{}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	ch := make(chan sseEvent, 16)
	go func() {
		defer close(ch)
		br := bufio.NewReader(resp.Body)
		var ev sseEvent
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if ev.Event != "" {
					ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ":"):
			default:
				k, v, _ := strings.Cut(line, ":")
				v = strings.TrimPrefix(v, " ")
				switch k {
				case "id":
					ev.ID = v
				case "event":
					ev.Event = v
				case "data":
					ev.Data += v
				}
			}
		}
	}()
	return ch, resp
}

func nextEvent(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
	return sseEvent{}
}

// problems makes a failed build's errors from lines written as the
// terminal shows them, "file:line:col: message" (or a bare message).
func problems(lines ...string) []diag.Error {
	out := make([]diag.Error, 0, len(lines))
	for _, l := range lines {
		e := diag.Error{Msg: l}
		if place, msg, ok := strings.Cut(l, ": "); ok {
			if parts := strings.Split(place, ":"); len(parts) == 3 {
				line, lerr := strconv.Atoi(parts[1])
				col, cerr := strconv.Atoi(parts[2])
				if lerr == nil && cerr == nil {
					e = diag.Error{File: parts[0], Line: line, Col: col, Msg: msg}
				}
			}
		}
		out = append(out, e)
	}
	return out
}
