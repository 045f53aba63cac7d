// Package analysis says how each language's text is analysed for the
// search index, and does the analysis fast when indexing.
//
// Every language index has exactly one text analyzer (For): English with
// stemming and stop words; Japanese and Korean with the CJK analyzer
// (bigrams and width folding); Chinese with the same after folding
// Traditional into Simplified (chinese.go); anything else the standard
// one.
// Fast re-implements what bleve's analysis computes for a field without
// term vectors (token count and frequencies) one token at a time, cutting
// the plain cases of words without the segmenter (segments.go); it is
// checked against bleve's own analysis (TestFastAnalysis, and
// TestSegmentsAsSegmenter for the words). Sketch records the pairs of adjacent words of a text, for the
// phrase checks of package search. Text flags (TextFlags) say when a
// fast byte search for a term's surface form could miss an occurrence.
//
// Every program that opens an index must link the CJK and Chinese
// analyzers; importing this package does that.
package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk" // every program opening an index needs it registered
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"golang.org/x/text/language"
)

// For returns the name of the bleve analyzer of a language's text.
func For(lang string) string {
	t, err := language.Parse(lang)
	if err != nil {
		return standard.Name
	}
	base, _ := t.Base()
	switch base.String() {
	case "en":
		return en.AnalyzerName
	case "zh", "yue":
		return ChineseAnalyzer
	case "ja", "ko":
		return cjk.AnalyzerName
	}
	return standard.Name
}

// Kind is what finding terms in text needs to know about an analyzer.
type Kind uint8

const (
	Standard Kind = iota // lower case only
	English              // lower case, stop words, Porter stemmer
	CJK                  // width folding, lower case, bigrams
	Chinese              // CJK after folding Traditional into Simplified
)

// Bigrams reports whether the analyzer makes CJK bigrams.
func (k Kind) Bigrams() bool { return k == CJK || k == Chinese }

// KindOf returns the kind of the analyzer of a language.
func KindOf(lang string) Kind {
	switch For(lang) {
	case en.AnalyzerName:
		return English
	case cjk.AnalyzerName:
		return CJK
	case ChineseAnalyzer:
		return Chinese
	}
	return Standard
}

// CleanText makes text safe to index, store and highlight: invalid UTF-8
// and U+FFFD become spaces. The document store keeps the cleaned text, so
// offsets found in it are offsets in what bleve indexed.
func CleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	if strings.ContainsRune(s, utf8.RuneError) {
		s = strings.ReplaceAll(s, string(utf8.RuneError), " ")
	}
	return s
}

// IsCJKRune reports whether r is an ideograph or kana, a token of its own
// for the tokenizer (or part of a run of katakana).
func IsCJKRune(r rune) bool {
	switch r {
	case 0x3005, 0x3006, 0x3007, 0x309B, 0x309C, 0x30FB, 0x30FC:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// IsLatinTerm reports whether a term is not made of CJK characters: the
// words that sketches record.
func IsLatinTerm(t []byte) bool {
	for _, r := range string(t) {
		return !IsCJKRune(r)
	}
	return false
}
