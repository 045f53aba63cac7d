package content

import (
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/diag"
)

// A line break before a link is a space in English and nothing between
// Chinese characters, as everywhere else in the text: a line of the text
// is a block.
func TestLineBreaksBeforeLinks(t *testing.T) {
	cases := map[string]string{
		"compare how\n[the outage](../x/) went": "compare how [the outage] went",
		"請參閱\n[這起事故](../x/)。":                   "請參閱這起事故。",
		"see\n**this** and\n`code`":             "see this and code",
	}
	for body, want := range cases {
		var errs diag.List
		p := Parse("content/2021-01-01-x/en.md", "2021-01-01-x", "en", []byte("---\ntitle: x\n---\n"+body+"\n"), &errs)
		text, err := p.PlainText()
		if err != nil {
			t.Fatal(err)
		}
		got := strings.ReplaceAll(text, "[the outage]", "the outage")
		if want = strings.ReplaceAll(want, "[the outage]", "the outage"); got != want {
			t.Errorf("%q: text %q, want %q", body, got, want)
		}
	}
}

// Every block is a line of its own, and only blocks are: a heading is not
// run into the paragraph under it, a list item's paragraph leaves no
// empty line, and a table row is a line with its cells apart.
func TestPlainTextLinesAreBlocks(t *testing.T) {
	body := "## Impact\n\nOn Monday the API\n[failed](../x/) for\n**most** calls.\n\n" +
		"- 10:22 — Requests fail.\n- 10:52 — They recover.\n\n" +
		"| Region | Failed |\n|---|---|\n| us | 91% |\n| eu | |\n"
	var errs diag.List
	p := Parse("content/2021-01-01-x/en.md", "2021-01-01-x", "en", []byte("---\ntitle: x\n---\n"+body), &errs)
	want := "Impact\nOn Monday the API failed for most calls.\n10:22 — Requests fail.\n10:52 — They recover.\nRegion\tFailed\nus\t91%\neu"
	if got, err := p.PlainText(); err != nil || got != want {
		t.Errorf("text:\n%q\nwant\n%q", got, want)
	}
}

// The sections of a body are cut at its second-level headings, named by
// their ids; the text before the first heading is a section of its own,
// and a third-level heading stays in its section. The timeline's items
// are not in its section (the search indexes them as the timeline), but
// what an item holds after its event's text and the text after the list
// are.
func TestPlainSections(t *testing.T) {
	body := "Preamble.\n\n- A list.\n\n## Impact {#impact}\n\nUploads failed.\n\n" +
		"## Root cause {#root-cause}\n\nA cleanup job stalled.\n\n### Detail\n\nThe disk filled.\n\n## Timeline {#timeline}\n\n" +
		"- 10:22 — Fails.\n- 10:40 — **Paged**.\n\n  Nobody answered.\n\n  - The pager was off.\n- 10:52 — Recovers.\n\nTimes are UTC.\n"
	var errs diag.List
	p := Parse("content/2021-01-01-x/en.md", "2021-01-01-x", "en", []byte("---\ntitle: x\n---\n"+body), &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.Error())
	}
	want := []Section{
		{Text: "Preamble.\nA list."},
		{ID: "impact", Heading: "Impact", Text: "Uploads failed."},
		{ID: "root-cause", Heading: "Root cause", Text: "A cleanup job stalled.\nDetail\nThe disk filled."},
		{ID: "timeline", Heading: "Timeline", Text: "Nobody answered.\nThe pager was off.\nTimes are UTC."},
	}
	if got, err := p.PlainSections(); err != nil || !slices.Equal(got, want) {
		t.Errorf("sections:\n%q\nwant\n%q", got, want)
	}
}
