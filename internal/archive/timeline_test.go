package archive_test

import (
	"reflect"
	"testing"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/corpus"
)

// TestTimelinesAsPlaced: the timelines the archive keeps in its own
// form give back the events as placed from each file's marks, instants,
// anchors (several events in one minute among them), texts and days, the
// original's and each translation's.
func TestTimelinesAsPlaced(t *testing.T) {
	dir := t.TempDir()
	langs := []string{"en", "zh-TW"}
	if err := corpus.Generate(dir, corpus.Options{N: 120, Langs: langs, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	pages, err := content.Load(dir, langs, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := archive.Link(pages, langs, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	events, sameMinute := 0, 0
	for _, inc := range a.Incidents {
		want, errs := content.PlaceEvents(inc.Original.Timeline, inc.Location)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := inc.Events(); !reflect.DeepEqual(got, want) || inc.EventCount() != len(want) {
			t.Fatalf("%s: events\n%+v\nwant\n%+v", inc.ID, got, want)
		}
		for i := 1; i < len(want); i++ {
			if want[i].Instant.Equal(want[i-1].Instant) {
				sameMinute++
			}
		}
		events += len(want)
		for lang, p := range inc.Versions {
			placed, errs := content.PlaceEvents(p.Timeline, inc.Location)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := inc.Timeline(lang); !reflect.DeepEqual(got, placed) {
				t.Fatalf("%s in %s: timeline\n%+v\nwant\n%+v", inc.ID, lang, got, placed)
			}
		}
	}
	if events < 600 {
		t.Errorf("%d events in all: too few to tell", events)
	}
	t.Logf("%d events, %d in the minute of the one before", events, sameMinute)
}
