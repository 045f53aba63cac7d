package server

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure NewHandler.
type Options struct {
	// LiveReload is for authoring: HTML pages get the reload script and,
	// while the build is failing, the error overlay; /_gen/ serves the
	// script, the overlay's stylesheet and the event stream; nothing is
	// cached. Never set it when serving a site to readers.
	LiveReload bool
	// Search, when not nil, answers /api/search.
	Search http.Handler
	// Dynamic, when not nil, is tried before static files (pages rendered
	// per request, such as /<lang>/search/); it reports whether it handled
	// the request. Its response is buffered and committed only when it
	// returns true.
	Dynamic func(w http.ResponseWriter, r *http.Request) bool
	// Logf reports what goes wrong while serving; nil discards it.
	Logf func(format string, args ...any)
	// Timeout bounds each Search and Dynamic request; 0 means 5 seconds.
	// A request that takes longer is answered 503.
	Timeout time.Duration
}

const (
	maxBodyBytes     = 1 << 20  // a request body, though GET needs none
	maxDynamicBytes  = 16 << 20 // a buffered Dynamic response
	maxDecorateBytes = 16 << 20 // a page read to add the live reload script
	maxGzipSource    = 8 << 20  // a file compressed in memory
	gzipCacheBytes   = 64 << 20 // compressed files kept
	maxEventStreams  = 64       // live reload connections at once
	defaultTimeout   = 5 * time.Second
)

// The headers on every response. The site's pages load only same-origin
// scripts and stylesheets, never inline ones.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "strict-origin-when-cross-origin"},
	{"X-Frame-Options", "DENY"},
}

type handler struct {
	site    Site
	live    bool
	search  http.Handler
	dynamic func(http.ResponseWriter, *http.Request) bool
	logf    func(string, ...any)
	timeout time.Duration
	gz      *gzipCache

	boot      string        // tells this process's versions from a previous one's
	streams   chan struct{} // one token per open event stream
	heartbeat time.Duration // between comments on an idle event stream
	sseWrite  time.Duration // to write one event
}

// NewHandler serves site. Paths map to files the usual way: "/" and
// "/x/" to index.html, "/x" to a redirect to "/x/" when x is a folder
// with an index.html, anything else missing to the site's 404.html with
// status 404. Folders are never listed, names starting with a dot never
// served, and only GET and HEAD are allowed.
func NewHandler(site Site, o Options) http.Handler {
	h := &handler{
		site:      site,
		live:      o.LiveReload,
		dynamic:   o.Dynamic,
		logf:      o.Logf,
		timeout:   o.Timeout,
		gz:        newGzipCache(gzipCacheBytes),
		boot:      strconv.FormatInt(time.Now().UnixNano(), 36),
		streams:   make(chan struct{}, maxEventStreams),
		heartbeat: 15 * time.Second,
		sseWrite:  defaultLimits.write,
	}
	if h.logf == nil {
		h.logf = func(string, ...any) {}
	}
	if h.timeout <= 0 {
		h.timeout = defaultTimeout
	}
	if o.Search != nil {
		h.search = http.TimeoutHandler(o.Search, h.timeout, "search took too long\n")
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	for _, kv := range securityHeaders {
		hd.Set(kv[0], kv[1])
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	}
	snap := h.site.Snapshot()
	name, dir, ok := requestName(r)
	switch {
	case !ok:
		h.notFound(w, r, snap)
	case name == "_gen" || strings.HasPrefix(name, "_gen/"):
		h.serveGen(w, r, snap, name)
	case name == "api/search" && !dir && h.search != nil:
		hd.Set("Cache-Control", h.noCache())
		h.search.ServeHTTP(w, r)
	case h.dynamic != nil && h.runDynamic(w, r, snap):
	default:
		h.serveStatic(w, r, snap, name, dir)
	}
}

// requestName turns a request's path into a Site name, and whether it
// ends with a slash. Anything that is not a plain path inside the site
// is refused: dot segments ("..", "%2e%2e", dot files), empty segments
// ("//etc"), encoded slashes and backslashes, backslashes, NUL and other
// control characters.
func requestName(r *http.Request) (name string, dir, ok bool) {
	raw := strings.ToLower(r.URL.RawPath)
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") {
		return "", false, false
	}
	p := r.URL.Path
	if p == "" || p[0] != '/' {
		return "", false, false
	}
	p = p[1:]
	if p == "" {
		return "", true, true
	}
	if strings.HasSuffix(p, "/") {
		dir = true
		p = p[:len(p)-1]
	}
	if p == "" || !validName(p) {
		return "", false, false
	}
	return p, dir, true
}

