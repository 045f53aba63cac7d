package analysis

// The readings of characters, for correcting what an input method typed
// for another word of the same sound: a Chinese reader typing pinyin or
// Zhuyin picks 褲 for 庫 (both kù) or 正 for 證 (zhèng), a Japanese one
// 裁 for 済 (both さい), or leaves a word in kana (けっさい for 決済).
// readings.txt holds, for each reading, its characters (Unihan's; its
// header says which and how it was made).

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed readings.txt
var readingsFile string

// Sounds says whose readings count: Mandarin's, Japanese's or both.
type Sounds uint8

const (
	Mandarin Sounds = 1 << iota
	Japanese
)

// SoundsOf returns the readings a reader of lang types by: Mandarin for
// Chinese, Japanese for Japanese, both for a reader of another language.
func SoundsOf(lang string) Sounds {
	switch {
	case lang == "ja" || strings.HasPrefix(lang, "ja-"):
		return Japanese
	case KindOf(lang) == Chinese:
		return Mandarin
	}
	return Mandarin | Japanese
}

// readingTable maps readings to characters and characters to readings,
// one of each per kind of reading.
type readingTable struct {
	chars [2]map[string][]rune // by reading
	of    [2]map[rune][]string // the readings of a character
}

var readings = sync.OnceValue(func() *readingTable {
	t := &readingTable{}
	for k := range 2 {
		t.chars[k], t.of[k] = map[string][]rune{}, map[rune][]string{}
	}
	for line := range strings.Lines(readingsFile) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		tag, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		reading, chars, ok := strings.Cut(rest, "\t")
		k := 0
		switch tag {
		case "zh":
		case "ja":
			k = 1
		default:
			ok = false
		}
		if !ok {
			continue // not reached: the file is generated (TestReadings)
		}
		rs := []rune(chars)
		t.chars[k][reading] = rs
		for _, r := range rs {
			t.of[k][r] = append(t.of[k][r], reading)
		}
	}
	return t
})

// SameSound returns the characters that share a reading of sounds with
// c, c left out, in code point order.
func SameSound(c rune, sounds Sounds) []rune {
	t := readings()
	var out []rune
	for k := range 2 {
		if sounds&(1<<k) == 0 {
			continue
		}
		for _, reading := range t.of[k][c] {
			out = append(out, t.chars[k][reading]...)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if i, ok := slices.BinarySearch(out, c); ok {
		out = slices.Delete(out, i, i+1)
	}
	return out
}

// KanjiReadings returns the Japanese readings of a kanji, in hiragana.
func KanjiReadings(c rune) []string { return readings().of[1][c] }

// KanaSpan is a run of kana that a kanji reads.
type KanaSpan struct {
	Kanji []rune // the kanji of the reading, in code point order
	Bytes int    // the length of the run, in bytes
}

// KanjiFor returns the kanji whose reading begins kana, each run
// length once: in a compound, a reading's last つ, ち, く or き before
// another kanji may be っ (決 けつ in けっさい), and after the first, its
// first sound voiced (が for か, ば or ぱ for は: 手順 て-じゅん).
func KanjiFor(kana string, first bool) []KanaSpan {
	t := readings()
	var out []KanaSpan
	rs := []rune(kana)
	for n := 1; n <= min(len(rs), maxReadingRunes); n++ {
		var chars []rune
		for _, r := range plainReadings(rs[:n], first, n < len(rs)) {
			chars = append(chars, t.chars[1][r]...)
		}
		if len(chars) > 0 {
			slices.Sort(chars)
			out = append(out, KanaSpan{slices.Compact(chars), len(string(rs[:n]))})
		}
	}
	return out
}

// maxReadingRunes is the longest Japanese reading looked up.
const maxReadingRunes = 6

// plainReadings returns the readings that sound as run in a compound:
// run itself, unvoiced if it is not first, with つ, ち, く or き for a
// last っ if more follows.
func plainReadings(run []rune, first, more bool) []string {
	heads := []rune{run[0]}
	if !first {
		heads = append(heads, unvoiced[run[0]]...)
	}
	if len(run) == 1 {
		if run[0] == 'っ' {
			return nil
		}
		var out []string
		for _, h := range heads {
			out = append(out, string(h))
		}
		return out
	}
	tails := []rune{run[len(run)-1]}
	if more && run[len(run)-1] == 'っ' {
		tails = []rune{'つ', 'ち', 'く', 'き'}
	} else if run[len(run)-1] == 'っ' || run[0] == 'っ' {
		return nil // a reading never ends in っ
	}
	var out []string
	for _, h := range heads {
		for _, tl := range tails {
			r := slices.Clone(run)
			r[0] = h
			r[len(r)-1] = tl
			out = append(out, string(r))
		}
	}
	return out
}

// unvoiced maps a voiced kana to the kana it voices.
var unvoiced = map[rune][]rune{
	'が': {'か'}, 'ぎ': {'き'}, 'ぐ': {'く'}, 'げ': {'け'}, 'ご': {'こ'},
	'ざ': {'さ'}, 'じ': {'し'}, 'ず': {'す'}, 'ぜ': {'せ'}, 'ぞ': {'そ'},
	'だ': {'た'}, 'ぢ': {'ち'}, 'づ': {'つ'}, 'で': {'て'}, 'ど': {'と'},
	'ば': {'は'}, 'び': {'ひ'}, 'ぶ': {'ふ'}, 'べ': {'へ'}, 'ぼ': {'ほ'},
	'ぱ': {'は'}, 'ぴ': {'ひ'}, 'ぷ': {'ふ'}, 'ぺ': {'へ'}, 'ぽ': {'ほ'},
}

// IsHiragana reports whether s is made of hiragana only (the prolonged
// sound mark too).
func IsHiragana(s string) bool {
	for _, r := range s {
		if !(r >= 0x3041 && r <= 0x309F || r == 0x30FC) {
			return false
		}
	}
	return utf8.RuneCountInString(s) > 0
}
