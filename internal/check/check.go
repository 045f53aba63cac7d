// Package check validates a site without writing anything: every content,
// language, layout and link error a build would report, warnings about
// incomplete postmortems, and the translation matrix — which incident is
// written in which language, and which translations are out of date.
package check

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
)

// Translation states in the matrix.
const (
	Original   = "original"
	Translated = "translated"
	Missing    = "missing"
	Outdated   = "outdated" // the original changed after the translation
)

// Row is one incident's line of the translation matrix.
type Row struct {
	ID    string            `json:"id"`
	Langs map[string]string `json:"languages"` // tag → state
	Notes []string          `json:"notes,omitempty"`
}

// Report is everything check found.
type Report struct {
	Errors    []*diag.Error `json:"errors"`
	Warnings  []*diag.Error `json:"warnings"`
	Languages []string      `json:"languages"`
	Matrix    []Row         `json:"translations"`
	Incidents int           `json:"incidents"`
}

// Run checks the site in dir. Drafts are checked too.
func Run(dir string) *Report {
	rep := &Report{Errors: []*diag.Error{}, Warnings: []*diag.Error{}, Matrix: []Row{}}
	site, err := source.Load(dir, true, nil)
	if err != nil {
		rep.addErrors(err)
		return rep
	}
	rep.addErrors(renderNowhere(site))

	rep.Languages = site.Bundle.Tags()
	rep.Incidents = len(site.Archive.Incidents)
	history, err := gitHistory(dir)
	if err != nil {
		rep.Warnings = append(rep.Warnings, &diag.Error{File: "content", Msg: "cannot read the git history (" + err.Error() + "); only translations with translated_from are checked for being out of date"})
	}
	for _, inc := range site.Archive.Incidents {
		rep.Warnings = append(rep.Warnings, completeness(inc)...)
		rep.Matrix = append(rep.Matrix, translations(inc, rep.Languages, history))
	}
	sort.Slice(rep.Matrix, func(i, j int) bool { return rep.Matrix[i].ID < rep.Matrix[j].ID })
	sort.SliceStable(rep.Warnings, func(i, j int) bool { return rep.Warnings[i].File < rep.Warnings[j].File })
	return rep
}

// renderNowhere renders every page and drops it: template and rendering
// errors are errors too.
func renderNowhere(site *source.Site) error {
	layouts, err := render.ParseLayouts(site.Layouts)
	if err != nil {
		return err
	}
	r, err := render.New(site.Archive, site.Bundle, layouts, render.Options{BaseURL: "http://127.0.0.1:1313/"})
	if err != nil {
		return err
	}
	_, err = r.Render(func(string, []byte) error { return nil })
	return err
}

func (r *Report) addErrors(err error) {
	if err == nil {
		return
	}
	var list diag.List
	list.AddError(err)
	r.Errors = append(r.Errors, list.Errors()...)
}

// sections a postmortem should have, by heading id, with what to write.
var sections = []struct{ id, name string }{
	{"impact", "## Impact {#impact}"},
	{"root-cause", "## Root cause {#root-cause}"},
	{"remediation", "## Remediation {#remediation}"},
	{"timeline", "## Timeline {#timeline}"},
}

// completeness warns about what a reader of a postmortem would miss.
func completeness(inc *archive.Incident) []*diag.Error {
	var out []*diag.Error
	p := inc.Original
	for _, s := range sections {
		if !slices.Contains(p.Sections, s.id) {
			out = append(out, &diag.Error{File: p.File, Msg: "postmortem has no " + strings.TrimPrefix(strings.SplitN(s.name, " {", 2)[0], "## ") + " section; add `" + s.name + "`"})
		}
	}
	if len(inc.Events) == 0 {
		if slices.Contains(p.Sections, "timeline") {
			out = append(out, &diag.Error{File: p.File, Line: p.TimelinePos.Line, Msg: "timeline has no events"})
		}
		return out
	}
	first, last := inc.Events[0], inc.Events[len(inc.Events)-1]
	if inc.Begin.Before(first.Instant) {
		out = append(out, &diag.Error{File: p.File, Line: first.Line, Col: first.Col, Msg: "timeline starts after the incident began (" + local(inc, inc.Begin) + "); add the event that began it"})
	}
	if inc.End.After(last.Instant) {
		out = append(out, &diag.Error{File: p.File, Line: last.Line, Col: last.Col, Msg: "timeline ends before the incident ended (" + local(inc, inc.End) + "); add the event that ended it"})
	}
	return out
}

func local(inc *archive.Incident, t time.Time) string {
	return t.In(inc.Location).Format("2006-01-02 15:04 MST")
}

// translations fills one row of the matrix. A translation is out of date
// when its translated_from revision is not the original's last commit, or,
// without that field, when the original was committed after it.
func translations(inc *archive.Incident, langs []string, history map[string]commit) Row {
	row := Row{ID: inc.ID, Langs: map[string]string{}}
	orig := history[inc.Original.File]
	for _, l := range langs {
		p, ok := inc.Versions[l]
		switch {
		case !ok:
			row.Langs[l] = Missing
		case p == inc.Original:
			row.Langs[l] = Original
		default:
			row.Langs[l] = Translated
			tr := history[p.File]
			if from := p.Meta.TranslatedFrom.V; from != "" {
				if orig.hash != "" && !strings.HasPrefix(orig.hash, from) {
					row.Langs[l] = Outdated
					row.Notes = append(row.Notes, l+": translated from "+from+", the original is now at "+orig.hash[:min(12, len(orig.hash))])
				}
			} else if orig.hash != "" && tr.hash != "" && orig.when.After(tr.when) {
				row.Langs[l] = Outdated
				row.Notes = append(row.Notes, l+": the original changed on "+orig.when.UTC().Format("2006-01-02")+", after this translation ("+tr.when.UTC().Format("2006-01-02")+")")
			}
		}
	}
	return row
}

type commit struct {
	hash string
	when time.Time
}

// gitHistory maps each content file (as "content/<id>/<lang>.md") to the
// last commit that changed it, from one `git log`. Without git, or outside
// a repository, it says why: then no translation can be called out of
// date by its commit time.
func gitHistory(dir string) (map[string]commit, error) {
	out := map[string]commit{}
	top, err := gitOutput(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return out, err
	}
	prefix := strings.TrimSpace(string(top))
	log, err := gitOutput(dir, "log", "--format=@%H %at", "--name-only", "--", "content")
	if err != nil {
		return out, err
	}
	var cur commit
	sc := bufio.NewScanner(bytes.NewReader(log))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "@"); ok {
			hash, ts, _ := strings.Cut(rest, " ")
			sec, err := strconv.ParseInt(ts, 10, 64)
			if err != nil {
				return out, fmt.Errorf("git log: a commit line %q without a time: %w", line, err)
			}
			cur = commit{hash: hash, when: time.Unix(sec, 0)}
			continue
		}
		if line == "" {
			continue
		}
		rel := strings.TrimPrefix(path.Clean(line), prefix)
		if _, seen := out[rel]; !seen {
			out[rel] = cur // newest first: the first time a file appears is its last change
		}
	}
	return out, sc.Err()
}

// gitOutput runs git in dir; its error carries what git printed, which
// says why (not a repository, a broken one, git missing).
func gitOutput(dir string, args ...string) ([]byte, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(bytes.TrimSpace(exit.Stderr)) > 0 {
		return nil, fmt.Errorf("git %s: %s", args[0], bytes.TrimSpace(exit.Stderr))
	}
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}
