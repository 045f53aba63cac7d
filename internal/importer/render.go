package importer

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/timefmt"
)

// Options say how incidents are written.
type Options struct {
	Location     *time.Location // the zone the file's times are local to
	Organization string         // replaces the export's, when not empty
	// Lang is the language the file is written in: its headings and the
	// status words of its timeline are in it. It must not be nil.
	Lang *locale.Lang
}

// File is an incident written as the original of a gen incident.
type File struct {
	Incident
	ID   string // <local begin date>-<slug>, before Plan settles it
	Text []byte // the whole file, import_hash included
}

// Render writes inc as the original of a gen incident. It reports in errs,
// and returns false, when the incident cannot be written faithfully.
func Render(inc Incident, opts Options, errs *diag.List) (File, bool) {
	loc := opts.Location
	if opts.Organization != "" {
		inc.Organization = opts.Organization
	}
	timeline, err := timelineLines(inc.Updates, loc, opts.Lang)
	if err != "" {
		inc.Fail(errs, "%s", err)
		return File{}, false
	}
	main := mainUpdate(inc.Updates)
	if len(inc.Sections) > 0 {
		main = nil // a report's timeline items are steps, not summaries
	}
	summary := inc.Title
	if main != nil {
		summary = cmp.Or(summarize(main.Text), inc.Title)
	}
	for _, s := range slices.Backward(inc.Sections) {
		summary = cmp.Or(summarize(s.Text), summary)
	}
	// A published postmortem says more than any update, so it makes the
	// summary when it has a paragraph of prose.
	summary = cmp.Or(summarize(inc.Postmortem), summary)
	var body []string
	section := func(key, id string, lines []string) {
		body = append(body, Heading(opts.Lang, key, id), "")
		body = append(body, lines...)
		body = append(body, "")
	}
	if main != nil && strings.TrimSpace(main.Text) != "" {
		section("summary", "summary", markdownLines(main.Text))
	}
	if strings.TrimSpace(inc.Postmortem) != "" {
		section("section_postmortem", "postmortem", markdownLines(inc.Postmortem))
	}
	for _, s := range inc.Sections {
		if s.Key != "" {
			section(s.Key, s.ID, markdownLines(s.Text))
			continue
		}
		body = append(body, "## "+escapeHTML(oneLine(s.Title))+" {#"+s.ID+"}", "")
		body = append(body, markdownLines(s.Text)...)
		body = append(body, "")
	}
	if len(timeline) > 0 {
		section("section_timeline", "timeline", timeline)
	}
	text := "---\n" + frontMatter(&inc, summary, loc) + "---\n\n" + strings.TrimSuffix(strings.Join(body, "\n"), "\n") + "\n"
	file := withHash(text)
	// What the build would refuse is not written: one such file would
	// stop every later build.
	if err := content.CheckLimits(file); err != nil {
		inc.failLongest(errs, "not written: gen build would refuse the incident's file: %v", err)
		return File{}, false
	}
	return File{Incident: inc, ID: content.ID(inc.Begin.In(loc), slug(inc)), Text: file}, true
}

// Heading is a section's Markdown heading in lang: the string key as its
// text, id as its heading id (`## 時間軸 {#timeline}`). Every site
// language is filled from gen's own, which have every key; should a
// string still be missing, the id says what the section is.
func Heading(lang *locale.Lang, key, id string) string {
	h, err := lang.T(key)
	if err != nil || strings.TrimSpace(h) == "" {
		h = id
	}
	return "## " + escapeHTML(oneLine(h)) + " {#" + id + "}"
}

// statusIn is an update's status word ("Investigating") in lang, or the
// word as the export gave it when lang has none for it.
func statusIn(lang *locale.Lang, word string) string {
	key := "status_" + strings.ReplaceAll(strings.ToLower(word), " ", "_")
	if !lang.HasKey(key) {
		return word
	}
	if s, err := lang.T(key); err == nil && s != "" {
		return s
	}
	return word
}

// mainUpdate is the update that says the most: the longest, the later of
// two as long.
func mainUpdate(updates []Update) *Update {
	var best *Update
	for i := range updates {
		if best == nil || len([]rune(strings.TrimSpace(updates[i].Text))) >= len([]rune(strings.TrimSpace(best.Text))) {
			best = &updates[i]
		}
	}
	return best
}

