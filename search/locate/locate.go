// Package locate finds the words and phrases of a query in the text of a
// document exactly where the language's analyzer would: for the check of
// phrases in package search (its index keeps no positions) and for
// highlighting (Fragments).
//
// Both must agree with bleve exactly, so every match is confirmed by the language's own analyzer; the analyzer is slow (25 MB/s,
// a body takes 100–400 µs), so it only runs over small windows of the text
// around the places where a fast byte search finds a term's surface form.
//
// Windows start and end at safe boundaries: white space, or CJK
// punctuation that never joins two characters into one token. Segmentation
// (UAX #29) does not look across them, and CJK bigrams do not form across
// them, so the tokens of a window are exactly the tokens the whole text
// has there, with positions shifted by a constant: phrases, which compare
// positions, match the same.
//
// The byte search looks for an anchor of a phrase's first term:
//
//   - a CJK term (ideographs, kana): the term itself;
//   - an English term (stemmed by Porter's algorithm): the stem without its
//     last two letters, or its last one for stems of four letters or fewer,
//     at the start of a word of the text lowered to ASCII lower case. Porter's
//     steps only ever rewrite the end of a word, and never more of it than
//     that (the longest rewrite, "biliti" → "ble", changes two letters and
//     needs a stem of five), so every word whose stem is the term starts
//     with the anchor (TestStemAnchors checks it over a large vocabulary);
//   - any other term of ASCII letters and digits: the term, at the start of
//     a word.
//
// A term without such an anchor (other scripts), and a document whose text
// has characters that the analyzer folds into the anchor's characters
// (full-width letters in CJK text, half-width katakana: see textFlags), are
// analysed in full. Chinese text is searched folded (Traditional into
// Simplified, as its analyzer does), which keeps every byte offset. A phrase that is a single run of CJK characters is
// simpler still: its bigrams are adjacent exactly where the run occurs in
// the text, so its occurrences are found by byte search alone.

package locate

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	bleveanalysis "github.com/blevesearch/bleve/v2/analysis"

	"github.com/postmortem-archive/gen/search/analysis"
)

// Pattern is one word or phrase of a query as analysed for one language.
type Pattern struct {
	// terms lists the terms at each position from the first; an empty
	// position (a removed stop word) matches any term.
	Terms [][]string
	// run, when set, is the text of a pattern made of the bigrams of a
	// single run of CJK characters: the pattern occurs exactly where run
	// does.
	Run string
	// anchors are the anchors of the first position's terms; nil when
	// one of them has none (the text is then analysed in full).
	anchors []anchor
	// alnum: every anchor is ASCII letters and digits.
	alnum bool
	// anchorKey names the anchors, for Field.hits.
	anchorKey string
}

type anchor struct {
	s     string
	ascii bool // search the ASCII-lowered text, at word starts
}

// joinsKatakana reports whether r (ExtendNumLet in UAX #29) can join
// katakana and letters into one token.
func joinsKatakana(r rune) bool {
	switch r {
	case '_', 0x203F, 0x2040, 0x2054, 0xFE33, 0xFE34, 0xFE4D, 0xFE4E, 0xFE4F, 0xFF3F:
		return true
	}
	return false
}

// isKatakanaWB reports whether r is Katakana in UAX #29: runs of them are
// one token.
func isKatakanaWB(r rune) bool {
	switch r {
	case 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309B, 0x309C, 0x30A0, 0x30FC, 0xFF70:
		return true
	}
	return unicode.Is(unicode.Katakana, r)
}

