package analysis

import (
	"unicode"
	"unicode/utf8"
)

// Text flags: properties of a document's text that decide whether a fast
// search for the surface form of a term can miss an occurrence (see
// locate.go in package search); when one is set, that document is
// analysed in full.
const (
	// FoldASCII: the text has characters that the analyzer turns into
	// ASCII (full-width letters and digits in CJK text, U+212A KELVIN SIGN,
	// U+0130), or full-width punctuation that can join two words into one
	// token.
	FoldASCII = 1 << iota
	// FoldKana: the text has half-width katakana, which the CJK analyzer
	// turns into full-width ones.
	FoldKana
	// FoldHan: the text has Chinese characters that the Chinese analyzer
	// folds into others (Traditional into Simplified): search the folded
	// text, whose byte offsets are the same.
	FoldHan
)

// isWordRune reports whether r can be part of a token of letters and
// digits together with a neighbouring full-width character: letters and
// digits outside the CJK blocks (ideographs and kana are tokens of their
// own), and full-width ones.
func isWordRune(r rune) bool {
	if r >= 0xFF10 && r <= 0xFF19 || r >= 0xFF21 && r <= 0xFF3A || r >= 0xFF41 && r <= 0xFF5A {
		return true
	}
	return r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// TextFlags computes the text flags of s for an analyzer of kind k.
func TextFlags(s string, k Kind) uint8 {
	flags := CharFlags(s, k)
	if k == Chinese && FoldChineseString(s) != s {
		flags |= FoldHan
	}
	return flags
}

// CharFlags is TextFlags but for FoldHan, which the fast analysis of the
// text finds as it folds (Analysis.Folded).
func CharFlags(s string, k Kind) uint8 {
	var flags uint8
	prev := ' '
	for i, r := range s {
		if r < utf8.RuneSelf {
			prev = r
			continue
		}
		if lowersToASCII(r) {
			flags |= FoldASCII
		}
		if k.Bigrams() {
			flags |= widthFlags(s, i, r, prev)
		}
		prev = r
	}
	return flags
}

// lowersToASCII reports whether r, not ASCII, is lower-cased into ASCII:
// only U+0130 (İ, into i) and U+212A (KELVIN SIGN, into k) are
// (TestLowersToASCII). Asking unicode.ToLower was most of the cost of the
// flags of a Chinese text.
func lowersToASCII(r rune) bool { return r == 0x130 || r == 0x212A }

// widthFlags are the flags of the CJK analyzer's width folding for r at
// s[i:], after prev.
func widthFlags(s string, i int, r, prev rune) uint8 {
	switch {
	case r >= 0xFF65 && r <= 0xFF9F:
		return FoldKana
	case r >= 0xFF01 && r <= 0xFF5E:
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		switch {
		case isWordRune(r):
			return FoldASCII
		case r == 0xFF3F: // ＿ joins on either side
			if isWordRune(prev) || isWordRune(next) {
				return FoldASCII
			}
		case isWordRune(prev) && isWordRune(next):
			return FoldASCII
		}
	}
	return 0
}
