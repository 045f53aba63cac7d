package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/bench/loadtest"
	"github.com/postmortem-archive/gen/search"
)

// The load tests run small in CI; the figures in the README come from
//
//	go test ./cmd/gen -run Load -v -load.incidents=1000 -load.duration=10s -load.clients=16
var (
	loadIncidents = flag.Int("load.incidents", 0, "incidents in a generated archive for the load tests (0: the bundled archive)")
	loadDuration  = flag.Duration("load.duration", 2*time.Second, "how long each load test runs")
	loadClients   = flag.Int("load.clients", 8, "concurrent clients of the load tests")
)

// loadSite is the site the load tests serve.
func loadSite(t *testing.T) string {
	t.Helper()
	if *loadIncidents == 0 {
		return copySite(t)
	}
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: *loadIncidents, Langs: []string{"en", "zh-TW"}, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sitePages lists the pages of a built site to request, without search pages.
func sitePages(t *testing.T, dest string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dest, p)
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(rel, "index.html") && !strings.Contains(rel, "/search/") && rel != "index.html" {
			pages = append(pages, "/"+strings.TrimSuffix(rel, "index.html"))
		}
		return nil
	})
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in %s: %v", dest, err)
	}
	return pages
}

var loadQueries = []string{"overloaded", "Gmail", "資源耗盡", "power", "latency", "BigQuery", "config", "停電", "product:BigQuery", `"error rate"`}

func reportLoad(t *testing.T, name string, res *loadtest.Result) {
	t.Helper()
	t.Logf("%s, %d clients, %s:\n%s", name, *loadClients, res.Elapsed.Round(time.Millisecond), res)
	if res.Errors() > 0 {
		t.Errorf("%d errors, first: %v", res.Errors(), res.FirstErrors)
	}
	for _, kind := range []string{"page", "search"} {
		if k := res.Kinds[kind]; k == nil || k.Requests == 0 {
			t.Errorf("no %s requests were made", kind)
		}
	}
}

func TestLoadBuiltSite(t *testing.T) {
	site := loadSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if code, _, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build: %s", errs)
	}
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, func(string, ...any) {})
	})
	res := loadtest.Run(context.Background(), loadtest.Options{
		BaseURL: base, Pages: sitePages(t, dest), Queries: loadQueries,
		Clients: *loadClients, Duration: *loadDuration, SearchEvery: 10,
	})
	reportLoad(t, "gen serve --dir", res)
}

func TestLoadLivePreviewWhileEditing(t *testing.T) {
	site := loadSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	if code, _, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
		t.Fatalf("build: %s", errs)
	}
	pages := sitePages(t, dest)
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveSources(ctx, ln, buildOptionsFor(site, ln), nil, out, func(string, ...any) {})
	})
	// The server answers once its first build is done.
	if res, _ := fetch(t, base+pages[0]); res.StatusCode != http.StatusOK {
		t.Fatalf("%s after the first build: %s", pages[0], res.Status)
	}

	// Keep editing one incident while the clients read.
	entries, _ := os.ReadDir(filepath.Join(site, "content"))
	file := filepath.Join(site, "content", entries[len(entries)/2].Name(), "en.md")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
			}
			edited := append(append([]byte{}, orig...), []byte("\nEdited "+time.Now().Format(time.RFC3339Nano)+".\n")...)
			if err := os.WriteFile(file, edited, 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	res := loadtest.Run(context.Background(), loadtest.Options{
		BaseURL: base, Pages: pages, Queries: loadQueries,
		Clients: *loadClients, Duration: *loadDuration, SearchEvery: 10,
	})
	close(stop)
	wg.Wait()
	reportLoad(t, "gen serve (live preview, sources changing)", res)
}

// TestLoadRebuildWhileServing: gen build replaces the folder gen serve
// --dir serves, again and again, while clients read pages and search. No
// request fails, and right after each build the search answers from the
// new build's index.
func TestLoadRebuildWhileServing(t *testing.T) {
	site := loadSite(t)
	dest := filepath.Join(t.TempDir(), "public")
	build := func() {
		t.Helper()
		if code, _, errs := runGen("build", "--source", site, "--dest", dest); code != exitOK {
			t.Fatalf("build: %s", errs)
		}
	}
	build()
	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, t.Logf)
	})
	entries, _ := os.ReadDir(filepath.Join(site, "content"))
	id := entries[len(entries)/2].Name()
	file := filepath.Join(site, "content", id, "en.md")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	found := func(word string) bool {
		t.Helper()
		res, body := fetch(t, base+"/api/search?q="+word+"&lang=en")
		var answer search.Response
		if err := json.Unmarshal([]byte(body), &answer); res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("search %s: %d %s", word, res.StatusCode, body)
		}
		return slices.ContainsFunc(answer.Results, func(r search.Result) bool { return r.ID == id })
	}

	ctx, stop := context.WithCancel(context.Background())
	loaded := make(chan *loadtest.Result)
	go func() {
		loaded <- loadtest.Run(ctx, loadtest.Options{
			BaseURL: base, Pages: sitePages(t, dest), Queries: loadQueries,
			Clients: *loadClients, Duration: time.Hour, SearchEvery: 5,
		})
	}()
	prev := ""
	for _, word := range []string{"zeppelinone", "zeppelintwo", "zeppelinthree", "zeppelinfour"} {
		if err := os.WriteFile(file, append(slices.Clone(orig), "\nThe "+word+" landed.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		build()
		if !found(word) {
			t.Errorf("after a rebuild, %q is not found: the search still uses the previous index", word)
		}
		if prev != "" && found(prev) {
			t.Errorf("after a rebuild, %q (only in the previous build) is still found", prev)
		}
		prev = word
	}
	stop()
	res := <-loaded
	reportLoad(t, "gen serve --dir, rebuilt 4 times", res)
}
