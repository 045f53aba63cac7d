package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const page404 = "<!doctype html><html><head><title>Not found</title></head><body><h1>Page not found</h1></body></html>"

func siteFiles() map[string]string {
	return map[string]string{
		"index.html":             "<!doctype html><html><head><title>Home</title></head><body><h1>Home</h1></body></html>",
		"404.html":               page404,
		"style.css":              "body { color: #222; margin: 0 auto; max-width: 40rem; }\n",
		"lang.js":                "document.documentElement.dataset.js = 'on';\n",
		"feed.xml":               `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`,
		"en/feed.xml":            `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`,
		"sitemap.xml":            `<?xml version="1.0" encoding="utf-8"?><sitemapindex></sitemapindex>`,
		"sitemap-2.xml":          `<?xml version="1.0" encoding="utf-8"?><urlset></urlset>`,
		"incidents.json":         `[{"id":"2017-03-13-bigquery"}]`,
		"logo.svg":               `<svg xmlns="http://www.w3.org/2000/svg"></svg>`,
		"logo.png":               "\x89PNG\r\n\x1a\n....",
		"fonts/text.woff2":       "wOF2....",
		"robots.txt":             "User-agent: *\n",
		"data.bin":               "\x00\x01\x02",
		"en/index.html":          "<!doctype html><html><head><title>English</title></head><body><p>English home</p></body></html>",
		"en/incident/index.html": "<!doctype html><html><head><title>Incident</title></head><body><p>An incident</p></body></html>",
		"empty/readme.txt":       "a folder without an index\n",
		"big.txt":                strings.Repeat("0123456789abcdef\n", 4096),
	}
}

func newDirServer(t *testing.T) (base, dir string) {
	t.Helper()
	dir = t.TempDir()
	writeTree(t, dir, siteFiles())
	return startServer(t, Handler(dir)), dir
}

func TestContentTypes(t *testing.T) {
	base, _ := newDirServer(t)
	for path, want := range map[string]string{
		"/":                 "text/html; charset=utf-8",
		"/en/":              "text/html; charset=utf-8",
		"/style.css":        "text/css; charset=utf-8",
		"/lang.js":          "text/javascript; charset=utf-8",
		"/feed.xml":         "application/atom+xml; charset=utf-8",
		"/en/feed.xml":      "application/atom+xml; charset=utf-8",
		"/sitemap.xml":      "application/xml; charset=utf-8",
		"/sitemap-2.xml":    "application/xml; charset=utf-8",
		"/incidents.json":   "application/json",
		"/logo.svg":         "image/svg+xml",
		"/logo.png":         "image/png",
		"/fonts/text.woff2": "font/woff2",
		"/robots.txt":       "text/plain; charset=utf-8",
		"/data.bin":         "application/octet-stream",
	} {
		resp, _ := get(t, base+path)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s", path, resp.Status)
		}
		if got := resp.Header.Get("Content-Type"); got != want {
			t.Errorf("GET %s: Content-Type %q, want %q", path, got, want)
		}
	}
}

func TestNotFoundServesSitePage(t *testing.T) {
	base, dir := newDirServer(t)
	resp, body := get(t, base+"/no/such/page/")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status %s, want 404", resp.Status)
	}
	if string(body) != page404 {
		t.Errorf("body %q, want the site's 404.html", body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}

	// HEAD: same status, no body.
	resp, body = do(t, http.MethodHead, base+"/missing.html")
	if resp.StatusCode != http.StatusNotFound || len(body) != 0 {
		t.Errorf("HEAD missing: %s with %d bytes", resp.Status, len(body))
	}

	// Without a 404.html: plain text.
	if err := os.Remove(filepath.Join(dir, "404.html")); err != nil {
		t.Fatal(err)
	}
	resp, body = get(t, base+"/missing.html")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "not found") {
		t.Errorf("without 404.html: %s %q", resp.Status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("without 404.html: Content-Type %q", ct)
	}
}

