package diag

import (
	"errors"
	"testing"
)

// TestErrorText: a problem says where it is as far as it is known, and
// one that is about no file (a failed write) is its message alone.
func TestErrorText(t *testing.T) {
	var l List
	l.Add("content/a/en.md", 3, 7, "no title")
	l.Add("content/b/en.md", 2, 0, "bad date")
	l.Add("content/c/en.md", 0, 0, "empty")
	l.AddError(errors.New("writing public/index.html: disk full"))
	want := "writing public/index.html: disk full\ncontent/a/en.md:3:7: no title\ncontent/b/en.md:2: bad date\ncontent/c/en.md: empty"
	if got := l.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
