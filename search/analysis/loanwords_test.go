package analysis

import (
	"slices"
	"testing"
)

func TestLoanWordings(t *testing.T) {
	t.Parallel()
	for s, want := range map[string][]string{
		"サーバー":           {"サーバ", "server"},
		"サーバ":            {"server"},
		"サーバー障害":         {"サーバ障害"},
		"ログイン":           {"login"},
		"Login":          {"ログイン"},
		"load  balancer": {"ロードバランサ"},
		"ロードバランサ":        {"load balancer"},
		"キュー":            {"queue"}, // キュ alone is too short to search
		"アプリ":            {"application"},
		"application":    {"アプリケーション", "アプリ"},
		"証明書":            nil, // no loanword
		"DNS":            nil,
	} {
		if got := loanWordings(s); !slices.Equal(got, want) {
			t.Errorf("loanWordings(%q) = %q, want %q", s, got, want)
		}
	}
	if n := len(Loanwords()); n < 30 || n > 60 {
		t.Errorf("%d loanwords, want 30 to 60", n)
	}
}
