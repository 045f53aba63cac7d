package analysis

// Faster analysis for indexing. A field without term vectors needs from
// its analysis only the number of tokens and their frequencies. bleve
// computes them by building the whole token stream (a Token per word, and
// per character and bigram in CJK text), then a map of TokenFreq: most of
// the cost of indexing, and most of its garbage. Fast walks the
// same segmenter and applies the analyzer's own filters to one token at a
// time, counting as it goes; only the CJK bigram filter, which works on
// the whole stream, is written again here (bigram below). The result is
// the same (TestFastAnalysis compares them over a large corpus).

import (
	"math/bits"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/segment"
)

// MaxWordBytes bounds the words Fast.Analyze collects: longer tokens are
// hashes, URLs and the like, which nobody types a prefix of.
const MaxWordBytes = 40

// Fast is the analysis of one bleve analyzer, for fields without term
// vectors.
type Fast struct {
	filters []analysis.TokenFilter // applied to each token, in order
	width   int                    // index in filters of the CJK width filter, or -1
	lower   int                    // index in filters of the lower-case filter, or -1
	stem    int                    // index in filters of the Porter stemmer, or -1
	bigram  bool                   // then the CJK bigram filter
	fold    bool                   // first fold Chinese (FoldChinese)

	// stems holds maps of words to their stems (one per goroutine, as a
	// pool keeps them): an archive says the same words again and again,
	// and looking a stem up costs a tenth of stemming the word again.
	stems sync.Pool
}

// maxStems bounds a map of stems.
const maxStems = 1 << 16

// stemmed returns the stem of term, from stems or from the stemmer.
func (fa *Fast) stemmed(stems map[string][]byte, s analysis.TokenStream) analysis.TokenStream {
	if st, ok := stems[string(s[0].Term)]; ok {
		s[0].Term = st // never changed in place: the analysis copies terms it keeps
		return s
	}
	word := string(s[0].Term)
	s = fa.filters[fa.stem].Filter(s)
	if len(s) == 1 && len(stems) < maxStems {
		stems[word] = s[0].Term
	}
	return s
}

// NewFast returns the fast analysis of a, or nil if a is not made of
// parts it knows (then bleve analyses).
func NewFast(a analysis.Analyzer) *Fast {
	da, ok := a.(*analysis.DefaultAnalyzer)
	if !ok {
		return nil
	}
	if _, ok := da.Tokenizer.(*unicode.UnicodeTokenizer); !ok {
		return nil
	}
	fa := &Fast{width: -1, lower: -1, stem: -1}
	fa.stems.New = func() any { return map[string][]byte{} }
	for _, f := range da.CharFilters {
		if _, ok := f.(foldFilter); !ok || fa.fold {
			return nil
		}
		fa.fold = true
	}
	for i, f := range da.TokenFilters {
		switch f.(type) {
		case *cjk.CJKBigramFilter:
			if i != len(da.TokenFilters)-1 {
				return nil
			}
			fa.bigram = true
			continue
		case *cjk.CJKWidthFilter:
			fa.width = len(fa.filters)
		case *lowercase.LowerCaseFilter:
			fa.lower = len(fa.filters)
		case *porter.PorterStemmer:
			fa.stem = len(fa.filters)
		}
		fa.filters = append(fa.filters, f)
	}
	return fa
}

// lowerASCII lowers b in place and reports true if b is ASCII, as the
// lower-case filter would (which decodes every character and asks
// unicode of it); else it leaves b to the filter.
func lowerASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return true
}

// hasFullWidth reports whether b has a character U+FF00–U+FFBF, the only
// ones the CJK width filter changes.
func hasFullWidth(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0xEF && (b[i+1] == 0xBC || b[i+1] == 0xBD || b[i+1] == 0xBE) {
			return true
		}
	}
	return false
}

// Terms is the memory of the terms of one document's fields, which their
// analyses share: the fields' frequencies last as long as the document,
// and most fields are a few words long, so that one allocation sized for
// the document's text serves them all (a field of its own took 4 KB for
// a title).
type Terms struct {
	slab  []index.TokenFreq
	arena []byte
	// What NewTerms made, for a TermsPool to hand out again, and the
	// pool's size class (0: not the pool's).
	slab0  []index.TokenFreq
	arena0 []byte
	class  int
}

// Per byte of text, about one distinct term in 13 bytes of English and 5
// of Chinese, whose bigrams hold more bytes than the text.
const (
	bytesPerTerm, bytesPerBigram     = 12, 4
	termBytesRatio, bigramBytesRatio = 0.45, 1.3
)

// NewTerms returns the memory for the terms of a document of n bytes of
// text.
func (fa *Fast) NewTerms(n int) *Terms {
	terms, bytes := fa.termsSize(n)
	t := &Terms{slab0: make([]index.TokenFreq, terms), arena0: make([]byte, 0, bytes)}
	t.slab, t.arena = t.slab0, t.arena0
	return t
}

