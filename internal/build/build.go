// Package build runs the pipeline once: load the content, link it into an
// archive, render every file and write them into a staging folder that
// replaces the output only when everything succeeded.
package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	gi18n "github.com/postmortem-archive/gen/internal/i18n"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/layouts"
)

// Options say what to build and where.
type Options struct {
	Source    string // site folder holding content/, and optionally layouts/ and i18n/
	Dest      string // output folder
	BaseURL   string // absolute URL the site is served from
	Drafts    bool   // include draft incidents
	Generator string // "gen <version>"
}

// Result summarises a successful build.
type Result struct {
	Incidents int
	Languages int
	Pages     int
	Bytes     int64
	Took      time.Duration
	Phases    Phases // where the time went
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

// Site is the loaded and linked site, before rendering.
type Site struct {
	Archive *archive.Archive
	Bundle  *gi18n.Bundle
	Layouts fs.FS // the site's layouts over the defaults
	Langs   fs.FS // the i18n files the bundle was read from
}

// Load reads the languages, layouts and content of the site in dir and
// links them. Every problem of every stage is reported in one error.
func Load(dir string, drafts bool) (*Site, error) { return load(dir, drafts, nil) }

func load(dir string, drafts bool, cache *content.Cache) (*Site, error) {
	var errs diag.List
	// The set of i18n files is the set of site languages: a site with its
	// own i18n folder gets exactly those, not the defaults as well.
	var langFS fs.FS = i18n.Files
	if own := filepath.Join(dir, "i18n"); isDir(own) {
		langFS = os.DirFS(own)
	}
	bundle, err := gi18n.Load(langFS, "i18n")
	if err != nil {
		errs.AddError(err)
	}
	if bundle != nil && langFS != fs.FS(i18n.Files) {
		defaults, err := builtinLangs()
		if err != nil {
			return nil, fmt.Errorf("the built-in languages: %w", err)
		}
		bundle.FillFrom(defaults)
	}
	if bundle == nil || len(bundle.Langs) == 0 {
		return nil, errs.Err()
	}
	pages, err := content.Load(dir, bundle.Tags(), cache)
	errs.AddError(err)
	a, err := archive.Link(pages, bundle.Tags(), archive.Options{Drafts: drafts})
	errs.AddError(err)
	if errs.Len() > 0 {
		return nil, errs.Err()
	}
	return &Site{Archive: a, Bundle: bundle, Layouts: siteFS(dir, "layouts", layouts.Files), Langs: langFS}, nil
}

// builtinLangs are gen's own languages, read once: every rebuild of a site
// with its own i18n folder fills missing strings from them.
var builtinLangs = sync.OnceValues(func() (*gi18n.Bundle, error) { return gi18n.Load(i18n.Files, "i18n") })

// BundleDir is the folder of the output that holds the build's bundle:
// the search index and what a server needs to render search pages. The
// server never serves dot-folders.
const BundleDir = ".gen"

// Run builds the site into opts.Dest.
func Run(opts Options) (*Result, error) {
	start := time.Now()
	site, err := Load(opts.Source, opts.Drafts)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(site, opts, nil, nil)
	if err != nil {
		return nil, err
	}
	stage, err := output.Begin(opts.Dest)
	if err != nil {
		return nil, err
	}
	// The index is built while the pages render: both are mostly one core.
	indexed := make(chan error, 1)
	go func() {
		indexed <- index.Write(filepath.Join(stage.Dir(), BundleDir, bundle.IndexDir), site.Archive, site.Bundle.Tags(), r.BasePath())
	}()
	pages, err := r.Render(stage.WriteFile)
	if err == nil {
		info := bundle.Info{BaseURL: opts.BaseURL, Generator: opts.Generator}
		err = bundle.Write(site.Layouts, site.Langs, info, func(rel string, data []byte) error {
			return stage.WriteFile(path.Join(BundleDir, rel), data)
		})
	}
	if indexErr := <-indexed; err == nil && indexErr != nil {
		err = fmt.Errorf("building the search index: %w", indexErr)
	}
	if err != nil {
		stage.Abort()
		return nil, err
	}
	size := stage.Size()
	if err := stage.Commit(); err != nil {
		return nil, err
	}
	return &Result{
		Incidents: len(site.Archive.Incidents), Languages: len(site.Bundle.Langs),
		Pages: pages, Bytes: size, Took: time.Since(start),
	}, nil
}

// Render renders the pages of a loaded site in scope (nil: all), handing
// each file to emit.
func Render(site *Site, opts Options, scope *render.Scope, emit render.Emit) (int, error) {
	r, err := newRenderer(site, opts, nil, nil)
	if err != nil {
		return 0, err
	}
	return r.RenderScope(scope, emit)
}

// newRenderer prepares the render stage; layouts may be nil, to parse the
// site's layouts now.
func newRenderer(site *Site, opts Options, layouts *render.Layouts, frags *render.Fragments) (*render.Renderer, error) {
	if layouts == nil {
		var err error
		if layouts, err = render.ParseLayouts(site.Layouts); err != nil {
			return nil, err
		}
	}
	return render.New(site.Archive, site.Bundle, layouts, render.Options{BaseURL: opts.BaseURL, Generator: opts.Generator, Fragments: frags})
}

// siteFS is the site's own folder name under dir laid over the defaults
// built into gen: a site may override any one file, or none.
func siteFS(dir, name string, defaults fs.FS) fs.FS {
	if own := filepath.Join(dir, name); isDir(own) {
		return overlay{top: os.DirFS(own), bottom: defaults}
	}
	return defaults
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// overlay reads from top, falling back to bottom for names top lacks.
type overlay struct{ top, bottom fs.FS }

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return o.bottom.Open(name)
}

// ReadDir merges both listings, top winning on equal names, so that
// fs.Glob sees the site's extra files and the defaults alike.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	top, errTop := fs.ReadDir(o.top, name)
	bottom, errBottom := fs.ReadDir(o.bottom, name)
	if errTop != nil && errBottom != nil {
		return nil, fmt.Errorf("reading %s: %w", name, errTop)
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, e := range top {
		seen[e.Name()] = true
		out = append(out, e)
	}
	for _, e := range bottom {
		if !seen[e.Name()] {
			out = append(out, e)
		}
	}
	return out, nil
}
