package analysis

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// lowersToASCII names every character outside ASCII that unicode.ToLower
// turns into ASCII.
func TestLowersToASCII(t *testing.T) {
	t.Parallel()
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if want := unicode.ToLower(r) < utf8.RuneSelf; lowersToASCII(r) != want {
			t.Errorf("%U: lowersToASCII %v, unicode.ToLower %U", r, !want, unicode.ToLower(r))
		}
	}
}
