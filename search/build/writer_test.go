package build

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/search/schema"
)

// TestFinishDropsALanguagesTerms: once a language is finished, the memory
// kept to analyse its documents is let go, and none handed back is kept.
func TestFinishDropsALanguagesTerms(t *testing.T) {
	t.Parallel()
	w, err := Create(filepath.Join(t.TempDir(), "search"), []string{"en", "zh-TW"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		d := schema.Document{ID: fmt.Sprintf("2020-01-%02d-outage", i+1), Lang: "en", Title: "Outage", Summary: "Requests failed.",
			Body: strings.Repeat("The storage layer overloaded and requests failed. ", 40), Begin: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	w.Finish("en")
	w.Finish("fr") // no such language: nothing to do
	en := &w.langs["en"].terms
	if !en.Dropped() {
		t.Error("English's terms are kept after Finish")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
