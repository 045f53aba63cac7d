// Package importer reads the incident exports of hosted status pages
// (one file per format) and turns each incident into the original of a gen
// incident: its facts in front matter, its updates as the timeline. It
// also decides, against a site's content folder, which files to create,
// which to update and which to leave because a person has edited them.
package importer

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// MaxExportSize bounds one export file; the largest public exports are a
// few megabytes.
const MaxExportSize = 64 << 20

// Incident is one incident as an export states it, in gen's terms.
type Incident struct {
	// Path is where it is in the export, for messages: its JSON path;
	// node places it in its file.
	Path     string
	node     placed
	ImportID string    // the export's own id for it
	Title    string    // one line
	Begin    time.Time // when it started
	End      time.Time // when it was resolved; zero while it is ongoing
	// Severity is minor, major or critical, or "" when the export gives
	// none or a word gen has no equivalent for.
	Severity     string
	Products     []string // affected components or products, as named
	Regions      []string // affected locations, when the export names them
	Organization string   // whose status page it is, when the export says
	Source       string   // the title of the incident's public page
	URL          string   // the incident's public page
	Updates      []Update // in time order
	// Postmortem is the report published after the incident, Markdown or
	// plain text, when the export has one.
	Postmortem   string
	postmortemAt *node
	// Sections are the parts of a written report (a Post Incident
	// Review), in order; the updates are then its timeline's items.
	Sections []Section
}

// Section is one part of a report.
type Section struct {
	// Key is the language file's string for a part gen knows
	// (section_impact); "" keeps Title, the heading as the report has it.
	Key   string
	Title string
	ID    string // the heading's id: impact, root-cause, pir-what-happens-next
	Text  string // Markdown
}

// Update is one status update.
type Update struct {
	At     time.Time
	Status string // as the status page shows it: "Investigating", "Resolved"
	Text   string // Markdown or plain text, as posted
	textAt *node  // where Text is in the export, when read from one
}

// placed is a node of a source, for an error found after reading.
type placed struct {
	src  *source
	node *node
}

// Fail records a problem with the incident as a whole, at the place its
// object opens in the export.
func (inc *Incident) Fail(errs *diag.List, format string, args ...any) {
	if inc.node.src == nil {
		errs.Add(inc.Path, 0, 0, format, args...)
		return
	}
	inc.node.src.fail(errs, inc.node.node, format, args...)
}

// failLongest records a problem with the incident's text as a whole at
// its longest text (an update or the postmortem): that is the one to
// shorten.
func (inc *Incident) failLongest(errs *diag.List, format string, args ...any) {
	var at *node
	longest := -1
	for _, u := range inc.Updates {
		if u.textAt != nil && len(u.Text) > longest {
			at, longest = u.textAt, len(u.Text)
		}
	}
	if inc.postmortemAt != nil && len(inc.Postmortem) > longest {
		at, longest = inc.postmortemAt, len(inc.Postmortem)
	}
	if at == nil || inc.node.src == nil {
		inc.Fail(errs, format, args...)
		return
	}
	inc.node.src.fail(errs, at, format+"; this is the incident's longest text (%.1f MiB)", append(args, float64(longest)/(1<<20))...)
}

// Ongoing reports whether the incident has not been resolved.
func (inc *Incident) Ongoing() bool { return inc.End.IsZero() }

// Format is one kind of export.
type Format struct {
	Name string
	// Where says where a status page publishes the export.
	Where string
	// read returns the good incidents of one export file and records a
	// placed error for each bad one, which it leaves out.
	read func(src *source, root *node, errs *diag.List) []Incident
	// readFeed does the same for an RSS feed, checked and placed.
	readFeed func(src *source, f *feed, errs *diag.List) []Incident
}

// Formats are the exports gen can import.
var Formats = []Format{Statuspage, GoogleCloud, AWSHealth, AzureStatus}

// FormatNames lists the formats' names, for usage messages.
func FormatNames() []string {
	var names []string
	for _, f := range Formats {
		names = append(names, f.Name)
	}
	return names
}

