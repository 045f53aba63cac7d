package analysis

// Phrase sketches. Checking a phrase on the text of a document costs
// 10–40 µs (decompressing it), and the words of an English phrase occur
// together, far apart, in most documents ("rolled back": 5,300 candidates
// in 10,000 documents for 2,100 matches; "connection pool": 2,500 for 28).
// So every document has, in the document store, a sketch of its long
// fields: a Bloom filter of the pairs of words at adjacent positions (not
// CJK characters, whose bigram candidates are nearly all matches anyway).
// A candidate whose sketch lacks a pair of adjacent words of the phrase
// cannot match, and is rejected in a few nanoseconds; what the sketch lets
// through (the matches and about 2% of the others) is checked on the text
// as before.

import "slices"

const (
	SketchHashes  = 5 // bits set per pair
	sketchBitsPer = 8 // bits of filter per pair: 2% false positives
)

// PairHash is the hash of the pair of terms a, b at adjacent positions in
// long field f (FNV-1a, stable across processes: sketches are stored).
func PairHash(f int, a, b []byte) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(f)) * prime
	for _, c := range a {
		h = (h ^ uint64(c)) * prime
	}
	h = (h ^ 0xff) * prime // not a byte of UTF-8
	for _, c := range b {
		h = (h ^ uint64(c)) * prime
	}
	return h
}

// SketchBuilder collects the pair hashes of a document.
type SketchBuilder struct {
	Field int // the long field being analysed
	hs    []uint64
}

func (s *SketchBuilder) pair(a, b []byte) {
	s.hs = append(s.hs, PairHash(s.Field, a, b))
}

// Bytes returns the Bloom filter of the pairs collected.
func (s *SketchBuilder) Bytes() []byte {
	slices.Sort(s.hs)
	hs := slices.Compact(s.hs)
	if len(hs) == 0 {
		return []byte{}
	}
	out := make([]byte, (len(hs)*sketchBitsPer+7)/8)
	m := uint32(len(out) * 8)
	for _, h := range hs {
		h1, h2 := uint32(h), uint32(h>>32)|1
		for i := uint32(0); i < SketchHashes; i++ {
			bit := (h1 + i*h2) % m
			out[bit/8] |= 1 << (bit % 8)
		}
	}
	return out
}

// SketchHas reports whether the pair of hash h may be in the sketch sk.
func SketchHas(sk []byte, h uint64) bool {
	if len(sk) == 0 {
		return false
	}
	m := uint32(len(sk) * 8)
	h1, h2 := uint32(h), uint32(h>>32)|1
	for i := uint32(0); i < SketchHashes; i++ {
		bit := (h1 + i*h2) % m
		if sk[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}

// PhrasePairs returns the hashes of the pairs of adjacent words of a
// phrase in long field f: positions with a single term that is not CJK.
func PhrasePairs(terms [][]string, f int) []uint64 {
	var hs []uint64
	for k := 0; k+1 < len(terms); k++ {
		a, b := terms[k], terms[k+1]
		if len(a) == 1 && len(b) == 1 && IsLatinTerm([]byte(a[0])) && IsLatinTerm([]byte(b[0])) {
			hs = append(hs, PairHash(f, []byte(a[0]), []byte(b[0])))
		}
	}
	return hs
}