// termsSize is the number of terms and bytes of terms to make room for in
// a document of n bytes of text.
func (fa *Fast) termsSize(n int) (terms, bytes int) {
	terms, ratio := n/bytesPerTerm, termBytesRatio
	if fa.bigram {
		terms, ratio = n/bytesPerBigram, bigramBytesRatio
	}
	return terms + 1, int(float64(n)*ratio) + 16
}

// TermsPool keeps the Terms of documents nothing refers to any more, to
// hand them out again: a language's index is built in segments of a
// hundred documents or so, after which the terms of the segment's
// documents are garbage, a tenth of all a cold build allocated. Its Terms
// are made for texts of a power of two bytes, so that one serves the
// next document of about the size. The zero value is an empty pool; a nil
// pool makes new Terms each time.
type TermsPool struct {
	mu      sync.Mutex
	free    [32][]*Terms // by size class: made for texts of 1<<class bytes
	dropped bool         // Drop was called: nothing handed back is kept
}

// maxFreeTerms bounds the Terms a pool keeps of each size: a segment's
// worth, and the documents analysed ahead of it.
const maxFreeTerms = 160

// Get returns the memory for the terms of a document of n bytes of text
// analysed by fa, cleared.
func (p *TermsPool) Get(fa *Fast, n int) *Terms {
	if p == nil {
		return fa.NewTerms(n)
	}
	class := bits.Len(uint(max(n-1, 0)))
	p.mu.Lock()
	free := p.free[class]
	if k := len(free); k > 0 {
		t := free[k-1]
		p.free[class] = free[:k-1]
		p.mu.Unlock()
		clear(t.slab0)
		t.slab, t.arena = t.slab0, t.arena0[:0]
		return t
	}
	p.mu.Unlock()
	t := fa.NewTerms(1 << class)
	t.class = class
	return t
}

// Drop lets go of the kept Terms, once no more documents are to come,
// and keeps none handed back after it (Get then makes new ones).
func (p *TermsPool) Drop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free, p.dropped = [len(p.free)][]*Terms{}, true
}

// Dropped reports whether Drop was called.
func (p *TermsPool) Dropped() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}

// Put hands back the Terms of documents whose terms nothing refers to any
// more (bleve has built their segment).
func (p *TermsPool) Put(ts []*Terms) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dropped {
		return
	}
	for _, t := range ts {
		if t != nil && t.class > 0 && len(p.free[t.class]) < maxFreeTerms {
			p.free[t.class] = append(p.free[t.class], t)
		}
	}
}

// Per byte of text, about one distinct word as written (Analyze's words)
// in 14 bytes of English, and in 160 of Chinese, whose characters are not
// words.
const bytesPerWord, bytesPerWordBigram = 14, 160

// NewWords returns the set for the words of a document of n bytes of
// text, sized for them: growing it took a tenth of the analysis.
func (fa *Fast) NewWords(n int) map[string]struct{} {
	if fa.bigram {
		return make(map[string]struct{}, n/bytesPerWordBigram+8)
	}
	return make(map[string]struct{}, n/bytesPerWord+8)
}

// freqCounter builds the TokenFrequencies of one field, and its pairs of
// adjacent words for a sketch.
type freqCounter struct {
	m   index.TokenFrequencies
	mem *Terms
	n   int // tokens

	sk      *SketchBuilder // nil: no pairs wanted
	prev    []byte         // the previous token, if a word
	prevPos int
}

// add counts a token at position pos (the tokenizer's position, which
// stop words removed leave gaps in; 0: the next position, after the CJK
// bigram filter, which numbers the tokens it outputs).
func (c *freqCounter) add(term []byte, pos int) {
	if pos == 0 {
		pos = c.n + 1
	}
	if c.sk != nil {
		if !IsLatinTerm(term) {
			c.prev = nil
		} else {
			if c.prev != nil && pos == c.prevPos+1 {
				c.sk.pair(c.prev, term)
			}
			c.prev, c.prevPos = term, pos
		}
	}
	c.n++
	if tf, ok := c.m[string(term)]; ok {
		tf.SetFrequency(tf.Frequency() + 1)
		return
	}
	mem := c.mem
	if len(mem.slab) == 0 {
		mem.slab = make([]index.TokenFreq, 64)
	}
	tf := &mem.slab[0]
	mem.slab = mem.slab[1:]
	if cap(mem.arena)-len(mem.arena) < len(term) {
		mem.arena = make([]byte, 0, max(4096, len(term)))
	}
	start := len(mem.arena)
	mem.arena = append(mem.arena, term...)
	tf.Term = mem.arena[start:len(mem.arena):len(mem.arena)]
	tf.SetFrequency(1)
	// The key is the term's bytes in mem, not a copy of them (a tenth of
	// the objects an index build allocated): mem's bytes are never
	// changed while the document's frequencies are used, and a TermsPool
	// hands mem out again only once its document's segment is built.
	c.m[unsafe.String(unsafe.SliceData(tf.Term), len(tf.Term))] = tf
}