// joined reports whether the run of katakana around s[at:end] (if any)
// is joined to letters by an ExtendNumLet character, which makes the
// tokenizer see it differently.
func joined(s string, at, end int) bool {
	for at > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:at])
		if joinsKatakana(r) {
			return true
		}
		if !isKatakanaWB(r) {
			break
		}
		at -= size
	}
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if joinsKatakana(r) {
			return true
		}
		if !isKatakanaWB(r) {
			break
		}
		end += size
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isAlnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// NewPattern makes the pattern of analysed query tokens (at least one).
func NewPattern(toks bleveanalysis.TokenStream, kind analysis.Kind) *Pattern {
	p := &Pattern{Terms: toPhrase(toks)}
	// A single CJK run: consecutive bigrams, each starting one character
	// after the previous one.
	if kind.Bigrams() {
		var run strings.Builder
		ok := true
		for i, t := range toks {
			if t.Type != bleveanalysis.Double || utf8.RuneCount(t.Term) != 2 {
				ok = false
				break
			}
			if i == 0 {
				run.Write(t.Term)
				continue
			}
			prev := toks[i-1]
			_, first := utf8.DecodeRune(prev.Term)
			if t.Position != prev.Position+1 || t.Start != prev.Start+first {
				ok = false
				break
			}
			_, size := utf8.DecodeLastRune(t.Term)
			run.Write(t.Term[len(t.Term)-size:])
		}
		if ok {
			for _, r := range run.String() {
				if !analysis.IsCJKRune(r) {
					ok = false
				}
			}
		}
		if ok {
			p.Run = run.String()
		}
	}
	p.alnum = true
	for _, term := range p.Terms[0] {
		a, ok := anchorOf(term, kind)
		if !ok {
			p.anchors = nil
			break
		}
		p.anchors = append(p.anchors, a)
		for i := 0; i < len(a.s); i++ {
			p.alnum = p.alnum && isAlnumByte(a.s[i])
		}
		p.anchorKey += a.s + "\x00"
		if a.ascii {
			p.anchorKey += "a"
		}
	}
	return p
}

// anchorOf returns the anchor of a term (see the top of the file).
func anchorOf(term string, kind analysis.Kind) (anchor, bool) {
	if term == "" {
		return anchor{}, false
	}
	r, _ := utf8.DecodeRuneInString(term)
	if analysis.IsCJKRune(r) {
		for _, r := range term {
			if !analysis.IsCJKRune(r) {
				return anchor{}, false
			}
		}
		return anchor{s: term}, true
	}
	if !isASCII(term) {
		return anchor{}, false
	}
	if kind == analysis.English {
		switch n := len(term); {
		case n > 4:
			term = term[:n-2]
		case n > 1:
			term = term[:n-1]
		}
	}
	return anchor{s: term, ascii: true}, true
}

// Field is the text of one field of one document.
type Field struct {
	Text  string
	Flags uint8
	// Folded is Text as analysis.FoldChineseString folds it, if Flags has
	// analysis.FoldHan and the caller keeps it; "": Find folds Text.
	Folded string
	// width is the searched text folded to ASCII (widthHits), made by
	// the first Find that needs it: a field is searched for every
	// pattern of a query.
	width *widthFold
	// wideAlnum says whether Text has a character folded to an ASCII
	// letter or digit (foldsToAlnum); 0: not known yet.
	wideAlnum int8
	// hits are the places of the anchors last searched for (hitsKey,
	// Pattern.anchorKey; hitsWidth, by widthHits): the names a prefix
	// begins (europe-west1, europe-west2… of europe-w), searched one
	// after the other, share their first word, and each was searched for
	// in the whole text.
	hitsKey   string
	hitsWidth bool
	hits      []int
}

// widthFold is a text with the characters the analyzer turns into ASCII
// folded (full-width forms U+FF01–U+FF5E, U+0130, U+212A): shorter than
// the text, so shifts maps its offsets back.
type widthFold struct {
	s string
	// shifts[k] says that from offset at of s on, the text is by bytes
	// further on.
	shifts []widthShift
}

type widthShift struct{ at, by int }

func newWidthFold(text string) *widthFold {
	var folded []byte
	var shifts []widthShift
	done := 0 // text[:done] is in folded
	for i := 0; i < len(text); i++ {
		// The lead bytes of the characters folded: the rest of a text,
		// Chinese most of it, is copied a run at a time.
		if c := text[i]; c != 0xEF && c != 0xC4 && c != 0xE2 {
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		var c byte
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			c = byte(r - 0xFF01 + '!')
		case r == 0x130:
			c = 'i'
		case r == 0x212A:
			c = 'k'
		default:
			continue
		}
		if folded == nil {
			folded = make([]byte, 0, len(text))
		}
		folded = append(append(folded, text[done:i]...), c)
		done = i + size
		shifts = append(shifts, widthShift{len(folded), done - len(folded)})
		i = done - 1
	}
	if folded == nil {
		return &widthFold{s: text}
	}
	return &widthFold{string(append(folded, text[done:]...)), shifts}
}

// foldsToAlnum reports whether text has a character that newWidthFold
// folds to an ASCII letter or digit.
func foldsToAlnum(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != 0xEF && c != 0xC4 && c != 0xE2 {
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= 0xFF01 && r <= 0xFF5E && isAlnumByte(byte(r-0xFF01+'!')) || r == 0x130 || r == 0x212A {
			return true
		}
		i += size - 1
	}
	return false
}