func (h *handler) serveStatic(w http.ResponseWriter, r *http.Request, snap Snapshot, name string, dir bool) {
	f, err := h.open(snap, name)
	if err != nil {
		h.notFound(w, r, snap)
		return
	}
	if f.IsDir {
		f.Close()
		idx, err := h.open(snap, path.Join(name, "index.html"))
		if err != nil {
			h.notFound(w, r, snap)
			return
		}
		if idx.IsDir {
			idx.Close()
			h.notFound(w, r, snap)
			return
		}
		if !dir {
			idx.Close()
			loc := (&url.URL{Path: "/" + name + "/"}).EscapedPath()
			if r.URL.RawQuery != "" {
				loc += "?" + r.URL.RawQuery
			}
			w.Header().Set("Cache-Control", h.noCache())
			http.Redirect(w, r, loc, http.StatusMovedPermanently)
			return
		}
		f = idx
	} else if dir {
		f.Close()
		h.notFound(w, r, snap)
		return
	}
	defer f.Close()
	h.serveFile(w, r, snap, f)
}

// open opens name in snap, logging errors other than a missing file.
func (h *handler) open(snap Snapshot, name string) (*File, error) {
	f, err := snap.Open(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		h.logf("serving /%s: %v", name, err)
	}
	return f, err
}

func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, snap Snapshot, f *File) {
	hd := w.Header()
	ctype := contentType(f.Name)
	hd.Set("Content-Type", ctype)
	hd.Set("Cache-Control", h.cacheControl(ctype))
	etag, modtime, data := f.ETag, f.ModTime, f.Data
	if h.live && isHTML(ctype) && f.Size <= maxDecorateBytes {
		if data == nil && f.Body != nil {
			b, err := io.ReadAll(f.Body)
			if err != nil {
				h.logf("serving /%s: %v", f.Name, err)
				http.Error(w, "could not read the file", http.StatusInternalServerError)
				return
			}
			data = b
		}
		data = h.decorate(data, snap)
		// The overlay can change while the file does not: only the
		// content hash can tell.
		etag, modtime = hashETag(data), time.Time{}
	}
	compressible := isCompressible(ctype)
	if compressible {
		hd.Add("Vary", "Accept-Encoding")
	}
	if compressible && r.Header.Get("Range") == "" && acceptsGzip(r) {
		if gz := h.gzipped(f, data, etag); gz != nil {
			hd.Set("Content-Encoding", "gzip")
			// ServeContent leaves the length of encoded content to the
			// server, which cannot tell it for HEAD.
			hd.Set("Content-Length", strconv.Itoa(len(gz)))
			if etag != "" {
				hd.Set("ETag", strings.TrimSuffix(etag, `"`)+`-gz"`)
			}
			http.ServeContent(w, r, "", modtime, bytes.NewReader(gz))
			return
		}
	}
	if etag != "" {
		hd.Set("ETag", etag)
	}
	var body io.ReadSeeker
	if data != nil {
		body = bytes.NewReader(data)
	} else {
		body = f.content()
	}
	http.ServeContent(w, r, "", modtime, body)
}

