package chart

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// markup is what a picture is written into: a strings.Builder, or the
// bytes.Buffer of the page that shows it. Neither fails to write, so
// writes are not checked.
type markup interface {
	io.Writer
	io.StringWriter
}

// svgw writes a picture's markup piece by piece: numbers and escaped
// text go straight into the markup, without a string made for each.
type svgw struct {
	w   markup
	tmp [32]byte // a number being formatted
}

func (s *svgw) str(x string) { s.w.WriteString(x) }

// num writes v as num formats it.
func (s *svgw) num(v float64) { s.w.Write(appendNum(s.tmp[:0], v)) }

// text writes x escaped as esc escapes it.
func (s *svgw) text(x string) { escTo(s.w, x) }

// attr writes ` name="v"`.
func (s *svgw) attr(name string, v float64) {
	s.str(" ")
	s.str(name)
	s.str(`="`)
	s.num(v)
	s.str(`"`)
}

// open writes `<name class="class"`, without the class when it is "".
func (s *svgw) open(name, class string) {
	s.str("<")
	s.str(name)
	if class != "" {
		s.str(` class="`)
		s.str(class)
		s.str(`"`)
	}
}

// line writes a <line> from (x1, y1) to (x2, y2).
func (s *svgw) line(class string, x1, y1, x2, y2 float64) {
	s.open("line", class)
	s.attr("x1", x1)
	s.attr("y1", y1)
	s.attr("x2", x2)
	s.attr("y2", y2)
	s.str("/>")
}

// circle writes a <circle> of radius r around (cx, cy).
func (s *svgw) circle(class string, cx, cy, r float64) {
	s.open("circle", class)
	s.attr("cx", cx)
	s.attr("cy", cy)
	s.attr("r", r)
	s.str("/>")
}

// textAt writes a <text> at (x, y) holding words, escaped; more are
// attributes written as they are, after x and y.
func (s *svgw) textAt(class string, x, y float64, words, more string) {
	s.open("text", class)
	s.attr("x", x)
	s.attr("y", y)
	s.str(more)
	s.str(">")
	s.text(words)
	s.str("</text>")
}

// appendNum appends v formatted compactly: rounded to one decimal,
// without a trailing ".0" and never "-0".
func appendNum(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, '0')
	}
	r := math.Round(v*10) / 10
	if r == 0 {
		r = 0 // normalise -0
	}
	return strconv.AppendFloat(dst, r, 'f', -1, 64)
}

// escTo writes s escaped for use as XML/HTML text or a double- or
// single-quoted attribute value. Characters not allowed in XML 1.0 are
// dropped, and line breaks and tabs become spaces (labels are one line).
func escTo(w io.StringWriter, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var repl string
		switch {
		case r == '&':
			repl = "&amp;"
		case r == '<':
			repl = "&lt;"
		case r == '>':
			repl = "&gt;"
		case r == '"':
			repl = "&#34;"
		case r == '\'':
			repl = "&#39;"
		case r == '\t' || r == '\n' || r == '\r':
			repl = " "
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			// not allowed in XML 1.0: dropped
		case r == utf8.RuneError && size == 1:
			repl = string(utf8.RuneError) // invalid UTF-8 byte
		default:
			i += size
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(repl)
		i += size
		last = i
	}
	w.WriteString(s[last:])
}

// openSVG writes the root element, <title> and <desc>.
func openSVG(w markup, id, kind string, width, height float64, title, desc string) {
	(&svgw{w: w}).root(id, kind, width, height, title, desc)
}

// root writes the root element, <title> and <desc>.
func (s *svgw) root(id, kind string, width, height float64, title, desc string) {
	s.str(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `)
	s.num(width)
	s.str(" ")
	s.num(height)
	for _, part := range []string{`" width="100%" role="img" aria-labelledby="`, id, "-title ", id, `-desc" id="`, id,
		`-svg" class="chart chart-`, kind, `"><title id="`, id, `-title">`} {
		s.str(part)
	}
	s.text(title)
	s.str(`</title><desc id="`)
	s.str(id)
	s.str(`-desc">`)
	s.text(desc)
	s.str(`</desc>`)
}
