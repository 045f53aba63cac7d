package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// cjkTypoDocs are a Traditional Chinese and two Japanese reports whose
// words an input method's typos miss.
func cjkTypoDocs() []Document {
	return []Document{
		doc("2022-08-17-tw-database", "zh-TW", "zh-TW", "資料庫磁碟已滿", "主要資料庫的磁碟空間耗盡，寫入失敗。", "工程師清理日誌後，伺服器恢復正常。", "2022-08-17", nil, nil, nil),
		doc("2024-12-19-tw-certificate", "zh-TW", "zh-TW", "API 憑證過期", "API 閘道的 TLS 憑證過期，用戶端無法連線。", "更新憑證後恢復。", "2024-12-19", nil, nil, nil),
		doc("2022-04-01-ja-settlement", "ja", "ja", "決済バッチの遅延", "夜間の決済バッチが遅延し、加盟店への入金が遅れました。", "決済処理を再実行しました。", "2022-04-01", nil, nil, nil),
		doc("2023-12-29-ja-timeouts", "ja", "ja", "年末の決済タイムアウト", "年末の取引集中により決済がタイムアウトしました。", "サーバーを増設しました。", "2023-12-29", nil, nil, nil),
	}
}

// A Chinese or Japanese word typed with a character of the same sound,
// or a Japanese word left in kana, is searched respelled, and the
// response suggests the respelling.
func TestCJKTypos(t *testing.T) {
	t.Parallel()
	docs := cjkTypoDocs()
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct {
			q, lang, want string
			found         []string
		}{
			{"資料褲", "zh-TW", "資料庫", []string{docs[0].ID}},          // 褲 for 庫, both kù
			{"數據褲", "zh-TW", "數據庫", []string{docs[0].ID}},          // the Mainland's word, in Traditional
			{"数据裤", "zh-TW", "数据库", []string{docs[0].ID}},          // and in Simplified: 库, not 庫
			{"憑正 過期", "zh-TW", "憑證 過期", []string{docs[1].ID}},      // 正 for 證, zhèng
			{"伺服氣", "zh-TW", "伺服器", []string{docs[0].ID}},          // 氣 for 器, qì: a word of three
			{"決裁", "ja", "決済", []string{docs[2].ID, docs[3].ID}},   // 裁 for 済, さい
			{"けっさい", "ja", "決済", []string{docs[2].ID, docs[3].ID}}, // left in kana
			{"決裁 バッチ", "ja", "決済 バッチ", []string{docs[2].ID}},       // with a word typed right
			{"資料褲", "", "資料庫", []string{docs[0].ID}},               // a reader of neither: both readings
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: tc.lang})
			if resp.DidYouMean != tc.want {
				t.Errorf("%s: %q (%s): did you mean %q, want %q", name, tc.q, tc.lang, resp.DidYouMean, tc.want)
			}
			for _, id := range tc.found {
				if !slices.Contains(ids(resp), id) {
					t.Errorf("%s: %q (%s): %v lacks %s", name, tc.q, tc.lang, ids(resp), id)
				}
			}
		}
		// Words that find something, single characters, kana words
		// that are words, and words with nothing of the same sound
		// near are left alone.
		for _, tc := range []struct{ q, lang string }{
			{"資料庫", "zh-TW"}, {"憑證", "zh-TW"}, {"数据库", "zh-TW"}, {"決済", "ja"}, {"褲", "zh-TW"},
			{"裁", "ja"}, {"バッチ", "ja"}, {"タイムアウト", "ja"}, {"しました", "ja"}, {"鬱龘", "zh-TW"},
			{"けっ", "ja"}, {"ぬぬぬぬ", "ja"},
		} {
			if resp := search(t, ix, Request{Query: tc.q, Lang: tc.lang}); resp.DidYouMean != "" {
				t.Errorf("%s: %q (%s): did you mean %q", name, tc.q, tc.lang, resp.DidYouMean)
			}
		}
	}
}

// A query of many wrong characters tries at most maxRespellings
// candidates, however many its words have.
func TestRespellingsBounded(t *testing.T) {
	t.Parallel()
	ix := mustOpen(t, buildDir(t, cjkTypoDocs()))
	words := strings.Repeat("是是是是是是是是 ", 8) // shì: a hundred characters of its sound, none a word here
	p, err := newPlan(Request{Query: words + "けいけいけいけいけいけい"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ix.newRespeller(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.close()
	for _, c := range p.query.Clauses {
		if !respellable(c) {
			t.Fatalf("%q is not respelled", c.Value)
		}
		if _, err := rs.respell(c.Value); err != nil {
			t.Fatal(err)
		}
	}
	if rs.tried != maxRespellings {
		t.Errorf("tried %d candidates, want the bound, %d", rs.tried, maxRespellings)
	}
}

// A respelling in the reader's language comes before one found only in
// another's: 複正 of Chinese 恢復正常 is in more reports than 複製, but a
// pair that straddles two words there, and no Japanese reader's word.
func TestRespellingInReadersLanguage(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("2023-01-01-tw-a", "zh-TW", "zh-TW", "服務中斷", "服務於一小時後恢復正常。", "工程師重新啟動後恢復正常。", "2023-01-01", nil, nil, nil),
		doc("2023-01-02-tw-b", "zh-TW", "zh-TW", "延遲升高", "延遲於兩小時後恢復正常。", "流量回落後恢復正常。", "2023-01-02", nil, nil, nil),
		doc("2023-01-03-ja-c", "ja", "ja", "データの複製が遅延", "レプリカへの複製が遅れました。", "複製を再開しました。", "2023-01-03", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		resp := search(t, ix, Request{Query: "複成", Lang: "ja"})
		if resp.DidYouMean != "複製" || !slices.Equal(ids(resp), []string{docs[2].ID}) {
			t.Errorf("%s: 複成 (ja): did you mean %q, found %v; want 複製 and %s", name, resp.DidYouMean, ids(resp), docs[2].ID)
		}
	}
}
