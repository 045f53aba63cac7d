package archive_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/content"
)

// TestTimelinesAsPlaced: the timelines the archive keeps in its own
// form give back the events as placed from each file's marks, instants,
// anchors (several events in one minute among them), texts and days, the
// original's and each translation's; and the same once their texts are
// moved to a file (MoveTexts).
func TestTimelinesAsPlaced(t *testing.T) {
	a := linkedCorpus(t, 120)
	checkTimelines(t, a)
	f, err := os.Create(filepath.Join(t.TempDir(), "texts"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := a.MoveTexts(f, f); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() < 10000 {
		t.Fatalf("%d bytes of texts moved: the texts were not moved", st.Size())
	}
	checkTimelines(t, a)
	if err := a.TextsErr(); err != nil {
		t.Fatal(err)
	}
}

// TestMovedTextsFailing: a failed write of the texts leaves the archive
// as it was; a failed read gives blank texts and an error, never a crash.
func TestMovedTextsFailing(t *testing.T) {
	a := linkedCorpus(t, 120)
	broken := failing{}
	if err := a.MoveTexts(broken, broken); err == nil {
		t.Fatal("a failed write: no error")
	}
	checkTimelines(t, a)
	if err := a.MoveTexts(io.Discard, broken); err != nil {
		t.Fatal(err)
	}
	for _, inc := range a.Incidents {
		for _, e := range inc.Timeline("zh-TW") {
			if strings.Trim(e.Text, "\x00") != "" {
				t.Fatalf("%s: a text read from a failing file: %q", inc.ID, e.Text)
			}
		}
	}
	if err := a.TextsErr(); err == nil || !strings.Contains(err.Error(), "reading the timelines' texts back") {
		t.Fatalf("error %v, want one reading the texts back", err)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error)         { return 0, errors.New("disk full") }
func (failing) ReadAt([]byte, int64) (int, error) { return 0, errors.New("I/O error") }

// linkedCorpus links a generated archive of n incidents in English and
// Traditional Chinese.
func linkedCorpus(t *testing.T, n int) *archive.Archive {
	t.Helper()
	dir := t.TempDir()
	langs := []string{"en", "zh-TW"}
	if err := corpus.Generate(dir, corpus.Options{N: n, Langs: langs, Seed: 4}); err != nil {
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
	return a
}

// checkTimelines checks every incident's events, in every language, against
// those placed from its files' marks.
func checkTimelines(t *testing.T, a *archive.Archive) {
	t.Helper()
	events, sameMinute := 0, 0
	for _, inc := range a.Incidents {
		want, errs := content.PlaceEvents(inc.Original.File, inc.Original.Timeline, inc.Location)
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
			placed, errs := content.PlaceEvents(p.File, p.Timeline, inc.Location)
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