func TestFoldersAreNeverListed(t *testing.T) {
	base, _ := newDirServer(t)
	for _, path := range []string{"/empty/", "/empty", "/fonts/", "/fonts"} {
		resp, body := get(t, base+path)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", path, resp.Status)
		}
		if bytes.Contains(body, []byte("readme.txt")) || bytes.Contains(body, []byte("text.woff2")) {
			t.Errorf("GET %s lists the folder:\n%s", path, body)
		}
	}
	// A file is not a folder.
	if resp, _ := get(t, base+"/robots.txt/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /robots.txt/: %s, want 404", resp.Status)
	}
}

func TestFolderRedirectsToSlash(t *testing.T) {
	base, _ := newDirServer(t)
	resp, _ := get(t, base+"/en/incident?x=1")
	if resp.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("status %s, want 301", resp.Status)
	}
	if loc := resp.Header.Get("Location"); loc != "/en/incident/?x=1" {
		t.Errorf("Location %q", loc)
	}
	resp, body := get(t, base+"/en/incident/")
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("An incident")) {
		t.Errorf("GET /en/incident/: %s %q", resp.Status, body)
	}
}

func TestPathsNeverLeaveTheFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "public")
	writeTree(t, dir, siteFiles())
	writeTree(t, dir, map[string]string{
		".gen-output":        "built by gen\n",
		".search/index.json": `{"secret":"index"}`,
		"en/.hidden.html":    "hidden",
		"a/page.html":        "<p>a</p>",
		"dotdir/.git/config": "[core]",
	})
	writeTree(t, root, map[string]string{"secret.txt": "TOPSECRET", "etc/passwd": "root:x:0:0:TOPSECRET"})
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(root, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret.txt", filepath.Join(dir, "rel.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("robots.txt", filepath.Join(dir, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	base := startServer(t, Handler(dir))

	for _, target := range []string{
		"/../secret.txt",
		"/../../../../etc/passwd",
		"/%2e%2e/secret.txt",
		"/%2E%2E/%2e%2e/etc/passwd",
		"/..%2fsecret.txt",
		"/..%2f..%2fetc%2fpasswd",
		"/a%2f..%2f..%2fsecret.txt",
		"/a/../../secret.txt",
		"/a/..%2f..%2fsecret.txt",
		"//etc/passwd",
		"//../secret.txt",
		`/..\secret.txt`,
		`/a\..\..\secret.txt`,
		"/%5c..%5csecret.txt",
		"/..%5c..%5csecret.txt",
		"/robots.txt%00",
		"/robots.txt%00.html",
		"/%00/../secret.txt",
		"/link.txt",
		"/rel.txt",
		"/linkdir/secret.txt",
		"/linkdir/etc/passwd",
		"/.gen-output",
		"/%2egen-output",
		"/.search/index.json",
		"/.search/",
		"/en/.hidden.html",
		"/dotdir/.git/config",
		"/./robots.txt",
		"/etc/passwd",
		"http://test/../secret.txt",
	} {
		resp, body := rawGet(t, base, target)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %q: %s, want 404", target, resp.Status)
		}
		for _, leak := range []string{"TOPSECRET", "root:", `"secret"`, "[core]", "built by gen", "hidden"} {
			if bytes.Contains(body, []byte(leak)) {
				t.Errorf("GET %q leaks %q:\n%s", target, leak, body)
			}
		}
	}

	// The site itself refuses such names, whoever asks.
	site := NewDirSite(dir).Snapshot()
	for _, name := range []string{"../secret.txt", "/etc/passwd", "a/../../secret.txt", "link.txt", "linkdir/secret.txt", ".gen-output", `..\secret.txt`, "robots.txt\x00", "a//page.html", "./robots.txt"} {
		if f, err := site.Open(name); err == nil {
			f.Close()
			t.Errorf("Open(%q) succeeded", name)
		}
	}

	// Symbolic links that stay inside are followed.
	resp, body := rawGet(t, base, "/alias.txt")
	if resp.StatusCode != http.StatusOK || string(body) != "User-agent: *\n" {
		t.Errorf("GET /alias.txt: %s %q", resp.Status, body)
	}
}

func TestConditionalRequests(t *testing.T) {
	base, _ := newDirServer(t)
	resp, _ := get(t, base+"/style.css")
	etag, lastMod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) {
		t.Fatalf("ETag %q is not a strong validator", etag)
	}
	if lastMod == "" {
		t.Fatal("no Last-Modified")
	}

	resp, body := get(t, base+"/style.css", "If-None-Match: "+etag)
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("If-None-Match: %s with %d bytes, want 304", resp.Status, len(body))
	}
	checkSecurityHeaders(t, "304", resp)

	resp, _ = get(t, base+"/style.css", "If-None-Match: \"other\"")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("If-None-Match with another tag: %s", resp.Status)
	}

	resp, body = get(t, base+"/style.css", "If-Modified-Since: "+lastMod)
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("If-Modified-Since: %s with %d bytes, want 304", resp.Status, len(body))
	}
	old := time.Now().Add(-48 * time.Hour).UTC().Format(http.TimeFormat)
	resp, _ = get(t, base+"/style.css", "If-Modified-Since: "+old)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("If-Modified-Since long ago: %s", resp.Status)
	}
}

