package analysis

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// The fast analysis counts the same tokens as bleve's, and says when
// its fold changed the text.
func TestFastAnalysis(t *testing.T) {
	t.Parallel()
	// The archive's own incidents, in three languages, and awkward text.
	texts := contentTexts(t)
	texts = append(texts,
		"ＧＭＡＩＬ 服務中斷 Gmail服務中斷", "ｶﾀｶﾅ カタカナ ﾃｽﾄ テスト ｶﾞｷﾞｸﾞ ﾊﾟﾋﾟ", "K-pop KELVIN İstanbul ΣΊΣΥΦΟΣ ΟΔΟΣ",
		"engineer's engineers' ENGINEER’S don't", "e.g. eg 3.14 3,14 1，000 a：b a:b", "サーバー_x x_サーバー",
		"資源耗盡。資源\n耗盡 資源 耗盡，資源耗 盡", "Ⱥ Ⱦ ⱥ ⱦ ȺȾ", "a", "", "資", "資a源", "ｱ", "１２３ ａｂｃ",
		"資料庫與数据库 资料 記憶體洩漏 內存 裏面 后台 後台 乾燥 干燥 ＡＢＣ１２３資料", "資料\n庫 資料。庫",
	)
	// Random strings of awkward characters.
	alphabet := []rune("aAzZ09 _'’＇.,:;-/資源耗盡服務料庫数据記憶體ーカタﾀﾞｶﾟあいう\u0301\u200dΣσςİKＡｚ０\n\t")
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
		an := mapping.NewIndexMapping().AnalyzerNamed(For(lang))
		fa := NewFast(an)
		if fa == nil {
			t.Fatalf("%s: no fast analysis", lang)
		}
		for _, s := range texts {
			s = CleanText(s)
			f := document.NewTextFieldCustom("body", nil, []byte(s), index.IndexField, an)
			f.Analyze()
			r := fa.Analyze([]byte(s), nil, nil, nil)
			n, freqs := r.Length, r.Freqs
			if folds := fa.Folds() && FoldChineseString(s) != s; r.Folded != folds {
				t.Fatalf("%s %q: folded %v, want %v", lang, s, r.Folded, folds)
			}
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

// contentTexts returns the text of the archive's own incidents.
func contentTexts(t testing.TB) []string {
	paths, err := filepath.Glob("../../content/*/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no incidents in ../../content: %v", err)
	}
	var texts []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

func TestFor(t *testing.T) {
	t.Parallel()
	for lang, want := range map[string]string{
		"en": "en", "en-GB": "en", "zh-TW": "gen_zh", "zh-Hant-TW": "gen_zh", "zh": "gen_zh", "yue": "gen_zh", "ja": "cjk", "ko": "cjk",
		"fr": "standard", "de": "standard", "pt-BR": "standard",
	} {
		if got := For(lang); got != want {
			t.Errorf("For(%s) = %s, want %s", lang, got, want)
		}
	}
}

// TestTermsPoolKeepsNothingAfterDrop: a dropped pool lets go of what it
// kept and keeps nothing handed back later, and still hands out Terms.
func TestTermsPoolKeepsNothingAfterDrop(t *testing.T) {
	fa := NewFast(mapping.NewIndexMapping().AnalyzerNamed(For("en")))
	var p TermsPool
	a, b := p.Get(fa, 5000), p.Get(fa, 5000)
	p.Put([]*Terms{a})
	if got := p.Get(fa, 5000); got != a {
		t.Fatal("the pool did not hand back the Terms it was given")
	}
	p.Put([]*Terms{a})
	p.Drop()
	p.Put([]*Terms{b})
	for class, free := range p.free {
		if len(free) > 0 {
			t.Fatalf("%d Terms of class %d kept after Drop", len(free), class)
		}
	}
	if got := p.Get(fa, 5000); got == nil || got == a || got == b {
		t.Fatal("a dropped pool handed out no new Terms")
	}
}

// TestAnalyzeKeysInTheTermsMemory: the frequencies' keys are the terms'
// bytes in the document's Terms, not an allocation each (a tenth of the
// objects an index build allocated): analysing a text of a thousand
// distinct terms allocates a few objects, whatever the terms. (Chinese:
// English keeps its stems in a sync.Pool, which the race detector
// empties at random.)
func TestAnalyzeKeysInTheTermsMemory(t *testing.T) {
	fa := NewFast(mapping.NewIndexMapping().AnalyzerNamed(For("zh-TW")))
	var b strings.Builder
	for r := rune(0x4E00); r < 0x4E00+1001; r++ {
		b.WriteRune(r)
	}
	text := []byte(b.String())
	if got := len(fa.Analyze(bytes.Clone(text), nil, nil, nil).Freqs); got != 1000 {
		t.Fatalf("%d distinct terms, want 1000", got)
	}
	allocs := testing.AllocsPerRun(20, func() {
		fa.Analyze(text, nil, nil, fa.NewTerms(len(text)))
	})
	if allocs > 100 {
		t.Errorf("analysing 1,000 distinct terms allocated %.0f objects", allocs)
	}
}