// gzipped returns the file compressed, from the cache when it is there,
// or nil when it is too large to compress in memory.
func (h *handler) gzipped(f *File, data []byte, etag string) []byte {
	key := ""
	if etag != "" {
		key = etag
		if data == nil {
			// A folder's validators come from size and time, which two
			// files can share.
			key = f.Name + "\x00" + etag
		}
		if gz, ok := h.gz.get(key); ok {
			return gz
		}
	}
	if data == nil {
		if f.Size > maxGzipSource || f.Body == nil {
			return nil
		}
		b, err := io.ReadAll(io.LimitReader(f.Body, maxGzipSource+1))
		if _, serr := f.Body.Seek(0, io.SeekStart); err != nil || serr != nil || len(b) > maxGzipSource {
			return nil
		}
		data = b
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(data)
	_ = zw.Close()
	gz := buf.Bytes()
	if key != "" {
		h.gz.put(key, gz)
	}
	return gz
}

// notFound answers 404 with the site's 404.html, or plain text when the
// site has none.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request, snap Snapshot) {
	hd := w.Header()
	hd.Del("ETag")
	hd.Del("Last-Modified")
	hd.Del("Content-Encoding")
	hd.Set("Cache-Control", h.noCache())
	var page []byte
	// A site may have a 404 page per language, /<lang>/404.html: a reader
	// lost under /zh-TW/ is told so in Chinese.
	name := "404.html"
	if first, _, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/"); ok && first != "" && !strings.HasPrefix(first, ".") {
		if f, err := h.open(snap, first+"/404.html"); err == nil {
			f.Close()
			name = first + "/404.html"
		}
	}
	if f, err := h.open(snap, name); err == nil {
		if !f.IsDir && f.Size <= maxDecorateBytes {
			if f.Data != nil {
				page = f.Data
			} else if b, err := io.ReadAll(f.content()); err == nil {
				page = b
			}
		}
		f.Close()
	}
	if page == nil {
		hd.Set("Content-Type", "text/plain; charset=utf-8")
		page = []byte("404 page not found\n")
	} else {
		hd.Set("Content-Type", "text/html; charset=utf-8")
		if h.live {
			page = h.decorate(page, snap)
		}
	}
	hd.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page)
	}
}

func (h *handler) noCache() string {
	if h.live {
		return "no-store"
	}
	return "no-cache"
}

// cacheControl: pages and data are revalidated on every use, assets kept
// an hour; while authoring nothing is stored.
func (h *handler) cacheControl(ctype string) string {
	if h.live {
		return "no-store"
	}
	mt, _, _ := strings.Cut(ctype, ";")
	switch {
	case mt == "text/css", mt == "text/javascript", strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "font/"):
		return "public, max-age=3600"
	}
	return "no-cache"
}

var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".htm":         "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".xml":         "application/xml; charset=utf-8",
	".atom":        "application/atom+xml; charset=utf-8",
	".rss":         "application/rss+xml; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/vnd.microsoft.icon",
	".woff2":       "font/woff2",
	".woff":        "font/woff",
	".ttf":         "font/ttf",
	".otf":         "font/otf",
	".pdf":         "application/pdf",
	".wasm":        "application/wasm",
}