// offset returns the offset in the text of offset i of the fold.
func (w *widthFold) offset(i int) int {
	// The last shift at or before i.
	j := sort.Search(len(w.shifts), func(j int) bool { return w.shifts[j].at > i }) - 1
	if j < 0 {
		return i
	}
	return i + w.shifts[j].by
}

// lowerASCII folds an ASCII upper-case letter to lower case.
func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// indexFold returns the first index of a (lower-case ASCII) in s compared
// case-insensitively for ASCII letters, or -1. It jumps from one
// occurrence of a's rarest letter to the next: of "eur" (europe-west2)
// the u, not the e, which is every eighth letter of English and made a
// step of the search every few bytes of a report.
func indexFold(s, a string) int {
	n := len(a)
	if n == 0 {
		return 0
	}
	r := rarest(a)
	c, up := a[r], a[r]
	if c >= 'a' && c <= 'z' {
		up = c - ('a' - 'A')
	}
	end := len(s) - n + r + 1 // the rare byte is before it
	for i := r; i < end; i++ {
		// Jump to the next occurrence of either case of the rare byte.
		rest := s[i:end]
		j := strings.IndexByte(rest, c)
		if up != c {
			if j >= 0 {
				rest = rest[:j]
			}
			if k := strings.IndexByte(rest, up); k >= 0 {
				j = k
			}
		}
		if j < 0 {
			return -1
		}
		i += j
		at, k := i-r, 0
		for k < n && lowerASCII(s[at+k]) == a[k] {
			k++
		}
		if k == n {
			return at
		}
	}
	return -1
}

// byFrequency are the letters of English from the most frequent.
const byFrequency = "etaoinsrhldcumfpgwybvkxjqz"

// rarest returns the index of the rarest byte of a (lower-case ASCII):
// a letter by byFrequency; a digit as a common letter (dates and times);
// anything else as rarer than any letter.
func rarest(a string) int {
	rank := func(c byte) int {
		switch {
		case c >= '0' && c <= '9':
			return 10
		case c >= 'a' && c <= 'z':
			return strings.IndexByte(byFrequency, c)
		}
		return len(byFrequency)
	}
	best := 0
	for i := 1; i < len(a); i++ {
		if rank(a[i]) > rank(a[best]) {
			best = i
		}
	}
	return best
}

// Span is a match: bytes [start, end) of a field.
type Span struct{ Start, End int }

// Locator finds patterns in texts with one language's analyzer. It is
// used by one goroutine at a time: it keeps its buffers from window to
// window, and the tokens of short windows (a query checks and highlights
// hundreds of windows, most of them one word, and the same words again
// and again).
type Locator struct {
	Analyzer bleveanalysis.Analyzer
	Kind     analysis.Kind

	text  []byte  // the window analysed last
	toks  []token // its tokens
	short map[string][]token
}

// Short windows' tokens are kept (offsets from the window's start), up to
// maxShortWindows of at most maxShortWindow bytes.
const (
	maxShortWindow  = 48
	maxShortWindows = 4096
)

// token is an analysed token of a window: term, position (relative to the
// window) and offsets in the field. term is the analyzer's, valid until
// the next window is analysed.
type token struct {
	term       []byte
	pos        int
	Start, End int
}

// analyse analyses s[a:b] (a copy: bleve's filters lower case in place).
// The tokens are valid until the next call.
func (l *Locator) analyse(s string, a, b int) []token {
	w := s[a:b]
	out := l.toks[:0]
	if kept, ok := l.short[w]; ok {
		for _, t := range kept {
			t.Start += a
			t.End += a
			out = append(out, t)
		}
		l.toks = out
		return out
	}
	l.text = append(l.text[:0], w...)
	for _, t := range l.Analyzer.Analyze(l.text) {
		out = append(out, token{term: t.Term, pos: t.Position, Start: t.Start, End: t.End})
	}
	if len(w) <= maxShortWindow {
		l.keep(w, out)
	}
	for i := range out {
		out[i].Start += a
		out[i].End += a
	}
	l.toks = out
	return out
}

