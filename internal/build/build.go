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
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/yuin/goldmark/ast"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/memory"
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
	// Memory is how the build uses memory; only a program's main lets it
	// set the process's collector (memory.Policy.Tune).
	Memory memory.Policy
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
	files := memory.Scratch{Policy: opts.Memory}
	if plan == nil {
		// m's last use: write lets it go before the render.
		res, err = write(site, opts, m, nil, site.Pages, &files, &phases)
	} else if res, err = write(site, opts, m, plan, site.Pages, &files, &phases); errors.Is(err, errCarry) {
		note = fmt.Sprintf("cold build: %v", err)
		res, err = write(site, opts, m, nil, nil, &files, &phases)
	}
	if closeErr := files.Close(); closeErr != nil {
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
func write(site *source.Site, opts Options, m *manifest, plan *carryPlan, save []*content.Page, files *memory.Scratch, phases *Phases) (*Result, error) {
	layouts, err := render.ParseLayouts(site.Layouts)
	if err != nil {
		return nil, err
	}
	// A cold build's index is built from the Markdown the render parses,
	// while the pages render or, near the memory limit, once they are
	// written (memory.Scratch); a warm build's is the previous one with the
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
	if err := files.MoveTexts(site.Archive, filepath.Dir(opts.Dest)); err != nil {
		stage.Abort()
		return nil, err
	}
	indexDir := filepath.Join(stage.Bundle().Dir(), bundle.IndexDir)
	var indexErr, indexNote error
	var scope *render.Scope
	updated := make(chan struct{})   // closed when the index is updated, or being built with the render
	var documents io.ReadWriteSeeker // where the index's documents wait for the render, if they do
	if plan == nil {
		if documents, indexErr = files.Documents(filepath.Dir(opts.Dest)); indexErr == nil {
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
		err = bundle.Write(site.Layouts, site.Langs, siteInfo(site, opts), stage.Bundle().Collect)
	}
	<-updated
	// Nothing below reads the site: the archive can go while the index's
	// segments are merged (at 100,000 incidents, most of what is live).
	incidents, languages := len(site.Archive.Incidents), len(site.Bundle.Langs)
	notes := standInNotes(site)
	var errs diag.List
	errs.AddError(err)
	// The render and the index's documents have read the texts back.
	errs.AddError(site.Archive.TextsErr())
	finishIndex(stream, documents != nil, indexErr, stage, &errs, opts.Memory)
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
		Pages: pages, Carried: carriedFiles, Bytes: size, Warnings: slices.DeleteFunc(append(append(notes, stage.Warnings()...), indexNote), isNil),
	}, nil
}

func isNil(err error) bool { return err == nil }

// siteInfo is what a server of the build needs to know of it.
func siteInfo(site *source.Site, opts Options) bundle.Info {
	info := bundle.Info{BaseURL: opts.BaseURL, Generator: opts.Generator, Taxonomies: []string{}, StandIns: site.Bundle.StandIns()}
	for _, t := range site.Archive.Listed() {
		info.Taxonomies = append(info.Taxonomies, string(t))
	}
	return info
}

// standInNotes are the site's notes on its languages without an i18n
// file (source.Site.StandInNotes), as a build's warnings.
func standInNotes(site *source.Site) []error {
	var out []error
	for _, n := range site.StandInNotes() {
		out = append(out, n)
	}
	return out
}

// finishIndex has a cold build's index (stream) take its last documents,
// all of them if they waited for the render (waited) with the heap free
// to grow to the limit, and merge its segments, with the heap lean for
// the merge, and records the index's error, its own or that of its start
// or update (indexErr): one the staging caused (a full disk) marks the
// index failed in the bundle, which the staging's error then reports.
func finishIndex(stream *index.Stream, waited bool, indexErr error, stage *output.Staging, errs *diag.List, policy memory.Policy) {
	if stream != nil {
		if waited {
			restore := policy.HeapToTheLimit()
			_ = stream.Added() // its error is Close's too
			restore()
		}
		restore := policy.LeanHeap()
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
