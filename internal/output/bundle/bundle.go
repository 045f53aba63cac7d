// Package bundle is what a server of a built site needs besides its pages:
// the search index, the layouts and languages its search pages are
// rendered with, and the facts of the build. gen build writes it; gen
// serve --dir opens it.
package bundle

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/refcount"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/search"
)

// The files and folders of a bundle, relative to its folder.
const (
	IndexDir   = "index"     // the search index
	LayoutsDir = "layouts"   // the effective layouts: the site's over the defaults
	LangsDir   = "i18n"      // the i18n files the build read
	InfoFile   = "site.json" // Info
	// ManifestFile records what the build was made from, for the next
	// build to tell what changed (package build).
	ManifestFile = "manifest.json"
	// PagesFile holds what the build parsed of each content file, for
	// the next build to parse only the files that changed (package
	// content, Earlier).
	PagesFile = "pages.gob"
)

// Info is what a server needs to know of a build it serves.
type Info struct {
	BaseURL   string `json:"base_url"`
	Generator string `json:"generator"`
	// Taxonomies are those the site's navigation lists (archive.Listed);
	// a bundle without them lists every taxonomy.
	Taxonomies []string `json:"taxonomies,omitempty"`
}

// Write hands emit every file of a bundle but the search index (which the
// index stage writes into IndexDir itself): the layouts and languages, so
// that a server renders search pages exactly like the build did, and info.
func Write(layouts, langs fs.FS, info Info, emit func(rel string, data []byte) error) error {
	copyTree := func(fsys fs.FS, into string) error {
		return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			return emit(path.Join(into, p), data)
		})
	}
	if err := copyTree(layouts, LayoutsDir); err != nil {
		return fmt.Errorf("copying layouts: %w", err)
	}
	if err := copyTree(langs, LangsDir); err != nil {
		return fmt.Errorf("copying i18n: %w", err)
	}
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return emit(InfoFile, data)
}

// Output is a bundle opened for serving: the search index and what renders
// the search pages.
type Output struct {
	// Index is shared with the searches running on it: it is closed when
	// Close has been called and the last of them has released it.
	Index  *refcount.Ref[search.Searcher]
	Pages  *render.Renderer
	Bundle *locale.Bundle
	Info   Info
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
	data, err := os.ReadFile(filepath.Join(dir, InfoFile))
	if err != nil {
		return nil, fmt.Errorf("no search bundle in %s (run gen build first): %w", dir, err)
	}
	var info Info
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, InfoFile), err)
	}
	langs, err := locale.Load(os.DirFS(filepath.Join(dir, LangsDir)), LangsDir)
	if err != nil {
		return nil, err
	}
	layouts, err := render.ParseLayouts(os.DirFS(filepath.Join(dir, LayoutsDir)))
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
	index, err := search.Open(filepath.Join(dir, IndexDir))
	if err != nil {
		return nil, err
	}
	return &Output{Index: refcount.New[search.Searcher](index), Pages: pages, Bundle: langs, Info: info, dir: dir}, nil
}
