package search

import (
	"fmt"
	"os"
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
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
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

// Words as typed rank above the same words found through the fold into
// Simplified: 颱 (typhoon) folds to 台 like 臺 (a platform), and Japanese
// 冷却 finds Chinese 冷卻. The folded matches say the word more often, so
// they would rank first by score alone.
func TestExactFormBeforeFolded(t *testing.T) {
	t.Parallel()
	typhoon := doc("2023-10-04-typhoon", "zh-TW", "zh-TW", "颱風造成海纜中斷", "颱風登陸，海底電纜受損。", "流量改走其他路徑。", "2023-10-04", nil, nil, nil)
	console := doc("2023-01-01-console", "zh-TW", "zh-TW", "主控台無法使用", "主控台與平台服務無法使用，台北機房的主控台逾時。", "主控台恢復。", "2023-01-01", nil, nil, nil)
	cooling := doc("2024-07-22-cooling", "ja", "ja", "東京の冷却設備の故障", "冷却装置が停止しました。", "サーバーが停止しました。", "2024-07-22", nil, nil, nil)
	chiller := doc("2023-02-02-chiller", "zh-TW", "zh-TW", "冷卻系統故障", "冷卻系統故障，冷卻水停止循環，機房冷卻不足。", "冷卻恢復。", "2023-02-02", nil, nil, nil)
	docs := []Document{typhoon, console, cooling, chiller}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"颱", "zh-TW", []string{typhoon.ID, console.ID}},
			{"冷却", "ja", []string{cooling.ID, chiller.ID}},
			{"冷卻", "zh-TW", []string{chiller.ID}}, // Japanese is not folded
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: tc.lang})
			if got := ids(resp); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q ranks %v (scores %v), want %v", name, tc.q, got, scores(resp), tc.want)
			}
		}
	}
}

// A Mainland word finds Taiwan's when the two differ in length, which the
// fold cannot make one: 内存 (memory) finds 記憶體, 缩略图 (thumbnail)
// 縮圖; the marks are on the text as written.
func TestMainlandWords(t *testing.T) {
	t.Parallel()
	leak := doc("2021-11-18-tw-leak", "zh-TW", "zh-TW", "DNS 解析器記憶體洩漏", "解析器新版本有記憶體洩漏，不斷重新啟動。", "回復版本後恢復。", "2021-11-18", nil, nil, nil)
	thumbs := doc("2024-05-02-tw-thumbs", "zh-TW", "zh-TW", "無法產生新縮圖", "媒體儲存空間用盡，無法產生新尺寸的縮圖。", "清理後恢復。", "2024-05-02", nil, nil, nil)
	docs := []Document{leak, thumbs}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct{ q, want, mark string }{
			{"内存泄漏", leak.ID, "<mark>記憶體洩漏</mark>"},
			{"内存", leak.ID, "<mark>記憶體</mark>"},
			{"缩略图", thumbs.ID, "<mark>縮圖</mark>"},
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: "zh-TW"})
			if got := ids(resp); !slices.Equal(got, []string{tc.want}) {
				t.Errorf("%s: %q finds %v, want %s", name, tc.q, got, tc.want)
				continue
			}
			if f := strings.Join(resp.Results[0].Fragments, " "); !strings.Contains(f, tc.mark) {
				t.Errorf("%s: %q: fragments %q, want %s", name, tc.q, f, tc.mark)
			}
		}
	}
}

