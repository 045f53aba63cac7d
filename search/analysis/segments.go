package analysis

// Word segmentation for the fast analysis. bleve's tokenizer cuts text
// with blevesearch/segment (Unicode's word boundaries, UAX #29), a state
// machine that costs a fifth of analysing a document. Most of a report is
// a few cases whose boundaries need no machine: a run of ASCII letters,
// digits and underscores ended by a space or a punctuation mark that
// cannot join it to more, an ASCII space or punctuation mark, a Chinese
// character followed by anything but a mark that would attach to it.
// segments cuts those itself and asks the segmenter for the rest, from the
// start of the segment, so that the segments are the segmenter's
// (TestWordsAsSegment compares them).

import (
	"unicode/utf8"

	"github.com/blevesearch/segment"
)

// The CJK Unified Ideographs the segmenter knows as such (its Unicode
// version's block ends at U+9FD5): each is a segment of its own, of type
// segment.Ideo, unless a mark follows it.
const hanLo, hanHi = 0x4E00, 0x9FD5

// segments are the segments of a text, one after the other.
type segments struct {
	text []byte
	next int    // start of the next segment
	tok  []byte // the segment found by scan
	typ  int    // its segment type
}

// scan finds the next segment, and reports false at the end of the text
// (or where the segmenter can go no further, as segment.Segmenter does).
func (w *segments) scan() bool {
	for w.next < len(w.text) {
		b := w.text[w.next:]
		n, typ := fastSegment(b)
		if n == 0 {
			adv, tok, t, err := segment.SegmentWords(b, true)
			if err != nil || adv <= 0 || adv > len(b) {
				return false
			}
			w.next += adv
			if tok == nil {
				continue
			}
			w.tok, w.typ = tok, t
			return true
		}
		w.tok, w.typ = b[:n], typ
		w.next += n
		return true
	}
	return false
}

// fastSegment returns the length and type of the segment at the start of
// b when it is one of the common cases, or 0.
func fastSegment(b []byte) (int, int) {
	c := b[0]
	switch {
	case isWordByte(c):
		return asciiWord(b)
	case c < utf8.RuneSelf:
		// A space or punctuation mark starts no word: before ASCII it is
		// a segment of type None of its own (CR LF one together).
		switch {
		case len(b) > 1 && b[1] >= utf8.RuneSelf:
			return 0, 0
		case c == '\r' && len(b) > 1 && b[1] == '\n':
			return 2, segment.None
		}
		return 1, segment.None
	case c >= 0xE4 && c <= 0xE9: // U+4000–U+9FFF
		r, size := utf8.DecodeRune(b)
		if r < hanLo || r > hanHi || !endsHan(b[size:]) {
			return 0, 0
		}
		return size, segment.Ideo
	}
	return 0, 0
}

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// asciiWord returns the length and type of the run of ASCII letters,
// digits and underscores at the start of b when nothing can join it to
// more, or 0: a letter or mark after it that is not ASCII, or one of
// . : ' , ; before a letter or digit (e.g. "e.g", "3.5", "don't"). The
// run is a number when it has digits and no letters.
func asciiWord(b []byte) (int, int) {
	n, letters, digits := 0, false, false
	for ; n < len(b) && isWordByte(b[n]); n++ {
		switch c := b[n]; {
		case c >= '0' && c <= '9':
			digits = true
		case c != '_':
			letters = true
		}
	}
	if n < len(b) {
		switch c := b[n]; {
		case c >= utf8.RuneSelf:
			return 0, 0
		case c == '.' || c == ':' || c == '\'' || c == ',' || c == ';':
			if n+1 < len(b) && (b[n+1] >= utf8.RuneSelf || isWordByte(b[n+1])) {
				return 0, 0
			}
		}
	}
	if digits && !letters {
		return n, segment.Number
	}
	return n, segment.Letter
}

// endsHan reports whether the text after a Chinese character, b, starts
// with a character that cannot attach to it: ASCII, another Chinese
// character, CJK or full-width punctuation.
func endsHan(b []byte) bool {
	if len(b) == 0 || b[0] < utf8.RuneSelf {
		return true
	}
	r, _ := utf8.DecodeRune(b)
	return r >= hanLo && r <= hanHi || r >= 0x3001 && r <= 0x3011 || r >= 0xFF01 && r <= 0xFF5E
}
