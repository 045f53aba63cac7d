package content

import (
	"bytes"
	"encoding/gob"
	"testing"
)

// TestEarlierDamagedCountIsAnError: a saved count of pages that is
// negative or far more than follow is an error, not a panic or a huge
// allocation.
func TestEarlierDamagedCountIsAnError(t *testing.T) {
	for _, n := range []int{-1, 1 << 40} {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(earlierHeader{Format: earlierFormat, Key: "k", Pages: n}); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadEarlier(&b, "k"); err == nil {
			t.Errorf("a count of %d pages with none after it read without an error", n)
		}
	}
}