// contentType is the type of the file called name, by its extension;
// the archive's feeds are Atom.
func contentType(name string) string {
	switch path.Base(name) {
	case "feed.xml":
		return "application/atom+xml; charset=utf-8"
	case "sitemap.xml":
		return "application/xml; charset=utf-8"
	}
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

func isHTML(ctype string) bool {
	mt, _, _ := strings.Cut(ctype, ";")
	return strings.TrimSpace(mt) == "text/html"
}

func isCompressible(ctype string) bool {
	mt, _, _ := strings.Cut(ctype, ";")
	mt = strings.TrimSpace(mt)
	switch mt {
	case "application/json", "application/manifest+json", "application/xml", "application/atom+xml",
		"application/rss+xml", "image/svg+xml", "application/javascript":
		return true
	}
	return strings.HasPrefix(mt, "text/")
}

// acceptsGzip reads Accept-Encoding, q-values included: "gzip;q=0"
// refuses it, "*" accepts it unless gzip is refused by name.
func acceptsGzip(r *http.Request) bool {
	gz, star := -1.0, -1.0
	for _, v := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			q := 1.0
			for p := range strings.SplitSeq(params, ";") {
				k, val, ok := strings.Cut(p, "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gz = max(gz, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// gzipCache keeps compressed files, least recently used out first.
type gzipCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *gzEntry, most recent first
	byKey map[string]*list.Element
}

type gzEntry struct {
	key  string
	data []byte
}

func newGzipCache(max int) *gzipCache {
	return &gzipCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *gzipCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*gzEntry).data, true
}

func (c *gzipCache) put(key string, data []byte) {
	if len(data) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&gzEntry{key: key, data: data})
	c.size += len(data)
	for c.size > c.max {
		e := c.order.Back()
		old := e.Value.(*gzEntry)
		c.order.Remove(e)
		delete(c.byKey, old.key)
		c.size -= len(old.data)
	}
}

// runDynamic tries the Dynamic hook within the request timeout. Its
// response is buffered, so a hook that declines leaves no trace and one
// that is too slow is answered 503.
func (h *handler) runDynamic(w http.ResponseWriter, r *http.Request, snap Snapshot) bool {
	ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
	defer cancel()
	buf := &bufferedResponse{header: http.Header{}}
	type result struct {
		handled bool
		panic   any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		done <- result{handled: h.dynamic(buf, r.WithContext(ctx))}
	}()
	select {
	case res := <-done:
		if res.panic != nil {
			if res.panic == http.ErrAbortHandler {
				panic(res.panic)
			}
			h.logf("serving %s: panic: %v", r.URL.Path, res.panic)
			http.Error(w, "internal server error", http.StatusInternalServerError)
			return true
		}
		if !res.handled {
			return false
		}
		buf.mu.Lock()
		defer buf.mu.Unlock()
		buf.closed = true
		if buf.err != nil {
			h.logf("serving %s: %v", r.URL.Path, buf.err)
			http.Error(w, "response too large", http.StatusInternalServerError)
			return true
		}
		hd := w.Header()
		for k, v := range buf.header {
			hd[k] = v
		}
		if hd.Get("Cache-Control") == "" {
			hd.Set("Cache-Control", h.noCache())
		}
		code := buf.code
		if code == 0 {
			code = http.StatusOK
		}
		body := buf.body.Bytes()
		if ct := hd.Get("Content-Type"); h.live && code == http.StatusOK && isHTML(ct) {
			body = h.decorate(body, snap)
		}
		if hd.Get("Content-Encoding") == "" {
			hd.Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(code)
		if r.Method != http.MethodHead {
			_, _ = w.Write(body)
		}
		return true
	case <-ctx.Done():
		buf.mu.Lock()
		buf.closed = true
		buf.mu.Unlock()
		if r.Context().Err() == nil {
			h.logf("serving %s: took longer than %v", r.URL.Path, h.timeout)
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "the page took too long to render", http.StatusServiceUnavailable)
		}
		return true
	}
}

// bufferedResponse collects a Dynamic hook's response.
type bufferedResponse struct {
	mu     sync.Mutex
	header http.Header
	code   int
	body   bytes.Buffer
	closed bool  // the response was committed or abandoned
	err    error // the response outgrew maxDynamicBytes
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.code == 0 && !b.closed {
		b.code = code
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, http.ErrHandlerTimeout
	}
	if b.code == 0 {
		b.code = http.StatusOK
	}
	if b.body.Len()+len(p) > maxDynamicBytes {
		b.err = fmt.Errorf("response larger than %d bytes", maxDynamicBytes)
		return 0, b.err
	}
	return b.body.Write(p)
}
