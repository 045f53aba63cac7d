package analysis

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/mapping"
)

// Each bigram PhraseBigrams gives is one the analysis of the phrase as
// written makes: what the index holds for it.
func TestPhraseBigrams(t *testing.T) {
	if got := PhraseBigrams("宕"); !slices.Equal(got, []string{"死机"}) {
		t.Errorf("PhraseBigrams(宕) = %v, want [死机]", got)
	}
	if got := PhraseBigrams("故"); got != nil {
		t.Errorf("PhraseBigrams(故) = %v, want none: the fold writes 故 alike everywhere", got)
	}
	for _, bg := range PhraseBigrams("宕") {
		if utf8.RuneCountInString(bg) != 2 {
			t.Errorf("%q is no bigram", bg)
		}
	}
	if !slices.Contains(bigramTerms(t, "服务器宕机"), "死机") {
		t.Errorf("the analysis of 服务器宕机 has no 死机: %v", bigramTerms(t, "服务器宕机"))
	}
}

// bigramTerms returns the terms of the Chinese analysis of s.
func bigramTerms(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, tok := range mapping.NewIndexMapping().AnalyzerNamed(For("zh-CN")).Analyze([]byte(s)) {
		out = append(out, string(tok.Term))
	}
	return out
}
