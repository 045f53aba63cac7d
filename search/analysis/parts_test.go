package analysis

import (
	"slices"
	"testing"
)

func TestParts(t *testing.T) {
	t.Parallel()
	for s, want := range map[string][]string{
		"硬碟故障":     {"硬碟", "碟故", "故障"},
		"サーバ障害":    {"サーバ", "障害"},
		"サーバーの障害":  {"サーバ", "障害"},
		"決済エラー":    {"決済", "エラー"},
		"資料庫":      {"資料", "料庫"},
		"硬碟":       nil, // one word
		"サーバー":     nil,
		"disk故障":   nil, // not a CJK run
		"ログインできない": nil, // one part, the rest hiragana
	} {
		if got := Parts(s); !slices.Equal(got, want) {
			t.Errorf("Parts(%q) = %q, want %q", s, got, want)
		}
	}
}
