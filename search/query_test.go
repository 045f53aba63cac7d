package search

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	show := func(p *parsedQuery) string {
		var parts []string
		for _, c := range p.clauses {
			s := ""
			if c.neg {
				s = "-"
			}
			switch c.kind {
			case kindText:
				if c.field != "" {
					s += c.field + ":"
				}
			case kindMeta:
				s += "meta:" + c.field + ":"
			case kindYear:
				s += "year:"
			}
			parts = append(parts, s+"["+c.value+"]")
		}
		for _, l := range p.langs {
			parts = append(parts, "lang="+l)
		}
		for _, l := range p.notLangs {
			parts = append(parts, "lang!="+l)
		}
		return strings.Join(parts, " ")
	}
	for _, tc := range []struct{ in, want string }{
		{``, ``},
		{`Gmail`, `[Gmail]`},
		{`  Cloud   SQL `, `[Cloud] [SQL]`},
		{`"Cloud SQL" outage`, `[Cloud SQL] [outage]`},
		{`"unterminated phrase`, `[unterminated phrase]`},
		{`-Gmail +Drive`, `-[Gmail] [Drive]`},
		{`-"a b"`, `-[a b]`},
		{`- Gmail`, `[Gmail]`},
		{`Pub/Sub europe-west2`, `[Pub/Sub] [europe-west2]`},
		{`資源耗盡`, `[資源耗盡]`},
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
		p, err := parseQuery(tc.in)
		if err != nil {
			t.Errorf("parseQuery(%q): %v", tc.in, err)
			continue
		}
		if got := show(p); got != tc.want {
			t.Errorf("parseQuery(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{
		strings.Repeat("a", MaxQueryRunes+1),
		strings.Repeat("w ", MaxClauses+1),
		"year:17", "year:abc", "year:2017.5", "lang:!!", "lang:123",
	} {
		if _, err := parseQuery(in); !errors.Is(err, ErrBadQuery) {
			t.Errorf("parseQuery(%.30q): %v, want ErrBadQuery", in, err)
		}
	}
	if _, err := parseQuery(strings.Repeat("資", MaxQueryRunes)); err != nil {
		t.Errorf("query of MaxQueryRunes: %v", err)
	}
}

func TestAnalyzerFor(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "en", "en-GB": "en", "zh-TW": "cjk", "zh-Hant-TW": "cjk", "zh": "cjk", "ja": "cjk", "ko": "cjk",
		"fr": "standard", "de": "standard", "pt-BR": "standard",
	} {
		if got := analyzerFor(lang); got != want {
			t.Errorf("analyzerFor(%s) = %s, want %s", lang, got, want)
		}
	}
}

// The query built for a language depends only on the query: built twice it
// is the same (no map order), and terms are analysed with that language's
// analyzer.
func TestLangQueries(t *testing.T) {
	var out []string
	for _, lang := range []string{"en", "zh-TW"} {
		m, err := newMapping(lang)
		if err != nil {
			t.Fatal(err)
		}
		b, err := newLangBuilder(lang, m)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseQuery(`overloaded 資源耗盡 -the product:"Cloud SQL"`)
		if err != nil {
			t.Fatal(err)
		}
		var first string
		for i := range 20 {
			lq, err := b.build(p, filters{year: 2017})
			if err != nil {
				t.Fatal(err)
			}
			j, err := json.Marshal([]any{lq.match, lq.exclude})
			if err != nil {
				t.Fatal(err)
			}
			s := string(j)
			if i == 0 {
				first = s
			} else if s != first {
				t.Fatalf("%s: query differs between builds", lang)
			}
		}
		out = append(out, first)
	}
	// en: stemmed "overload", single-character phrase for Chinese; the
	// stop word "the" excludes nothing. zh-TW: bigrams.
	for _, want := range []string{`"overload"`, `"資"`} {
		if !strings.Contains(out[0], want) {
			t.Errorf("en query lacks %s", want)
		}
	}
	for _, want := range []string{`"overloaded"`, `"資源"`, `"源耗"`, `"耗盡"`, `"the"`} {
		if !strings.Contains(out[1], want) {
			t.Errorf("zh-TW query lacks %s", want)
		}
	}
	if strings.Contains(out[0], `"the"`) {
		t.Error("en query searches the stop word")
	}
}