// frontMatter writes the facts as YAML, each value quoted as YAML needs.
func frontMatter(inc *Incident, summary string, loc *time.Location) string {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	add := func(key string, v *yaml.Node) { doc.Content = append(doc.Content, str(key), v) }
	list := func(key string, vs []string) {
		if len(vs) == 0 {
			return
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, v := range vs {
			seq.Content = append(seq.Content, str(v))
		}
		add(key, seq)
	}
	add("title", str(inc.Title))
	add("summary", str(summary))
	add("timezone", str(loc.String()))
	add("begin", str(localTime(inc.Begin, loc)))
	if inc.Ongoing() {
		add("ongoing", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	} else {
		add("end", str(localTime(inc.End, loc)))
	}
	if inc.Severity != "" {
		add("severity", str(inc.Severity))
	}
	list("products", inc.Products)
	list("regions", inc.Regions)
	if inc.Organization != "" {
		add("organization", str(inc.Organization))
	}
	if inc.URL != "" {
		source := &yaml.Node{Kind: yaml.MappingNode}
		source.Content = append(source.Content, str("title"), str(inc.Source), str("url"), str(inc.URL))
		add("sources", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{source}})
	}
	add("import_id", str(inc.ImportID))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	// Encoding a tree of strings built here cannot fail.
	_ = enc.Encode(doc)
	_ = enc.Close()
	return b.String()
}

// localTime writes t, to the minute, as the wall time in loc; a wall time
// the clocks show twice is written with its offset, as gen requires.
func localTime(t time.Time, loc *time.Location) string {
	t = t.Truncate(time.Minute).In(loc)
	if len(content.WallInstants(t, loc)) != 1 {
		return t.Format(time.RFC3339)
	}
	return t.Format(timefmt.Wall)
}

// timelineLines writes the updates as timeline items, each local to loc,
// with the date on the first item and wherever the day changes. It checks
// the items the way gen will read them, and says why when an update's
// time cannot be written so (a time the clocks show twice, out of order).
func timelineLines(updates []Update, loc *time.Location, lang *locale.Lang) ([]string, string) {
	var lines []string
	var marks []content.Mark
	prevDate := ""
	for _, u := range updates {
		at := u.At.Truncate(time.Minute).In(loc)
		m := content.Mark{Clock: at.Format(timefmt.Clock)}
		when := m.Clock
		if d := at.Format(timefmt.Date); d != prevDate {
			m.Date, prevDate = d, d
			when = d + " " + when
		}
		m.Written = when
		marks = append(marks, m)
		u.Status = statusIn(lang, u.Status)
		lines = append(lines, timelineItem(when, u)...)
	}
	events, perrs := content.PlaceEvents("", marks, loc)
	if len(perrs) > 0 || len(events) != len(updates) {
		return nil, "its updates cannot be written as a timeline in " + loc.String() + "; import it with --timezone UTC"
	}
	for i, e := range events {
		if !e.Instant.Equal(updates[i].At.Truncate(time.Minute)) {
			return nil, "the update at " + timefmt.UTC(updates[i].At) + " falls in the hour the clocks repeat in " +
				loc.String() + ", and a timeline item cannot say which of the two it is; import it with --timezone UTC"
		}
	}
	return lines, ""
}

// slug makes the slug of an incident's id from its title, or from the
// export's id when the title has no word to make one of.
func slug(inc Incident) string {
	if s := content.Slug(inc.Title); s != "" {
		return s
	}
	return "incident-" + idPart(inc.ImportID)
}

// idPart is the export's id reduced to what an incident id may hold.
func idPart(id string) string {
	s := strings.Map(func(r rune) rune {
		r = unicode.ToLower(r)
		if r <= unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, id)
	if s == "" {
		return "1"
	}
	return s[:min(len(s), 12)]
}

// hashLine is the front-matter line that holds the hash of the rest of
// the file, written last so that removing it gives back what was hashed.
var hashLine = regexp.MustCompile(`(?m)^import_hash: ([0-9a-f]{64})\n`)

// withHash adds import_hash, the hash of text, as the last front-matter
// line.
func withHash(text string) []byte {
	sum := sha256.Sum256([]byte(text))
	end := strings.Index(text[4:], "\n---\n") + 5
	return []byte(text[:end] + "import_hash: " + hex.EncodeToString(sum[:]) + "\n" + text[end:])
}

// Untouched reports whether a file is as gen import wrote it: it has an
// import_hash, and the hash matches the rest of the file.
func Untouched(file []byte) bool {
	m := hashLine.FindSubmatchIndex(file)
	if m == nil {
		return false
	}
	rest := append(append([]byte{}, file[:m[0]]...), file[m[1]:]...)
	sum := sha256.Sum256(rest)
	return hex.EncodeToString(sum[:]) == string(file[m[2]:m[3]])
}
