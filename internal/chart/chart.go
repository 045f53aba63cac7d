// Package chart draws the archive's SVG pictures at build time: an
// incident's timeline, and the pictures that summarise many incidents — a
// year × month heat map (HeatmapSVG), a rows × years grid (GridSVG) and a
// histogram of durations (DurationsSVG), whose sizes depend on the years
// and rows shown, never on the number of incidents, each with its legend
// drawn beside its marks. Pure functions from data to SVG markup; no
// JavaScript.
//
// The markup is meant to be inlined in an HTML page (inside <figure>) and is
// also a well-formed standalone XML document:
//
//   - the root <svg> carries xmlns, a viewBox designed for 720 user units of
//     width, width="100%" (the height follows from the aspect ratio), role="img"
//     and aria-labelledby pointing at its <title> and <desc>;
//   - every id starts with the caller's id prefix, so several charts can share
//     a page; the root element's id is "<prefix>-svg";
//   - the markup carries no <style> element and no style attributes (the
//     site's Content-Security-Policy allows only style sheets from its own
//     origin): geometry is given by attributes, and all presentation by
//     classes styled by the static style sheet that Stylesheet returns, which
//     the site serves as a file and links from every page. Its rules are
//     scoped to svg.chart (shared) and svg.chart-<kind> (the root's
//     classes: incident, heatmap, grid, durations). Colours use the page's custom properties when
//     present (--fg, --muted, --line, --bg, --accent, --minor, --major,
//     --critical) and built-in fallbacks otherwise, with light and dark
//     (prefers-color-scheme) variants, a black on white @media print variant
//     and a forced-colors variant;
//   - on narrow viewports (max-width: 600px) the style sheet makes the text
//     grow so that it stays about 11 CSS px when the picture is scaled down
//     to a phone's width, and hides every other axis label (class "nh")
//     where they would collide; an incident's timeline, whose markers are
//     tapped, is also drawn for a phone's width (IncidentResponsive);
//   - all text and attribute values are XML-escaped, characters that XML 1.0
//     forbids are dropped, and javascript:, vbscript: and data: links are
//     replaced by "#".
//
// Output is deterministic: the same input always gives the same string.
package chart

import (
	"strings"
	"time"
	"unicode"
)

// viewWidth is the width of every chart's viewBox, in user units.
const viewWidth = 720.0

// Font sizes in user units: normal (desktop) and narrow-viewport variants.
const (
	fontText       = 13.0 // tick and axis labels
	fontTextNarrow = 23.0
	fontHead       = 15.0 // panel headings
	fontHeadNarrow = 27.0
	fontCount      = 12.0 // numbers above bars
	fontCountNarrw = 23.0
)

// narrowQuery is the media query under which text is enlarged.
const narrowQuery = "(max-width:600px)"

// seconds returns t−t0 in seconds as a float64. Unlike t.Sub it does not
// saturate for ranges beyond 292 years.
func seconds(t, t0 time.Time) float64 {
	return float64(t.Unix()-t0.Unix()) + float64(t.Nanosecond()-t0.Nanosecond())/1e9
}

// num formats a coordinate compactly: rounded to one decimal, without a
// trailing ".0" and never "-0".
func num(v float64) string {
	var buf [32]byte
	return string(appendNum(buf[:0], v))
}

// esc escapes s for use as XML/HTML text or a double- or single-quoted
// attribute value, as escTo writes it.
func esc(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	escTo(&b, s)
	return b.String()
}

// safeHref neutralises link targets that would run script.
func safeHref(h string) string {
	for _, bad := range [...]string{"javascript:", "vbscript:", "data:"} {
		if schemeIs(h, bad) {
			return "#"
		}
	}
	return h
}

// schemeIs reports whether h begins with scheme, in any case, once
// spaces and control characters (which browsers skip) are dropped.
func schemeIs(h, scheme string) bool {
	i := 0
	for _, r := range h {
		if i == len(scheme) {
			break
		}
		if r <= ' ' {
			continue
		}
		if unicode.ToLower(r) != rune(scheme[i]) {
			return false
		}
		i++
	}
	return i == len(scheme)
}

// cleanID turns an id prefix into something safe as an XML id and in an
// IDREF list (aria-labelledby) and, should a page want to address a chart,
// inside a CSS id selector: ASCII letters, digits, '-' and '_' are kept,
// anything else becomes '_'; an empty prefix becomes "chart", and one not
// starting with a letter gets a leading "c".
func cleanID(p string) string {
	if idClean(p) {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		if idByte(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		return "chart"
	}
	if c := s[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		s = "c" + s
	}
	return s
}

// idClean reports whether cleanID would keep p as it is.
func idClean(p string) bool {
	if p == "" || !(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(p); i++ {
		if !idByte(rune(p[i])) {
			return false
		}
	}
	return true
}

// idByte reports whether an id keeps r.
func idByte(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}

// cleanClass reduces a class name fragment to [a-z0-9-].
func cleanClass(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		case r == ' ' || r == '_':
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// textWidth estimates the rendered width of s at the given font size, in
// user units, erring on the wide side (metrics close to DejaVu Sans / Noto
// Sans, wider than most system UI fonts). Wide (CJK) characters count one em.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.32
		case r == 'i' || r == 'l' || r == 'j' || r == 'I' || r == '.' || r == ',' || r == ':' || r == ';' || r == '·' || r == '|' || r == '\'' || r == '!':
			w += 0.34
		case r >= '0' && r <= '9':
			w += 0.64
		case r == 'M' || r == 'W' || r == 'm' || r == 'w' || r == '—' || r == '%':
			w += 0.95
		case r >= 'A' && r <= 'Z':
			w += 0.72
		case isWide(r):
			w += 1.0
		default:
			w += 0.62
		}
	}
	return w * size
}

func isWide(r rune) bool {
	return r >= 0x1100 && r <= 0x115F ||
		r >= 0x2E80 && r <= 0xA4CF ||
		r >= 0xAC00 && r <= 0xD7A3 ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0xFE30 && r <= 0xFE4F ||
		r >= 0xFF00 && r <= 0xFF60 ||
		r >= 0xFFE0 && r <= 0xFFE6 ||
		r >= 0x20000 && r <= 0x3FFFD
}
