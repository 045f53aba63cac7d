package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/memory"
	"github.com/postmortem-archive/gen/internal/searchweb"
	"github.com/postmortem-archive/gen/internal/server"
	"github.com/postmortem-archive/gen/internal/server/published"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/internal/watch"
)

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	source := fs.String("source", ".", "site folder with content/ (and optional layouts/, i18n/) to build and watch")
	drafts := fs.Bool("drafts", false, "include incidents marked draft: true")
	dir := fs.String("dir", "", "serve this already built folder (from gen build) instead of building: no watching, no reload")
	bind := fs.String("bind", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 1313, "port to listen on")
	var allowed []string
	fs.Func("allowed-host", "without --dir, also answer requests for this host `name` (repeatable); only localhost, 127.0.0.1, [::1] and the --bind address are answered otherwise, the --bind address not when it is 0.0.0.0 or ::, so that pages of other sites cannot reach the server through DNS rebinding", func(name string) error {
		if name == "" {
			return errors.New("an empty host name")
		}
		allowed = append(allowed, name)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: gen serve [--source DIR] [--drafts] [--bind ADDR] [--port N] [--allowed-host NAME]...\n       gen serve --dir public [--bind ADDR] [--port N]")
		fmt.Fprintln(fs.Output(), "\nWithout --dir, builds the site in memory, watches its sources and reloads the browser on every save.")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, 0, stdout, stderr); !ok {
		return code
	}
	if *dir != "" && len(allowed) > 0 {
		fmt.Fprintln(stderr, "gen serve: --allowed-host is for serving sources; with --dir every host is answered, as behind a proxy")
		return exitUsage
	}
	ln, err := server.Listen(net.JoinHostPort(*bind, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintln(stderr, "gen serve:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	if *dir != "" {
		return serveBuilt(ctx, ln, *dir, stdout, logf)
	}
	opts := buildOptionsFor(*source, ln)
	opts.Drafts = *drafts
	softMemoryLimit(serveMemoryLimit)
	return serveSources(ctx, ln, opts, append([]string{*bind}, allowed...), stdout, logf)
}

// buildOptionsFor builds source for serving on ln, in memory.
func buildOptionsFor(source string, ln net.Listener) build.Options {
	return build.Options{Source: source, BaseURL: "http://" + ln.Addr().String() + "/", Generator: "gen " + version, Memory: memory.Policy{Tune: true}}
}

// serveBuilt serves a folder made by gen build, as deployed: read-only,
// under the base path it was built for. A new build of the folder is
// noticed on the next request, which opens its search bundle; searches
// running on the previous one finish on it.
func serveBuilt(ctx context.Context, ln net.Listener, dir string, stdout io.Writer, logf func(string, ...any)) int {
	search := searchweb.New("", 2*runtime.GOMAXPROCS(0), logf)
	var langs atomic.Pointer[locale.Bundle]
	follower, err := published.Follow(dir, func(out *published.Output) {
		search.Set(out.Index, out.Pages, out.Bundle.Tags(), out.Bundle.Default().Tag)
		langs.Store(out.Bundle)
	})
	if err != nil {
		logf("gen serve: %v", err)
		ln.Close()
		return exitContent
	}
	defer follower.Close()
	out, _ := follower.Current()
	base, err := url.Parse(out.Info.BaseURL)
	if err != nil {
		logf("gen serve: %s was built for a base URL that cannot be read: %v; build it again with --base-url", dir, err)
		ln.Close()
		return exitContent
	}
	basePath := strings.TrimSuffix(base.Path, "/")
	h := server.NewHandler(server.NewDirSite(dir), server.Options{
		Search: http.HandlerFunc(search.API),
		Pages:  pages(langs.Load, basePath, search),
		Logf:   logf,
	})
	current := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := follower.Current(); err != nil {
			logf("gen serve: a new build of %s, but its search bundle cannot be opened; searching the previous one: %v", dir, err)
		}
		h.ServeHTTP(w, r)
	})
	addr := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "serving %s at %s%s/ (built for %s; Ctrl+C to stop)\n", dir, addr, basePath, out.Info.BaseURL)
	return serveUntilDone(ctx, ln, underBase(basePath, current), logf)
}

