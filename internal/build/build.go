// Package build runs the pipeline once: load the content, link it into an
// archive, render every file and write them into a staging folder that
// replaces the output only when everything succeeded.
package build

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/yuin/goldmark/ast"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
)

// Options say what to build and where.
type Options struct {
	Source    string // site folder holding content/, and optionally layouts/ and i18n/
	Dest      string // output folder
	BaseURL   string // absolute URL the site is served from
	Drafts    bool   // include draft incidents
	Generator string // "gen <version>"
	// Cold renders every page, even when the previous output could be
	// carried over.
	Cold bool
	// Sitemap bounds each file of the sitemap; the zero value is the
	// protocol's limits (tests pass smaller ones).
	Sitemap render.SitemapLimits
}

// Result summarises a successful build.
type Result struct {
	Incidents int
	Languages int
	Pages     int
	// Carried is the number of files carried over from the previous
	// output rather than rendered (0 for a cold build).
	Carried int
	// Parsed is the number of content files parsed; the others' pages
	// were the previous build's (content.Earlier).
	Parsed int
	Bytes  int64
	Took   time.Duration
	Phases Phases // where the time went
	// Warnings are problems that did not fail the build, such as a
	// previous output that could not be removed.
	Warnings []error
}

// Phases records how long each step of a build took, in order.
type Phases struct {
	Names []string
	Took  []time.Duration
	last  time.Time
}

func startPhases() Phases { return Phases{last: time.Now()} }

// mark ends the step called name, which began when the previous one ended.
func (p *Phases) mark(name string) {
	now := time.Now()
	p.Names = append(p.Names, name)
	p.Took = append(p.Took, now.Sub(p.last))
	p.last = now
}

// writerCount is how many files a build writes at once: creating files
// and folders mostly waits on the disk, and a few writers at once finish
// sooner than one after another.
const writerCount = 8

// Run builds the site into opts.Dest, and its bundle (the search index
// and what a server needs to render search pages) beside it; see package
// output for where. When the output at opts.Dest was built by gen from
// the same layouts, languages and options, only the pages a change to
// the content can alter are rendered and the rest carried over (warm.go),
// unless opts.Cold.
func Run(opts Options) (*Result, error) {
	start := time.Now()
	phases := startPhases()
	parser, parserErr := executableHash()
	var earlier *content.Earlier
	var earlierNote string
	var previous <-chan previousBuild
	if !opts.Cold {
		prev, _ := output.FindPrevious(opts.Dest) // nil: a first build
		// Read while the pages are read back and the sources load.
		previous = readPrevious(prev)
		if parserErr == nil {
			earlier, earlierNote = readEarlier(prev, parser)
		}
	}
	site, err := source.LoadAfter(opts.Source, opts.Drafts, earlier)
	if err != nil {
		return nil, err
	}
	parsed := len(site.Pages) - earlier.Taken()
	phases.mark("load+link")
	inputs, err := inputsHash(site, opts)
	var note string
	if err != nil {
		inputs, note = "", fmt.Sprintf("cold build: %v", err)
	}
	m := newManifest(site.Archive, inputs, contentHashes(site.Pages))
	var plan *carryPlan
	if opts.Cold {
		note = ""
	} else if inputs != "" {
		plan, note = planCarry(<-previous, site, m)
	}
	phases.mark("plan")
	// The pages are saved for the next build by the first write, which
	// then drops what only linking read of them: a write done again
	// cold has none to save.
	var res *Result
	var files scratch
	if plan == nil {
		// m's last use: write lets it go before the render.
		res, err = write(site, opts, m, nil, site.Pages, &files, &phases)
	} else if res, err = write(site, opts, m, plan, site.Pages, &files, &phases); errors.Is(err, errCarry) {
		note = fmt.Sprintf("cold build: %v", err)
		res, err = write(site, opts, m, nil, nil, &files, &phases)
	}
	if closeErr := files.close(); closeErr != nil {
		if err == nil {
			res.Warnings = append(res.Warnings, closeErr)
		} else {
			err = errors.Join(err, closeErr)
		}
	}
	if err != nil {
		return nil, err
	}
	res.Parsed = parsed
	for _, n := range []string{earlierNote, note} {
		if n != "" {
			res.Warnings = append([]error{errors.New(n)}, res.Warnings...)
		}
	}
	res.Took, res.Phases = time.Since(start), phases
	return res, nil
}

