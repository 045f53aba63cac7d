package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestListenPortInUse(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	ln2, err := Listen(addr)
	if err == nil {
		ln2.Close()
		t.Fatalf("Listen(%s) twice succeeded", addr)
	}
	msg := err.Error()
	if !strings.Contains(msg, port) || !strings.Contains(msg, "--port") {
		t.Errorf("error %q does not name port %s and --port", msg, port)
	}
}

func TestServeShutsDownGracefullyAndEndsStreams(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("x", "y{}"), nil)
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, NewHandler(m, Options{LiveReload: true})) }()

	if resp, _ := get(t, base+"/"); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %s", resp.Status)
	}
	events, resp := openEvents(t, base+"/_gen/events")
	ended := make(chan struct{})
	go func() {
		for range events {
		}
		close(ended)
	}()
	_ = resp

	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v after shutdown", err)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("Serve did not return after its context was canceled")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("shutdown took %v: an open event stream held it up", d)
	}
	select {
	case <-ended:
	case <-time.After(2 * time.Second):
		t.Error("the event stream is still open after shutdown")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("still accepting connections after shutdown")
	}
}

func testLimits() limits {
	return limits{
		readHeader: 300 * time.Millisecond,
		read:       400 * time.Millisecond,
		write:      400 * time.Millisecond,
		idle:       time.Second,
		maxHeader:  32 << 10,
		grace:      2 * time.Second,
	}
}

func TestSlowClientIsCutOff(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, siteFiles())
	base, _ := startServe(t, Handler(dir), testLimits())
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\n"); err != nil {
		t.Fatal(err)
	}
	closed := make(chan time.Duration, 1)
	go func() {
		_, _ = io.Copy(io.Discard, conn) // until the server hangs up
		closed <- time.Since(start)
	}()
	header := "X-Slow: " + strings.Repeat("a", 1000)
	for i := 0; ; i++ {
		select {
		case d := <-closed:
			if d < 250*time.Millisecond || d > 2*time.Second {
				t.Errorf("cut off after %v, want about 300ms", d)
			}
			return
		case <-time.After(20 * time.Millisecond):
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("a client sending its headers byte by byte still holds the connection after 5s")
		}
		_, _ = conn.Write([]byte{header[i%len(header)]})
	}
}

func TestHeadersAreBounded(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, siteFiles())
	base, _ := startServe(t, Handler(dir), defaultLimits)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	go func() {
		io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n")
		for range 100 {
			if _, err := io.WriteString(conn, "X-Big: "+strings.Repeat("b", 1000)+"\r\n"); err != nil {
				return
			}
		}
		io.WriteString(conn, "\r\n")
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("100 KB of headers: %s, want 431", resp.Status)
	}
}

func TestEventStreamOutlivesServerTimeouts(t *testing.T) {
	m := NewMemSite()
	m.Swap(liveFiles("one", "a{}"), nil)
	h := NewHandler(m, Options{LiveReload: true}).(*handler)
	h.heartbeat = 100 * time.Millisecond
	base, stop := startServe(t, h, testLimits())

	events, _ := openEvents(t, base+"/_gen/events")
	time.Sleep(1200 * time.Millisecond) // three times the read and write timeouts
	m.Swap(liveFiles("two", "a{}"), nil)
	if ev := nextEvent(t, events); ev.Event != "reload" {
		t.Errorf("after the timeouts: %+v", ev)
	}
	// Ordinary requests still work.
	if resp, _ := get(t, base+"/"); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: %s", resp.Status)
	}
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}
