package analysis

// Folding Simplified and Traditional Chinese into one form, so that a
// reader typing 数据库 finds an incident written 資料庫 in Taiwan, and
// the reverse. The fold is OpenCC's tw2sp conversion (Traditional Chinese
// as written in Taiwan to Simplified, with Mainland phrasing: 資料 →
// 数据, 記憶體 → 内存), from OpenCC's own dictionaries (opencc/). It runs
// in the analysis of Chinese text, at index time and at query time, so
// the index holds one form.
//
// The fold keeps every byte offset: only entries that turn each
// character into one of the same UTF-8 length are kept (a phrase that
// changes its number of characters, 記憶體 → 内存, is folded character by
// character instead; a query's Mainland words of that kind are searched
// in Taiwan's wording too, see wording.go). So the text can be folded in
// place before it is segmented, the tokens keep the offsets of the
// original text, and the highlighter marks the original. Keys and values are ideographs only,
// so a phrase never spans punctuation or space, and folding a window of
// the text between such boundaries gives what folding the whole did.

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// OpenCC's dictionaries of the tw2sp conversion, in the order it applies
// them: Taiwan phrases and variants to standard Traditional, then
// Traditional to Simplified; and gen's own pairs of Taiwan's and the
// Mainland's incident vocabulary (wording.go).
//
//go:embed opencc/*.txt itphrases.txt
var dictFiles embed.FS

var (
	stage1 = []string{twPhrases, "opencc/TWVariantsRevPhrases.txt", "opencc/TWVariantsRev.txt"}
	stage2 = []string{"opencc/TSPhrases.txt", "opencc/TSCharacters.txt"}
)

// twPhrases pairs Taiwan's phrases with the Mainland's (OpenCC's);
// itPhrases is gen's supplement of incident vocabulary.
const (
	twPhrases = "opencc/TWPhrasesRev.txt"
	itPhrases = "itphrases.txt"
)

// ChineseAnalyzer is the name of the analyzer of Chinese text: the CJK
// analyzer's (width folding, lower case, bigrams) after the fold.
const ChineseAnalyzer = "gen_zh"

// conversion is one stage of the fold: a longest-match replacement of
// phrases, else of single characters.
type conversion struct {
	phrases map[string]string
	chars   map[rune]rune
	longest map[rune]int // the longest phrase key (bytes) starting with a rune

	// The same for the common ideographs, looked up by index: a map
	// lookup per character made the fold three times slower.
	denseChars   [denseHi - denseLo]rune
	denseLongest [denseHi - denseLo]uint8
}

// The range of the dense tables: CJK Extension A and the Unified
// Ideographs.
const denseLo, denseHi = 0x3400, 0xA000

// compact fills the dense tables from the maps.
func (c *conversion) compact() {
	for r, t := range c.chars {
		if r >= denseLo && r < denseHi {
			c.denseChars[r-denseLo] = t
		}
	}
	for r, n := range c.longest {
		if r >= denseLo && r < denseHi {
			c.denseLongest[r-denseLo] = uint8(min(n, 255))
		}
	}
}

// lookup returns what r becomes alone (0: itself) and the length of the
// longest phrase that starts with it.
func (c *conversion) lookup(r rune) (rune, int) {
	if r >= denseLo && r < denseHi {
		return c.denseChars[r-denseLo], int(c.denseLongest[r-denseLo])
	}
	return c.chars[r], c.longest[r]
}

// folder is the fold, its two stages applied one after the other.
type folder [2]*conversion

var foldTables = sync.OnceValues(loadFold)

func loadFold() (*folder, error) {
	var f folder
	for i, files := range [][]string{stage1, stage2} {
		c := &conversion{phrases: map[string]string{}, chars: map[rune]rune{}, longest: map[rune]int{}}
		for _, name := range files {
			if err := c.load(name); err != nil {
				return nil, err
			}
		}
		c.compact()
		f[i] = c
	}
	// Taiwan phrases written in Simplified characters (资料) fold as the
	// Traditional ones do (資料 → 数据): a reader on the Mainland types
	// the Simplified form of a Taiwan word as often as the Mainland one.
	for k, v := range f[0].phrases {
		b := []byte(k)
		f[1].apply(b)
		if s := string(b); s != k {
			if _, ok := f[0].phrases[s]; !ok {
				f[0].add(s, v)
			}
		}
	}
	f[0].compact()
	return &f, nil
}

// load reads a dictionary (see readDict) into c, keeping the pairs that
// fold in place.
func (c *conversion) load(name string) error {
	return readDict(name, func(key string, vals []string) {
		if aligned(key, vals[0]) {
			c.add(key, vals[0])
		}
	})
}

// readDict calls pair with each key and its candidates, the one a
// conversion takes first, in an OpenCC dictionary: lines of a key, a tab
// and candidates separated by spaces; lines starting with # are
// comments.
func readDict(name string, pair func(key string, vals []string)) error {
	b, err := dictFiles.ReadFile(name)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		key, vals, ok := strings.Cut(line, "\t")
		if !ok {
			return fmt.Errorf("search/analysis/%s:%d:1: a line without a tab; want key<TAB>values", name, n)
		}
		cands := strings.Fields(vals)
		if len(cands) == 0 {
			return fmt.Errorf("search/analysis/%s:%d:1: a key without a candidate", name, n)
		}
		pair(key, cands)
	}
	return sc.Err()
}

func (c *conversion) add(key, val string) {
	r, size := utf8.DecodeRuneInString(key)
	if size == len(key) {
		if _, ok := c.chars[r]; !ok {
			c.chars[r], _ = utf8.DecodeRuneInString(val)
		}
		return
	}
	if _, ok := c.phrases[key]; !ok {
		c.phrases[key] = val
		c.longest[r] = max(c.longest[r], len(key))
	}
}

// aligned reports whether key and val are ideographs, character for
// character of the same UTF-8 length.
func aligned(key, val string) bool {
	if len(key) != len(val) || key == val {
		return false
	}
	for i, r := range key {
		v, _ := utf8.DecodeRuneInString(val[i:])
		if utf8.RuneLen(r) != utf8.RuneLen(v) || !unicode.Is(unicode.Han, r) || !unicode.Is(unicode.Han, v) {
			return false
		}
	}
	return true
}

// apply converts b in place, and reports whether that changed it.
func (c *conversion) apply(b []byte) bool {
	changed := false
	var ends [16]int
	for i := 0; i < len(b); {
		if b[i] < 0xE2 { // below U+2000: no ideograph starts here
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		t, n := c.lookup(r)
		if n > 0 {
			// The ends of the next characters, up to the longest key.
			k := 0
			for j := i + size; j <= len(b) && j-i <= n && k < len(ends); {
				ends[k] = j
				k++
				if j == len(b) {
					break
				}
				_, s := utf8.DecodeRune(b[j:])
				j += s
			}
			matched := false
			for k--; k >= 1; k-- {
				if v, ok := c.phrases[string(b[i:ends[k]])]; ok {
					changed = changed || string(b[i:ends[k]]) != v
					copy(b[i:], v)
					i, matched = ends[k], true
					break
				}
			}
			if matched {
				continue
			}
		}
		if t != 0 && t != r {
			utf8.EncodeRune(b[i:], t)
			changed = true
		}
		i += size
	}
	return changed
}

// FoldChinese folds Chinese text in b in place (see the top of the file).
func FoldChinese(b []byte) { foldChinese(b) }

// foldChinese folds b in place, and reports whether a stage of the fold
// changed it (a second stage that undid the first would count too: the
// flag FoldHan is then set on a text the fold keeps, which costs a
// search of the folded text, the same).
func foldChinese(b []byte) bool {
	f, err := foldTables()
	if err != nil {
		panic(err) // the embedded dictionaries are tested
	}
	one := f[0].apply(b)
	two := f[1].apply(b)
	return one || two
}

// FoldChineseString returns s folded.
func FoldChineseString(s string) string {
	b := []byte(s)
	FoldChinese(b)
	return string(b)
}

// SimplifiedString returns s in Simplified characters, the fold's second
// stage alone: a Mainland word as the Mainland writes it (文件存儲 →
// 文件存储), where the fold would take 文件 for Taiwan's (文档).
func SimplifiedString(s string) string {
	f, err := foldTables()
	if err != nil {
		panic(err) // the embedded dictionaries are tested
	}
	b := []byte(s)
	f[1].apply(b)
	return string(b)
}

// foldFilter is the fold as a bleve char filter.
type foldFilter struct{}

func (foldFilter) Filter(b []byte) []byte {
	FoldChinese(b)
	return b
}

func chineseAnalyzer(_ map[string]interface{}, cache *registry.Cache) (analysis.Analyzer, error) {
	a := &analysis.DefaultAnalyzer{CharFilters: []analysis.CharFilter{foldFilter{}}}
	var err error
	if a.Tokenizer, err = cache.TokenizerNamed(bleveunicode.Name); err != nil {
		return nil, err
	}
	for _, name := range []string{cjk.WidthName, lowercase.Name, cjk.BigramName} {
		f, err := cache.TokenFilterNamed(name)
		if err != nil {
			return nil, err
		}
		a.TokenFilters = append(a.TokenFilters, f)
	}
	return a, nil
}

func init() {
	if err := registry.RegisterAnalyzer(ChineseAnalyzer, chineseAnalyzer); err != nil {
		panic(err)
	}
}
