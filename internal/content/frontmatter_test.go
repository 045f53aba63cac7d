package content

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Every key a message lists is one decodeMeta reads, and the other way
// round: a key added to one and not the other would be rejected as unknown
// or never suggested.
func TestKnownKeysAreDecoded(t *testing.T) {
	for _, k := range knownKeys {
		if _, ok := metaKeys[k]; !ok && k != "sources" {
			t.Errorf("known key %q is not decoded", k)
		}
	}
	for k := range metaKeys {
		if !slices.Contains(knownKeys, k) {
			t.Errorf("decoded key %q is not in knownKeys", k)
		}
	}
}

// Optional facts decode into place; ongoing is true or false.
func TestOptionalFactsDecode(t *testing.T) {
	var errs diag.List
	src := "---\ntitle: T\nsummary: S.\ntimezone: UTC\nbegin: 2022-07-19 17:00\nongoing: true\norganization: GitHub\n---\n"
	p := Parse("content/2022-07-19-x/en.md", "2022-07-19-x", "en", []byte(src), &errs)
	if errs.Len() > 0 || p == nil {
		t.Fatalf("errors: %v", errs.Err())
	}
	m := p.Meta
	if !m.Ongoing || m.OngoingPos.Line != 6 || m.Organization.V != "GitHub" || m.End.Given() || m.Severity.Given() {
		t.Errorf("decoded %+v", m)
	}
	Parse("content/2022-07-19-x/en.md", "2022-07-19-x", "en", []byte("---\ntitle: T\nongoing: maybe\n---\n"), &errs)
	if errs.Len() != 1 || errs.Errors()[0].Line != 3 || errs.Errors()[0].Col != 10 {
		t.Errorf("ongoing: maybe gave %v; want one error at 3:10", errs.Err())
	}
}

// A misspelt key gets a suggestion, but only among a file's first
// suggestedKeys unknown keys: past them every key is told to go, so that a
// file of junk keys costs no guessing.
func TestUnknownKeySuggestionsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntitel: T\n")
	for i := range suggestedKeys {
		fmt.Fprintf(&b, "k%d: x\n", i)
	}
	b.WriteString("sumary: S\n---\n")
	var errs diag.List
	ParseMeta("en.md", []byte(b.String()), &errs)
	all := errs.Errors()
	if len(all) != suggestedKeys+2 {
		t.Fatalf("%d errors; want %d", len(all), suggestedKeys+2)
	}
	if first := all[0].Error(); !strings.Contains(first, `unknown front-matter key "titel"; did you mean "title"?`) {
		t.Errorf("first error %q suggests nothing", first)
	}
	if last := all[len(all)-1].Error(); !strings.Contains(last, `unknown front-matter key "sumary"; remove it`) {
		t.Errorf("last error %q; want no suggestion past the first %d unknown keys", last, suggestedKeys)
	}
}