func TestHeadHasTheHeadersOfGet(t *testing.T) {
	base, _ := newDirServer(t)
	for _, enc := range []string{"", "gzip"} {
		g, gbody := get(t, base+"/big.txt", "Accept-Encoding: "+enc)
		h, hbody := do(t, http.MethodHead, base+"/big.txt", "Accept-Encoding: "+enc)
		if h.StatusCode != http.StatusOK || len(hbody) != 0 {
			t.Errorf("HEAD: %s with %d bytes", h.Status, len(hbody))
		}
		for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "ETag", "Last-Modified", "Cache-Control", "Vary", "Content-Security-Policy"} {
			if g.Header.Get(k) != h.Header.Get(k) {
				t.Errorf("Accept-Encoding %q: %s differs: GET %q, HEAD %q", enc, k, g.Header.Get(k), h.Header.Get(k))
			}
		}
		if g.Header.Get("Content-Length") == "" || g.Header.Get("Content-Length") != itoa(len(gbody)) {
			t.Errorf("GET Content-Length %q for %d bytes", g.Header.Get("Content-Length"), len(gbody))
		}
	}
}

func TestRangeRequests(t *testing.T) {
	base, _ := newDirServer(t)
	want := siteFiles()["big.txt"]
	resp, body := get(t, base+"/big.txt", "Range: bytes=10-29", "Accept-Encoding: gzip")
	if resp.StatusCode != http.StatusPartialContent {
		t.Fatalf("status %s, want 206", resp.Status)
	}
	if string(body) != want[10:30] {
		t.Errorf("body %q, want %q", body, want[10:30])
	}
	if cr := resp.Header.Get("Content-Range"); cr != "bytes 10-29/"+itoa(len(want)) {
		t.Errorf("Content-Range %q", cr)
	}
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		t.Errorf("a range is compressed: Content-Encoding %q", ce)
	}
	resp, body = get(t, base+"/big.txt", "Range: bytes=-5")
	if resp.StatusCode != http.StatusPartialContent || string(body) != want[len(want)-5:] {
		t.Errorf("suffix range: %s %q", resp.Status, body)
	}
}

func TestGzip(t *testing.T) {
	base, _ := newDirServer(t)
	files := siteFiles()
	for _, path := range []string{"/big.txt", "/style.css", "/", "/incidents.json", "/feed.xml", "/logo.svg"} {
		name := strings.TrimPrefix(path, "/")
		if name == "" {
			name = "index.html"
		}
		for range 2 { // the second from the cache
			resp, body := get(t, base+path, "Accept-Encoding: br, gzip;q=0.8")
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("GET %s: Content-Encoding %q, want gzip", path, resp.Header.Get("Content-Encoding"))
			}
			if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("GET %s: Vary %q", path, resp.Header.Get("Vary"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			if string(plain) != files[name] {
				t.Errorf("GET %s: decompressed body differs", path)
			}
		}
	}
	big := []byte(files["big.txt"])
	gz, _ := get(t, base+"/big.txt", "Accept-Encoding: gzip")
	id, body := get(t, base+"/big.txt")
	if id.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, big) {
		t.Errorf("without Accept-Encoding: %q, %d bytes", id.Header.Get("Content-Encoding"), len(body))
	}
	if gz.Header.Get("ETag") == id.Header.Get("ETag") {
		t.Errorf("gzip and identity share the ETag %s", id.Header.Get("ETag"))
	}
	// The compressed form revalidates with its own tag.
	resp, _ := get(t, base+"/big.txt", "Accept-Encoding: gzip", "If-None-Match: "+gz.Header.Get("ETag"))
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("gzip If-None-Match: %s", resp.Status)
	}
	for _, ae := range []string{"gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0, *"} {
		resp, _ := get(t, base+"/big.txt", "Accept-Encoding: "+ae)
		if resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: compressed", ae)
		}
	}
	if resp, _ := get(t, base+"/big.txt", "Accept-Encoding: *"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("Accept-Encoding *: not compressed")
	}
	// Binary formats are not compressed.
	for _, path := range []string{"/logo.png", "/fonts/text.woff2"} {
		if resp, _ := get(t, base+path, "Accept-Encoding: gzip"); resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s: compressed", path)
		}
	}
}

