package content_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
)

// BenchmarkUnknownKeys decodes front matter of 350,000 unknown keys: the
// cost of the errors, not of guessing what each key meant.
func BenchmarkUnknownKeys(b *testing.B) {
	var s strings.Builder
	s.WriteString("---\n")
	for i := range 350000 {
		fmt.Fprintf(&s, "k%d: x\n", i)
	}
	s.WriteString("---\n\nbody\n")
	src := []byte(s.String())
	for b.Loop() {
		var errs diag.List
		content.ParseMeta("en.md", src, &errs)
	}
}
