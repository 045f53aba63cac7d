package content

import (
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/diag"
)

// A line break before a link is a space in English and nothing between
// Chinese characters, as everywhere else in the text.
func TestLineBreaksBeforeLinks(t *testing.T) {
	cases := map[string]string{
		"compare how\n[the outage](../x/) went": "compare how\n[the outage] went",
		"請參閱\n[這起事故](../x/)。":                   "請參閱這起事故。",
		"see\n**this** and\n`code`":             "see\nthis and\ncode",
	}
	for body, want := range cases {
		var errs diag.List
		p := Parse("content/2021-01-01-x/en.md", "2021-01-01-x", "en", []byte("---\ntitle: x\n---\n"+body+"\n"), &errs)
		got := strings.ReplaceAll(p.PlainText(), "[the outage]", "the outage")
		if want = strings.ReplaceAll(want, "[the outage]", "the outage"); got != want {
			t.Errorf("%q: text %q, want %q", body, got, want)
		}
	}
}
