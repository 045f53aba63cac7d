package server

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/urls"
)

// The live reload script and the overlay's stylesheet, served under
// /_gen/ in LiveReload mode only; they are never written into a build.
var (
	//go:embed livereload.js
	livereloadJS []byte
	//go:embed overlay.css
	overlayCSS []byte

	livereloadTag = hashETag(livereloadJS)
	overlayTag    = hashETag(overlayCSS)
)

// A ChangeFeed is a Site that reports its swaps, as MemSite does: in
// LiveReload mode open pages follow them over /_gen/events.
type ChangeFeed interface {
	Watch(ctx context.Context, since uint64) <-chan Change
}

const scriptTag = `<script src="` + urls.LiveReloadPath + `" defer></script>`

func serveAsset(w http.ResponseWriter, r *http.Request, ctype, etag string, data []byte) {
	hd := w.Header()
	hd.Set("Content-Type", ctype)
	hd.Set("Cache-Control", "no-store")
	hd.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// tag names version v of the site in pages and events; the boot part
// makes a page served by an earlier run of the server look out of date.
func (h *handler) tag(v uint64) string {
	return h.boot + "." + strconv.FormatUint(v, 10)
}

// since reads the version a page last saw from its tag; a tag from
// another run, or none that makes sense, is older than everything.
func (h *handler) since(tag string) uint64 {
	boot, v, ok := strings.Cut(tag, ".")
	if !ok || boot != h.boot {
		return ^uint64(0)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return ^uint64(0)
	}
	return n
}

// serveEvents streams the site's changes to a page as Server-Sent
// Events: "reload", "css" (data: the version, for ?v=) and "errors"
// (data: a JSON list), with a comment every heartbeat to keep proxies
// and the connection alive. The stream ends when the page goes away or
// the server shuts down; the browser then retries on its own.
func (h *handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	select {
	case h.streams <- struct{}{}:
		defer func() { <-h.streams }()
	default:
		h.refused.add(fmt.Sprintf("more than %d pages open", cap(h.streams)))
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many live reload connections", http.StatusServiceUnavailable)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	// The server's read and write timeouts are for ordinary requests; a
	// stream lives as long as the page. Each write gets its own deadline
	// instead, so a client that stops reading is still cut off.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	var changes <-chan Change
	if wt, ok := h.site.(ChangeFeed); ok {
		seen := r.Header.Get("Last-Event-ID")
		if seen == "" {
			seen = r.URL.Query().Get("v")
		}
		since := h.site.Snapshot().Version()
		if seen != "" {
			since = h.since(seen)
		}
		changes = wt.Watch(ctx, since)
	}
	write := func(s string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(h.sseWrite))
		if _, err := io.WriteString(w, s); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	w.WriteHeader(http.StatusOK)
	if !write("retry: 1000\n: gen live reload\n\n") {
		return
	}
	heartbeat := time.NewTicker(h.heartbeat)
	defer heartbeat.Stop()
	down := shuttingDown(r.Context())
	for {
		select {
		case <-ctx.Done():
			return
		case <-down:
			return
		case <-heartbeat.C:
			if !write(": heartbeat\n\n") {
				return
			}
		case c, ok := <-changes:
			if !ok {
				return
			}
			if !write(h.event(c)) {
				return
			}
		}
	}
}

func (h *handler) event(c Change) string {
	id := h.tag(c.Version)
	data := id
	if c.Kind == ChangeErrors {
		data = errorsEvent(c.Errors)
	}
	return "id: " + id + "\nevent: " + c.Kind + "\ndata: " + data + "\n\n"
}

// errorsEvent is the data of an "errors" event: how many errors there
// are, the first diag.MaxShown of them, and what the page says of the
// rest. However many errors a build has, the event stays small.
func errorsEvent(errs []diag.Error) string {
	shown, more := diag.Shown(errs)
	b, _ := json.Marshal(struct {
		Count  int          `json:"count"`
		Errors []diag.Error `json:"errors"`
		More   string       `json:"more,omitempty"`
	}{len(errs), shown, more})
	return string(b)
}

// decorate adds live reload to a page: the overlay's stylesheet and the
// page's version in its head, the error overlay after <body> when the
// build failed, and the script before </body>.
func (h *handler) decorate(page []byte, snap Snapshot) []byte {
	lower := asciiLower(page)
	headEnd := bytes.Index(lower, []byte("</head"))
	bodyStart, bodyOpenEnd := bodyOpen(lower)
	bodyClose := bytes.LastIndex(lower, []byte("</body"))
	if headEnd < 0 {
		headEnd = max(bodyStart, 0)
	}
	if bodyOpenEnd < 0 {
		bodyOpenEnd = headEnd
	}
	if bodyClose < bodyOpenEnd {
		bodyClose = len(page)
	}
	type insert struct {
		at   int
		text string
	}
	inserts := []insert{
		{headEnd, `<link rel="stylesheet" href="` + urls.OverlayPath + `"><meta name="gen-version" content="` + h.tag(snap.Version()) + `">`},
		{bodyOpenEnd, overlayHTML(snap.Errors())},
		{bodyClose, scriptTag},
	}
	slices.SortStableFunc(inserts, func(a, b insert) int { return a.at - b.at })
	out := make([]byte, 0, len(page)+1024)
	at := 0
	for _, in := range inserts {
		out = append(out, page[at:in.at]...)
		out = append(out, in.text...)
		at = in.at
	}
	return append(out, page[at:]...)
}

// bodyOpen finds the <body …> tag: where it starts and just after its >.
func bodyOpen(lower []byte) (start, end int) {
	for off := 0; ; {
		i := bytes.Index(lower[off:], []byte("<body"))
		if i < 0 {
			return -1, -1
		}
		i += off
		next := i + len("<body")
		if next < len(lower) && strings.IndexByte(" \t\n\r\f/>", lower[next]) >= 0 {
			j := bytes.IndexByte(lower[next:], '>')
			if j < 0 {
				return -1, -1
			}
			return i, next + j + 1
		}
		off = next
	}
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// overlayHTML lists a failed build's errors, escaped, for the top of
// every page: the first diag.MaxShown and how many more there are. It is
// styled by /_gen/overlay.css.
func overlayHTML(errs []diag.Error) string {
	if len(errs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div id="gen-errors" role="alert">`)
	b.WriteString(`<button type="button" class="gen-errors-close" aria-label="Dismiss">×</button>`)
	s := "s"
	if len(errs) == 1 {
		s = ""
	}
	fmt.Fprintf(&b, `<p class="gen-errors-title">Build failed with %d error%s; showing the last good build.</p><ul>`, len(errs), s)
	shown, more := diag.Shown(errs)
	for _, e := range shown {
		b.WriteString("<li>")
		if at := e.Place(); at != "" {
			b.WriteString(`<span class="gen-errors-at">`)
			b.WriteString(html.EscapeString(at))
			b.WriteString("</span>: ")
		}
		b.WriteString(html.EscapeString(e.Msg))
		b.WriteString("</li>")
	}
	if more != "" {
		b.WriteString(`<li class="gen-errors-more">`)
		b.WriteString(html.EscapeString(more))
		b.WriteString("</li>")
	}
	b.WriteString("</ul></div>")
	return b.String()
}
