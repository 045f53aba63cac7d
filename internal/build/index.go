package build

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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

// Documents lists the search documents of the incidents in ids (nil: all):
// one per incident and language it is written in. URLs carry the base path
// of basePath's site.
func Documents(a *archive.Archive, ids map[string]bool, basePath string) []search.Document {
	var docs []search.Document
	for _, inc := range a.Incidents {
		if ids != nil && !ids[inc.ID] {
			continue
		}
		docs = append(docs, incidentDocuments(inc, basePath)...)
	}
	return docs
}

// incidentDocuments are one incident's search documents.
func incidentDocuments(inc *archive.Incident, basePath string) []search.Document {
	var docs []search.Document
	m := inc.Original.Meta
	for _, lang := range sortedLangs(inc) {
		p := inc.Versions[lang]
		var timeline []string
		for _, e := range inc.Timeline(lang) {
			timeline = append(timeline, e.Text)
		}
		docs = append(docs, search.Document{
			ID: inc.ID, Lang: lang, OriginalLang: inc.Original.Lang,
			Title: p.Meta.Title.V, Summary: p.Meta.Summary.V, Body: p.PlainText(),
			Timeline: strings.Join(timeline, "\n"),
			Products: m.Products.Values(), Regions: m.Regions.Values(), Causes: m.Causes.Values(),
			Begin: inc.Begin, Duration: inc.Duration,
			URL: basePath + render.IncidentPath(lang, inc.ID),
		})
	}
	return docs
}

func sortedLangs(inc *archive.Incident) []string {
	out := make([]string, 0, len(inc.Versions))
	for l := range inc.Versions {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// writeIndex builds the search index of the whole archive into dir.
func writeIndex(dir string, site *Site, basePath string) error {
	w, err := search.Create(dir, site.Bundle.Tags())
	if err != nil {
		return err
	}
	// One incident's documents at a time: the text of the whole archive
	// need not be in memory at once.
	for _, inc := range site.Archive.Incidents {
		for _, d := range incidentDocuments(inc, basePath) {
			if err := w.Add(d); err != nil {
				w.Close()
				return fmt.Errorf("indexing %s/%s: %w", d.ID, d.Lang, err)
			}
		}
	}
	return w.Close()
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
