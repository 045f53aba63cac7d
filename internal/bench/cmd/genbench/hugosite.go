package main

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/layouts"
)

// hugoTheme is the Hugo counterpart of gen's default theme, cut to what both
// build: paginated lists, taxonomy and term pages, an incident page with its
// facts, related and similar incidents, and a feed.
//
//go:embed all:hugotheme
var hugoTheme embed.FS

// pageSize is the number of incidents on one list page, in both generators.
const pageSize = 50

// genFacts is the front matter of one of gen's content files: every key for
// an original, title and summary only for a translation.
type genFacts struct {
	Title    string   `yaml:"title"`
	Summary  string   `yaml:"summary"`
	Timezone string   `yaml:"timezone"`
	Begin    string   `yaml:"begin"`
	End      string   `yaml:"end"`
	Products []string `yaml:"products"`
	Regions  []string `yaml:"regions"`
	Causes   []string `yaml:"causes"`
	Severity string   `yaml:"severity"`
	Related  []string `yaml:"related"`
	Draft    bool     `yaml:"draft"`
	Sources  []struct {
		Title string `yaml:"title"`
		URL   string `yaml:"url"`
	} `yaml:"sources"`
}

// hugoFront is the same incident in Hugo's front matter: times as RFC 3339
// with the local offset, taxonomies under their plural names, the rest as
// page parameters the theme reads.
type hugoFront struct {
	Title       string              `yaml:"title"`
	Summary     string              `yaml:"summary"`
	Date        string              `yaml:"date"`
	IncidentEnd string              `yaml:"incident_end,omitempty"`
	Duration    string              `yaml:"duration,omitempty"`
	Timezone    string              `yaml:"timezone"`
	Products    []string            `yaml:"products"`
	Regions     []string            `yaml:"regions"`
	Causes      []string            `yaml:"causes"`
	Severity    string              `yaml:"severity"`
	Related     []string            `yaml:"related,omitempty"`
	Draft       bool                `yaml:"draft,omitempty"`
	Sources     []map[string]string `yaml:"sources,omitempty"`
}

// genFile is one parsed content file.
type genFile struct {
	facts genFacts
	body  []byte
}

// writeHugoSite writes, into dst, a Hugo site with the incidents of the gen
// site src in the languages langs: content/incidents/<id>/index.<lang>.md,
// the theme, i18n strings taken from gen's language files, and the
// configuration. An incident not translated into a language gets its
// original's text there, as gen publishes it. related has incident pages
// list similar incidents (.Related).
func writeHugoSite(src, dst string, langs []string, related bool) (incidents int, err error) {
	ids, err := incidentIDs(filepath.Join(src, "content"))
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := writeHugoIncident(filepath.Join(src, "content", id), filepath.Join(dst, "content", "incidents", id), langs); err != nil {
			return 0, err
		}
	}
	theme, err := fs.Sub(hugoTheme, "hugotheme")
	if err != nil {
		return 0, err
	}
	if err := os.CopyFS(dst, theme); err != nil {
		return 0, err
	}
	style, err := layouts.Files.ReadFile("static/style.css")
	if err != nil {
		return 0, err
	}
	if err := writeFile(filepath.Join(dst, "static", "style.css"), style); err != nil {
		return 0, err
	}
	for _, l := range langs {
		if err := writeHugoStrings(dst, l); err != nil {
			return 0, err
		}
	}
	return len(ids), writeFile(filepath.Join(dst, "hugo.toml"), hugoConfig(langs, related))
}

