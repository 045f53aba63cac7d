// Package bundle is the format of what a server of a built site needs
// besides its pages: the search index, the layouts and languages its
// search pages are rendered with, and the facts of the build. gen build
// writes it (Write); the serving side opens it (internal/server/published).
package bundle

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
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
	// StandIns are the site languages without an i18n file, which speak
	// through the nearest that has one (locale.Bundle.AddNearest).
	StandIns []string `json:"languages_without_files,omitempty"`
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
