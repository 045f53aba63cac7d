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
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
	"github.com/postmortem-archive/gen/internal/timefmt"
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
	Incidents int           `json:"incidents"` // read, with or without errors
}

// Run checks the site in dir. Drafts are checked too.
func Run(dir string) *Report {
	rep := &Report{Errors: []*diag.Error{}, Warnings: []*diag.Error{}, Matrix: []Row{}}
	site, err := source.Load(dir, true, nil)
	if err != nil {
		rep.addErrors(err)
		// Say how much was read, so that "0 incidents" never hides an
		// archive whose files have errors.
		rep.Incidents, rep.Languages = source.Count(dir)
		return rep
	}
	rep.addErrors(renderNowhere(site))

	rep.Languages = site.Bundle.Tags()
	rep.Incidents = len(site.Archive.Incidents)
	history, err := gitHistory(dir)
	if err != nil {
		rep.Warnings = append(rep.Warnings, &diag.Error{File: "content", Msg: "cannot read the git history (" + err.Error() + "); only translations with translated_from are checked for being out of date"})
	}
	rep.Warnings = append(rep.Warnings, site.Archive.Respellings()...)
	rep.Warnings = append(rep.Warnings, site.StandInNotes()...)
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

// facts a postmortem should state, and what a reader sees without them.
// Reports often leave them out; an absent fact is shown as unknown, so it
// is a warning, never an error.
var facts = []struct {
	missing func(*archive.Incident) bool
	msg     string
}{
	{func(inc *archive.Incident) bool { return inc.Organization() == nil },
		"no organization: the incident is listed under no one; add `organization: …` (Google Cloud, AWS, Wikimedia, …)"},
	{func(inc *archive.Incident) bool { return !inc.EndStated() && !inc.Ongoing },
		"no end: pages say it was not stated and give the duration as at least until the last event; add `end: YYYY-MM-DD HH:MM`, or `ongoing: true` if it had not ended when reported"},
	{func(inc *archive.Incident) bool { return inc.Severity == "" },
		"no severity: it is shown as unknown; add `severity: minor|major|critical` if the report says how severe it was"},
	{func(inc *archive.Incident) bool { return len(inc.Original.Meta.Products.V) == 0 },
		"no products: it is on no product page; add `products: [Name]` with what failed"},
	{func(inc *archive.Incident) bool { return len(inc.Original.Meta.Regions.V) == 0 },
		"no regions: it is on no region page; add `regions: [name]` with where it happened"},
	{func(inc *archive.Incident) bool { return len(inc.Original.Meta.Causes.V) == 0 },
		"no causes: it is on no cause page; add `causes: [name]` with why it happened"},
}

// completeness warns about what a reader of a postmortem would miss. A
// missing fact is reported at the front matter's first line, where it
// would be added; a missing section where the body begins.
func completeness(inc *archive.Incident) []*diag.Error {
	var out []*diag.Error
	p := inc.Original
	for _, f := range facts {
		if f.missing(inc) {
			out = append(out, &diag.Error{File: p.File, Line: 1, Col: 1, Msg: f.msg})
		}
	}
	for _, s := range sections {
		if !slices.Contains(p.Sections, s.id) {
			out = append(out, &diag.Error{File: p.File, Line: p.BodyLine, Col: 1, Msg: "postmortem has no " + strings.TrimPrefix(strings.SplitN(s.name, " {", 2)[0], "## ") + " section; add `" + s.name + "`"})
		}
	}
	events := inc.Events()
	if len(events) == 0 {
		if slices.Contains(p.Sections, "timeline") {
			out = append(out, &diag.Error{File: p.File, Line: p.TimelinePos.Line, Col: p.TimelinePos.Col, Msg: "timeline has no events; list them as `- YYYY-MM-DD HH:MM — what happened`"})
		}
		return out
	}
	first, last := events[0], events[len(events)-1]
	firstAt, lastAt := markPos(p, 0), markPos(p, len(events)-1)
	if inc.Begin.Before(first.Instant) {
		out = append(out, &diag.Error{File: p.File, Line: firstAt.Line, Col: firstAt.Col, Msg: "timeline starts after the incident began (" + local(inc, inc.Begin) + "); add the event that began it"})
	}
	if inc.EndStated() && inc.End.After(last.Instant) {
		out = append(out, &diag.Error{File: p.File, Line: lastAt.Line, Col: lastAt.Col, Msg: "timeline ends before the incident ended (" + local(inc, inc.End) + "); add the event that ended it"})
	}
	return out
}

// markPos is where the page's event i was written: the original's events
// are its timeline's marks one for one. A page whose marks were let go
// (a build lets them go once linked) gives its timeline heading.
func markPos(p *content.Page, i int) content.Pos {
	if i < len(p.Timeline) {
		return p.Timeline[i].Pos
	}
	return p.TimelinePos
}

func local(inc *archive.Incident, t time.Time) string {
	return timefmt.Zoned(t.In(inc.Location))
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
				row.Notes = append(row.Notes, l+": the original changed on "+orig.when.UTC().Format(timefmt.Date)+", after this translation ("+tr.when.UTC().Format(timefmt.Date)+")")
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