// bigram is the state of the CJK bigram filter (without unigrams):
// consecutive ideographic characters make bigrams while they are adjacent
// in the text; a character with no neighbour is a unigram.
type bigram struct {
	n         int // characters held, 0–2
	prev, cur struct {
		term       []byte
		start, end int
	}
	buf []byte
}

func (b *bigram) flush(c *freqCounter) {
	if b.n == 1 {
		c.add(b.cur.term, 0)
	}
	b.n = 0
}

func (b *bigram) token(c *freqCounter, t *analysis.Token) {
	if t.Type != analysis.Ideographic {
		b.flush(c)
		c.add(t.Term, 0)
		return
	}
	for sofar := 0; sofar < len(t.Term); {
		r, _ := utf8.DecodeRune(t.Term[sofar:])
		size := utf8.RuneLen(r)
		if size < 0 || sofar+size > len(t.Term) {
			size = len(t.Term) - sofar
		}
		start := t.Start + sofar
		if b.n > 0 && start != b.cur.end {
			b.flush(c)
		}
		b.prev = b.cur
		b.cur.term, b.cur.start, b.cur.end = t.Term[sofar:sofar+size], start, start+size
		sofar += size
		if b.n < 2 {
			b.n++
		}
		if b.n == 2 {
			b.buf = append(append(b.buf[:0], b.prev.term...), b.cur.term...)
			c.add(b.buf, 0)
		}
	}
}

// Analysis is what Fast.Analyze finds in a text.
type Analysis struct {
	Length int                    // tokens
	Freqs  index.TokenFrequencies // what bleve's TextField.Analyze computes
	Folded bool                   // folding Chinese changed the text (FoldHan)
}

// Analyze returns what bleve's TextField.Analyze computes for text
// without term vectors: the number of tokens and their frequencies; it
// adds the pairs of adjacent words to sk if not nil, and the words as
// written (lower-cased, before stop words and stemming; not CJK
// characters; at most MaxWordBytes long) to words if not nil. Its terms
// are kept in mem (nil: memory of their own). It lowers (and folds) text
// in place, as bleve does.
func (fa *Fast) Analyze(text []byte, sk *SketchBuilder, words map[string]struct{}, mem *Terms) Analysis {
	var folded bool
	if fa.fold {
		folded = foldChinese(text)
	}
	if mem == nil {
		mem = fa.NewTerms(len(text))
	}
	hint := len(text) / bytesPerTerm
	if fa.bigram {
		hint = len(text) / bytesPerBigram
	}
	c := &freqCounter{m: make(index.TokenFrequencies, hint+1), mem: mem, sk: sk}
	var stems map[string][]byte
	if fa.stem >= 0 {
		stems = fa.stems.Get().(map[string][]byte)
		defer fa.stems.Put(stems)
	}
	var bg bigram
	var tok analysis.Token
	stream := make(analysis.TokenStream, 1)
	seg := segments{text: text}
	pos := 1
	for seg.scan() {
		b := seg.tok
		start, end := seg.next-len(b), seg.next
		if typ := seg.typ; typ != segment.None {
			tok = analysis.Token{Term: b, Start: start, End: end, Position: pos, Type: analysis.AlphaNumeric}
			switch typ {
			case segment.Ideo, segment.Kana:
				tok.Type = analysis.Ideographic
			case segment.Number:
				tok.Type = analysis.Numeric
			}
			pos++
			stream[0] = &tok
			s := stream[:1]
			for i, f := range fa.filters {
				switch {
				case i == fa.width && !hasFullWidth(tok.Term):
					continue
				case i == fa.stem && !s[0].KeyWord:
					s = fa.stemmed(stems, s)
				case i == fa.lower && lowerASCII(s[0].Term):
					// lowered in place
				default:
					s = f.Filter(s)
				}
				if len(s) == 0 {
					break
				}
				if i == fa.lower && words != nil && s[0].Type != analysis.Ideographic && len(s[0].Term) <= MaxWordBytes {
					if _, ok := words[string(s[0].Term)]; !ok {
						words[string(s[0].Term)] = struct{}{}
					}
				}
			}
			if len(s) == 1 {
				if fa.bigram {
					bg.token(c, s[0])
				} else {
					c.add(s[0].Term, s[0].Position)
				}
			}
		}
	}
	if fa.bigram {
		bg.flush(c)
	}
	return Analysis{Length: c.n, Freqs: c.m, Folded: folded}
}

// Folds reports whether the analysis folds Chinese (FoldChinese), and so
// whether Analysis.Folded tells.
func (fa *Fast) Folds() bool { return fa.fold }
