package analysis

// Mainland words for Taiwan's of another length. The fold (chinese.go)
// keeps only the phrase pairs of OpenCC's Taiwan dictionary that turn
// each character into one, so that offsets hold: 資料 → 数据 is folded,
// but 記憶體 (Taiwan) and 内存 (Mainland) differ in length, and a reader
// typing 内存 would not find 記憶體. TaiwanWording rewrites a query's
// Mainland words into Taiwan's, to be searched besides the query as
// typed.

import (
	"bufio"
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// mainland maps the folded Mainland form of a phrase to the Taiwan
// phrase, for the pairs of TWPhrasesRev.txt of different lengths.
var mainland = sync.OnceValues(func() (map[string]string, error) {
	b, err := openccFiles.ReadFile("opencc/TWPhrasesRev.txt")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, vals, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue // load reports it
		}
		val, _, _ := strings.Cut(vals, " ")
		if utf8.RuneCountInString(key) == utf8.RuneCountInString(val) {
			continue // folded already
		}
		if m := FoldChineseString(val); utf8.RuneCountInString(m) >= 2 {
			if _, dup := out[m]; !dup {
				out[m] = key
			}
		}
	}
	return out, sc.Err()
})

// maxMainlandRunes is the longest Mainland phrase looked for.
const maxMainlandRunes = 8

// TaiwanWording returns s with its Mainland words that Taiwan writes
// with another number of characters replaced by Taiwan's (内存泄漏 →
// 記憶體泄漏), the longest first; ok is false if it has none.
func TaiwanWording(s string) (string, bool) {
	m, err := mainland()
	if err != nil {
		panic(err) // the embedded dictionaries are tested
	}
	folded := FoldChineseString(s) // same byte offsets as s
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); {
		ends := make([]int, 0, maxMainlandRunes)
		for j := i; j < len(s) && len(ends) < maxMainlandRunes; {
			_, size := utf8.DecodeRuneInString(folded[j:])
			j += size
			ends = append(ends, j)
		}
		matched := false
		for k := len(ends) - 1; k >= 1; k-- {
			if tw, ok := m[folded[i:ends[k]]]; ok {
				b.WriteString(tw)
				i, matched, changed = ends[k], true, true
				break
			}
		}
		if !matched {
			b.WriteString(s[i:ends[0]])
			i = ends[0]
		}
	}
	return b.String(), changed
}
