package locate

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/postmortem-archive/gen/search/analysis"
)

// maxPhraseTokens is search.MaxPhraseTokens: the longest phrase
// searched.
const maxPhraseTokens = 64

// contentParagraphs returns the paragraphs of the archive's own
// incidents, by language.
func contentParagraphs(t *testing.T) map[string][]string {
	paths, err := filepath.Glob("../../content/*/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no incidents in ../../content: %v", err)
	}
	out := map[string][]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lang := strings.TrimSuffix(filepath.Base(p), ".md")
		out[lang] = append(out[lang], strings.Split(string(b), "\n\n")...)
	}
	return out
}

// find, which analyses only windows around the surface forms of a term,
// finds exactly what analysing the whole text finds.
func TestLocateMatchesAnalyzer(t *testing.T) {
	t.Parallel()
	texts := contentParagraphs(t)
	odd := []string{
		"ＧＭＡＩＬ 服務中斷 Gmail服務中斷", "ｶﾀｶﾅ カタカナ ﾃｽﾄ テスト", "K-pop KELVIN İstanbul istanbul",
		"engineer's engineers' ENGINEER’S", "e.g. eg e-g 3.14 3,14 1，000 1,000 a：b a:b", "サーバー_x サーバー x_サーバー",
		"資源耗盡。資源\n耗盡 資源 耗盡，資源耗 盡", "overload of the metadata; overload, the metadata", "a_b a b _a b_",
		"Pub/Sub pub sub PUB-SUB pubsub", "europe-west2 EUROPE‑WEST2 europe west2", "ⅰⅱⅲ ① ２０１９年 2019年",
		"影響 us-east-1，us-west-2 及 europe-west2；Pub/Sub（Cloud Pub/Sub）", "ｐｕｂ／ｓｕｂ Ｐｕｂ/Ｓｕｂ pub／sub v2．3 v2.3 ｖ２.３",
		"Kelvin ＫＥＬＶＩＮ İSTANBUL 1，2 1,2 ａ＿ｂ a_b ｕｓ－ｅａｓｔ－１",
	}
	for lang := range texts {
		texts[lang] = append(texts[lang], odd...)
	}
	texts["fr"] = append([]string{"Le réseau était indisponible. RÉSEAU réseaux", "Écoles à Paris, l'école"}, odd...)
	r := rand.New(rand.NewPCG(1, 2))
	for lang, ts := range texts {
		an := mapping.NewIndexMapping().AnalyzerNamed(analysis.For(lang))
		kind := analysis.KindOf(lang)
		loc := &Locator{Analyzer: an, Kind: kind}
		fa := analysis.NewFast(an)
		checks, sketched := 0, 0
		for _, s := range ts {
			s = analysis.CleanText(s)
			f := &Field{Text: s, Flags: analysis.TextFlags(s, kind)}
			// The whole text's tokens, from a Locator of their own (a
			// Locator's tokens last until its next window).
			all := (&Locator{Analyzer: an, Kind: kind}).analyse(s, 0, len(s))
			skb := &analysis.SketchBuilder{Field: 1}
			fa.Analyze([]byte(s), skb, nil, nil)
			sk := skb.Bytes()
			words := strings.Fields(s)
			rs := []rune(s)
			var qs []string
			for range 12 {
				if len(words) > 0 {
					i := r.IntN(len(words))
					qs = append(qs, strings.Join(words[i:min(len(words), i+1+r.IntN(4))], " "))
				}
				if len(rs) > 2 {
					i := r.IntN(len(rs) - 1)
					qs = append(qs, string(rs[i:min(len(rs), i+2+r.IntN(5))]))
				}
			}
			for _, q := range qs {
				toks := an.Analyze([]byte(q))
				if len(toks) == 0 || len(toks) > maxPhraseTokens {
					continue
				}
				p := NewPattern(toks, kind)
				want := matchTokens(p, all, false, nil)
				got := loc.Find(p, f, false)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %q in %.80q: find %v, analyser %v", lang, q, s, got, want)
				}
				first := loc.Find(p, f, true)
				if len(want) > 0 && (len(first) != 1 || first[0] != want[0]) || len(want) == 0 && len(first) != 0 {
					t.Fatalf("%s: %q in %.80q: first %v, analyser %v", lang, q, s, first, want)
				}
				// The sketch has the pairs of a phrase that occurs.
				if len(want) > 0 {
					for _, h := range analysis.PhrasePairs(p.Terms, 1) {
						if !analysis.SketchHas(sk, h) {
							t.Fatalf("%s: %q occurs in %.80q, not in its sketch", lang, q, s)
						}
						sketched++
					}
				}
				checks++
			}
		}
		t.Logf("%s: %d patterns, %d pairs in sketches", lang, checks, sketched)
	}
}

