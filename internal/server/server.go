// Package server serves a built site over HTTP: its files from a folder,
// with the site's own 404 page and no directory listings.
package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Handler serves the built site in dir. Paths are resolved by net/http's
// FileServer inside dir only; folders without an index.html and missing
// files get the site's 404 page.
func Handler(dir string) http.Handler {
	root := http.Dir(dir)
	files := http.FileServer(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if !exists(root, p) || hidden(p) {
			notFound(w, dir)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// hidden reports paths gen never serves: dot files such as its output
// marker.
func hidden(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// exists reports whether p is a file, or a folder with an index.html.
func exists(root http.Dir, p string) bool {
	f, err := root.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false
	}
	if !info.IsDir() {
		return true
	}
	idx, err := root.Open(path.Join(p, "index.html"))
	if err != nil {
		return false
	}
	idx.Close()
	return true
}

func notFound(w http.ResponseWriter, dir string) {
	page, err := os.ReadFile(filepath.Join(dir, "404.html"))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if err != nil {
		fmt.Fprintln(w, "404 page not found")
		return
	}
	_, _ = w.Write(page)
}

// Listen binds addr, with an error that says which flag changes the port
// when it is taken.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("port %s is already in use; choose another with --port", portOf(addr))
		}
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return ln, nil
}

func portOf(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return port
}

// Serve serves h on ln until ctx is done, then shuts down gracefully.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}
