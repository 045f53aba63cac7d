package search

// Corrections of Chinese and Japanese words. Their usual typo is an
// input method's: a character of the same sound picked for another (資料褲
// for 資料庫, both kù; 憑正 for 憑證; 決裁 for 決済, both さい), or a
// Japanese word left in kana (けっさい for 決済). A CJK word none of
// whose language indexes has every bigram of is respelled: one
// character at a time replaced by each character of the same reading
// (package analysis's table; Mandarin's for a Chinese reader, Japanese
// for a Japanese one, both for others), a word of hiragana spelled in
// kanji whose readings make it up, kanji by kanji along the bigrams the
// index has. The respelling of the most documents is searched besides
// the word, like an English correction (expand.go), and suggested.

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"unicode/utf8"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/query"
)

// maxRespellings bounds the work of respelling a query's CJK words: the
// candidate words checked (each a few term lookups in each CJK index)
// and the kanji whose following characters are looked up, together.
// A long query of wrong characters stops there.
const maxRespellings = 256

// minKanaRunes is the shortest word of kana spelled in kanji: shorter
// ones read as too many words.
const minKanaRunes = 3

// respellable reports whether clause c is a word of two or more CJK
// characters, typed as is.
func respellable(c query.Clause) bool {
	if c.Kind != query.Text || c.Neg || !c.Bare || utf8.RuneCountInString(c.Value) < 2 {
		return false
	}
	for _, r := range c.Value {
		if !analysis.IsCJKRune(r) {
			return false
		}
	}
	return true
}

// respeller looks respellings up in the language indexes that make CJK
// bigrams, within maxRespellings for a query.
type respeller struct {
	ctx    context.Context
	ix     *engine
	langs  []cjkIndex
	reader string // the reader's language
	sounds analysis.Sounds
	tried  int
	// follows keeps, for a kanji, the characters after it in the
	// Japanese indexes' bigrams.
	follows map[rune][]rune
}

// cjkIndex is a language index whose analyzer makes bigrams.
type cjkIndex struct {
	lang string
	kind analysis.Kind
	b    *langBuilder
	r    index.IndexReader
}

// newRespeller opens the CJK language indexes for a reader of lang; it
// has none when the site has no CJK language.
func (ix *engine) newRespeller(ctx context.Context, reader string) (*respeller, error) {
	rs := &respeller{ctx: ctx, ix: ix, reader: reader, sounds: analysis.SoundsOf(reader), follows: map[rune][]rune{}}
	for _, lang := range sortedKeys(ix.subs) {
		kind := analysis.KindOf(lang)
		if !kind.Bigrams() {
			continue
		}
		idx := ix.subs[lang]
		b, err := newLangBuilder(lang, idx.Mapping())
		if err != nil {
			return nil, errors.Join(err, rs.close())
		}
		r, err := openReader(idx)
		if err != nil {
			return nil, errors.Join(err, rs.close())
		}
		rs.langs = append(rs.langs, cjkIndex{lang, kind, b, r})
	}
	return rs, nil
}

func (rs *respeller) close() error {
	var errs []error
	for _, l := range rs.langs {
		errs = append(errs, l.r.Close())
	}
	return errors.Join(errs...)
}

// respell returns the respelling of word of the most documents, "" if
// word has documents or no respelling has any.
func (rs *respeller) respell(word string) (string, error) {
	if len(rs.langs) == 0 {
		return "", nil // no index has CJK words to respell into
	}
	if n, err := rs.docs(word, rs.langs); err != nil || n.all > 0 {
		return "", err
	}
	if analysis.IsHiragana(word) {
		if utf8.RuneCountInString(word) < minKanaRunes {
			return "", nil
		}
		return rs.kanji(word)
	}
	return rs.sameSound([]rune(word))
}

// candidate is a respelling with its number of documents.
type candidate struct {
	word   string
	docs   docCounts
	script bool // its new character is of the script of the word typed
	native bool // and of the reader's language's characters
}

// better reports whether c is to be preferred to best: more documents
// in the reader's language, then in all (a pair of characters that
// straddles two words of another language, 复正 of 恢复正常, is no
// Japanese reader's word), then a character of the script typed (庫 for 褲 in Traditional, 库
// for 裤 in Simplified: the two fold alike), then one of the reader's
// language (證 for a Chinese reader, not Japanese's 証, which folds
// alike too), then the first found.
func (c candidate) better(best candidate) bool {
	switch {
	case c.docs.reader != best.docs.reader:
		return c.docs.reader > best.docs.reader
	case c.docs.all != best.docs.all:
		return c.docs.all > best.docs.all
	case c.docs.all == 0:
		return false
	case c.script != best.script:
		return c.script
	}
	return c.native && !best.native
}

// sameSound returns the best respelling of word with one character
// replaced by one of the same sound, those beside a pair of characters
// no index has tried first.
func (rs *respeller) sameSound(word []rune) (string, error) {
	positions, err := rs.suspects(word)
	if err != nil {
		return "", err
	}
	traditional := isTraditional(string(word))
	var best candidate
	for _, i := range positions {
		for _, c := range analysis.SameSound(word[i], rs.sounds) {
			if rs.tried >= maxRespellings {
				return best.word, nil
			}
			rs.tried++
			respelled := slices.Clone(word)
			respelled[i] = c
			n, err := rs.docs(string(respelled), rs.langs)
			if err != nil {
				return "", err
			}
			cand := candidate{string(respelled), n, isTraditional(string(c)) == traditional, rs.native(c)}
			if cand.better(best) {
				best = cand
			}
		}
	}
	return best.word, nil
}

