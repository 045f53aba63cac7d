// Package vocab is the vocabulary of a language index: every word of its
// text as written (lower-cased, before stop words and stemming), with the
// number of documents that use it. Search completes the last word of a
// query from it while a reader is still typing (Completions), and
// corrects a word that finds nothing (Corrections). The index itself
// holds only stems, which a prefix of a word often is not ("certifica"
// is no prefix of "certif", the stem of "certificate"), and which are no
// words to suggest.
//
// On disk it is one file, <lang>/gen-words: "GENWORDS", the number of
// words (uvarint), then for each word in byte order the length of the
// prefix it shares with the previous word, the length and bytes of the
// rest, and its number of documents (uvarints), and the CRC-32C of all
// that (4 bytes, little endian).
package vocab

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// FileName is the name of the vocabulary in a language's directory.
const FileName = "gen-words"

const magic = "GENWORDS"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by the errors about a damaged vocabulary file.
var ErrCorrupt = errors.New("corrupt")

// Vocab is a sorted vocabulary. The zero value is empty.
type Vocab struct {
	words []string
	docs  []int32 // documents using words[i]
}

// Entry is a word of the vocabulary.
type Entry struct {
	Word string
	Docs int // number of documents using it
	Dist int // Corrections: edit distance to the word asked for
}

// Docs returns the number of documents using word, 0 if none.
func (v *Vocab) Docs(word string) int {
	i, ok := slices.BinarySearch(v.words, word)
	if !ok {
		return 0
	}
	return int(v.docs[i])
}

// Completions returns the words that start with prefix, at most limit of
// them: those used by the most documents (ties: in byte order).
func (v *Vocab) Completions(prefix string, limit int) []Entry {
	lo := sort.SearchStrings(v.words, prefix)
	var out []Entry
	for i := lo; i < len(v.words) && strings.HasPrefix(v.words[i], prefix); i++ {
		out = append(out, Entry{Word: v.words[i], Docs: int(v.docs[i])})
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return cmp.Compare(b.Docs, a.Docs) })
	return out[:min(len(out), limit)]
}

// Corrections returns the words within edit distance maxDist of word
// (insertions, deletions, substitutions and transpositions of adjacent
// letters each count one), other than word itself, at most limit of them:
// the nearest first, then those used by the most documents.
func (v *Vocab) Corrections(word string, maxDist, limit int) []Entry {
	w := []rune(word)
	var out []Entry
	var buf Distances
	for i, cand := range v.words {
		n := utf8.RuneCountInString(cand)
		if n < len(w)-maxDist || n > len(w)+maxDist || cand == word {
			continue
		}
		if d := buf.Within(w, cand, maxDist); d <= maxDist {
			out = append(out, Entry{Word: cand, Docs: int(v.docs[i]), Dist: d})
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int {
		if c := cmp.Compare(a.Dist, b.Dist); c != 0 {
			return c
		}
		return cmp.Compare(b.Docs, a.Docs)
	})
	return out[:min(len(out), limit)]
}

// Distances computes optimal string alignment distances (Levenshtein with
// a swap of two neighbours as one edit), keeping its rows between calls.
// It is the one edit distance of gen: typo correction here, "did you
// mean" for misspelt keys in internal/diag.
type Distances struct {
	b           []rune
	prev2, prev []int
	cur         []int
}

// Within returns the distance between a and b, or maxDist+1 as soon as it
// must exceed maxDist.
func (d *Distances) Within(a []rune, bs string, maxDist int) int {
	d.b = d.b[:0]
	for _, r := range bs {
		d.b = append(d.b, r)
	}
	b := d.b
	n := len(b)
	grow := func(r []int) []int { return slices.Grow(r[:0], n+1)[:n+1] }
	d.prev2, d.prev, d.cur = grow(d.prev2), grow(d.prev), grow(d.cur)
	for j := range d.prev {
		d.prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		d.cur[0] = i
		best := i
		for j := 1; j <= n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(d.prev[j]+1, d.cur[j-1]+1, d.prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, d.prev2[j-2]+1)
			}
			d.cur[j] = v
			best = min(best, v)
		}
		if best > maxDist {
			return maxDist + 1
		}
		d.prev2, d.prev, d.cur = d.prev, d.cur, d.prev2
	}
	return min(d.prev[n], maxDist+1)
}

// Builder counts the words of documents.
type Builder struct {
	docs map[string]int32
}

// Add counts the distinct words of one document.
func (b *Builder) Add(words []string) {
	if b.docs == nil {
		b.docs = map[string]int32{}
	}
	for _, w := range words {
		b.docs[w]++
	}
}

// Remove uncounts the distinct words of a document added before.
func (b *Builder) Remove(words []string) {
	for _, w := range words {
		if n := b.docs[w]; n > 1 {
			b.docs[w] = n - 1
		} else {
			delete(b.docs, w)
		}
	}
}

// Vocab returns the vocabulary of the documents counted so far.
func (b *Builder) Vocab() *Vocab {
	v := &Vocab{words: make([]string, 0, len(b.docs))}
	for w := range b.docs {
		v.words = append(v.words, w)
	}
	slices.Sort(v.words)
	v.docs = make([]int32, len(v.words))
	for i, w := range v.words {
		v.docs[i] = b.docs[w]
	}
	return v
}

// Write writes v to path.
func Write(path string, v *Vocab) error {
	b := []byte(magic)
	b = binary.AppendUvarint(b, uint64(len(v.words)))
	prev := ""
	for i, w := range v.words {
		shared := 0
		for shared < len(prev) && shared < len(w) && prev[shared] == w[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = binary.AppendUvarint(b, uint64(len(w)-shared))
		b = append(b, w[shared:]...)
		b = binary.AppendUvarint(b, uint64(v.docs[i]))
		prev = w
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// Read reads a vocabulary written by Write.
func Read(path string) (*Vocab, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	corrupt := func(what string) error { return fmt.Errorf("search: %s: %w: %s", path, ErrCorrupt, what) }
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, corrupt("not a vocabulary")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, corrupt("checksum mismatch")
	}
	r := body[len(magic):]
	uv := func() uint64 {
		x, n := binary.Uvarint(r)
		if n <= 0 {
			r = nil
			return 1 << 62
		}
		r = r[n:]
		return x
	}
	count := uv()
	if count > uint64(len(r)) {
		return nil, corrupt("bad count")
	}
	v := &Vocab{words: make([]string, 0, count), docs: make([]int32, 0, count)}
	prev := ""
	for range count {
		shared, rest := uv(), uv()
		if shared > uint64(len(prev)) || rest > uint64(len(r)) {
			return nil, corrupt("bad word")
		}
		w := prev[:shared] + string(r[:rest])
		r = r[rest:]
		docs := uv()
		if docs > 1<<31-1 || w <= prev && len(v.words) > 0 {
			return nil, corrupt("bad word")
		}
		v.words = append(v.words, w)
		v.docs = append(v.docs, int32(docs))
		prev = w
	}
	if len(r) != 0 {
		return nil, corrupt("trailing bytes")
	}
	return v, nil
}