func checkSecurityHeaders(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	for _, kv := range securityHeaders {
		if got := resp.Header.Get(kv[0]); got != kv[1] {
			t.Errorf("%s: %s = %q, want %q", what, kv[0], got, kv[1])
		}
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, d := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, d) {
			t.Errorf("%s: CSP %q lacks %q", what, csp, d)
		}
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	base, _ := newDirServer(t)
	resp, _ := get(t, base+"/")
	checkSecurityHeaders(t, "200", resp)
	etag := resp.Header.Get("ETag")
	resp, _ = get(t, base+"/", "If-None-Match: "+etag)
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("want 304, got %s", resp.Status)
	}
	checkSecurityHeaders(t, "304", resp)
	resp, _ = get(t, base+"/missing")
	checkSecurityHeaders(t, "404", resp)
	resp, _ = get(t, base+"/en")
	checkSecurityHeaders(t, "301", resp)
	resp, _ = do(t, http.MethodPost, base+"/")
	checkSecurityHeaders(t, "405", resp)
	resp, _ = rawGet(t, base, "/../x")
	checkSecurityHeaders(t, "404 for a bad path", resp)
}

func TestOnlyGetAndHead(t *testing.T) {
	base, _ := newDirServer(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		resp, _ := do(t, m, base+"/index.html")
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %s, want 405", m, resp.Status)
		}
		if allow := resp.Header.Get("Allow"); allow != "GET, HEAD" {
			t.Errorf("%s: Allow %q", m, allow)
		}
	}
}

func TestCacheControl(t *testing.T) {
	base, _ := newDirServer(t)
	for path, want := range map[string]string{
		"/":                 "no-cache",
		"/incidents.json":   "no-cache",
		"/feed.xml":         "no-cache",
		"/sitemap.xml":      "no-cache",
		"/sitemap-2.xml":    "no-cache",
		"/style.css":        "public, max-age=3600",
		"/lang.js":          "public, max-age=3600",
		"/logo.png":         "public, max-age=3600",
		"/logo.svg":         "public, max-age=3600",
		"/fonts/text.woff2": "public, max-age=3600",
	} {
		resp, _ := get(t, base+path)
		if got := resp.Header.Get("Cache-Control"); got != want {
			t.Errorf("GET %s: Cache-Control %q, want %q", path, got, want)
		}
	}

	m := NewMemSite()
	m.Swap(map[string][]byte{"index.html": []byte("<html><body>x</body></html>"), "s.css": []byte("a{}")}, nil)
	live := startServer(t, NewHandler(m, Options{LiveReload: true}))
	for _, path := range []string{"/", "/s.css", "/missing", "/_gen/livereload.js"} {
		resp, _ := get(t, live+path)
		if got := resp.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("live GET %s: Cache-Control %q, want no-store", path, got)
		}
	}
}