// The anchor of an English term (its stem without the letters Porter's
// algorithm may have rewritten) starts every word that stems to it.
func TestStemAnchors(t *testing.T) {
	t.Parallel()
	stems := []string{"a", "be", "do", "go", "die", "ty", "ly", "sky", "day", "run", "hop", "hope", "agree", "feed",
		"conflat", "troubl", "sens", "relat", "condition", "format", "generat", "oper", "rat", "vot", "bas", "cris",
		"happ", "fal", "sing", "ris", "plan", "prob", "abl", "cap", "ab", "ion", "y", "ey", "quot", "gener", "electr",
		"rational", "sensitiv", "digit", "author", "central", "differ", "depend", "valid", "possib", "respons",
		"avail", "reli", "applic", "cycl", "hopp", "fizz", "tann", "fill", "toll", "fail", "loss", "pass", "size",
		"overload", "metadata", "release", "roll", "quota", "exhaust", "memory", "server", "timeout", "region"}
	suffixes := []string{"", "s", "es", "ed", "ing", "ly", "er", "ers", "est", "ness", "ful", "fulness", "ation",
		"ational", "ations", "ize", "ized", "izing", "ization", "izations", "izer", "ise", "able", "ably", "ability",
		"abilities", "ible", "ibility", "al", "ally", "alism", "ality", "alities", "alli", "ive", "ively",
		"iveness", "ivity", "iviti", "ous", "ously", "ousness", "ousli", "ment", "ments", "ent", "ently", "entli",
		"ence", "ency", "enci", "ance", "ancy", "anci", "ant", "ic", "ical", "ically", "icity", "iciti", "icate",
		"ism", "ist", "iti", "ity", "ies", "ied", "y", "li", "logi", "logy", "bli", "bility", "biliti", "ator",
		"ators", "eed", "eeds", "sses", "ss", "ement", "ements", "ative", "alize", "ion", "ions", "ou", "ate",
		"ates", "ating", "ated", "bled", "bling", "izes", "'s", "’s"}
	var words []string
	for _, s := range stems {
		for _, x := range suffixes {
			for _, y := range []string{"", "s", "ly", "ing", "ed", "ness", "al"} {
				words = append(words, s+x+y)
			}
		}
	}
	for _, ps := range contentParagraphs(t) {
		for _, p := range ps {
			words = append(words, strings.Fields(p)...)
		}
	}
	if b, err := os.ReadFile("/usr/share/dict/words"); err == nil {
		words = append(words, strings.Fields(string(b))...)
	}
	an := mapping.NewIndexMapping().AnalyzerNamed(analysis.For("en"))
	n := 0
	for _, w := range words {
		for _, v := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			for _, tok := range an.Analyze([]byte(v)) {
				a, ok := anchorOf(string(tok.Term), analysis.English)
				if !ok || !a.ascii {
					continue
				}
				surface := strings.ToLower(v[tok.Start:tok.End])
				if !strings.HasPrefix(surface, a.s) {
					t.Errorf("%q: term %q, anchor %q does not start %q", v, tok.Term, a.s, surface)
				}
				n++
			}
		}
	}
	t.Logf("%d words", n)
}

// A text folded to ASCII maps each of its offsets back to the character
// it folded.
func TestWidthFold(t *testing.T) {
	for _, s := range []string{"", "plain", "us-east-1，us-west-2。", "ＫＥＬＶＩＮ İs K ｐｕｂ／ｓｕｂ 資料庫", "…—“”"} {
		w := newWidthFold(s)
		for i := 0; i < len(w.s); i++ {
			r, _ := utf8.DecodeRuneInString(s[w.offset(i):])
			if w.s[i] < utf8.RuneSelf && unicode.ToLower(r) != unicode.ToLower(rune(w.s[i])) && !(r >= 0xFF01 && r <= 0xFF5E && rune(w.s[i]) == r-0xFF01+'!') {
				t.Errorf("%q: offset %d of %q is %q in the text", s, i, w.s, r)
			}
		}
	}
}

