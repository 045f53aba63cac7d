package build

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
	"github.com/postmortem-archive/gen/internal/urls"
)

// A warm build: gen build renders only the pages a change can alter, as
// the authoring server does (affected), and carries every other file
// over from the output it replaces, hard-linked into the staging folder,
// which then replaces the output in one step like any build's. The
// previous build's manifest (manifest.go) says what it was made from; a
// change to anything but incidents, a missing or unreadable manifest, or
// --cold makes the build cold.

// carryPlan is what a warm build renders and what it carries over.
type carryPlan struct {
	prev    *output.Previous
	scope   *render.Scope
	touched map[string]bool // incidents whose files changed, appeared or went
}

// errCarry marks a warm build that could not carry the previous output
// over (another build replaced it meanwhile): the build is done again,
// cold.
var errCarry = errors.New("carrying the previous output over")

// previousBuild is the output a build may carry files over from, with
// its manifest and the archive it records.
type previousBuild struct {
	out    *output.Previous // nil: there is none, a first build
	old    *manifest
	before *archive.Archive // old's
	err    error            // reading old
}

// readPrevious reads the manifest of the previous build out (nil: none)
// in the background, while the sources load.
func readPrevious(out *output.Previous) <-chan previousBuild {
	c := make(chan previousBuild, 1)
	go func() {
		p := previousBuild{out: out}
		if out != nil {
			if p.old, p.err = readManifest(filepath.Join(out.Bundle, bundle.ManifestFile)); p.err == nil {
				p.before = p.old.skeleton()
			}
		}
		c <- p
	}()
	return c
}

// planCarry decides whether the build can carry files over from the
// previous output, and which. A nil plan means a cold build; note then
// says why, when there was a previous output.
func planCarry(prev previousBuild, site *source.Site, m *manifest) (plan *carryPlan, note string) {
	switch {
	case prev.out == nil:
		return nil, "" // a first build
	case errors.Is(prev.err, fs.ErrNotExist):
		return nil, "cold build: the previous build has no manifest (an older gen made it)"
	case prev.err != nil:
		return nil, fmt.Sprintf("cold build: the previous build's manifest cannot be used (%v)", prev.err)
	case m.Inputs == "":
		return nil, "cold build: the running gen cannot be identified"
	case prev.old.Inputs != m.Inputs:
		return nil, "cold build: gen, its options, the layouts or the languages changed"
	case !slices.Equal(prev.before.Listed(), site.Archive.Listed()):
		// Every page's navigation lists the taxonomies that have terms.
		return nil, "cold build: a taxonomy gained its first term or lost its last"
	}
	old, before := prev.old, prev.before
	touched := map[string]bool{}
	for _, ids := range []map[string]string{old.Content, m.Content} {
		for id := range ids {
			if old.Content[id] != m.Content[id] {
				touched[id] = true
			}
		}
	}
	months, _ := old.months() // checked when read
	scope := affected(touched, before, site.Archive, func(inc *archive.Incident) []render.YearMonth { return months[inc.ID] })
	// Whatever the scope's reasoning, a page whose links changed is
	// rendered again.
	for id := range linksChanged(before, site.Archive) {
		scope.Incidents[id] = true
	}
	return &carryPlan{prev: prev.out, scope: scope, touched: touched}, ""
}

// linksChanged lists the incidents whose neighbours, related,
// overlapping or similar incidents differ between two archives.
func linksChanged(before, after *archive.Archive) map[string]bool {
	links := func(inc *archive.Incident) []string {
		var out []string
		add := func(kind string, list ...*archive.Incident) {
			for _, o := range list {
				if o != nil {
					out = append(out, kind+o.ID)
				}
			}
			out = append(out, "|")
		}
		add("p", inc.Prev)
		add("n", inc.Next)
		add("r", inc.Related...)
		add("o", inc.Overlapping...)
		add("s", inc.Similar...)
		return out
	}
	was := map[string][]string{}
	for _, inc := range before.Incidents {
		was[inc.ID] = links(inc)
	}
	out := map[string]bool{}
	for _, inc := range after.Incidents {
		if old, ok := was[inc.ID]; ok && !slices.Equal(old, links(inc)) {
			out[inc.ID] = true
		}
	}
	return out
}

// carryOver carries the previous output's files over (carry), removes
// what the staging folder kept of an older output and neither wrote nor
// carried, and checks that the previous output is still the one at
// dest; an error wraps errCarry when a cold build can do without it.
func carryOver(stage *output.Staging, plan *carryPlan, a *archive.Archive, dest string) (files, pages int, err error) {
	if files, pages, err = carry(stage, plan, a); err != nil {
		return files, pages, err
	}
	if err := stage.Prune(); err != nil {
		return files, pages, fmt.Errorf("%w: %w", errCarry, err)
	}
	if !plan.prev.Current() {
		return files, pages, fmt.Errorf("%w: %s was replaced by another build meanwhile", errCarry, dest)
	}
	return files, pages, nil
}

// carry links every file of the previous output the plan does not
// render again into the staging folder, after the render: a file the
// render wrote stays. It returns how many files it carried and how many
// of them are pages. One goroutine does it: creating folders is most of
// the cost, and several at once contend for the same parent folder.
func carry(stage *output.Staging, plan *carryPlan, a *archive.Archive) (files, pages int, err error) {
	exists := make(map[string]bool, len(a.Incidents))
	for _, inc := range a.Incidents {
		exists[inc.ID] = true
	}
	err = filepath.WalkDir(plan.prev.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(plan.prev.Dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == output.Marker || !carried(rel, plan.scope, exists) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		ok, err := stage.Carry(rel, p, info)
		if ok {
			files++
			if strings.HasSuffix(rel, ".html") {
				pages++
			}
		}
		return err
	})
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %w", errCarry, err)
	}
	return files, pages, nil
}

// carried reports whether a file of the previous output is still
// current: what the authoring server keeps (keep), of an incident that
// still exists.
func carried(rel string, scope *render.Scope, exists map[string]bool) bool {
	loc := siteURLs.ParseFile(rel)
	if loc.Kind == urls.Incident && !exists[loc.ID] {
		return false
	}
	return keep(loc, scope)
}
