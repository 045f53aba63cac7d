// Package source reads a site's source folder — its languages, layouts and
// content — and links the content into an archive. It is what a build and a
// check share: every problem of every stage is reported at once, and
// nothing is written.
package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/sitefs"
	"github.com/postmortem-archive/gen/layouts"
)

// Site is the loaded and linked site, before rendering.
type Site struct {
	Pages   []*content.Page // every content file, by file name
	Archive *archive.Archive
	Bundle  *locale.Bundle
	Layouts fs.FS // the site's layouts over the defaults
	Langs   fs.FS // the i18n files the bundle was read from
}

// Load reads the languages, layouts and content of the site in dir and
// links them. Every problem of every stage is reported in one error.
// cache, when not nil, keeps parsed files between loads (the authoring
// server); drafts says whether draft incidents are included.
func Load(dir string, drafts bool, cache *content.Cache) (*Site, error) {
	return LoadContext(context.Background(), dir, drafts, cache)
}

// LoadContext is Load that gives up, returning ctx's error, when ctx is
// done while the content is read or before it is linked.
func LoadContext(ctx context.Context, dir string, drafts bool, cache *content.Cache) (*Site, error) {
	return load(ctx, dir, drafts, func(langs []string) ([]*content.Page, error) {
		return content.LoadContext(ctx, dir, langs, cache)
	})
}

// LoadAfter is Load for a build that follows an earlier one, whose pages
// of unchanged files it takes instead of parsing them (content.LoadAfter).
func LoadAfter(dir string, drafts bool, earlier *content.Earlier) (*Site, error) {
	ctx := context.Background()
	return load(ctx, dir, drafts, func(langs []string) ([]*content.Page, error) {
		return content.LoadAfter(ctx, dir, langs, earlier)
	})
}

// load reads the site in dir, its content with loadContent.
func load(ctx context.Context, dir string, drafts bool, loadContent func(langs []string) ([]*content.Page, error)) (*Site, error) {
	var errs diag.List
	bundle, langFS, err := Languages(dir)
	errs.AddError(err)
	sitefs.Check(dir, "layouts", &errs)
	if bundle == nil || len(bundle.Langs) == 0 {
		return nil, errs.Err()
	}
	pages, err := loadContent(bundle.Tags())
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	errs.AddError(err)
	// content accepted only texts some site language stands in for.
	if err := bundle.AddNearest(standIns(pages, bundle)); err != nil {
		return nil, fmt.Errorf("linking the languages: %w", err)
	}
	a, err := archive.Link(pages, bundle.Tags(), archive.Options{Drafts: drafts})
	errs.AddError(err)
	if errs.Len() > 0 {
		return nil, errs.Err()
	}
	return &Site{Pages: pages, Archive: a, Bundle: bundle, Layouts: siteFS(dir, "layouts", layouts.Files), Langs: langFS}, nil
}

// Languages reads the site languages of the site in dir: the files of its
// own i18n folder, each filled from gen's built-in strings, or gen's
// built-in languages when it has none. It returns the files it read too.
// A bundle with errors in some files is returned with the error.
func Languages(dir string) (*locale.Bundle, fs.FS, error) {
	// The set of i18n files is the set of site languages: a site with its
	// own i18n folder gets exactly those, not the defaults as well.
	var errs diag.List
	sitefs.Check(dir, "i18n", &errs)
	var langFS fs.FS = i18n.Files
	if own := filepath.Join(dir, "i18n"); isDir(own) {
		langFS = sitefs.Dir(own)
	}
	bundle, err := locale.Load(langFS, "i18n")
	if bundle != nil && langFS != fs.FS(i18n.Files) {
		defaults, derr := builtinLangs()
		if derr != nil {
			return nil, nil, fmt.Errorf("the built-in languages: %w", derr)
		}
		bundle.FillFrom(defaults)
	}
	errs.AddError(err)
	return bundle, langFS, errs.Err()
}

