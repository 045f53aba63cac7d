package diag

import (
	"math/rand/v2"
	"testing"
)

// The bounded distance agrees with the full one wherever the full one is
// below the bound, and says "bound" otherwise.
func TestDistanceBelowMatchesFull(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]rune, r.IntN(12))
		for i := range b {
			b[i] = []rune("abcdeé_")[r.IntN(7)]
		}
		return string(b)
	}
	var rows [2][]int
	for range 20000 {
		a, b := word(), word()
		full := distance(a, b)
		bound := r.IntN(14)
		if got := distanceBelow([]rune(a), []rune(b), bound, &rows); got != min(full, bound) {
			t.Fatalf("distanceBelow(%q, %q, %d) = %d; the full distance is %d", a, b, bound, got, full)
		}
	}
}

// distance is checked against hand-computed values, so that the reference
// above is itself right.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"tiltle", "title", 1}, {"日本", "日本語", 1}} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d; want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []string{"title", "summary", "timezone", "begin", "end", "severity", "translated_from"}
	for word, want := range map[string]string{
		"Titel": "title", "sumary": "summary", "ende": "end", "k12345": "", "translatedfrom": "translated_from",
		"severty": "severity", "x": "", string(make([]byte, 5000)): "",
	} {
		if got := Nearest(word, keys); got != want {
			t.Errorf("Nearest(%q) = %q; want %q", word, got, want)
		}
	}
}

func BenchmarkNearestUnknownKey(b *testing.B) {
	keys := []string{"title", "summary", "timezone", "begin", "end", "ongoing", "organization",
		"products", "regions", "causes", "severity", "related", "sources", "draft",
		"translated_from", "import_id", "import_hash"}
	for b.Loop() {
		Nearest("k123456", keys)
	}
}
