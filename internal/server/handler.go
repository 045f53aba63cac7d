package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"github.com/postmortem-archive/gen/internal/urls"
	"github.com/postmortem-archive/gen/search/cache"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
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
	// Pages are handlers of pages rendered per request, by
	// http.ServeMux pattern ("GET /{$}", "GET /{lang}/search/{$}"); files
	// answer every path no page's pattern matches. Each runs under
	// Timeout (http.TimeoutHandler: its response is buffered, and a
	// slow one is answered 503); in LiveReload mode an HTML page it
	// answers 200 gets the reload script and the error overlay. A page
	// with nothing to show for a path calls NotFound.
	Pages map[string]http.Handler
	// Logf reports what goes wrong while serving; nil discards it.
	Logf func(format string, args ...any)
	// Timeout bounds each Search and Pages request; 0 means 5 seconds.
	// A request that takes longer is answered 503.
	Timeout time.Duration
	// Hosts, when not empty, are the only names (in the Host header, any
	// port) answered; others get 403. For authoring (AuthoringHosts),
	// not behind a proxy that names the site.
	Hosts []string
}

const (
	maxBodyBytes     = 1 << 20  // a request body, though GET needs none
	maxPageBytes     = 16 << 20 // a buffered page of Options.Pages
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
	site    Snapshotter
	live    bool
	logf    func(string, ...any)
	timeout time.Duration
	gz      *cache.Cache[string, []byte] // compressed files, by validator
	mux     *http.ServeMux               // the site: files, search, pages
	gen     *http.ServeMux               // the server's own /_gen/

	boot      string          // tells this process's versions from a previous one's
	streams   chan struct{}   // one token per open event stream
	heartbeat time.Duration   // between comments on an idle event stream
	sseWrite  time.Duration   // to write one event
	hosts     map[string]bool // the names answered; nil for any
	refused   *refusals       // live reload connections over streams
}

// NewHandler serves site. Paths map to files the usual way: "/" and
// "/x/" to index.html, "/x" to a redirect to "/x/" when x is a folder
// with an index.html, anything else missing to the site's 404.html with
// status 404. Folders are never listed, names starting with a dot never
// served, and only GET and HEAD are allowed.
func NewHandler(site Snapshotter, o Options) http.Handler {
	h := &handler{
		site:      site,
		live:      o.LiveReload,
		logf:      o.Logf,
		timeout:   o.Timeout,
		gz:        cache.New[string, []byte](gzipCacheBytes, func(b []byte) int { return len(b) }),
		boot:      strconv.FormatInt(time.Now().UnixNano(), 36),
		streams:   make(chan struct{}, maxEventStreams),
		heartbeat: 15 * time.Second,
		sseWrite:  defaultLimits.write,
	}
	if h.logf == nil {
		h.logf = func(string, ...any) {}
	}
	h.refused = &refusals{every: refusalReportEvery, logf: h.logf}
	for _, name := range o.Hosts {
		if h.hosts == nil {
			h.hosts = map[string]bool{}
		}
		h.hosts[hostName(name)] = true
	}
	if h.timeout <= 0 {
		h.timeout = defaultTimeout
	}
	// Every pattern is for GET (and so HEAD): a mux answers any other
	// method 405 with Allow: GET, HEAD.
	//
	// /_gen/ is the server's own, never the site's, and has its own mux so
	// that pages' patterns ("/{lang}/search/") need not step around it.
	// It answers only in LiveReload mode. The event stream is not under a
	// timeout: it lives as long as the page.
	h.gen = http.NewServeMux()
	h.gen.HandleFunc("GET /", h.serveNotFound)
	if h.live {
		h.gen.HandleFunc("GET "+urls.LiveReloadPath, func(w http.ResponseWriter, r *http.Request) {
			serveAsset(w, r, "text/javascript; charset=utf-8", livereloadTag, livereloadJS)
		})
		h.gen.HandleFunc("GET "+urls.OverlayPath, func(w http.ResponseWriter, r *http.Request) {
			serveAsset(w, r, "text/css; charset=utf-8", overlayTag, overlayCSS)
		})
		h.gen.HandleFunc("GET "+urls.EventsPath, h.serveEvents)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", h.serveStatic)
	if o.Search != nil {
		search := http.TimeoutHandler(o.Search, h.timeout, "search took too long\n")
		mux.HandleFunc(urls.SearchAPIRoute, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", h.noCache())
			search.ServeHTTP(w, r)
		})
	}
	for pattern, page := range o.Pages {
		mux.Handle(pattern, h.page(page))
		// Without its last slash a page's path is left to the files,
		// which redirect a folder's path 301 as for any other; the mux
		// would redirect it 307 itself.
		if bare, ok := strings.CutSuffix(pattern, "/{$}"); ok && !strings.HasSuffix(bare, " ") && bare != "" && o.Pages[bare] == nil {
			mux.HandleFunc(bare, h.serveStatic)
		}
	}
	h.mux = mux
	return h
}

// requestKey finds a request's snapshot and handler in its context.
type requestKey struct{}

type request struct {
	h    *handler
	snap Snapshot
}

// snapshot returns the snapshot r is served from.
func (h *handler) snapshot(r *http.Request) Snapshot {
	if rq, ok := r.Context().Value(requestKey{}).(*request); ok {
		return rq.snap
	}
	return h.site.Snapshot()
}

// NotFound answers r with the site's 404 page, as for a missing file. It
// is for Options.Pages that have nothing to show for a path their pattern
// matches; outside a handler made by NewHandler it is http.NotFound.
func NotFound(w http.ResponseWriter, r *http.Request) {
	rq, ok := r.Context().Value(requestKey{}).(*request)
	if !ok {
		http.NotFound(w, r)
		return
	}
	rq.h.notFound(w, r, rq.snap)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	for _, kv := range securityHeaders {
		hd.Set(kv[0], kv[1])
	}
	if !h.hostAllowed(w, r) {
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	}
	// One snapshot from start to end, whichever handler answers.
	snap := h.site.Snapshot()
	r = r.WithContext(context.WithValue(r.Context(), requestKey{}, &request{h: h, snap: snap}))
	// Bad paths are refused before the mux, which would redirect them to
	// a cleaned path instead.
	name, _, ok := requestName(r)
	switch {
	case !ok && r.Method != http.MethodGet && r.Method != http.MethodHead:
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	case !ok:
		h.notFound(w, r, snap)
	case name == urls.ServerDir || strings.HasPrefix(name, urls.ServerDir+"/"):
		h.gen.ServeHTTP(w, r)
	default:
		h.mux.ServeHTTP(w, r)
	}
}

func (h *handler) serveNotFound(w http.ResponseWriter, r *http.Request) {
	h.notFound(w, r, h.snapshot(r))
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

func (h *handler) serveStatic(w http.ResponseWriter, r *http.Request) {
	snap := h.snapshot(r)
	name, dir, _ := requestName(r)
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
		if gz, ok := h.gz.Get(key); ok {
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
		h.gz.Put(key, gz)
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
