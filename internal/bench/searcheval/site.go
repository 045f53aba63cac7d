package searcheval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/search"
)

// Site says what the judged site holds besides the hand-written incidents:
// generated incidents (internal/bench/corpus) that share their products and
// vocabulary, so that a query has to find the judged incidents among
// many that use the same words.
type Site struct {
	Distractors int   // number of generated incidents; 0 for none
	Seed        int64 // the generator's seed
	// VariedLength makes the generated incidents as long as a real
	// archive's (corpus.Options.VariedLength), many as short as the
	// hand-written ones: else every one is longer than every hand-written
	// incident, and an engine that favours short reports finds the
	// judged ones for their length alone.
	VariedLength bool
	// WithoutJudged leaves the hand-written incidents out: the archive of
	// CauseQueries.
	WithoutJudged bool
}

// langs are the languages of the generated incidents.
func (s Site) langs() []string { return []string{"en", "zh-TW"} }

func (s Site) corpusOptions() corpus.Options {
	return corpus.Options{N: s.Distractors, Langs: s.langs(), Seed: s.Seed, VariedLength: s.VariedLength}
}

// Write writes the judged site's sources into dir (which must not hold a
// content/ folder yet): the generated incidents in English and Traditional
// Chinese, then the hand-written ones, which must not share an id with a
// generated one.
func (s Site) Write(dir string) error {
	if s.Distractors > 0 {
		err := corpus.Generate(dir, s.corpusOptions())
		if err != nil {
			return fmt.Errorf("generating %d incidents: %w", s.Distractors, err)
		}
	}
	if s.WithoutJudged {
		return nil
	}
	fixture, err := fs.Sub(siteFS, "testdata/site")
	if err != nil {
		return err
	}
	ids, err := FixtureIDs()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := os.Stat(filepath.Join(dir, "content", id)); err == nil {
			return fmt.Errorf("generated incident %s has the id of a judged one; choose another seed or rename the judged incident", id)
		}
	}
	// CopyFS refuses to overwrite, so a clash it meets is an error too.
	if err := os.CopyFS(dir, fixture); err != nil {
		return fmt.Errorf("copying the judged incidents: %w", err)
	}
	return nil
}

// Build writes the judged site into dir and builds it with gen build into
// dir/public, which it returns.
func (s Site) Build(dir string) (string, error) {
	if err := s.Write(dir); err != nil {
		return "", err
	}
	public := filepath.Join(dir, "public")
	if _, err := build.Run(build.Options{Source: dir, Dest: public, BaseURL: "http://127.0.0.1:1313/", Generator: "gen searcheval"}); err != nil {
		return "", fmt.Errorf("building the judged site: %w", err)
	}
	return public, nil
}

// OpenIndex opens the search index of a site gen built into public.
func OpenIndex(public string) (*search.Index, error) {
	dir, err := output.BundleOf(public)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", public, err)
	}
	return search.Open(filepath.Join(dir, bundle.IndexDir))
}
