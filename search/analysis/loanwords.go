package analysis

// Japanese loanwords. Japanese writes the English words of operations in
// katakana (サーバー, ログイン), and often without their last long vowel
// mark (サーバ, コンピュータ: JIS Z 8301 drops it, the press keeps it).
// The index holds katakana as bigrams, so サーバ finds サーバー (its
// bigrams are among サーバー's) but サーバー does not find サーバ; and
// a reader typing login does not find ログイン. OtherWordings searches a
// katakana word without its last ー too, and a loanword of
// loanwords.txt in the other script.

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:embed loanwords.txt
var loanwordsFile string

// prolonged is the katakana-hiragana prolonged sound mark, ー.
const prolonged = 'ー'

// minLongVowelRunes is the shortest katakana word, without its ー, that
// is also searched without it: a shorter one (キュ of キュー) is a bigram
// of many other words.
const minLongVowelRunes = 3

// loanwords maps an English word or phrase to its katakana forms, and a
// katakana form without its last ー to its English words.
var loanwords = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	for n, line := range strings.Split(strings.TrimSuffix(loanwordsFile, "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		en, forms, ok := strings.Cut(line, "\t")
		if !ok || en != strings.ToLower(en) || forms == "" {
			return nil, fmt.Errorf("search/analysis/loanwords.txt:%d:1: want a word in lower case, a tab and its katakana forms", n+1)
		}
		for _, ja := range strings.Fields(forms) {
			if !isKatakanaWord(ja) {
				return nil, fmt.Errorf("search/analysis/loanwords.txt:%d:1: %q is not katakana", n+1, ja)
			}
			out[en] = append(out[en], shortForm(ja))
			out[shortForm(ja)] = append(out[shortForm(ja)], en)
		}
	}
	return out, nil
})

// shortForm returns a katakana word without its last ー, if what is left
// is long enough to be searched alone (サーバー → サーバ).
func shortForm(w string) string {
	base, ok := strings.CutSuffix(w, string(prolonged))
	if !ok || utf8.RuneCountInString(base) < minLongVowelRunes || !isKatakanaWord(base) {
		return w
	}
	return base
}

// isKatakanaWord reports whether s is katakana only (with ー).
func isKatakanaWord(s string) bool {
	for _, r := range s {
		if r != prolonged && !unicode.Is(unicode.Katakana, r) || r == '・' {
			return false
		}
	}
	return s != ""
}

// loanWordings returns the other wordings of s as a loanword: s with each
// katakana word ending in ー also without it (サーバー障害 → サーバ障害),
// and, if s is a loanword of loanwords.txt, its form in the other script
// (ログイン → login, login → ログイン, ロードバランサー → load balancer).
func loanWordings(s string) []string {
	m, err := loanwords()
	if err != nil {
		panic(err) // the embedded table is tested
	}
	var out []string
	if short := withoutLongVowels(s); short != s {
		out = append(out, short)
	}
	key := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	if isKatakanaWord(key) {
		key = shortForm(key)
	}
	return append(out, m[key]...)
}

// withoutLongVowels returns s with the last ー of each of its katakana
// words removed, where enough is left (see shortForm).
func withoutLongVowels(s string) string {
	var b strings.Builder
	start := -1 // the start of the current katakana word
	flush := func(end int) {
		if start >= 0 {
			b.WriteString(shortForm(s[start:end]))
			start = -1
		}
	}
	for i, r := range s {
		if r == prolonged || unicode.Is(unicode.Katakana, r) && r != '・' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteRune(r)
	}
	flush(len(s))
	return b.String()
}

// Loanword is a line of loanwords.txt: an English word and a katakana
// form of it, as listed.
type Loanword struct{ English, Katakana string }

// Loanwords returns the pairs of loanwords.txt, in its order.
func Loanwords() []Loanword {
	if _, err := loanwords(); err != nil {
		panic(err) // the embedded table is tested
	}
	var out []Loanword
	for line := range strings.SplitSeq(loanwordsFile, "\n") {
		en, forms, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		for _, ja := range strings.Fields(forms) {
			out = append(out, Loanword{en, ja})
		}
	}
	return out
}