// serveSources builds the site in memory, serves it with live reload and
// rebuilds what changed on every save. Build errors are shown in the
// browser over the last good pages; the server keeps running. It answers
// requests for the loopback names and for hosts only
// (server.AuthoringHosts).
func serveSources(ctx context.Context, ln net.Listener, opts build.Options, hosts []string, stdout io.Writer, logf func(string, ...any)) int {
	session := build.NewSession(opts)
	defer session.Close()
	site := server.NewMemSite()
	search := searchweb.New("", 2*runtime.GOMAXPROCS(0), logf)
	var langs atomic.Pointer[locale.Bundle]
	publish := func(b build.Built) {
		if b.Err != nil {
			msgs := diag.Problems(b.Err)
			shown, more := diag.Shown(msgs)
			for _, m := range shown {
				logf("%s", m.Error())
			}
			if more != "" {
				logf("%s errors (gen check --format json lists them all)", more)
			}
			logf("build failed: %d errors; still serving the last good build", len(msgs))
			site.Swap(nil, msgs)
			return
		}
		lazy := map[string]server.Lazy{}
		for p, page := range b.Pages {
			lazy[p] = page
		}
		// Search first: a page reloaded on the swap's event finds the
		// new build's search.
		built := session.Site()
		langs.Store(built.Bundle)
		index, pages := session.Search()
		search.Set(index, pages, built.Bundle.Tags(), built.Bundle.Default().Tag)
		site.SwapLazy(map[string][]byte{}, lazy, nil)
		res := b.Result
		fmt.Fprintf(stdout, "built %s in %s: %s in %s\n", count(res.Incidents, "incident"), count(res.Languages, "language"), count(res.Pages, "page"), res.Took.Round(1e5))
		for _, w := range res.Warnings {
			logf("%v", w)
		}
	}
	res, err := session.Update(nil)
	publish(build.Built{Pages: session.Pages(), Result: res, Err: err})
	// Reading and indexing every file leaves gigabytes of garbage at
	// 10,000 incidents that the runtime would return to the system only
	// slowly: return it now, while the author opens the first page.
	debug.FreeOSMemory()

	src, _ := filepath.Abs(opts.Source)
	w, err := watch.New(watch.Options{Roots: []string{filepath.Join(src, "content"), filepath.Join(src, "layouts"), filepath.Join(src, "i18n")}})
	if err != nil {
		logf("gen serve: watching %s: %v", src, err)
		ln.Close()
		return exitContent
	}
	// A save while a build runs gives that build up (Session.Follow).
	// The session is closed only after Follow has returned, which it does
	// once the watcher is closed and its batches end.
	batches := make(chan []string)
	followed := make(chan struct{})
	defer func() { w.Close(); <-followed }()
	go func() {
		defer close(batches)
		for b := range w.Batches() {
			select {
			case batches <- b.Paths:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		defer close(followed)
		session.Follow(ctx, batches, publish)
	}()
	go func() {
		for err := range w.Errors() {
			logf("watching: %v", err)
		}
	}()

	h := server.NewHandler(site, server.Options{
		LiveReload: true,
		Search:     http.HandlerFunc(search.API),
		Pages:      pages(langs.Load, "", search),
		Logf:       logf,
		Hosts:      server.AuthoringHosts(hosts...),
	})
	fmt.Fprintf(stdout, "serving %s at %s (watching for changes; Ctrl+C to stop)\n", src, opts.BaseURL)
	return serveUntilDone(ctx, ln, h, logf)
}

func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler, logf func(string, ...any)) int {
	if err := server.Serve(ctx, ln, h); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logf("gen serve: %v", err)
		return exitContent
	}
	return exitOK
}

// pages are the pages gen serve renders per request: / sends readers to
// their language, /L/search/ shows results.
func pages(bundle func() *locale.Bundle, basePath string, search *searchweb.Handler) map[string]http.Handler {
	return map[string]http.Handler{
		urls.HomeRoute: negotiate(bundle, basePath),
		urls.SearchPageRoute: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !search.Page(w, r) {
				server.NotFound(w, r) // not a site language, or nothing built yet
			}
		}),
	}
}

// negotiate sends a reader of / to the site language that best fits the
// browser's Accept-Language.
func negotiate(bundle func() *locale.Bundle, basePath string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b := bundle()
		if b == nil || len(b.Langs) == 0 {
			server.NotFound(w, r) // nothing built yet
			return
		}
		lang := b.Match(r.Header.Get("Accept-Language"))
		w.Header().Set("Vary", "Accept-Language")
		http.Redirect(w, r, basePath+"/"+lang.Tag+"/", http.StatusFound)
	}
}

// underBase serves h under basePath, the path the site was built for, and
// sends requests for / there.
func underBase(basePath string, h http.Handler) http.Handler {
	if basePath == "" {
		return h
	}
	strip := http.StripPrefix(basePath, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			http.Redirect(w, r, basePath+"/", http.StatusFound)
			return
		}
		strip.ServeHTTP(w, r)
	})
}
