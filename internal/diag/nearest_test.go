package diag

import "testing"

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
