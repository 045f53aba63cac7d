package search

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/search/query"
	"github.com/postmortem-archive/gen/search/schema"
)

// The query built for a language depends only on the query: built twice it
// is the same (no map order), and terms are analysed with that language's
// analyzer.
func TestLangQueries(t *testing.T) {
	t.Parallel()
	var out []string
	for _, lang := range []string{"en", "zh-TW"} {
		m, err := schema.Mapping(lang)
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
			queries, err := b.build(p, filters{year: 2017}, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			j, err := json.Marshal([]any{queries.match, queries.exclude})
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
	// stop word "the" excludes nothing. zh-TW: bigrams, folded into
	// Simplified (資源耗盡 → 资源耗尽).
	for _, want := range []string{`"overload"`, `"資"`} {
		if !strings.Contains(out[0], want) {
			t.Errorf("en query lacks %s", want)
		}
	}
	for _, want := range []string{`"overloaded"`, `"资源"`, `"源耗"`, `"耗尽"`, `"the"`} {
		if !strings.Contains(out[1], want) {
			t.Errorf("zh-TW query lacks %s", want)
		}
	}
	if strings.Contains(out[0], `"the"`) {
		t.Error("en query searches the stop word")
	}
}