func TestMemSiteServing(t *testing.T) {
	m := NewMemSite()
	base := startServer(t, NewHandler(m, Options{}))
	if resp, _ := get(t, base+"/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("before the first build: %s, want 404", resp.Status)
	}
	files := map[string][]byte{}
	for name, content := range siteFiles() {
		files[name] = []byte(content)
	}
	files[".search/index.json"] = []byte("secret")
	files["/lead/slash.txt"] = []byte("slash")
	m.Swap(files, nil)

	resp, body := get(t, base+"/en/")
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("English home")) {
		t.Errorf("GET /en/: %s %q", resp.Status, body)
	}
	if resp, _ := get(t, base+"/en"); resp.StatusCode != http.StatusMovedPermanently {
		t.Errorf("GET /en: %s, want 301", resp.Status)
	}
	for _, path := range []string{"/empty/", "/.search/index.json", "/missing"} {
		resp, body := get(t, base+path)
		if resp.StatusCode != http.StatusNotFound || string(body) != page404 {
			t.Errorf("GET %s: %s %q", path, resp.Status, body)
		}
	}
	if _, body := get(t, base+"/lead/slash.txt"); string(body) != "slash" {
		t.Errorf("a name with a leading slash: %q", body)
	}

	// Strong content validators; Last-Modified; 304s; ranges; gzip.
	resp, _ = get(t, base+"/style.css")
	etag := resp.Header.Get("ETag")
	if len(etag) < 10 || etag[0] != '"' {
		t.Fatalf("ETag %q", etag)
	}
	if resp.Header.Get("Last-Modified") == "" {
		t.Error("no Last-Modified")
	}
	if resp, _ := get(t, base+"/style.css", "If-None-Match: "+etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %s", resp.Status)
	}
	if resp, _ := get(t, base+"/style.css", "If-Modified-Since: "+resp.Header.Get("Last-Modified")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %s", resp.Status)
	}
	if resp, body := get(t, base+"/big.txt", "Range: bytes=0-3"); resp.StatusCode != http.StatusPartialContent || string(body) != "0123" {
		t.Errorf("range: %s %q", resp.Status, body)
	}
	resp, body = get(t, base+"/big.txt", "Accept-Encoding: gzip")
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: %v, %q", err, resp.Header.Get("Content-Encoding"))
	}
	if plain, _ := io.ReadAll(zr); string(plain) != siteFiles()["big.txt"] {
		t.Error("gzip body differs")
	}

	// An unchanged file keeps its validators across builds; a changed one
	// gets new ones.
	files2 := map[string][]byte{}
	for k, v := range files {
		files2[k] = v
	}
	files2["index.html"] = []byte("<html><body>new</body></html>")
	m.Swap(files2, nil)
	if resp, _ := get(t, base+"/style.css"); resp.Header.Get("ETag") != etag {
		t.Errorf("unchanged file: ETag %q, was %q", resp.Header.Get("ETag"), etag)
	}
	if _, body := get(t, base+"/"); string(body) != "<html><body>new</body></html>" {
		t.Errorf("after the swap: %q", body)
	}
}

