// Package published opens a site gen build wrote, for the server that
// publishes it (gen serve --dir): the bundle beside its pages (package
// bundle has the format) gives the search index and the layouts and
// languages its search pages are rendered with, and a Follower reopens it
// whenever a new build replaces the folder.
package published

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/refcount"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/search"
)

// Output is a bundle opened for serving: the search index and what renders
// the search pages.
type Output struct {
	// Index is shared with the searches running on it: it is closed when
	// Close has been called and the last of them has released it.
	Index  *refcount.Ref[search.Searcher]
	Pages  *render.Renderer
	Bundle *locale.Bundle
	Info   bundle.Info
	dir    string // the bundle folder
}

// Close releases the output's reference to its index.
func (o *Output) Close() error { return o.Index.Release() }

// OpenSite opens the bundle of the site built at dest, read-only.
func OpenSite(dest string) (*Output, error) {
	// A build may replace dest, and remove the bundle it had, between
	// finding the bundle and opening it: then try the new one.
	var err error
	for range 3 {
		var dir string
		if dir, err = output.BundleOf(dest); err != nil {
			return nil, fmt.Errorf("%s: %w (run gen build first)", dest, err)
		}
		var out *Output
		if out, err = Open(dir); err == nil {
			return out, nil
		}
		if now, _ := output.BundleOf(dest); now == dir {
			break
		}
	}
	return nil, err
}

// Open opens the bundle in dir, read-only.
func Open(dir string) (*Output, error) {
	data, err := os.ReadFile(filepath.Join(dir, bundle.InfoFile))
	if err != nil {
		return nil, fmt.Errorf("no search bundle in %s (run gen build first): %w", dir, err)
	}
	var info bundle.Info
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, bundle.InfoFile), err)
	}
	langs, err := locale.Load(os.DirFS(filepath.Join(dir, bundle.LangsDir)), bundle.LangsDir)
	if err != nil {
		return nil, err
	}
	if err := langs.AddNearest(info.StandIns); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, bundle.InfoFile), err)
	}
	layouts, err := render.ParseLayouts(os.DirFS(filepath.Join(dir, bundle.LayoutsDir)))
	if err != nil {
		return nil, err
	}
	listed := archive.Taxonomies
	if info.Taxonomies != nil {
		listed = []archive.Taxonomy{}
		for _, t := range info.Taxonomies {
			listed = append(listed, archive.Taxonomy(t))
		}
	}
	pages, err := render.New(&archive.Archive{}, langs, layouts, render.Options{BaseURL: info.BaseURL, Generator: info.Generator, Taxonomies: listed})
	if err != nil {
		return nil, err
	}
	index, err := search.Open(filepath.Join(dir, bundle.IndexDir))
	if err != nil {
		return nil, err
	}
	return &Output{Index: refcount.New[search.Searcher](index), Pages: pages, Bundle: langs, Info: info, dir: dir}, nil
}
