package content

import (
	"slices"
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
