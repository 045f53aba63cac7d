package build

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/postmortem-archive/gen/internal/archive"
	gi18n "github.com/postmortem-archive/gen/internal/i18n"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/search"
)

// Private is the output folder gen keeps for itself: the search index and
// what a server needs to render search pages in the site's own theme. The
// server never serves dot-folders.
const Private = ".gen"

// Private files and folders, relative to the output.
var (
	IndexDir   = path.Join(Private, "index")
	LayoutsDir = path.Join(Private, "layouts")
	LangsDir   = path.Join(Private, "i18n")
	SiteFile   = path.Join(Private, "site.json")
)

// SiteInfo is what a server needs to know of a build it serves.
type SiteInfo struct {
	BaseURL   string `json:"base_url"`
	Generator string `json:"generator"`
}

// writePrivate copies the effective layouts and languages (the site's own
// over the defaults) and the site facts into the output, so that a server
// of the built folder renders search pages exactly like the build did.
func writePrivate(site *Site, info SiteInfo, emit render.Emit) error {
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
	if err := copyTree(site.Layouts, LayoutsDir); err != nil {
		return fmt.Errorf("copying layouts: %w", err)
	}
	if err := copyTree(site.Langs, LangsDir); err != nil {
		return fmt.Errorf("copying i18n: %w", err)
	}
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return emit(SiteFile, data)
}

// Output is a built folder opened for serving: its search index and what
// renders its search pages.
type Output struct {
	Index  *search.Index
	Pages  *render.Renderer
	Bundle *gi18n.Bundle
	Info   SiteInfo
}

// OpenOutput opens the built site in dir for serving, read-only.
func OpenOutput(dir string) (*Output, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(SiteFile)))
	if err != nil {
		return nil, fmt.Errorf("%s does not look like gen's output (run gen build first): %w", dir, err)
	}
	var info SiteInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("reading %s: %w", SiteFile, err)
	}
	bundle, err := gi18n.Load(os.DirFS(filepath.Join(dir, filepath.FromSlash(LangsDir))), LangsDir)
	if err != nil {
		return nil, err
	}
	layouts, err := render.ParseLayouts(os.DirFS(filepath.Join(dir, filepath.FromSlash(LayoutsDir))))
	if err != nil {
		return nil, err
	}
	pages, err := render.New(&archive.Archive{}, bundle, layouts, render.Options{BaseURL: info.BaseURL, Generator: info.Generator})
	if err != nil {
		return nil, err
	}
	index, err := search.Open(filepath.Join(dir, filepath.FromSlash(IndexDir)))
	if err != nil {
		return nil, err
	}
	return &Output{Index: index, Pages: pages, Bundle: bundle, Info: info}, nil
}
