package search

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
)

// The fast analysis counts the same tokens as bleve's.
func TestFastAnalysis(t *testing.T) {
	var texts []string
	for _, d := range storeDocs() {
		texts = append(texts, d.Title, d.Summary, d.Body, d.Timeline)
	}
	texts = append(texts,
		"ＧＭＡＩＬ 服務中斷 Gmail服務中斷", "ｶﾀｶﾅ カタカナ ﾃｽﾄ テスト ｶﾞｷﾞｸﾞ ﾊﾟﾋﾟ", "K-pop KELVIN İstanbul ΣΊΣΥΦΟΣ ΟΔΟΣ",
		"engineer's engineers' ENGINEER’S don't", "e.g. eg 3.14 3,14 1，000 a：b a:b", "サーバー_x x_サーバー",
		"資源耗盡。資源\n耗盡 資源 耗盡，資源耗 盡", "Ⱥ Ⱦ ⱥ ⱦ ȺȾ", "a", "", "資", "資a源", "ｱ", "１２３ ａｂｃ",
	)
	// Random strings of awkward characters.
	alphabet := []rune("aAzZ09 _'’＇.,:;-/資源耗盡服務ーカタﾀﾞｶﾟあいう\u0301\u200dΣσςİKＡｚ０\n\t")
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		n := 1 + r.IntN(40)
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, lang := range []string{"en", "zh-TW", "ja", "fr"} {
		m, err := newMapping(lang)
		if err != nil {
			t.Fatal(err)
		}
		an := m.AnalyzerNamed(analysis.For(lang))
		fa := analysis.NewFast(an)
		if fa == nil {
			t.Fatalf("%s: no fast analysis", lang)
		}
		for _, s := range texts {
			s = analysis.CleanText(s)
			f := document.NewTextFieldCustom(fBody, nil, []byte(s), index.IndexField, an)
			f.Analyze()
			n, freqs := fa.Analyze([]byte(s), nil)
			want := f.AnalyzedTokenFrequencies()
			if n != f.AnalyzedLength() || len(freqs) != len(want) {
				t.Fatalf("%s %q: %d tokens, %d terms; bleve %d, %d", lang, s, n, len(freqs), f.AnalyzedLength(), len(want))
			}
			for term, tf := range want {
				got := freqs[term]
				if got == nil || got.Frequency() != tf.Frequency() || !bytes.Equal(got.Term, tf.Term) {
					t.Fatalf("%s %q: term %q: %+v, bleve %+v", lang, s, term, got, tf)
				}
			}
		}
	}
}
