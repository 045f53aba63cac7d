package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/search/analysis"
)

// A single Chinese character finds the words the fold writes it
// otherwise in: 宕机 is indexed as 死机 (OpenCC's phrase), so 宕 finds
// the report that says 宕机, as 宕机 does, and 當 still finds 當機.
func TestSingleCharacterThroughPhraseFold(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("2024-01-01-cn-down", "zh-CN", "zh-CN", "服务器宕机", "机房的服务器宕机两小时。", "重启后恢复。", "2024-01-01", nil, nil, nil),
		doc("2024-01-02-tw-down", "zh-TW", "zh-TW", "伺服器當機", "機房的伺服器當機兩小時。", "重新啟動後恢復。", "2024-01-02", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"宕", "zh-CN", []string{"2024-01-01-cn-down"}},
			{"宕", "zh-TW", []string{"2024-01-01-cn-down"}},
			{"當", "zh-TW", []string{"2024-01-02-tw-down"}},
			{"宕机", "zh-CN", []string{"2024-01-01-cn-down", "2024-01-02-tw-down"}},
		} {
			got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang}))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q (%s): %v, want %v", name, tc.q, tc.lang, got, tc.want)
			}
		}
	}
}

// A katakana word is one word with or without its last ー, and an
// operations loanword finds its English and the reverse.
func TestLoanwordsAndLongVowels(t *testing.T) {
	t.Parallel()
	const (
		jaServer = "2024-02-01-ja-server"
		jaLogin  = "2024-02-02-ja-login"
		enLogin  = "2024-02-03-en-login"
		enLB     = "2024-02-04-en-lb"
	)
	docs := []Document{
		doc(jaServer, "ja", "ja", "サーバ障害", "東京のサーバが停止しました。", "再起動しました。", "2024-02-01", nil, nil, nil),
		doc(jaLogin, "ja", "ja", "認証の障害", "利用者がログインできませんでした。", "復旧しました。", "2024-02-02", nil, nil, nil),
		doc(enLogin, "en", "en", "Sign-in failures", "Users could not login for an hour.", "Restored.", "2024-02-03", nil, nil, nil),
		doc(enLB, "en", "en", "Dropped requests", "The load balancer dropped requests.", "Rolled back.", "2024-02-04", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"サーバー", "ja", []string{jaServer}},
			{"サーバー 東京", "ja", []string{jaServer}},
			{"login", "en", []string{jaLogin, enLogin}},
			{"ログイン", "ja", []string{jaLogin, enLogin}},
			{"ロードバランサー", "ja", []string{enLB}},
		} {
			got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang}))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q (%s): %v, want %v", name, tc.q, tc.lang, got, tc.want)
			}
		}
	}
}

// Every loanword of the table finds its other script, in a real index:
// each is analysed as the index analyses the text that says it.
func TestLoanwordTableFindsEachOther(t *testing.T) {
	t.Parallel()
	pairs := analysis.Loanwords()
	var docs []Document
	for i, p := range pairs {
		day := fmt.Sprintf("2023-%02d-%02d", i%12+1, i%28+1)
		docs = append(docs,
			doc(fmt.Sprintf("en-%03d", i), "en", "en", "Report", fmt.Sprintf("The %s failed.", p.English), "Restored.", day, nil, nil, nil),
			doc(fmt.Sprintf("ja-%03d", i), "ja", "ja", "報告", fmt.Sprintf("%sが停止しました。", p.Katakana), "復旧しました。", day, nil, nil, nil))
	}
	ix := diskIndex(t, docs)
	for i, p := range pairs {
		for q, want := range map[string]string{p.English: fmt.Sprintf("ja-%03d", i), p.Katakana: fmt.Sprintf("en-%03d", i)} {
			if q == p.English && strings.Contains(q, " ") {
				q = `"` + q + `"` // a phrase; its words alone are words
			}
			if got := ids(search(t, ix, Request{Query: q, Lang: "ja", PerPage: 50})); !slices.Contains(got, want) {
				t.Errorf("%q: %v, want %s among them", q, got, want)
			}
		}
	}
	if len(pairs) < 30 {
		t.Errorf("%d loanwords, want 30 to 60", len(pairs))
	}
}

// A compound the reports hold in the other side's wording is found as
// that wording, not cut into parts: 负载均衡器 finds what 負載平衡器 finds,
// not every report of 負載.
func TestCompoundOtherWordingNotCut(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("a-lb", "zh-TW", "zh-TW", "負載平衡器停機", "負載平衡器在凌晨發生故障。", "更換。", "2024-01-01", nil, nil, nil),
		doc("b-load", "zh-TW", "zh-TW", "節點告警", "節點的負載過高。", "擴容。", "2024-01-02", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		for _, q := range []string{"负载均衡器", "負載平衡器"} {
			if got := ids(search(t, ix, Request{Query: q, Lang: "zh-TW"})); !slices.Equal(got, []string{"a-lb"}) {
				t.Errorf("%s: %q: %v, want [a-lb]", name, q, got)
			}
		}
	}
}

