package analysis

// Mainland words for Taiwan's that the fold does not join, and the
// reverse. The fold (chinese.go) keeps only the phrase pairs of OpenCC's
// Taiwan dictionary that turn each character into one, so that offsets
// hold: 資料 → 数据 is folded, but 記憶體 (Taiwan) and 内存 (Mainland)
// differ in length, and a reader typing 内存 would not find 記憶體; and
// it folds Mainland text too, where a Mainland word may be a Taiwan word
// of another sense (文件, a file, is folded as Taiwan's document, 文档,
// away from Taiwan's 檔案, which folds to 文件). Nor
// does OpenCC pair every word of incident reports (憑證 and 证书, 負載平衡
// and 负载均衡): gen's own pairs, itphrases.txt, are never folded (a
// reader typing the one character 憑 still finds 憑證), only searched for.
// OtherWordings rewrites a query's words into the other side's, to be
// searched besides the query as typed.

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxWordings is the number of rewritings of a query OtherWordings
// returns at most.
const maxWordings = 4

// wordings maps the folded form of a phrase to the phrases the other side
// writes for it and the fold does not join: a Mainland phrase to
// Taiwan's (内存 → 記憶體; 证书 → 憑證; 元数据 → 後設資料, 中繼資料) and a
// Taiwan phrase to the Mainland's (记忆体 → 內存, 凭证 → 證書).
var wordings = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	add := func(from, to string) {
		if k := FoldChineseString(from); utf8.RuneCountInString(k) >= 2 && !slices.Contains(out[k], to) {
			out[k] = append(out[k], to)
		}
	}
	for _, name := range []string{twPhrases, itPhrases} {
		err := readDict(name, func(tw string, cns []string) {
			for _, cn := range cns[1:] {
				if FoldChineseString(cn) != FoldChineseString(tw) {
					add(cn, tw) // a sense the fold misses (senses): 存儲 finds 儲存
				}
			}
			// A pair the fold does not make one: of another length, or
			// whose Mainland word is a Taiwan word folded again (Taiwan's
			// 檔案 folds to 文件, the Mainland's 文件 to 文档, Taiwan's
			// document).
			if cn := cns[0]; FoldChineseString(tw) != FoldChineseString(cn) {
				add(cn, tw)
				add(tw, cn)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
})

// senses maps a Taiwan phrase, as written, to the Mainland's words for
// its senses that the fold, which takes the first, misses: 儲存 is
// folded as 保存 (to save), and is storage too, 存儲. Keyed as written,
// not folded, so that the Mainland's 保存 does not become storage.
var senses = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	err := readDict(twPhrases, func(tw string, cns []string) {
		for _, cn := range cns[1:] {
			if FoldChineseString(cn) != FoldChineseString(tw) {
				out[tw] = append(out[tw], cn)
			}
		}
	})
	return out, err
})

// maxWordingRunes is the longest phrase looked for.
const maxWordingRunes = 10

// OtherWordings returns s with its phrases that the other side of the
// strait writes otherwise, where the fold does not join them, replaced
// by the other side's, the longest first (内存泄漏 → 記憶體泄漏, 证书过期 →
// 憑證过期, 重新啟動 → 重啟): the
// first rewriting takes each phrase's first other wording, the next its
// second where it has one, up to maxWordings rewritings. Before them
// come s as a Japanese loanword otherwise written (loanwords.go: サーバー
// also without its ー, ログイン as login, login as ログイン).
func OtherWordings(s string) []string {
	m, err := wordings()
	if err != nil {
		panic(err) // the embedded dictionaries are tested
	}
	more, err := senses()
	if err != nil {
		panic(err)
	}
	folded := FoldChineseString(s) // same byte offsets as s
	type part struct {
		text  string
		other []string
	}
	var parts []part
	most := 0
	for i := 0; i < len(s); {
		var ends [maxWordingRunes]int
		n := 0
		for j := i; j < len(s) && n < maxWordingRunes; n++ {
			_, size := utf8.DecodeRuneInString(folded[j:])
			j += size
			ends[n] = j
		}
		end, other := ends[0], []string(nil)
		for k := n - 1; k >= 1; k-- {
			o, ok := m[folded[i:ends[k]]]
			if ms, sense := more[s[i:ends[k]]]; sense {
				o, ok = append(slices.Clip(o), ms...), true
			}
			if ok {
				end, other = ends[k], o
				break
			}
		}
		parts = append(parts, part{s[i:end], other})
		most = max(most, len(other))
		i = end
	}
	out := loanWordings(s)
	for w := range min(most, maxWordings) {
		var b strings.Builder
		for _, p := range parts {
			if p.other == nil {
				b.WriteString(p.text)
			} else {
				b.WriteString(p.other[min(w, len(p.other)-1)])
			}
		}
		out = append(out, b.String())
	}
	return out
}
