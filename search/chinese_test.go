package search

import (
	"slices"
	"strings"
	"testing"
)

// chineseDocs: an incident written in Taiwan's Traditional Chinese, one in
// Simplified Chinese, and one with a product name in ASCII.
func chineseDocs() []Document {
	return []Document{
		doc("2024-01-05-tw-database", "zh-TW", "zh-TW",
			"資料庫連線中斷",
			"主要資料庫無法連線，訂單資料寫入失敗。",
			"工程師切換到備援資料庫後恢復。",
			"2024-01-05", []string{"訂單系統"}, nil, nil),
		doc("2024-02-07-cn-storage", "zh-CN", "zh-CN",
			"存储集群写入延迟",
			"存储集群的数据写入延迟升高。",
			"扩容后恢复。",
			"2024-02-07", nil, nil, nil),
		doc("2024-03-09-tw-gateway", "zh-TW", "zh-TW",
			"ABC123 閘道逾時",
			"ABC123 閘道在尖峰時段逾時。",
			"調整連線上限後恢復。",
			"2024-03-09", nil, nil, nil),
	}
}

// Simplified Chinese finds Traditional text and the reverse (数据 for
// 資料, 数据库 for 資料庫), and full-width letters and digits find
// half-width ones; the marks are placed on the text as written.
func TestSimplifiedTraditional(t *testing.T) {
	t.Parallel()
	docs := chineseDocs()
	tw, cn, abc := docs[0].ID, docs[1].ID, docs[2].ID
	for name, ix := range map[string]*Index{"disk": mustOpen(t, buildDir(t, docs)), "memory": memoryOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
			mark    string // a highlighted word of the first result
		}{
			{"数据", "zh-TW", []string{tw, cn}, ""},
			{"数据库", "zh-TW", []string{tw}, "<mark>資料庫</mark>"},
			{"资料库", "zh-TW", []string{tw}, "<mark>資料庫</mark>"},
			{"資料庫", "zh-CN", []string{tw}, "<mark>資料庫</mark>"},
			{"資料", "zh-CN", []string{tw, cn}, ""},
			{"數據", "zh-CN", []string{tw, cn}, ""},
			{"存儲集群", "zh-CN", []string{cn}, "<mark>存储集群</mark>"},
			{`"数据写入"`, "zh-CN", []string{tw, cn}, ""},
			{"ＡＢＣ１２３", "zh-TW", []string{abc}, "<mark>ABC123</mark>"},
			{"ａｂｃ１２３ 閘道", "zh-TW", []string{abc}, "<mark>ABC123</mark>"},
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: tc.lang})
			got := ids(resp)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q: %v, want %v", name, tc.q, got, tc.want)
				continue
			}
			if tc.mark != "" && !strings.Contains(strings.Join(resp.Results[0].Fragments, " "), tc.mark) {
				t.Errorf("%s: %q: fragments %q, want %s", name, tc.q, resp.Results[0].Fragments, tc.mark)
			}
		}
	}
}
