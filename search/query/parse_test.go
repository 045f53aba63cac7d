package query

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	show := func(p *Query) string {
		var parts []string
		for _, c := range p.Clauses {
			s := ""
			if c.Neg {
				s = "-"
			}
			switch c.Kind {
			case Text:
				if c.Field != "" {
					s += c.Field + ":"
				}
			case Meta:
				s += "meta:" + c.Field + ":"
			case Year:
				s += "year:"
			}
			parts = append(parts, s+"["+c.Value+"]")
		}
		for _, l := range p.Langs {
			parts = append(parts, "lang="+l)
		}
		for _, l := range p.NotLangs {
			parts = append(parts, "lang!="+l)
		}
		return strings.Join(parts, " ")
	}
	for _, tc := range []struct{ in, want string }{
		{``, ``},
		{`Gmail`, `[Gmail]`},
		{`ＡＢＣ１２３ ｐｒｏｄｕｃｔ：ｘ`, `[ABC123] [product：x]`}, // full-width letters and digits narrowed, not punctuation
		{`  Cloud   SQL `, `[Cloud] [SQL]`},
		{`"Cloud SQL" outage`, `[Cloud SQL] [outage]`},
		{`"unterminated phrase`, `[unterminated phrase]`},
		{`-Gmail +Drive`, `-[Gmail] [Drive]`},
		{`-"a b"`, `-[a b]`},
		{`- Gmail`, `[Gmail]`},
		{`Pub/Sub europe-west2`, `[Pub/Sub] [europe-west2]`},
		{`資源耗盡`, `[資源耗盡]`},
		// Latin letters or digits and CJK together are words, as the
		// index cuts them; names of pieces stay whole.
		{`NFS宕机 Webhook遅延`, `[NFS] [宕机] [Webhook] [遅延]`},
		{`ＮＦＳ宕机`, `[NFS] [宕机]`},
		{`宕机NFS宕机`, `[宕机] [NFS] [宕机]`},
		{`v2.3版本 Pub/Sub服務 us-east-1區域`, `[v2.3] [版本] [Pub/Sub] [服務] [us-east-1] [區域]`},
		{`2024年`, `[2024] [年]`},
		{`サーバー障害 NFS-宕机 NFS서버`, `[サーバー障害] [NFS-宕机] [NFS서버]`},
		{`-NFS宕机`, `-[NFS宕机]`},
		{`「資源耗盡」 “quota”`, `[資源耗盡] [quota]`},
		{`title:Gmail`, `title:[Gmail]`},
		{`TITLE:"Gmail outage"`, `title:[Gmail outage]`},
		{`title:"Gmail`, `title:[Gmail]`},
		{`title:`, ``},
		{`title:(`, ``},
		{`title:(a b)`, `title:[(a] [b)]`},
		{`product:"Cloud Pub/Sub" region:europe-west2 cause:bug`, `meta:product:[Cloud Pub/Sub] meta:region:[europe-west2] meta:cause:[bug]`},
		{`-product:Gmail`, `-meta:product:[Gmail]`},
		{`year:2017 -year:2018`, `year:[2017] -year:[2018]`},
		{`lang:zh-tw -lang:EN`, `lang=zh-TW lang!=en`},
		{`foo:bar`, `[foo:bar]`},
		{`http://x.y/z`, `[http://x.y/z]`},
		{`a"b"c`, `[a] [b] [c]`},
		{`* / :: - " ( )`, ``},
		{"\x00Gmail\xff", `[Gmail]`},
		{"Gmail\u3000Drive", `[Gmail] [Drive]`},
	} {
		p, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := show(p); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{
		strings.Repeat("a", MaxQueryRunes+1),
		strings.Repeat("w ", MaxClauses+1),
		"year:17", "year:abc", "year:2017.5", "lang:!!", "lang:123",
	} {
		if _, err := Parse(in); !errors.Is(err, ErrBadQuery) {
			t.Errorf("Parse(%.30q): %v, want ErrBadQuery", in, err)
		}
	}
	if _, err := Parse(strings.Repeat("資", MaxQueryRunes)); err != nil {
		t.Errorf("query of MaxQueryRunes: %v", err)
	}
}

// A bare word knows where it stands, so that a correction can replace it.
func TestReplace(t *testing.T) {
	t.Parallel()
	p, err := Parse(`title:x "a b" 資源 certifcate -rollbak NFZ宕机`)
	if err != nil {
		t.Fatal(err)
	}
	var bare []string
	for i, c := range p.Clauses {
		if c.Bare {
			bare = append(bare, c.Value)
			if c.Value == "certifcate" {
				if got := p.Replace(i, "certificate"); got != `title:x "a b" 資源 certificate -rollbak NFZ宕机` {
					t.Errorf("Replace: %q", got)
				}
			}
			if c.Value == "NFZ" {
				if got := p.Replace(i, "NFS"); got != `title:x "a b" 資源 certifcate -rollbak NFS宕机` {
					t.Errorf("Replace: %q", got)
				}
			}
		}
	}
	if strings.Join(bare, " ") != "資源 certifcate rollbak NFZ 宕机" {
		t.Errorf("bare words %q", bare)
	}
}

func TestProblemsNameTheirMessage(t *testing.T) {
	_, err := Parse("year:20x")
	var p *Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrBadQuery) {
		t.Fatalf("Parse(year:20x): %v, want a Problem wrapping ErrBadQuery", err)
	}
	if p.Key != "search_error_year" || err.Error() != "bad query: year:20x is not a year (try year:2017)" {
		t.Errorf("problem %q: %q", p.Key, err)
	}
}