// A Chinese text whose only full-width characters are punctuation (its
// commas between names) is searched as it is, without a folded copy for
// each search; one with full-width letters is folded
// (TestLocateMatchesAnalyzer checks what both find).
func TestWidthFoldOnlyForLetters(t *testing.T) {
	an := mapping.NewIndexMapping().AnalyzerNamed(analysis.For("zh-TW"))
	loc := &Locator{Analyzer: an, Kind: analysis.KindOf("zh-TW")}
	p := NewPattern(an.Analyze([]byte("us-west-2")), loc.Kind)
	for _, tc := range []struct {
		text   string
		folded bool
	}{{"影響 us-east-1，us-west-2 及 europe-west2；", false}, {"影響 us-east-1，ｕｓ－ｗｅｓｔ－２ 及 us-west-2", true}} {
		f := &Field{Text: tc.text, Flags: analysis.TextFlags(tc.text, loc.Kind)}
		if f.Flags&analysis.FoldASCII == 0 {
			t.Fatalf("%q: no full-width form to fold", tc.text)
		}
		if got := loc.Find(p, f, false); len(got) == 0 {
			t.Errorf("%q: us-west-2 not found", tc.text)
		}
		if folded := f.width != nil; folded != tc.folded {
			t.Errorf("%q: folded %v, want %v", tc.text, folded, tc.folded)
		}
	}
}

// Patterns whose first words have the same anchors (the names a prefix
// begins: europe-west1, europe-west2), searched one after the other, are
// searched for in a field's text once, and each finds what it finds
// alone.
func TestSharedAnchorsSearchedOnce(t *testing.T) {
	an := mapping.NewIndexMapping().AnalyzerNamed(analysis.For("en"))
	loc := &Locator{Analyzer: an, Kind: analysis.KindOf("en")}
	text := "Regions affected: europe-west1, us-west2 and europe-west2. Europe was quiet."
	shared := &Field{Text: text, Flags: analysis.TextFlags(text, loc.Kind)}
	for _, q := range []string{"europe-west1", "europe-west2", "europe-west3", "europe"} {
		p := NewPattern(an.Analyze([]byte(q)), loc.Kind)
		alone := &Field{Text: text, Flags: shared.Flags}
		if got, want := loc.Find(p, shared, false), loc.Find(p, alone, false); !slices.Equal(got, want) {
			t.Errorf("%q: %v in a field searched before, %v alone", q, got, want)
		}
	}
	searched := 0
	shared.hitsKey = ""
	for _, q := range []string{"europe-west1", "europe-west2", "europe-west3"} {
		before := shared.hitsKey
		loc.Find(NewPattern(an.Analyze([]byte(q)), loc.Kind), shared, false)
		if shared.hitsKey != before {
			searched++
		}
	}
	if searched != 1 {
		t.Errorf("the text was searched %d times for the same anchors, want 1", searched)
	}
}

// indexFold finds the first place of an anchor in any case of ASCII
// letters, as a search of the text lowered does, stepping on the
// anchor's rarest letter (the u of eur, not its e).
func TestIndexFold(t *testing.T) {
	if r := rarest("eur"); r != 1 {
		t.Errorf("rarest letter of eur at %d, want 1 (u)", r)
	}
	lower := func(s string) string {
		b := []byte(s)
		for i := range b {
			b[i] = lowerASCII(b[i])
		}
		return string(b)
	}
	r := rand.New(rand.NewPCG(5, 6))
	const letters = "eEuUrRpPaAzZ09.-ｅ "
	for range 20000 {
		s := make([]byte, r.IntN(40))
		for i := range s {
			s[i] = letters[r.IntN(len(letters))]
		}
		a := make([]byte, 1+r.IntN(4))
		for i := range a {
			a[i] = lowerASCII(letters[r.IntN(len(letters))])
		}
		if got, want := indexFold(string(s), string(a)), strings.Index(lower(string(s)), string(a)); got != want {
			t.Fatalf("%q in %q: %d, want %d", a, s, got, want)
		}
	}
}
