package server

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"sync/atomic"
)

// pageKey finds a page request's outcome in its context.
type pageKey struct{}

// pageOutcome is what the page's goroutine, which http.TimeoutHandler
// runs and may abandon, tells the request's own.
type pageOutcome struct {
	done      atomic.Bool            // the page returned in time
	failed    atomic.Bool            // it panicked or outgrew maxPageBytes: answer 500
	panicText atomic.Pointer[string] // what it panicked with; nil when it outgrew
}

// page serves one of Options.Pages: under the request timeout with
// http.TimeoutHandler, its response bounded to maxPageBytes, a panic
// answered 500, and in LiveReload mode an HTML page answered 200
// decorated with the reload script and the overlay. A page that times
// out is answered 503 and logged.
func (h *handler) page(p http.Handler) http.Handler {
	run := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := r.Context().Value(pageKey{}).(*pageOutcome)
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				text := fmt.Sprint(v)
				out.panicText.Store(&text)
				out.failed.Store(true)
			}
			// Returning after the deadline, as pages do when their
			// context ends, is not being done in time.
			if r.Context().Err() == nil {
				out.done.Store(true)
			}
		}()
		p.ServeHTTP(&limitedWriter{ResponseWriter: w, out: out, left: maxPageBytes}, r)
	})
	timed := http.TimeoutHandler(run, h.timeout, "the page took too long to render\n")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := &pageOutcome{}
		r = r.WithContext(context.WithValue(r.Context(), pageKey{}, out))
		buf := &pageBuffer{header: http.Header{}}
		timed.ServeHTTP(buf, r)
		switch {
		case out.failed.Load():
			if t := out.panicText.Load(); t != nil {
				h.logf("serving %s: panic: %s", r.URL.Path, *t)
				http.Error(w, "internal server error", http.StatusInternalServerError)
			} else {
				h.logf("serving %s: response larger than %d bytes", r.URL.Path, maxPageBytes)
				http.Error(w, "response too large", http.StatusInternalServerError)
			}
			return
		case !out.done.Load():
			if r.Context().Err() != nil {
				return // the client went away
			}
			h.logf("serving %s: took longer than %v", r.URL.Path, h.timeout)
			w.Header().Set("Cache-Control", "no-store")
		}
		h.writePage(w, r, buf)
	})
}

// writePage sends the buffered response of a page, with its length and,
// in LiveReload mode, decorated when it is an HTML page answered 200.
func (h *handler) writePage(w http.ResponseWriter, r *http.Request, buf *pageBuffer) {
	hd := w.Header()
	maps.Copy(hd, buf.header)
	if hd.Get("Cache-Control") == "" {
		hd.Set("Cache-Control", h.noCache())
	}
	code := buf.code
	if code == 0 {
		code = http.StatusOK
	}
	body := buf.body.Bytes()
	if h.live && code == http.StatusOK && isHTML(hd.Get("Content-Type")) {
		body = h.decorate(body, h.snapshot(r))
	}
	if hd.Get("Content-Encoding") == "" {
		hd.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// pageBuffer takes what http.TimeoutHandler sends once the page is done
// (or abandoned), so that it can be decorated and measured.
type pageBuffer struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (b *pageBuffer) Header() http.Header { return b.header }

func (b *pageBuffer) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

func (b *pageBuffer) Write(p []byte) (int, error) {
	if b.code == 0 {
		b.code = http.StatusOK
	}
	return b.body.Write(p)
}

// limitedWriter fails a page's writes past maxPageBytes, so that what
// http.TimeoutHandler buffers stays bounded.
type limitedWriter struct {
	http.ResponseWriter
	out  *pageOutcome
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if len(p) > l.left {
		l.out.failed.Store(true)
		return 0, fmt.Errorf("response larger than %d bytes", maxPageBytes)
	}
	l.left -= len(p)
	return l.ResponseWriter.Write(p)
}
