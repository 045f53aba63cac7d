package render

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// htmlw writes HTML from Go the way html/template writes the default
// layouts: text and quoted attribute values escaped with html/template's
// table (which also escapes '+'), URLs filtered and normalized first. The
// first error (a missing language string) is kept and the rest of the page
// is still written, to be thrown away.
type htmlw struct {
	b   bytes.Buffer
	err error
}

// raw writes template text: markup that needs no escaping.
func (w *htmlw) raw(s string) { w.b.WriteString(s) }

// text writes s escaped for element content or a quoted attribute value.
func (w *htmlw) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		w.b.WriteString(s[last:i])
		w.b.WriteString(repl)
		last = i + 1
	}
	w.b.WriteString(s[last:])
}

// textErr is text for helpers that may fail.
func (w *htmlw) textErr(s string, err error) {
	w.keep(err)
	w.text(s)
}

// keep keeps err if it is the page's first.
func (w *htmlw) keep(err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
}

// url writes s as a whole URL attribute value: a scheme other than http,
// https or mailto is refused as html/template refuses it, and bytes not
// allowed in URLs are percent-encoded.
func (w *htmlw) url(s string) {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		s = "#ZgotmplZ"
	}
	w.text(normalizeURL(s))
}

// normalizeURL percent-encodes what html/template's URL normalizer
// encodes: everything but unreserved and reserved characters and valid
// escapes.
func normalizeURL(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0:
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		}
		if last == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:i])
		fmt.Fprintf(&b, "%%%02x", c)
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// datetime is the layouts' datetime function.
func datetime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// utc is the layouts' utc function.
func utc(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }
