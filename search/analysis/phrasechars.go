package analysis

// A character the fold writes otherwise inside a phrase. The fold is
// phrase by phrase: 宕機 becomes 死机 (OpenCC pairs Taiwan's 死機 with the
// Mainland's 宕机, both directions in one table), so a report saying 宕机
// holds the bigram 死机 and none with 宕. A query of the one character 宕
// is folded alone, character by character, and would find nothing;
// PhraseBigrams gives it the bigrams the fold makes of it in its phrases.

import (
	"sync"
	"unicode/utf8"
)

// phraseBigrams maps a character, folded alone, to the bigrams of the
// folded phrases in which the fold writes it as another character.
var phraseBigrams = sync.OnceValues(func() (map[string][]string, error) {
	f, err := foldTables()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	seen := map[[2]string]bool{}
	for _, c := range f {
		for key := range c.phrases {
			addPhraseBigrams(key, out, seen)
		}
	}
	return out, nil
})

// addPhraseBigrams records, for each character of phrase that its fold
// writes otherwise than the character's own fold, the bigrams of the
// folded phrase that hold that position.
func addPhraseBigrams(phrase string, out map[string][]string, seen map[[2]string]bool) {
	folded := []rune(FoldChineseString(phrase))
	i := 0
	for _, r := range phrase {
		alone := FoldChineseString(string(r))
		if i < len(folded) && string(folded[i]) != alone {
			for _, bg := range [][2]int{{i - 1, i + 1}, {i, i + 2}} {
				if bg[0] < 0 || bg[1] > len(folded) {
					continue
				}
				b := string(folded[bg[0]:bg[1]])
				if !seen[[2]string{alone, b}] {
					seen[[2]string{alone, b}] = true
					out[alone] = append(out[alone], b)
				}
			}
		}
		i++
	}
}

// PhraseBigrams returns the bigrams in which the fold writes the
// character c (as folded alone: 宕, 当) otherwise, inside a phrase of its
// tables: 死机 for 宕. None for most characters.
func PhraseBigrams(c string) []string {
	if utf8.RuneCountInString(c) != 1 {
		return nil
	}
	m, err := phraseBigrams()
	if err != nil {
		panic(err) // the embedded dictionaries are tested
	}
	return m[c]
}