// keep keeps a copy of the tokens of the short window w.
func (l *Locator) keep(w string, toks []token) {
	if l.short == nil || len(l.short) >= maxShortWindows {
		l.short = map[string][]token{}
	}
	n := 0
	for _, t := range toks {
		n += len(t.term)
	}
	terms := make([]byte, 0, n)
	c := make([]token, len(toks))
	for i, t := range toks {
		terms = append(terms, t.term...)
		c[i] = t
		c[i].term = terms[len(terms)-len(t.term):]
	}
	l.short[w] = c
}

// safeRune reports whether no token and no CJK bigram spans r, so that a
// window may start after it or end before it.
func safeRune(r rune) bool {
	switch r {
	case '、', '。', '「', '」', '『', '』', '【', '】', '《', '》', '〈', '〉', '（', '）', '！', '？':
		return true
	}
	return unicode.IsSpace(r)
}

// windowStart returns the last safe start of a window at or before i.
func windowStart(s string, i int) int {
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if safeRune(r) {
			return i
		}
		i -= size
	}
	return 0
}

// windowEnd returns the first safe end of a window at or after i.
func windowEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if safeRune(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// usable reports whether p's anchors can be trusted in f.
func (l *Locator) usable(p *Pattern, f *Field) bool {
	if p.anchors == nil {
		return false
	}
	for _, a := range p.anchors {
		if a.ascii && f.Flags&analysis.FoldASCII != 0 || !a.ascii && f.Flags&analysis.FoldKana != 0 {
			return false
		}
	}
	return true
}

// widthUsable reports whether p's anchors can be searched in f folded
// to ASCII (widthHits): f has characters the analyzer turns into ASCII
// (FoldASCII), and no half-width katakana under a CJK anchor. Chinese
// text listing names ("us-east-1，us-west-2") has full-width commas
// between words, and analysing a whole report for each candidate of a
// phrase was most of the cost of searching a name.
func widthUsable(p *Pattern, f *Field) bool {
	if p.anchors == nil {
		return false
	}
	for _, a := range p.anchors {
		if !a.ascii && f.Flags&analysis.FoldKana != 0 {
			return false
		}
	}
	return true
}

// widthHits is hits in the searched text of f (search) folded to ASCII
// first, as offsets in the text: a word written partly in full-width
// forms is found where its token starts. It finds every place hits finds
// in the analyzer's view of the text, and maybe more; Find's windows are
// analysed as before, so what matches is the same.
func widthHits(p *Pattern, f *Field, search string) []int {
	if f.wideAlnum == 0 {
		f.wideAlnum = 1
		if foldsToAlnum(f.Text) {
			f.wideAlnum = 2
		}
	}
	if p.alnum && f.wideAlnum == 1 {
		// Only punctuation folds (a Chinese report's full-width
		// commas): no anchor has it, and before an anchor it is no
		// letter or digit either way, so the text as it is has the
		// same places, without a folded copy of it for every search.
		return hits(p, search)
	}
	if f.width == nil {
		f.width = newWidthFold(search)
	}
	hs := hits(p, f.width.s)
	for k, h := range hs {
		hs[k] = f.width.offset(h)
	}
	return hs
}

// anchorHits returns hits of p in search, the searched text of f (or
// widthHits), found once for the patterns of the same anchors searched
// one after the other.
func (f *Field) anchorHits(p *Pattern, width bool, search string) []int {
	if p.anchorKey == f.hitsKey && width == f.hitsWidth { // "": none yet
		return f.hits
	}
	var hs []int
	if width {
		hs = widthHits(p, f, search)
	} else {
		hs = hits(p, search)
	}
	f.hitsKey, f.hitsWidth, f.hits = p.anchorKey, width, hs
	return hs
}

// hits returns the offsets in s (a field's searched text) where one of
// p's anchors occurs.
func hits(p *Pattern, s string) []int {
	var out []int
	for _, a := range p.anchors {
		index := strings.Index
		if a.ascii {
			index = indexFold
		}
		wordStart := a.ascii && isAlnumByte(a.s[0])
		for i := 0; ; {
			j := index(s[i:], a.s)
			if j < 0 {
				break
			}
			at := i + j
			if !wordStart || at == 0 || !isAlnumByte(s[at-1]) {
				out = append(out, at)
			}
			i = at + 1
		}
	}
	if len(p.anchors) > 1 {
		sortInts(out)
	}
	return out
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Find returns the occurrences of p in f, in order; with first, at most
// one.
func (l *Locator) Find(p *Pattern, f *Field, first bool) []Span {
	if f.Text == "" {
		return nil
	}
	// The text the byte search looks in: folded like the analyzer folds
	// Chinese, with the same byte offsets.
	search := f.Text
	if f.Flags&analysis.FoldHan != 0 {
		search = f.Folded
		if search == "" {
			search = analysis.FoldChineseString(f.Text)
		}
	}
	if p.Run != "" && f.Flags&analysis.FoldKana == 0 {
		var out []Span
		for i := 0; ; {
			j := strings.Index(search[i:], p.Run)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(p.Run)
			if joined(f.Text, at, end) {
				// Rare enough to settle by analysing the whole text.
				return matchTokens(p, l.analyse(f.Text, 0, len(f.Text)), first, nil)
			}
			out = append(out, Span{at, end})
			if first {
				break
			}
			_, size := utf8.DecodeRuneInString(f.Text[at:])
			i = at + size
		}
		return out
	}
	var hs []int
	switch {
	case l.usable(p, f):
		hs = f.anchorHits(p, false, search)
	case widthUsable(p, f):
		hs = f.anchorHits(p, true, search)
	default:
		return matchTokens(p, l.analyse(f.Text, 0, len(f.Text)), first, nil)
	}
	var out []Span
	for k := 0; k < len(hs); {
		// A window around this hit and every later hit it reaches.
		a := windowStart(f.Text, hs[k])
		b := windowEnd(f.Text, hs[k]+1)
		k++
		widened := false
		for k < len(hs) && hs[k] < b {
			b = windowEnd(f.Text, hs[k]+1)
			k++
		}
		for {
			toks := l.analyse(f.Text, a, b)
			var short bool
			ms := matchTokens(p, toks, first, &short)
			if short && b < len(f.Text) {
				// A phrase may continue after the window: widen it, first
				// by as many words as the phrase has (a short window, kept
				// by analyse, as the first: the same words recur), then
				// by more.
				if !widened && p.anchors[0].ascii {
					for i := 1; i < len(p.Terms) && b < len(f.Text); i++ {
						b = windowEnd(f.Text, b+1)
					}
					widened = true
				} else {
					b = windowEnd(f.Text, min(len(f.Text), b+64+(b-a)))
				}
				for k < len(hs) && hs[k] < b {
					k++
				}
				continue
			}
			out = append(out, ms...)
			break
		}
		if first && len(out) > 0 {
			return out[:1]
		}
	}
	return out
}

func hasTerm(terms []string, t []byte) bool {
	for _, x := range terms {
		if x == string(t) {
			return true
		}
	}
	return false
}

// matchTokens returns the occurrences of p in toks (a window's tokens, in
// position order). short, when not nil, is set when a phrase's first term
// occurs too near the end of the tokens for the rest to fit.
func matchTokens(p *Pattern, toks []token, first bool, short *bool) []Span {
	var out []Span
	n := len(p.Terms)
	last := 0
	if len(toks) > 0 {
		last = toks[len(toks)-1].pos
	}
	for i, t := range toks {
		if !hasTerm(p.Terms[0], t.term) {
			continue
		}
		if n == 1 {
			out = append(out, Span{t.Start, t.End})
		} else if t.pos+n-1 > last {
			if short != nil {
				*short = true
			}
			continue
		} else {
			end, ok := t.End, true
			for k := 1; k < n && ok; k++ {
				if len(p.Terms[k]) == 0 {
					continue
				}
				ok = false
				// The tokens at position t.pos+k follow t's.
				for j := i + 1; j < len(toks) && toks[j].pos <= t.pos+k; j++ {
					if toks[j].pos == t.pos+k && hasTerm(p.Terms[k], toks[j].term) {
						ok = true
						end = max(end, toks[j].End)
						break
					}
				}
			}
			if !ok {
				continue
			}
			out = append(out, Span{toks[i].Start, end})
		}
		if first {
			break
		}
	}
	return out
}

// toPhrase lays tokens out by position; a position with no token (a
// removed stop word) stays empty and matches any term.
func toPhrase(toks bleveanalysis.TokenStream) [][]string {
	first, last := toks[0].Position, toks[0].Position
	for _, t := range toks {
		first = min(first, t.Position)
		last = max(last, t.Position)
	}
	out := make([][]string, last-first+1)
	for _, t := range toks {
		out[t.Position-first] = append(out[t.Position-first], string(t.Term))
	}
	return out
}
