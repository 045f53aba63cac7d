package analysis

// The parts of a run of Chinese or Japanese typed without spaces. Such a
// run is searched as a phrase, as the text holds it; a compound the
// reports write apart (硬碟 and 故障, サーバーの障害) then finds nothing
// though its parts are there. Parts cuts it as the index does: at a
// change of script, since a katakana word is one word to the reader
// (サーバ|障害), and each run of ideographs into its bigrams, the terms
// of the index; hiragana between them is a particle (の, が) and left
// out.

import (
	"unicode"
	"unicode/utf8"
)

// Parts returns the words of s, a run of CJK characters, as the index
// cuts it (see above), if it has more than one; else none.
func Parts(s string) []string {
	var parts []string
	start, kind := 0, scriptNone
	flush := func(end int) {
		run := s[start:end]
		switch n := utf8.RuneCountInString(run); {
		case kind == scriptKatakana && n >= 2:
			parts = append(parts, shortForm(run)) // サーバー finds サーバ too
		case kind == scriptHan && n == 1:
			parts = append(parts, run) // a character alone finds its bigrams
		case kind == scriptHan:
			rs := []rune(run)
			for i := 0; i+1 < len(rs); i++ {
				parts = append(parts, string(rs[i:i+2]))
			}
		}
	}
	for i, r := range s {
		k := scriptOf(r)
		if k == scriptNone {
			return nil // not a run of CJK characters
		}
		if k != kind {
			if kind != scriptNone {
				flush(i)
			}
			start, kind = i, k
		}
	}
	flush(len(s))
	if len(parts) < 2 {
		return nil
	}
	return parts
}

type script uint8

const (
	scriptNone script = iota
	scriptHan
	scriptHiragana
	scriptKatakana
)

// scriptOf returns the script of a CJK character of a word; ー and the
// iteration marks go with what they follow in practice (katakana, han).
func scriptOf(r rune) script {
	switch {
	case r == prolonged || r != '・' && unicode.Is(unicode.Katakana, r):
		return scriptKatakana
	case unicode.Is(unicode.Hiragana, r):
		return scriptHiragana
	case unicode.Is(unicode.Han, r) || r == 0x3005 || r == 0x3006 || r == 0x3007:
		return scriptHan
	}
	return scriptNone
}