func TestPages(t *testing.T) {
	dir := t.TempDir()
	files := siteFiles()
	files["en/search/index.html"] = "<html><body>search needs the server</body></html>"
	writeTree(t, dir, files)
	bodyErr := make(chan error, 1)
	pages := map[string]http.Handler{
		"GET /{lang}/search/{$}": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.PathValue("lang") != "en" {
				NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body>results for "+r.URL.Query().Get("q")+"</body></html>")
		}),
		"GET /slow/{$}": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
			io.WriteString(w, "too late")
		}),
		"GET /body/{$}": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err := io.ReadAll(r.Body)
			bodyErr <- err
			w.WriteHeader(http.StatusAccepted)
		}),
		"GET /panic/{$}": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "half a page")
			panic("broken page")
		}),
		"GET /huge/{$}": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for range maxPageBytes/len(chunk) + 1 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}),
	}
	var logged syncLog
	// The timeout is the slow page's: others, however slow the machine,
	// must not reach it.
	base := startServer(t, NewHandler(NewDirSite(dir), Options{Timeout: time.Minute, Pages: pages, Logf: logged.logf}))
	slow := startServer(t, NewHandler(NewDirSite(dir), Options{Timeout: 200 * time.Millisecond, Pages: pages, Logf: logged.logf}))
	resp, body := get(t, base+"/en/search/?q=dns")
	if resp.StatusCode != http.StatusOK || string(body) != "<html><body>results for dns</body></html>" {
		t.Errorf("page: %s %q", resp.Status, body)
	}
	checkSecurityHeaders(t, "page", resp)
	if resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("Content-Length") != itoa(len(body)) {
		t.Errorf("page headers: %v", resp.Header)
	}
	if resp, body := get(t, base+"/fr/search/"); resp.StatusCode != http.StatusNotFound || string(body) != files["404.html"] {
		t.Errorf("a page's NotFound: %s %q, want the site's 404 page", resp.Status, body)
	}
	if resp, body := get(t, base+"/en/search"); resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/en/search/" {
		t.Errorf("a page's path without its slash: %s %q", resp.Status, body)
	}
	if _, body := get(t, base+"/style.css"); string(body) != files["style.css"] {
		t.Errorf("a path no page matches is a file; got %q", body)
	}
	if resp, _ := do(t, http.MethodPost, base+"/en/search/"); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST to a page: %s, Allow %q", resp.Status, resp.Header.Get("Allow"))
	}

	// The slow page waits for its context: only the timeout ends it.
	resp, body = get(t, slow+"/slow/")
	if resp.StatusCode != http.StatusServiceUnavailable || bytes.Contains(body, []byte("too late")) || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("slow page: %s %q %v", resp.Status, body, resp.Header)
	}
	if resp, body := get(t, base+"/panic/"); resp.StatusCode != http.StatusInternalServerError || bytes.Contains(body, []byte("half")) {
		t.Errorf("panicking page: %s %q", resp.Status, body)
	}
	if resp, body := get(t, base+"/huge/"); resp.StatusCode != http.StatusInternalServerError || len(body) > 100 {
		t.Errorf("page over %d bytes: %s, %d bytes", maxPageBytes, resp.Status, len(body))
	}
	for _, want := range []string{"/slow/: took longer than 200ms", "/panic/: panic: broken page", "/huge/: response larger than"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logged.String())
		}
	}

	// Bodies are limited to 1 MiB.
	req, _ := http.NewRequest(http.MethodGet, base+"/body/", bytes.NewReader(make([]byte, 2<<20)))
	r2, err := client.Do(req)
	if err == nil {
		r2.Body.Close()
	}
	var mbe *http.MaxBytesError
	if gotBodyErr := <-bodyErr; !errors.As(gotBodyErr, &mbe) {
		t.Errorf("reading a 2 MiB body: %v, want a MaxBytesError", gotBodyErr)
	}

	// While authoring, an HTML page gets the reload script; its 404 the
	// site's 404 page, decorated too.
	m := NewMemSite()
	m.Swap(map[string][]byte{"404.html": []byte("<html><body>site 404</body></html>")}, nil)
	live := startServer(t, NewHandler(m, Options{LiveReload: true, Pages: pages}))
	resp, body = get(t, live+"/en/search/?q=dns")
	if !bytes.Contains(body, []byte("results for dns")) || !bytes.Contains(body, []byte(scriptTag)) || resp.Header.Get("Content-Length") != itoa(len(body)) || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("live page: %s %q %v", resp.Status, body, resp.Header)
	}
	if resp, body := get(t, live+"/fr/search/"); resp.StatusCode != http.StatusNotFound || bytes.Count(body, []byte(scriptTag)) != 1 {
		t.Errorf("live page's NotFound: %s %q", resp.Status, body)
	}
}

// syncLog collects what a handler logs.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.b, format+"\n", args...)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestSearchMount(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, siteFiles())
	search := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "slow" {
			<-r.Context().Done() // until the timeout gives up on it
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"query":"`+r.URL.Query().Get("q")+`"}`)
	})
	base := startServer(t, NewHandler(NewDirSite(dir), Options{Search: search, Timeout: 100 * time.Millisecond}))
	resp, body := get(t, base+"/api/search?q=dns")
	if resp.StatusCode != http.StatusOK || string(body) != `{"query":"dns"}` || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("search: %s %q %q", resp.Status, resp.Header.Get("Content-Type"), body)
	}
	checkSecurityHeaders(t, "search", resp)
	if resp, _ := get(t, base+"/api/search?q=slow"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("slow search: %s, want 503", resp.Status)
	}
	if resp, _ := do(t, http.MethodPost, base+"/api/search?q=dns"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST search: %s, want 405", resp.Status)
	}
	// Without a search handler the path is just missing.
	base = startServer(t, Handler(dir))
	if resp, _ := get(t, base+"/api/search?q=dns"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("no search: %s, want 404", resp.Status)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
