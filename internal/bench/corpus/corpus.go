// Package corpus generates deterministic, realistic synthetic incident archives for benchmarks and tests.
//
// Generate writes dir/content/<id>/<lang>.md files in the project's content
// format: one original per incident holding its facts in YAML front matter
// (as published reports vary: a severity for some, no end for an incident
// still going on, no products for a company's report on its own service),
// and one translation per other language holding only title and summary.
// The output is a pure function of Options: the same options give
// byte-identical files, whatever the number of CPUs.
//
// Text is assembled from grammar templates and large word lists, so that
// term frequencies look like real prose (a long tail of distinct words, not
// one repeated paragraph). English bodies have 800–1,200 words; Chinese and
// Japanese bodies have 1,500–2,500 CJK characters (Han, Hiragana and
// Katakana runes). With Options.VariedLength, reports range as published
// ones do, from a status page's short note to a long postmortem (Length).
package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	_ "time/tzdata" // zones resolve even on machines without a zoneinfo database
)

// Options control what Generate produces.
type Options struct {
	N     int      // number of incidents
	Langs []string // languages; the first is the original of most incidents. Empty means {"en"}.
	Seed  int64    // everything is derived from this seed
	// VariedLength gives reports the range of lengths of a real archive
	// (Length): short status page notes, regular reports, long
	// postmortems. Off, every report is Regular, as benchmarks expect;
	// on, the Regular ones are byte for byte what they are off.
	VariedLength bool
}

// Length is how long a report is.
type Length int8

const (
	// Regular reports have 800–1,200 words (1,500–2,500 CJK characters).
	Regular Length = iota
	// Short reports are a status page's note: 150–400 words (300–800 CJK
	// characters), a timeline of three or four items, one or two action
	// items, no table.
	Short
	// Long reports are a detailed postmortem: 2,500–5,000 words
	// (4,800–9,500 CJK characters).
	Long
)

// SupportedLangs lists the language tags the generator can write.
var SupportedLangs = []string{"en", "zh-TW", "ja", "zh-CN"}

// Incident is the planned metadata of one generated incident.
type Incident struct {
	ID    string
	Zone  string    // IANA zone name
	Begin time.Time // in Zone
	End   time.Time // in Zone; the text's mitigation time, also when Ongoing
	// Ongoing incidents' files state no end but `ongoing: true`.
	Ongoing bool
	// Organization is whose incident it is: the vendor ("Google Cloud"),
	// or for a SaaS product its company ("GitHub").
	Organization string
	Products     []string // named in the text; in the front matter unless NoProducts
	// NoProducts files list no products: a company's report on its own
	// service.
	NoProducts bool
	Regions    []string
	Causes     []string
	Severity   string   // "" when the report states none
	Related    []string // ids of earlier incidents
	Original   string   // language of the original file
	Langs      []string // every language written for this incident
	Overlaps   string   // id of an earlier incident this one was placed to overlap ("" if none)
	HasTable   bool     // body contains a GFM table (every language)
	Length     Length   // Regular unless Options.VariedLength

	seed    uint64
	vendor  int
	fm      int   // index into failModes
	causeIx []int // indexes into causes
}

// Stats summarises what Generate wrote.
type Stats struct {
	Incidents int
	Files     int
	Bytes     int64
}

// Generate writes o.N incidents under dir/content. Existing files with the
// same names are overwritten; other files are left alone.
func Generate(dir string, o Options) error {
	_, err := GenerateStats(dir, o)
	return err
}

// GenerateStats is Generate that also reports counts. Incidents are planned
// first (small metadata only), then rendered and written in parallel, one
// incident at a time per worker, so memory stays bounded.
func GenerateStats(dir string, o Options) (Stats, error) {
	incs, err := Plan(o)
	if err != nil {
		return Stats{}, err
	}
	content := filepath.Join(dir, "content")
	if err := os.MkdirAll(content, 0o755); err != nil {
		return Stats{}, err
	}
	workers := min(runtime.GOMAXPROCS(0), max(len(incs), 1))
	var (
		next  atomic.Int64
		files atomic.Int64
		bytes atomic.Int64
		wg    sync.WaitGroup
		emu   sync.Mutex
		first error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newRenderer()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(incs) {
					return
				}
				n, b, err := r.writeIncident(content, &incs[i])
				files.Add(int64(n))
				bytes.Add(b)
				if err != nil {
					emu.Lock()
					if first == nil {
						first = err
					}
					emu.Unlock()
					next.Store(int64(len(incs))) // stop the other workers
					return
				}
			}
		}()
	}
	wg.Wait()
	st := Stats{Incidents: len(incs), Files: int(files.Load()), Bytes: bytes.Load()}
	return st, first
}

// Originals tells, by incident id, the language of each incident's
// original, the file that holds its facts, in the archive Generate
// writes with o.
func Originals(o Options) (map[string]string, error) {
	incs, err := Plan(o)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(incs))
	for _, inc := range incs {
		out[inc.ID] = inc.Original
	}
	return out, nil
}

// WriteIncident writes every language file of one planned incident under
// dir/content/<id>/. Useful for tests that need a single incident on disk.
func WriteIncident(dir string, inc *Incident) error {
	_, _, err := newRenderer().writeIncident(filepath.Join(dir, "content"), inc)
	return err
}

// Render returns the Markdown file of one incident in one language (the
// original if lang == inc.Original, else a translation).
func Render(inc *Incident, lang string) ([]byte, error) {
	if !hasLang(inc.Langs, lang) {
		return nil, fmt.Errorf("corpus: incident %s has no language %q", inc.ID, lang)
	}
	r := newRenderer()
	st := r.story(inc)
	return r.file(inc, st, lang), nil
}

func (r *renderer) writeIncident(content string, inc *Incident) (files int, bytes int64, err error) {
	d := filepath.Join(content, inc.ID)
	if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return 0, 0, err
		}
	}
	st := r.story(inc)
	for _, lang := range inc.Langs {
		b := r.file(inc, st, lang)
		if err := os.WriteFile(filepath.Join(d, lang+".md"), b, 0o644); err != nil {
			return files, bytes, err
		}
		files++
		bytes += int64(len(b))
	}
	return files, bytes, nil
}

func (o Options) normalized() (Options, error) {
	if o.N < 0 {
		return o, errors.New("corpus: N must not be negative")
	}
	if len(o.Langs) == 0 {
		o.Langs = []string{"en"}
	}
	seen := map[string]bool{}
	for _, l := range o.Langs {
		if !hasLang(SupportedLangs, l) {
			return o, fmt.Errorf("corpus: unsupported language %q (supported: %v)", l, SupportedLangs)
		}
		if seen[l] {
			return o, fmt.Errorf("corpus: language %q listed twice", l)
		}
		seen[l] = true
	}
	o.Langs = append([]string(nil), o.Langs...)
	return o, nil
}

func hasLang(list []string, l string) bool {
	for _, x := range list {
		if x == l {
			return true
		}
	}
	return false
}