// Each pair of gen's incident vocabulary (analysis/itphrases.txt): the
// Mainland word, as the Mainland writes it, finds the incident written
// in Taiwan, and Taiwan's word finds the one written on the Mainland.
func TestITWordPairs(t *testing.T) {
	t.Parallel()
	pairs := []struct{ tw, cn string }{
		{"憑證", "证书"}, {"負載平衡", "负载均衡"}, {"逾時", "超时"}, {"組態", "配置"}, {"設定檔", "配置文件"},
		{"用戶端", "客户端"}, {"網域", "域名"}, {"帳號", "账号"}, {"帳戶", "账户"}, {"映像", "镜像"},
		{"當機", "宕机"}, {"交換器", "交换机"}, {"封包", "数据包"}, {"重新啟動", "重启"}, {"修補程式", "补丁"},
		{"權杖", "令牌"}, {"速率限制", "限流"}, {"記錄檔", "日志文件"}, {"中繼資料", "元数据"}, {"遺失", "丢失"},
		{"容錯移轉", "故障转移"}, {"複寫", "复制"}, {"相依", "依赖"}, {"尖峰", "高峰"}, {"回應", "响应"},
		{"擴充", "扩展"},
	}
	b, err := os.ReadFile("analysis/itphrases.txt")
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for line := range strings.Lines(string(b)) {
		if tw, _, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			listed++
			if !slices.ContainsFunc(pairs, func(p struct{ tw, cn string }) bool { return p.tw == tw }) {
				t.Errorf("%s is not tested", tw)
			}
		}
	}
	if listed != len(pairs) {
		t.Errorf("%d pairs listed, %d tested", listed, len(pairs))
	}
	var docs []Document
	for i, p := range pairs {
		docs = append(docs,
			doc(fmt.Sprintf("2024-01-%02d-tw", i+1), "zh-TW", "zh-TW", "事故", p.tw+"。", "", "2024-01-01", nil, nil, nil),
			doc(fmt.Sprintf("2024-01-%02d-cn", i+1), "zh-CN", "zh-CN", "事故", p.cn+"。", "", "2024-01-01", nil, nil, nil))
	}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for i, p := range pairs {
			for _, tc := range []struct{ q, want string }{
				{p.cn, fmt.Sprintf("2024-01-%02d-tw", i+1)},
				{p.tw, fmt.Sprintf("2024-01-%02d-cn", i+1)},
			} {
				if got := ids(search(t, ix, Request{Query: tc.q, Lang: "zh-TW"})); !slices.Contains(got, tc.want) {
					t.Errorf("%s: %q finds %v, not %s", name, tc.q, got, tc.want)
				}
			}
		}
	}
}

// Latin letters and Chinese or Japanese typed together are words, as
// the index cuts them: NFS宕机 finds what NFS 宕机 finds, though no
// report writes NFS next to 宕机.
func TestLatinAndCJKTogether(t *testing.T) {
	t.Parallel()
	nfs := doc("2025-06-20-cn-nfs", "zh-CN", "zh-CN", "文件存储 NFS 服务器宕机", "一台 NFS 元数据服务器宕机。", "切换后恢复。", "2025-06-20", nil, nil, nil)
	mount := doc("2025-07-01-cn-mount", "zh-CN", "zh-CN", "NFS 挂载缓慢", "NFS 挂载读写缓慢。", "扩容后恢复。", "2025-07-01", nil, nil, nil)
	webhook := doc("2025-05-19-ja-webhook", "ja", "ja", "Webhook の送信遅延", "Webhook 送信が最大 40 分遅延しました。", "キューを増設しました。", "2025-05-19", nil, nil, nil)
	docs := []Document{nfs, mount, webhook}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"NFS宕机", "zh-CN", []string{nfs.ID}},
			{"ＮＦＳ宕机", "zh-CN", []string{nfs.ID}},
			{"Webhook遅延", "ja", []string{webhook.ID}},
		} {
			got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang}))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q finds %v, want %v", name, tc.q, got, tc.want)
			}
		}
	}
}

// File storage, written 檔案儲存 in Taiwan and 文件存储 on the Mainland,
// is found either way, though the fold takes 儲存 for 保存, to save, and
// the Mainland's 文件 for Taiwan's 文件, a document; and before a report
// with its parts apart in the reader's language.
func TestStorageBothSides(t *testing.T) {
	t.Parallel()
	cn := doc("2025-06-20-cn-nfs", "zh-CN", "zh-CN", "云栈文件存储 NFS 服务器宕机", "文件存储的一台服务器宕机。", "恢复。", "2025-06-20", nil, nil, nil)
	tw := doc("2023-03-15-tw-bank", "zh-TW", "zh-TW", "核心系統儲存設備故障", "儲存設備有一顆硬碟故障。", "更換。", "2023-03-15", nil, nil, nil)
	apart := doc("2024-05-02-tw-upload", "zh-TW", "zh-TW", "檔案上傳失敗", "儲存空間不足，檔案無法上傳。", "清理。", "2024-05-02", nil, nil, nil)
	docs := []Document{cn, tw, apart}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"檔案儲存", "zh-TW", []string{cn.ID, apart.ID}},
			{"存储设备", "zh-CN", []string{tw.ID}},
		} {
			if got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang})); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q finds %v, want %v", name, tc.q, got, tc.want)
			}
		}
	}
}
