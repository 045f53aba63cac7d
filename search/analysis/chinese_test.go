package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"
)

func TestFoldChinese(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"資料":           "数据", // a Taiwan word into the Mainland one
		"资料":           "数据", // and written in Simplified characters
		"數據":           "数据",
		"数据":           "数据", // Simplified stays
		"資料庫":          "数据库",
		"數據庫":          "数据库",
		"服務中斷":         "服务中断",
		"記憶體洩漏":        "记忆体泄漏",        // 記憶體 → 内存 changes the length: folded by character
		"憑證過期 a 資料。庫":  "凭证过期 a 数据。库",  // gen's pairs (itphrases.txt) are not folded
		"ASCII 1.5 ＡＢ": "ASCII 1.5 ＡＢ", // width is the tokenizer's filters' job
		"カタカナ ひらがな":    "カタカナ ひらがな",
	} {
		if got := FoldChineseString(in); got != want {
			t.Errorf("fold %q = %q, want %q", in, got, want)
		}
		if len(FoldChineseString(in)) != len(in) {
			t.Errorf("fold %q changed its length", in)
		}
	}
}

// Every entry kept is ideographs of the same lengths, and the tables are
// not empty: the dictionaries load.
func TestFoldTables(t *testing.T) {
	t.Parallel()
	f, err := foldTables()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range f {
		if len(c.chars) == 0 || len(c.phrases) == 0 {
			t.Fatalf("stage %d: %d characters, %d phrases", i+1, len(c.chars), len(c.phrases))
		}
		for k, v := range c.phrases {
			if !aligned(k, v) {
				t.Errorf("stage %d: %q → %q not aligned", i+1, k, v)
			}
		}
	}
}

// The Chinese analyzer gives the same terms for Traditional and
// Simplified text, and for full-width and half-width letters, with
// offsets in the original text. (The tokenizer drops full-width digits,
// which no Unicode 6 table calls Numeric; queries are narrowed before
// analysis, see package query.)
func TestChineseAnalyzer(t *testing.T) {
	t.Parallel()
	an := mapping.NewIndexMapping().AnalyzerNamed(For("zh-TW"))
	terms := func(s string) string {
		var out []string
		for _, tok := range an.Analyze([]byte(s)) {
			out = append(out, string(tok.Term))
		}
		return strings.Join(out, " ")
	}
	for a, b := range map[string]string{
		"資料庫": "数据库", "資料": "数据", "ＡＢＣ": "ABC", "資料庫ＧＭＡＩＬ": "数据库gmail",
	} {
		if ta, tb := terms(a), terms(b); ta != tb {
			t.Errorf("%q → %q, %q → %q", a, ta, b, tb)
		}
	}
	text := "停機：資料庫故障"
	toks := an.Analyze([]byte(text))
	last := toks[len(toks)-1]
	if string(last.Term) != "故障" || text[last.Start:last.End] != "故障" {
		t.Errorf("last token %q at %d–%d of %q", last.Term, last.Start, last.End, text)
	}
	if first := toks[0]; text[first.Start:first.End] != "停機" {
		t.Errorf("first token %q at %d–%d", first.Term, first.Start, first.End)
	}
}

// The fold's speed over Traditional Chinese text (the archive's zh-TW
// incidents).
func BenchmarkFoldChinese(b *testing.B) {
	var text []byte
	for _, s := range contentTexts(b) {
		if strings.Contains(s, "lang: zh") || strings.Count(s, "的") > 10 {
			text = append(text, s...)
		}
	}
	buf := make([]byte, len(text))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		copy(buf, text)
		FoldChinese(buf)
	}
}

// Words of another length on the other side are rewritten into the
// other side's, both ways; words the fold handles, and text without
// them, are not.
func TestOtherWordings(t *testing.T) {
	for in, want := range map[string][]string{
		"内存泄漏":   {"記憶體泄漏"},
		"內存":     {"記憶體"},
		"数据库 内存": {"数据库 記憶體"}, // 数据库 is folded already
		"缩略图":    {"縮圖"},
		"記憶體洩漏":  {"內存洩漏"},
		"重启服务":   {"重新啟動服务"},
		"重新啟動":   {"重啟"},
		"元数据服务器": {"後設資料服务器", "中繼資料服务器"}, // OpenCC's, then gen's
		"证书过期":   {"憑證过期"},
		"憑證過期":   {"證書過期"},
		"负载均衡器":  {"負載平衡器"},
		// A sense the fold misses: 儲存 folds to 保存 (to save), and
		// is storage, 存儲, too; the Mainland's 保存 stays itself. And
		// words the fold parts: the Mainland's 文件 folds to 文档.
		"檔案儲存": {"文件存儲"},
		"文件存储": {"檔案儲存"},
		"存储":   {"儲存"},
		"預設":   {"默認"},
		"程式":   {"程序"},
	} {
		if got := OtherWordings(in); !slices.Equal(got, want) {
			t.Errorf("%s: %q; want %q", in, got, want)
		}
	}
	if got := SimplifiedString("文件存儲"); got != "文件存储" {
		t.Errorf("文件存儲 in Simplified characters: %s", got)
	}
	for _, in := range []string{"資料庫", "停电", "过期", "certificate", "", "保存", "接口"} {
		if got := OtherWordings(in); got != nil {
			t.Errorf("%s: rewritten to %q", in, got)
		}
	}
}

// The supplement pairs only words OpenCC does not, each once.
func TestITPhrasesSupplementOpenCC(t *testing.T) {
	opencc := map[string]bool{}
	if err := readDict(twPhrases, func(tw string, _ []string) { opencc[tw] = true }); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err := readDict(itPhrases, func(tw string, cns []string) {
		if opencc[tw] || seen[tw] || len(cns) != 1 || tw == cns[0] {
			t.Errorf("%s\t%q: OpenCC pairs it, or it is there twice, or it pairs nothing or more than one", tw, cns)
		}
		seen[tw] = true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Errorf("%d pairs read", len(seen))
	}
}