// native reports whether c is a character of the reader's language:
// for a Chinese reader, one Japanese does not write (no kanji of the
// readings table).
func (rs *respeller) native(c rune) bool {
	return rs.sounds != analysis.Mandarin || len(analysis.KanjiReadings(c)) == 0
}

// isTraditional reports whether s has a character the fold into
// Simplified changes.
func isTraditional(s string) bool { return analysis.FoldChineseString(s) != s }

// suspects returns the positions of the characters of word that are in
// a pair of adjacent characters no index has, those in two such pairs
// first; none if every pair is somewhere (the word's characters are
// then each where they belong).
func (rs *respeller) suspects(word []rune) ([]int, error) {
	weight := make([]int, len(word))
	for j := 0; j+1 < len(word); j++ {
		n, err := rs.docs(string(word[j:j+2]), rs.langs)
		if err != nil {
			return nil, err
		}
		if n.all == 0 {
			weight[j]++
			weight[j+1]++
		}
	}
	var out []int
	for i, w := range weight {
		if w > 0 {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(weight[b], weight[a]) })
	return out, nil
}

// kanji returns the kanji spelling of the most documents of a word of
// hiragana: runs of it read as kanji (analysis.KanjiFor), the longest
// first, each kanji after the first one that follows the one before in
// a bigram of a Japanese index.
func (rs *respeller) kanji(word string) (string, error) {
	var japanese []cjkIndex
	for _, l := range rs.langs {
		if l.kind == analysis.CJK {
			japanese = append(japanese, l)
		}
	}
	var best candidate
	var spell func(rest string, spelled []rune) error
	spell = func(rest string, spelled []rune) error {
		if rest == "" {
			if len(spelled) < 2 || rs.tried >= maxRespellings {
				return nil
			}
			rs.tried++
			n, err := rs.docs(string(spelled), japanese)
			if cand := (candidate{word: string(spelled), docs: n}); cand.better(best) {
				best = cand
			}
			return err
		}
		spans := analysis.KanjiFor(rest, len(spelled) == 0)
		slices.Reverse(spans) // the longest reading first
		for _, span := range spans {
			next := span.Kanji
			if len(spelled) > 0 {
				after, err := rs.after(spelled[len(spelled)-1], japanese)
				if err != nil {
					return err
				}
				next = intersect(next, after)
			}
			for _, c := range next {
				if rs.tried >= maxRespellings {
					return nil
				}
				if err := spell(rest[span.Bytes:], append(spelled, c)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := spell(word, nil)
	return best.word, err
}

// after returns the characters that follow c in a bigram of the
// indexes, in code point order: one walk of each field's dictionary
// from c, counted as one try.
func (rs *respeller) after(c rune, langs []cjkIndex) ([]rune, error) {
	if out, ok := rs.follows[c]; ok {
		return out, nil
	}
	rs.tried++
	var out []rune
	for _, l := range langs {
		for _, f := range defaultFields {
			d, err := l.r.FieldDictPrefix(f.field, []byte(string(c)))
			if err != nil {
				return nil, err
			}
			err = eachTerm(d, func(e *index.DictEntry) error {
				if t := []rune(e.Term); len(t) == 2 {
					out = append(out, t[1])
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	rs.follows[c] = out
	return out, nil
}

// intersect returns the runes of sorted a that sorted b has.
func intersect(a, b []rune) []rune {
	var out []rune
	for _, r := range a {
		if _, ok := slices.BinarySearch(b, r); ok {
			out = append(out, r)
		}
	}
	return out
}

// docCounts are the documents of a word: in the reader's language, and
// in all.
type docCounts struct{ reader, all int }

// docs estimates the documents of langs that have word: in each
// language, the fewest of any of its terms (a term's documents are those
// of its field that has it most), 0 if a term is in no field; added up.
func (rs *respeller) docs(word string, langs []cjkIndex) (docCounts, error) {
	var total docCounts
	for _, l := range langs {
		toks := l.b.text.Analyze([]byte(word))
		least := -1
		for _, t := range toks {
			n, err := rs.count(l, string(t.Term))
			if err != nil {
				return total, err
			}
			if least < 0 || n < least {
				least = n
			}
			if n == 0 {
				break
			}
		}
		total.all += max(least, 0)
		if l.lang == rs.reader {
			total.reader += max(least, 0)
		}
	}
	return total, nil
}

// count returns the documents of term in the field of l that has it
// most.
func (rs *respeller) count(l cjkIndex, term string) (int, error) {
	var most uint64
	for _, f := range defaultFields {
		var n uint64
		var err error
		if rs.ix.readOnly && !rs.ix.opts.allFields {
			n, err = rs.ix.present.count(l.r, l.lang, f.field, term)
		} else {
			n, err = termCount(rs.ctx, l.r, []byte(term), f.field)
		}
		if err != nil {
			return 0, err
		}
		most = max(most, n)
	}
	return int(most), nil
}
