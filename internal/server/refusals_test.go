package server

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// The first refusal is told at once, the others counted and told once a
// minute later, on synctest's clock: exactly two lines for a flood.
func TestRefusalsReportedOncePerInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The report a minute later logs from its timer's goroutine.
		var mu sync.Mutex
		var lines []string
		logged := func() []string {
			mu.Lock()
			defer mu.Unlock()
			return append([]string(nil), lines...)
		}
		r := &refusals{every: time.Minute, logf: func(f string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, fmt.Sprintf(f, args...))
		}}
		for range 100 {
			r.add("more than 2 pages open")
		}
		if got := logged(); len(got) != 1 || got[0] != "live reload: refused a connection: more than 2 pages open" {
			t.Fatalf("after a flood: %q, want one line", got)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := logged(); len(got) != 2 || got[1] != "live reload: refused 99 connections in the last 1m0s: more than 2 pages open" {
			t.Fatalf("a minute later: %q", got)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if got := logged(); len(got) != 2 {
			t.Errorf("with no more refusals: %q", got)
		}
	})
}

// Connections refused over the limit of open pages add one line to the
// log, not one each.
func TestRefusedEventStreamsLogOnce(t *testing.T) {
	var mu sync.Mutex
	var log []string
	m := NewMemSite()
	m.Swap(liveFiles("one", "x{}"), nil)
	h := NewHandler(m, Options{LiveReload: true, Logf: func(f string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, fmt.Sprintf(f, args...))
	}}).(*handler)
	h.streams = make(chan struct{}, 1)
	base := startServer(t, h)
	openEvents(t, base+"/_gen/events")
	for range 20 {
		resp, _ := get(t, base+"/_gen/events")
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("over the limit: %s, want 503", resp.Status)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(log) != 1 || !strings.Contains(log[0], "more than 1 pages open") {
		t.Errorf("log after 20 refusals: %q, want one line", log)
	}
}