// write renders the site into a staging folder, with its bundle, and
// swaps it in: every page, or with a plan the pages it names and the
// previous output's other files carried over. The bundle gets the pages
// of save, if any, for the next build.
func write(site *source.Site, opts Options, m *manifest, plan *carryPlan, save []*content.Page, files *scratch, phases *Phases) (*Result, error) {
	layouts, err := render.ParseLayouts(site.Layouts)
	if err != nil {
		return nil, err
	}
	// A cold build's index is built from the Markdown the render parses,
	// while the pages render or, near the memory limit, once they are
	// written (scratch); a warm build's is the previous one with the
	// changed incidents' documents replaced.
	var stream *index.Stream
	r, err := render.New(site.Archive, site.Bundle, layouts, render.Options{
		BaseURL: opts.BaseURL, Generator: opts.Generator, Sitemap: opts.Sitemap, Recycle: true, Parsed: func(inc *archive.Incident, lang string, doc ast.Node, src []byte, err error) {
			if stream != nil {
				stream.Parsed(inc, lang, doc, src, err)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	stage, err := output.Begin(opts.Dest, output.Options{Spare: plan != nil})
	if err != nil {
		return nil, err
	}
	if err := writeRecords(stage.Bundle(), m, save); err != nil {
		stage.Abort()
		return nil, err
	}
	dropLinkInputs(site.Archive)
	if err := files.moveTexts(site.Archive, filepath.Dir(opts.Dest)); err != nil {
		stage.Abort()
		return nil, err
	}
	indexDir := filepath.Join(stage.Bundle().Dir(), bundle.IndexDir)
	var indexErr, indexNote error
	var scope *render.Scope
	updated := make(chan struct{})   // closed when the index is updated, or being built with the render
	var documents io.ReadWriteSeeker // where the index's documents wait for the render, if they do
	if plan == nil {
		if documents, indexErr = files.documents(filepath.Dir(opts.Dest)); indexErr == nil {
			stream, indexErr = index.NewStream(indexDir, site.Archive, site.Bundle.Tags(), r.BasePath(), documents)
		}
		close(updated)
	} else {
		// The previous index is updated while the pages are rendered and
		// carried over: a warm build renders few pages, and the two only
		// read the archive.
		scope = plan.scope
		go func() {
			defer close(updated)
			indexNote, indexErr = index.Update(filepath.Join(plan.prev.Bundle, bundle.IndexDir), indexDir, site.Archive, plan.touched, site.Bundle.Tags(), r.BasePath())
		}()
	}
	// Files that cannot be written are collected by the staging: a full
	// disk is one message with a count, not one per page. The sitemap and
	// the JSON export are written as they are made, never whole in memory.
	w := newWriters(writerCount, 256, stage.Collect, r.Recycle)
	pages, err := r.RenderScopeStreamed(scope, w.emit, stage.CollectStream)
	w.wait()
	phases.mark("render")
	var carriedFiles int
	var carryErr error
	if err == nil && plan != nil {
		var carriedPages int
		carriedFiles, carriedPages, carryErr = carryOver(stage, plan, site.Archive, opts.Dest)
		pages += carriedPages
		phases.mark("carry")
	}
	if err == nil {
		info := bundle.Info{BaseURL: opts.BaseURL, Generator: opts.Generator}
		err = bundle.Write(site.Layouts, site.Langs, info, stage.Bundle().Collect)
	}
	<-updated
	// Nothing below reads the site: the archive can go while the index's
	// segments are merged (at 100,000 incidents, most of what is live).
	incidents, languages := len(site.Archive.Incidents), len(site.Bundle.Langs)
	var errs diag.List
	errs.AddError(err)
	// The render and the index's documents have read the texts back.
	errs.AddError(site.Archive.TextsErr())
	finishIndex(stream, documents != nil, indexErr, stage, &errs)
	errs.AddError(stage.Err())
	phases.mark("index")
	if err := errs.Err(); err != nil || carryErr != nil {
		stage.Abort()
		return nil, cmp.Or(carryErr, err)
	}
	size := stage.Size()
	if err := stage.Commit(); err != nil {
		return nil, err
	}
	phases.mark("commit")
	return &Result{
		Incidents: incidents, Languages: languages,
		Pages: pages, Carried: carriedFiles, Bytes: size, Warnings: slices.DeleteFunc(append(stage.Warnings(), indexNote), isNil),
	}, nil
}

func isNil(err error) bool { return err == nil }

// finishIndex has a cold build's index (stream) take its last documents,
// all of them if they waited for the render (waited) with the heap free
// to grow to the limit, and merge its segments, with the heap lean for
// the merge, and records the index's error, its own or that of its start
// or update (indexErr): one the staging caused (a full disk) marks the
// index failed in the bundle, which the staging's error then reports.
func finishIndex(stream *index.Stream, waited bool, indexErr error, stage *output.Staging, errs *diag.List) {
	if stream != nil {
		if waited {
			restore := heapToTheLimit()
			_ = stream.Added() // its error is Close's too
			restore()
		}
		restore := leanHeap()
		indexErr = stream.Close()
		restore()
	}
	if indexErr == nil {
		return
	}
	if stage.Cause(indexErr) {
		stage.Bundle().Failed(bundle.IndexDir, indexErr)
	} else {
		errs.Add(stage.Bundle().Path(bundle.IndexDir), 0, 0, "building the search index: %v", indexErr)
	}
}

// heapToTheLimit lets the heap grow to the soft memory limit before a
// collection, whatever is live (GOGC off), until restore: for the search
// documents of a build near the limit, added once the render is done
// (scratch). With the archive let go, about 200 MB are live then at
// 100,000 incidents, and GOGC's goal made a collection for every 400 MB
// of the index's garbage (225 of them); the load and the render have
// held the heap at the limit already, so the build's peak is no higher.
// Nothing changes without a limit, or with GOGC lower than mergePercent.
func heapToTheLimit() (restore func()) {
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	if old < mergePercent {
		debug.SetGCPercent(old) // lower already, or off
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}

// mergePercent is how far the heap may grow past what is live while the
// index's segments are merged (the GOGC percentage): what gen build
// sets. With the document store's records in files until it is written,
// 110–240 MB are live during the merge at 100,000 incidents; at 100 %
// the merge's garbage made 169 collections there (13.7 s of CPU against
// 5.9 s at 200 %).
const mergePercent = 200

// leanHeap readies the process for the index's final merge, which maps
// the segments it merges beside the heap: at 100,000 incidents hundreds
// of megabytes of them resident, while the heap the render left (grown
// to the soft limit around the archive, which is let go by then) would
// stay resident too. So a heap holding more than half the soft memory
// limit is given back to the system; a smaller one is kept, as the
// collection that gives it back and the pages the merge then touches
// again cost 5 % of a 1,000-incident build's CPU. The heap is held to
// mergePercent, if a higher percentage is set (GOGC), until restore. It
// sets the process's percentage: builds running at once in one process
// may leave the lower one set.
func leanHeap() (restore func()) {
	if heapHeld() > debug.SetMemoryLimit(-1)/2 {
		debug.FreeOSMemory()
	}
	old := debug.SetGCPercent(mergePercent)
	if old < mergePercent {
		debug.SetGCPercent(old) // lower already, or off
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}

// heapHeld is the memory the heap holds from the system, used or free,
// but not what it has already given back.
func heapHeld() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	var held uint64
	for _, v := range s {
		held += v.Value.Uint64()
	}
	return int64(held)
}

// dropLinkInputs lets go what only the link stage reads: the timeline
// items as written (placed as events), the link destinations and the
// section ids (checked), and the front matter but each page's title and
// summary (the incident holds the facts pages show), as a build links
// once. Loaded without a cache, the pages hold no Markdown either
// (content.Page.Source reads it again), so what lasts as long as the
// archive is what its pages show.
func dropLinkInputs(a *archive.Archive) {
	for _, inc := range a.Incidents {
		for _, p := range inc.Versions {
			p.Timeline, p.Links, p.Sections = nil, nil, nil
			p.Meta.Facts = nil
		}
	}
}

// scratch is what a build near the soft memory limit keeps in files
// beside the output rather than in memory: the archive's timelines'
// texts (archive.MoveTexts), moved once for all its writes (an
// incident's are read back for its pages, its search documents and its
// record in incidents.json), and a cold write's search documents, which
// wait for the render to end before they are indexed (index.NewStream).
// The collector then has that much less heap under the limit at every
// cycle, and the render and the index are never live at once.
type scratch struct {
	texts *os.File // nil while the texts are in memory
	files []*os.File
	named []string // files whose name could not be removed at once
}

// moveTexts moves a's texts into a new file in dir, when near the limit
// and not moved already (by a write before this one).
func (s *scratch) moveTexts(a *archive.Archive, dir string) error {
	if s.texts != nil || !nearTheLimit() {
		return nil
	}
	f, err := s.create(dir, ".gen-scratch-texts-*")
	if err != nil {
		return fmt.Errorf("moving the timelines' texts: %w", err)
	}
	s.texts = f
	return a.MoveTexts(f, f)
}

// documents returns a new file in dir for the search documents of a cold
// write to wait in, or nil when the texts are in memory: the archive is
// small enough for the render and the index to share the heap.
func (s *scratch) documents(dir string) (io.ReadWriteSeeker, error) {
	if s.texts == nil {
		return nil, nil
	}
	f, err := s.create(dir, ".gen-scratch-documents-*")
	if err != nil {
		return nil, fmt.Errorf("keeping the search documents until the pages are written: %w", err)
	}
	return f, nil
}

// create makes a file in dir that, where an open file can lose its name
// (Unix), loses it at once: a build killed from here on leaves nothing.
func (s *scratch) create(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	s.files = append(s.files, f)
	if os.Remove(f.Name()) != nil {
		s.named = append(s.named, f.Name())
	}
	return f, nil
}

// scratchAbove is how much of the soft memory limit the collector's
// goal after linking (the live heap grown by GOGC's percentage) passes
// when a build keeps what it can in files (scratch): the render and the
// index would add their own to what is live, and the goal would meet the
// limit, where each byte of heap makes the collections come sooner (at
// 100,000 incidents). Below it the goal is GOGC's, what is live costs
// only its room, and reading the texts back would cost the 10,000 build
// 1–2 % of its CPU. A variable for the tests.
var scratchAbove = 0.5

// nearTheLimit reports whether this process's heap after linking is
// near enough the soft memory limit to keep what it can in files
// (scratchAbove).
func nearTheLimit() bool {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return goalPasses(s[0].Value.Uint64(), s[1].Value.Uint64(), debug.SetMemoryLimit(-1), scratchAbove)
}

// goalPasses reports whether the collector's goal for a live heap of
// live bytes at GOGC percent passes the fraction of the memory limit.
func goalPasses(live, percent uint64, limit int64, fraction float64) bool {
	return float64(live)*(1+float64(percent)/100) > fraction*float64(limit)
}

// close closes the files and removes those still named.
func (s *scratch) close() error {
	var errs []error
	for _, f := range s.files {
		errs = append(errs, f.Close())
	}
	for _, name := range s.named {
		errs = append(errs, os.Remove(name))
	}
	*s = scratch{}
	return errors.Join(errs...)
}

// writeRecords writes what the bundle records of the archive for the
// next build, the manifest and the pages (none when nil), side by side,
// first, so that it is not kept through the render (the manifest is
// 120 MB at 100,000 incidents).
func writeRecords(b *output.Folder, m *manifest, pages []*content.Page) error {
	saved := make(chan error, 1)
	go func() {
		// Pages that cannot say which gen parsed them are not saved.
		parser, err := executableHash()
		if pages == nil || err != nil {
			saved <- nil
			return
		}
		saved <- b.CollectStream(bundle.PagesFile, func(w io.Writer) error {
			return content.WriteEarlier(w, parser, pages)
		})
	}()
	return cmp.Or(writeManifest(b, m), <-saved)
}

// readEarlier reads the pages the previous build prev (nil: none) saved,
// if gen parser made them; a note says why there are none when it is
// not simply a first build or another gen's output.
func readEarlier(prev *output.Previous, parser string) (*content.Earlier, string) {
	if prev == nil {
		return nil, ""
	}
	f, err := os.Open(filepath.Join(prev.Bundle, bundle.PagesFile))
	var earlier *content.Earlier
	if err == nil {
		earlier, err = content.ReadEarlier(f, parser)
		f.Close()
		if err != nil {
			err = fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	switch {
	case err == nil:
		return earlier, ""
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, content.ErrOtherParser):
		return nil, ""
	}
	return nil, fmt.Sprintf("every file parsed: the previous build's pages cannot be read (%v)", err)
}

// newRenderer prepares the render stage; layouts may be nil, to parse the
// site's layouts now.
func newRenderer(site *source.Site, opts Options, layouts *render.Layouts, frags *render.Fragments) (*render.Renderer, error) {
	if layouts == nil {
		var err error
		if layouts, err = render.ParseLayouts(site.Layouts); err != nil {
			return nil, err
		}
	}
	return render.New(site.Archive, site.Bundle, layouts, render.Options{BaseURL: opts.BaseURL, Generator: opts.Generator, Fragments: frags, Sitemap: opts.Sitemap})
}
