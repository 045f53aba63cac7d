package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blevesearch/segment"
)

// segmentsOf lists the segments of a text as "type:text", as segments
// cut it and as blevesearch/segment's segmenter does.
func segmentsOf(text string) (got, want []string) {
	s := segments{text: []byte(text)}
	for s.scan() {
		got = append(got, string(rune('0'+s.typ))+":"+string(s.tok))
	}
	seg := segment.NewWordSegmenterDirect([]byte(text))
	for seg.Segment() {
		want = append(want, string(rune('0'+seg.Type()))+":"+string(seg.Bytes()))
	}
	return got, want
}

// The segments cut without the segmenter are the segmenter's: every
// Chinese character it cuts alone, before whatever may follow it, and
// random text of the characters where a shortcut could go wrong (marks
// that attach to what precedes them, punctuation that joins words and
// numbers, kana, full-width forms).
func TestSegmentsAsSegmenter(t *testing.T) {
	t.Parallel()
	after := []string{"", "a", " ", "。", "，", "資", "\u0301", "\u00ad", "\u200d", "\ufe0f", "ア", "あ", "\u302a", "ﾞ", "１"}
	for r := rune(hanLo - 0x100); r <= hanHi+0x100; r++ {
		for _, a := range after {
			text := string(r) + a
			if got, want := segmentsOf(text); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("%q: %q, segmenter %q", text, got, want)
			}
		}
	}
	alphabet := []rune("aZ09_ .,:;'\"’-/()\n\r\t資源耗盡服務ー。、，（）「」カタﾀﾞｶﾟあいう\u0301\u00ad\u200d\ufe0f\u302aΣéİＡ０＿．")
	r := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		text := b.String()
		if got, want := segmentsOf(text); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%q: %q, segmenter %q", text, got, want)
		}
	}
	for _, text := range contentTexts(t) {
		if got, want := segmentsOf(text); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%.80q…: %d segments, segmenter %d", text, len(got), len(want))
		}
	}
}
