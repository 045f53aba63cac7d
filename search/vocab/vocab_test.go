package vocab

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func sample() *Vocab {
	var b Builder
	b.Add([]string{"certificate", "certificates", "expired", "the"})
	b.Add([]string{"certificate", "certified", "rotation", "the"})
	b.Add([]string{"certification", "replication", "the"})
	b.Add([]string{"replica", "replicas", "資源"})
	return b.Vocab()
}

func words(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Word)
	}
	return out
}

func TestCompletions(t *testing.T) {
	t.Parallel()
	v := sample()
	if got := words(v.Completions("certi", 10)); !slices.Equal(got, []string{"certificate", "certificates", "certification", "certified"}) {
		t.Errorf("certi: %v", got)
	}
	if got := words(v.Completions("certi", 1)); !slices.Equal(got, []string{"certificate"}) {
		t.Errorf("certi, the most used: %v", got)
	}
	if got := v.Completions("zzz", 10); len(got) != 0 {
		t.Errorf("zzz: %v", got)
	}
	if v.Docs("the") != 3 || v.Docs("certificate") != 2 || v.Docs("nope") != 0 {
		t.Errorf("docs: the %d, certificate %d", v.Docs("the"), v.Docs("certificate"))
	}
}

func TestCorrections(t *testing.T) {
	t.Parallel()
	v := sample()
	for _, tc := range []struct {
		word string
		dist int
		want []string
	}{
		{"certifcate", 1, []string{"certificate"}},                  // deletion
		{"cretificate", 1, []string{"certificate"}},                 // transposition
		{"certificatd", 1, []string{"certificate"}},                 // substitution
		{"certificatess", 1, []string{"certificates"}},              // insertion
		{"certifcates", 2, []string{"certificates", "certificate"}}, // nearest first
		{"replca", 1, []string{"replica"}},
		{"expired", 1, nil}, // the word itself is no correction
		{"xyzzy", 2, nil},
	} {
		if got := words(v.Corrections(tc.word, tc.dist, 10)); !slices.Equal(got, tc.want) {
			t.Errorf("%s (%d): %v, want %v", tc.word, tc.dist, got, tc.want)
		}
	}
}

func TestReadWrite(t *testing.T) {
	t.Parallel()
	v := sample()
	path := filepath.Join(t.TempDir(), FileName)
	if err := Write(path, v); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.words, v.words) || !slices.Equal(got.docs, v.docs) {
		t.Errorf("read %v %v, wrote %v %v", got.words, got.docs, v.words, v.docs)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range orig {
		b := slices.Clone(orig)
		b[i] ^= 0x41
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
	}
	for _, n := range []int{0, 5, len(orig) - 1} {
		if err := os.WriteFile(path, orig[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
}

func BenchmarkCorrections(b *testing.B) {
	var bl Builder
	for i := range 50000 {
		bl.Add([]string{fmt.Sprintf("w%dord%c%c", i, 'a'+i%26, 'a'+i/26%26)})
	}
	v := bl.Vocab()
	b.ResetTimer()
	for b.Loop() {
		v.Corrections("wordzzq", 2, 8)
	}
}

func BenchmarkBuilderVocab(b *testing.B) {
	var bl Builder
	for i := range 30000 {
		bl.Add([]string{fmt.Sprintf("w%dord%c%c", i, 'a'+i%26, 'a'+i/26%26)})
	}
	for b.Loop() {
		bl.Vocab()
	}
}

// The bounded distance agrees with the full one wherever the full one is
// within the bound, and says "bound+1" otherwise.
func TestDistanceWithinMatchesFull(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]rune, r.IntN(12))
		for i := range b {
			b[i] = []rune("abcdeé_")[r.IntN(7)]
		}
		return string(b)
	}
	var d Distances
	for range 20000 {
		a, b := word(), word()
		full := d.Within([]rune(a), b, 100)
		bound := r.IntN(14)
		if got := d.Within([]rune(a), b, bound); got != min(full, bound+1) {
			t.Fatalf("Within(%q, %q, %d) = %d; the full distance is %d", a, b, bound, got, full)
		}
	}
}

// The full distance is checked against hand-computed values, so that the
// reference above is itself right.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"tiltle", "title", 1}, {"日本", "日本語", 1}, {"ab", "ba", 1}, {"latnecy", "latency", 1}} {
		var d Distances
		if got := d.Within([]rune(c.a), c.b, 100); got != c.want {
			t.Errorf("distance(%q, %q) = %d; want %d", c.a, c.b, got, c.want)
		}
	}
}