// Lookup finds a format by name.
func Lookup(name string) (Format, bool) {
	i := slices.IndexFunc(Formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return Formats[i], true
}

// ReadFile reads one export file. file is the name used in messages;
// warnings, when not nil, gets what is read but may not be what the
// export meant.
func (f Format) ReadFile(file string, warnings *diag.List) ([]Incident, error) {
	var errs diag.List
	if f.readFeed != nil {
		data, more, err := readFeedFile(file)
		if err != nil {
			errs.Add(file, 0, 0, "cannot read the feed: %v", err)
			return nil, errs.Err()
		}
		incs := f.readRSS(file, data, more, &errs, warnings)
		return incs, errs.Err()
	}
	info, err := os.Stat(file)
	if err != nil {
		errs.Add(file, 0, 0, "cannot read the export: %v", err)
		return nil, errs.Err()
	}
	if info.Size() > MaxExportSize {
		errs.Add(file, 0, 0, "the export is %.1f MiB; gen reads exports of up to %d MiB", float64(info.Size())/(1<<20), MaxExportSize>>20)
		return nil, errs.Err()
	}
	data, err := os.ReadFile(file)
	if err != nil {
		errs.Add(file, 0, 0, "cannot read the export: %v", err)
		return nil, errs.Err()
	}
	incs := f.Read(file, data, &errs, warnings)
	return incs, errs.Err()
}

// Read reads the bytes of one export; problems are recorded in errs and,
// when warnings is not nil, doubts in warnings.
func (f Format) Read(file string, data []byte, errs, warnings *diag.List) []Incident {
	if f.readFeed != nil {
		return f.readRSS(file, data, false, errs, warnings)
	}
	src := newSource(file, data, warnings)
	root, dups, err := parseJSON(data)
	if err != nil {
		pe := err.(*placedError)
		line, col := src.at(pe.offset)
		hint := ""
		if t := bytes.TrimSpace(data); bytes.HasPrefix(t, []byte("<?xml")) || bytes.HasPrefix(t, []byte("<rss")) {
			hint = "; it looks like an RSS feed: gen import aws-health or azure-status"
		}
		errs.Add(file, line, col, "not JSON: %s; a %s export is the JSON from %s%s", pe.msg, f.Name, f.Where, hint)
		return nil
	}
	for _, d := range dups {
		src.warn(d, "the key appears again in its object; the value written last is read")
	}
	return f.read(src, root, errs)
}

// readRSS reads a feed; more says it was cut at MaxFeedSize.
func (f Format) readRSS(file string, data []byte, more bool, errs, warns *diag.List) []Incident {
	src := newSource(file, data, warns)
	fd := parseFeed(src, data, more, f, errs)
	if fd == nil {
		return nil
	}
	return sortUpdates(f.readFeed(src, fd, errs))
}

// sortUpdates puts each incident's updates in time order.
func sortUpdates(incs []Incident) []Incident {
	for _, inc := range incs {
		slices.SortStableFunc(inc.Updates, func(a, b Update) int { return a.At.Compare(b.At) })
	}
	return incs
}

// wrongShape reports a file whose top level is not what format expects;
// other names the format it looks like instead, if any.
func wrongShape(src *source, root *node, errs *diag.List, format, want, other string) {
	hint := ""
	if other != "" {
		hint = fmt.Sprintf("; it looks like a %s export: gen import %s %s", other, other, src.file)
	}
	src.fail(errs, root, "a %s export is %s, but this is %s%s", format, want, kindNames[root.kind], hint)
}

// readEach reads every incident of a list with its own error list, so that
// a bad incident is left out whole and the good ones are kept.
func readEach(src *source, items []*node, errs *diag.List, read func(*node, *diag.List) (Incident, bool)) []Incident {
	var out []Incident
	for _, item := range items {
		var own diag.List
		inc, ok := read(item, &own)
		if own.Len() > 0 || !ok {
			errs.AddError(own.Err())
			continue
		}
		inc.node = placed{src, item}
		slices.SortStableFunc(inc.Updates, func(a, b Update) int { return a.At.Compare(b.At) })
		out = append(out, inc)
	}
	return out
}

// statusWord turns an export's status code into the word a reader sees:
// "investigating" → "Investigating", "SERVICE_DISRUPTION" → "Service
// disruption".
func statusWord(code string) string {
	w := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(code, "_", " ")), " "))
	if w == "" {
		return ""
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// addUnique appends the non-empty names not yet in list.
func addUnique(list []string, names ...string) []string {
	for _, n := range names {
		n = strings.Join(strings.Fields(n), " ")
		if n != "" && !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}
