package search

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/query"
)

func TestAnalyzerFor(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "en", "en-GB": "en", "zh-TW": "cjk", "zh-Hant-TW": "cjk", "zh": "cjk", "ja": "cjk", "ko": "cjk",
		"fr": "standard", "de": "standard", "pt-BR": "standard",
	} {
		if got := analysis.For(lang); got != want {
			t.Errorf("analysis.For(%s) = %s, want %s", lang, got, want)
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
		p, err := query.Parse(`overloaded 資源耗盡 -the product:"Cloud SQL"`)
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