// incidentIDs lists the incident folders of a content folder.
func incidentIDs(content string) ([]string, error) {
	ents, err := os.ReadDir(content)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// writeHugoIncident translates one incident folder.
func writeHugoIncident(from, to string, langs []string) error {
	files := map[string]genFile{}
	var orig *genFile
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		lang, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok {
			continue
		}
		f, err := readGenFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		files[lang] = f
		if f.facts.Begin != "" {
			orig = &f
		}
	}
	if orig == nil {
		return fmt.Errorf("%s: no original (no file states begin)", from)
	}
	base, err := hugoFacts(orig.facts)
	if err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	for _, l := range langs {
		f, ok := files[l]
		if !ok {
			f = *orig
		}
		fm := base
		fm.Title, fm.Summary = f.facts.Title, f.facts.Summary
		y, err := yaml.Marshal(fm)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		b.WriteString("---\n")
		b.Write(y)
		b.WriteString("---\n")
		b.Write(f.body)
		if err := writeFile(filepath.Join(to, "index."+hugoLang(l)+".md"), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// readGenFile splits a content file into its front matter and body.
func readGenFile(name string) (genFile, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return genFile{}, err
	}
	rest, ok := bytes.CutPrefix(b, []byte("---\n"))
	if !ok {
		return genFile{}, fmt.Errorf("%s:1:1: no front matter; a content file starts with ---", name)
	}
	fm, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return genFile{}, fmt.Errorf("%s: front matter is not closed by ---", name)
	}
	var f genFile
	if err := yaml.Unmarshal(fm, &f.facts); err != nil {
		return genFile{}, fmt.Errorf("%s: %w", name, err)
	}
	f.body = body
	return f, nil
}

// hugoFacts turns an original's facts into Hugo's front matter.
func hugoFacts(g genFacts) (hugoFront, error) {
	loc, err := time.LoadLocation(cmp.Or(g.Timezone, "UTC"))
	if err != nil {
		return hugoFront{}, err
	}
	begin, err := genTime(g.Begin, loc)
	if err != nil {
		return hugoFront{}, fmt.Errorf("begin: %w", err)
	}
	h := hugoFront{
		Date: begin.Format(time.RFC3339), Timezone: g.Timezone,
		Products: g.Products, Regions: g.Regions, Causes: g.Causes,
		Severity: g.Severity, Related: g.Related, Draft: g.Draft,
	}
	if g.End != "" { // an end not yet known is left out, as gen leaves it
		end, err := genTime(g.End, loc)
		if err != nil {
			return hugoFront{}, fmt.Errorf("end: %w", err)
		}
		h.IncidentEnd, h.Duration = end.Format(time.RFC3339), end.Sub(begin).String()
	}
	for _, s := range g.Sources {
		h.Sources = append(h.Sources, map[string]string{"title": s.Title, "url": s.URL})
	}
	return h, nil
}

// genTime reads a time as gen's front matter writes it: local wall time in
// the incident's zone, or RFC 3339.
func genTime(s string, loc *time.Location) (time.Time, error) {
	if t, err := time.ParseInLocation("2006-01-02 15:04", s, loc); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// hugoLang is the language key Hugo uses for a BCP 47 tag: Hugo lower-cases
// the keys of its languages table, and file suffixes must match them.
func hugoLang(tag string) string { return strings.ToLower(tag) }

// writeHugoStrings writes Hugo's i18n file for one language from the
// strings of gen's built-in language file, so both sites show the same
// words. Plural forms (maps) are left out: the Hugo theme uses none.
func writeHugoStrings(dst, tag string) error {
	b, err := i18n.Files.ReadFile(tag + ".yaml")
	if err != nil {
		return fmt.Errorf("no built-in gen language %q: %w", tag, err)
	}
	var lf struct {
		Strings map[string]any `yaml:"strings"`
	}
	if err := yaml.Unmarshal(b, &lf); err != nil {
		return fmt.Errorf("i18n/%s.yaml: %w", tag, err)
	}
	flat := map[string]string{}
	for k, v := range lf.Strings {
		if s, ok := v.(string); ok {
			flat[k] = s
		}
	}
	out, err := yaml.Marshal(flat)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dst, "i18n", hugoLang(tag)+".yaml"), out)
}

// languageName is a language's own name, as gen's language file gives it.
func languageName(tag string) string {
	b, err := i18n.Files.ReadFile(tag + ".yaml")
	if err != nil {
		return tag
	}
	var lf struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal(b, &lf) != nil || lf.Name == "" {
		return tag
	}
	return lf.Name
}

// hugoConfig is the site configuration: one subfolder per language as gen
// has, lists of pageSize, the three taxonomies, similar incidents ranked by
// cause, then product, then region as gen ranks them, one feed per
// language of as many entries as gen's, and no section list page (gen has
// none; its incident list is the language's home).
func hugoConfig(langs []string, related bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `baseURL = "http://127.0.0.1:1313/"
title = "Incident archive"
defaultContentLanguage = %q
defaultContentLanguageInSubdir = true
hasCJKLanguage = true
paginate = %d
rssLimit = %d
disableKinds = ["section"]
enableRobotsTXT = false

[taxonomies]
product = "products"
region = "regions"
cause = "causes"

[outputs]
home = ["HTML", "RSS"]
taxonomy = ["HTML"]
term = ["HTML"]

[params]
related = %t

[related]
includeNewer = true
threshold = 1
toLower = false
[[related.indices]]
name = "causes"
weight = 100
[[related.indices]]
name = "products"
weight = 50
[[related.indices]]
name = "regions"
weight = 10
`, hugoLang(langs[0]), pageSize, 50, related)
	for i, l := range langs {
		fmt.Fprintf(&b, "\n[languages.%s]\nlanguageCode = %q\nlanguageName = %q\nweight = %d\n", hugoLang(l), l, languageName(l), i+1)
	}
	return []byte(b.String())
}

// writeFile writes b to name, creating its folder.
func writeFile(name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}
