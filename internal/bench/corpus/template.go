package corpus

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A template is a sentence with {slot} references. Slots are functions
// that append text to the renderer's buffer; they are resolved when the
// template is parsed (at package initialisation), so rendering does no
// map look-ups.

type slotFn func(w *renderer)

type seg struct {
	lit string
	fn  slotFn
}

type tmpl []seg

type slotMap map[string]slotFn

func (m slotMap) with(more slotMap) slotMap {
	out := make(slotMap, len(m)+len(more))
	for k, v := range m {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// parse compiles a template. A slot name not in the map but ending in
// digits refers to the slot without them ({N2} is another draw of {N}).
func parse(s string, slots slotMap) tmpl {
	var t tmpl
	for len(s) > 0 {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			t = append(t, seg{lit: s})
			break
		}
		if i > 0 {
			t = append(t, seg{lit: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			panic(fmt.Sprintf("corpus: unclosed slot in %q", s))
		}
		name := s[i+1 : i+j]
		fn, ok := slots[name]
		if !ok {
			fn, ok = slots[strings.TrimRight(name, "0123456789")]
		}
		if !ok {
			panic(fmt.Sprintf("corpus: unknown slot {%s} in %q", name, s))
		}
		t = append(t, seg{fn: fn})
		s = s[i+j+1:]
	}
	return t
}

func parseAll(list []string, slots slotMap) []tmpl {
	out := make([]tmpl, len(list))
	for i, s := range list {
		out[i] = parse(s, slots)
	}
	return out
}

func (w *renderer) expand(t tmpl) {
	for _, s := range t {
		if s.fn != nil {
			s.fn(w)
		} else {
			w.buf = append(w.buf, s.lit...)
		}
	}
}

// sentence expands t and capitalises its first letter (a no-op for CJK).
func (w *renderer) sentence(t tmpl) {
	p := len(w.buf)
	w.expand(t)
	switch w.lex.tag {
	case "en":
		if p < len(w.buf) && w.buf[p] >= 'a' && w.buf[p] <= 'z' {
			w.buf[p] -= 'a' - 'A'
		}
	case "zh-TW", "zh-CN":
		w.cjkSpacing(p, true)
	default:
		w.cjkSpacing(p, false)
	}
}

// isCJKLetter reports whether r is a Han, Hiragana or Katakana rune, with
// a fast path for the common blocks.
func isCJKLetter(r rune) bool {
	switch {
	case r < 0x2e80:
		return false
	case r >= 0x4e00 && r <= 0x9fff, r >= 0x3041 && r <= 0x3096, r >= 0x30a1 && r <= 0x30fa:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func isKanaHan(r rune) bool { return r == 'ー' || isCJKLetter(r) }

func isCJKWide(r rune) bool {
	return isKanaHan(r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

func isLatin(r rune, digits bool) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || digits && r >= '0' && r <= '9'
}

// cjkSpacing normalises the spacing of w.buf[p:] the way Taiwanese and
// Japanese technical writing does: one space between CJK and Latin text
// (and digits, for Chinese), none between two CJK characters.
func (w *renderer) cjkSpacing(p int, digits bool) {
	s := w.buf[p:]
	out := w.spc[:0]
	var prev rune
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if r == ' ' && isCJKWide(prev) {
			if next, _ := utf8.DecodeRune(s[i+size:]); isCJKWide(next) {
				i += size
				continue
			}
		}
		if isKanaHan(prev) && isLatin(r, digits) || isLatin(prev, digits) && isKanaHan(r) {
			out = append(out, ' ')
		}
		out = append(out, s[i:i+size]...)
		prev = r
		i += size
	}
	w.spc = out
	w.buf = append(w.buf[:p], out...)
}

// bag hands out template indexes in shuffled order, without repeats until
// every template has been used once.
type bag struct {
	order []int
	next  int
}

func (w *renderer) draw(b *bag, n int) int {
	if len(b.order) != n || b.next >= n {
		if cap(b.order) < n {
			b.order = make([]int, n)
		}
		b.order = b.order[:n]
		for i := range b.order {
			b.order[i] = i
		}
		w.r.Shuffle(n, func(i, j int) { b.order[i], b.order[j] = b.order[j], b.order[i] })
		b.next = 0
	}
	b.next++
	return b.order[b.next-1]
}

// countWords counts whitespace-separated tokens that contain a letter or a
// digit, ignoring heading attributes such as {#impact}.
func countWords(b []byte) int {
	n := 0
	in, alnum, attr := false, false, false
	for i := 0; i < len(b); {
		c := b[i]
		size := 1
		var r rune = rune(c)
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			if in && alnum && !attr {
				n++
			}
			in, alnum, attr = false, false, false
		} else {
			if !in {
				in = true
				attr = c == '{' && i+1 < len(b) && b[i+1] == '#'
			}
			if !alnum && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				alnum = true
			}
		}
		i += size
	}
	if in && alnum && !attr {
		n++
	}
	return n
}

// countCJK counts Han, Hiragana and Katakana runes.
func countCJK(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if isCJKLetter(r) {
			n++
		}
		i += size
	}
	return n
}