// standIns are the languages of pages that have no i18n file in bundle,
// sorted: those some site language stands in for (locale.AddNearest).
func standIns(pages []*content.Page, bundle *locale.Bundle) []string {
	var out []string
	for _, p := range pages {
		if l := bundle.Get(p.Lang); (l == nil || l.From != "") && !slices.Contains(out, p.Lang) {
			out = append(out, p.Lang)
		}
	}
	slices.Sort(out)
	return out
}

// StandInNotes says, at the first text in each language without an i18n
// file, which language's interface its pages show: the build and check
// report it, as the check reports a missing translation.
func (s *Site) StandInNotes() []*diag.Error {
	var out []*diag.Error
	for _, tag := range s.Bundle.StandIns() {
		l := s.Bundle.Get(tag)
		i := slices.IndexFunc(s.Pages, func(p *content.Page) bool { return p.Lang == tag })
		if i < 0 {
			continue
		}
		out = append(out, &diag.Error{File: s.Pages[i].File, Line: 1, Col: 1, Msg: fmt.Sprintf(
			"language %q has no i18n file: its pages show the interface of %s (i18n/%s.yaml), the nearest site language; add i18n/%s.yaml to give them their own",
			tag, l.From, l.From, tag)})
	}
	return out
}

// ErrLanguagesChanged is Reload's error when the changed folders gained
// the first text, or lost the last, of a language without an i18n file:
// the site's languages are others, and the site must be loaded whole.
var ErrLanguagesChanged = errors.New("the site's languages changed: load it whole")

// Reload is LoadContext after changes to the files of the incident
// folders named in folders (names under content/) and nothing else since
// prev was loaded from dir with cache, without errors: the languages and
// layouts are prev's, only those folders are read again, and the archive
// is linked from prev's (archive.Options.Prev), so that a saved file
// costs about the same in an archive of any size.
func Reload(ctx context.Context, dir string, drafts bool, cache *content.Cache, prev *Site, folders map[string]bool) (*Site, error) {
	var errs diag.List
	tags := prev.Bundle.Tags()
	pages, err := content.Reload(ctx, dir, tags, cache, prev.Pages, folders)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	errs.AddError(err)
	if !slices.Equal(standIns(pages, prev.Bundle), prev.Bundle.StandIns()) {
		return nil, ErrLanguagesChanged
	}
	a, err := archive.Link(pages, tags, archive.Options{Drafts: drafts, Prev: prev.Archive, Changed: folders})
	errs.AddError(err)
	if errs.Len() > 0 {
		return nil, errs.Err()
	}
	site := *prev
	site.Pages, site.Archive = pages, a
	return &site, nil
}

// Count says how many incidents the site in dir has (folders of content/
// holding Markdown files) and its languages, whether or not they have
// errors: a report of a site that does not load still says how much of it
// was read.
func Count(dir string) (incidents int, langs []string) {
	if bundle, _, _ := Languages(dir); bundle != nil {
		langs = bundle.Tags()
	}
	folders, _ := os.ReadDir(filepath.Join(dir, "content"))
	for _, f := range folders {
		if !f.IsDir() || strings.HasPrefix(f.Name(), ".") {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(dir, "content", f.Name()))
		if slices.ContainsFunc(files, func(e fs.DirEntry) bool { return strings.HasSuffix(e.Name(), ".md") }) {
			incidents++
		}
	}
	return incidents, langs
}

// builtinLangs are gen's own languages, read once: every rebuild of a site
// with its own i18n folder fills missing strings from them.
var builtinLangs = sync.OnceValues(func() (*locale.Bundle, error) { return locale.Load(i18n.Files, "i18n") })

// siteFS is the site's own folder name under dir laid over the defaults
// built into gen: a site may override any one file, or none.
func siteFS(dir, name string, defaults fs.FS) fs.FS {
	if own := filepath.Join(dir, name); isDir(own) {
		return overlay{top: sitefs.Dir(own), bottom: defaults}
	}
	return defaults
}

// isDir reports whether p is a folder, not a link to one: a linked
// layouts/ or i18n/ is refused (sitefs.Check), never read.
func isDir(p string) bool {
	info, err := os.Lstat(p)
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