// A compound typed without a space finds what its parts find, though no
// report writes it whole: 硬碟故障 the reports of 硬碟 and of 故障, that
// of both first; サーバー障害 those of サーバ and 障害.
func TestCompoundFindsItsParts(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("a-both", "zh-TW", "zh-TW", "儲存節點停機", "一顆硬碟在凌晨發生故障。", "更換。", "2024-01-01", nil, nil, nil),
		doc("b-disk", "zh-TW", "zh-TW", "儲存節點告警", "一顆硬碟的空間不足。", "清理。", "2024-01-02", nil, nil, nil),
		doc("c-fault", "zh-TW", "zh-TW", "交換器停機", "一台交換器在凌晨故障。", "更換。", "2024-01-03", nil, nil, nil),
		doc("d-other", "zh-TW", "zh-TW", "電力中斷", "停電。", "恢復。", "2024-01-04", nil, nil, nil),
		doc("e-ja", "ja", "ja", "東京の停止", "東京のサーバーで障害が発生しました。", "復旧。", "2024-01-05", nil, nil, nil),
		doc("f-ja", "ja", "ja", "決済の遅延", "障害により決済が遅れました。", "復旧。", "2024-01-06", nil, nil, nil),
		doc("g-ja", "ja", "ja", "移行", "サーバを移行しました。", "完了。", "2024-01-07", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			first   string
			want    []string
		}{
			{"硬碟故障", "zh-TW", "a-both", []string{"a-both", "b-disk", "c-fault"}},
			{"サーバー障害", "ja", "e-ja", []string{"e-ja", "f-ja", "g-ja"}},
			{"サーバ障害", "ja", "e-ja", []string{"e-ja", "f-ja", "g-ja"}},
		} {
			got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang}))
			if len(got) == 0 || got[0] != tc.first {
				t.Errorf("%s: %q: %v, want %s first", name, tc.q, got, tc.first)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q: %v, want %v", name, tc.q, got, tc.want)
			}
		}
	}
}

// A compound some report writes whole also finds the reports that write
// its words apart (硬盘相继故障, in Simplified), after those with the
// whole, whatever their scores; not those with one of its words alone,
// which would flood it.
func TestCompoundWholeThenApart(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("a-whole", "zh-TW", "zh-TW", "網路銀行中斷", "儲存設備有一顆硬碟故障。", "更換。", "2024-01-01", nil, nil, nil),
		doc("b-apart", "zh-CN", "zh-CN", "镜像站磁盘阵列", "两块硬盘相继故障，阵列降级。", "更换硬盘。", "2024-01-02", nil, nil, nil),
		doc("c-disk", "zh-TW", "zh-TW", "儲存節點告警", "一顆硬碟的空間不足。", "清理。", "2024-01-03", nil, nil, nil),
		doc("d-fault", "zh-TW", "zh-TW", "交換器故障", "一台交換器在凌晨故障。", "更換。", "2024-01-04", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		for _, q := range []string{"硬碟故障", "硬盘故障"} {
			if got := ids(search(t, ix, Request{Query: q, Lang: "zh-TW"})); !slices.Equal(got, []string{"a-whole", "b-apart"}) {
				t.Errorf("%s: %q: %v, want [a-whole b-apart]", name, q, got)
			}
		}
		if got := ids(search(t, ix, Request{Query: `"硬碟故障"`, Lang: "zh-TW"})); !slices.Equal(got, []string{"a-whole"}) {
			t.Errorf("%s: quoted: %v, want [a-whole]", name, got)
		}
	}
	// The whole first though it is in Simplified, which counts half for a
	// reader of Traditional, and the parts are in a title.
	docs = []Document{
		doc("a-whole", "zh-CN", "zh-CN", "云笔记服务异常", "约 40 分钟内云笔记登录缓慢或失败。", "扩容。", "2024-01-01", nil, nil, nil),
		doc("b-apart", "zh-TW", "zh-TW", "登入後查詢緩慢", "查詢緩慢。", "調整。", "2024-01-02", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": diskIndex(t, docs), "editable": editableOf(t, docs)} {
		if got := ids(search(t, ix, Request{Query: "登入緩慢", Lang: "zh-TW"})); !slices.Equal(got, []string{"a-whole", "b-apart"}) {
			t.Errorf("%s: 登入緩慢: %v, want [a-whole b-apart]", name, got)
		}
	}
}

// A compound that fills the window of the tiers whole (surfaceWindow
// reports) does not find the reports with its parts apart: they would
// rank below every report with the whole. One in fewer reports does.
func TestCompoundPartsOnlyBelowFewWholes(t *testing.T) {
	t.Parallel()
	apart := doc("2020-01-01-apart", "zh-TW", "zh-TW", "配額", "另一個資源在稍後耗盡。", "流量。", "2020-01-01", nil, nil, nil)
	for _, n := range []int{surfaceWindow - 4, surfaceWindow} {
		docs := []Document{apart}
		for i := range n {
			id := fmt.Sprintf("2021-01-01-whole-%02d", i)
			docs = append(docs, doc(id, "zh-TW", "zh-TW", "配額", "配額系統資源耗盡。", "流量。", "2021-01-01", nil, nil, nil))
		}
		for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
			resp := search(t, ix, Request{Query: "資源耗盡", Lang: "zh-TW"})
			found := false
			for page := 1; (page-1)*DefaultPerPage < resp.Total; page++ {
				found = found || slices.Contains(ids(search(t, ix, Request{Query: "資源耗盡", Lang: "zh-TW", Page: page})), apart.ID)
			}
			if want := n < surfaceWindow; found != want || resp.Total != n+map[bool]int{true: 1}[want] {
				t.Errorf("%s, %d wholes: total %d, the report with the parts apart found: %v, want %v", name, n, resp.Total, found, want)
			}
		}
	}
}
