// Package locale loads the site's languages from i18n/<tag>.yaml: the UI
// strings with CLDR plural forms, the language's own name, and its date and
// duration formats. The set of files is the set of site languages.
package locale

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/collate"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/timefmt"

	"github.com/postmortem-archive/gen/i18n"
)

// Message is a UI string: one text, or one text per CLDR plural form
// (zero, one, two, few, many, other). Texts hold {name} placeholders.
type Message struct {
	Text  string
	Forms map[string]string
}

// UnmarshalYAML accepts `key: text` and `key: {one: …, other: …}`.
func (m *Message) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		m.Text = n.Value
		return nil
	case yaml.MappingNode:
		if err := n.Decode(&m.Forms); err != nil {
			return err
		}
		for form := range m.Forms {
			if _, ok := pluralForms[form]; !ok {
				return fmt.Errorf("line %d: %q is not a plural form; use zero, one, two, few, many or other", n.Line, form)
			}
		}
		if _, ok := m.Forms["other"]; !ok {
			return fmt.Errorf("line %d: plural message needs an `other` form", n.Line)
		}
		return nil
	}
	return fmt.Errorf("line %d: a message is text or a map of plural forms", n.Line)
}

var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// file is the shape of an i18n/<tag>.yaml file.
type file struct {
	Name      string   `yaml:"name"`      // the language's own name: 日本語
	Direction string   `yaml:"direction"` // ltr or rtl
	Date      string   `yaml:"date"`      // {year} {month} {mon} {day} {weekday}
	DateShort string   `yaml:"date_short"`
	MonthYear string   `yaml:"month_year"`
	Months    []string `yaml:"months"`
	Weekdays  []string `yaml:"weekdays"`
	Time      string   `yaml:"time"` // {local} {zone} {utc}
	// TimeUTC shows an instant of an incident kept in UTC, whose local
	// time would repeat the UTC one: "{utc} UTC" when not given.
	TimeUTC string `yaml:"time_utc"`
	// DateTime joins a date and a wall-clock time with its zone, where a
	// line names an instant once: "{date} {time}" when not given.
	DateTime string             `yaml:"date_time"`
	Duration durationFormat     `yaml:"duration"`
	Strings  map[string]Message `yaml:"strings"`
}

type durationFormat struct {
	Days      Message `yaml:"days"`
	Hours     Message `yaml:"hours"`
	Minutes   Message `yaml:"minutes"`
	Separator string  `yaml:"separator"`
}

// Lang is one site language with everything needed to speak it on a page.
type Lang struct {
	Tag  string // canonical BCP 47 tag, as in the file name
	Name string
	Dir  string
	// From is the tag of the site language whose file this one speaks
	// through, when it has none of its own (AddNearest); "" when it has.
	From string
	tag  language.Tag
	f    file
	coll *collator
	num  *message.Printer
}

// collator serialises a collate.Collator, which keeps its iteration state
// in itself: pages rendered on request sort terms from several goroutines.
type collator struct {
	mu sync.Mutex
	c  *collate.Collator
}

// Bundle is the set of site languages, sorted by tag.
type Bundle struct {
	Langs []*Lang
}

// Load reads every <tag>.yaml in fsys (the site's i18n folder). All
// problems are reported together; a language missing a string that another
// language has is an error, so no page shows a raw key.
func Load(fsys fs.FS, dir string) (*Bundle, error) {
	var errs diag.List
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("listing i18n files: %w", err)
	}
	b := &Bundle{}
	for _, name := range names {
		rel := path.Join(dir, name)
		tagText := strings.TrimSuffix(name, ".yaml")
		if c, err := i18n.Canonical(tagText); err != nil || c != tagText {
			errs.Add(rel, 0, 0, "file name must be a canonical BCP 47 tag such as en.yaml or zh-TW.yaml")
			continue
		}
		tag := language.Make(tagText) // canonical: it parses
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs.Add(rel, 0, 0, "cannot read: %v", err)
			continue
		}
		var f file
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil {
			line, msg := yamlLine(err)
			errs.Add(rel, line, 0, "%s", msg)
			continue
		}
		if f.Name == "" || len(f.Months) != 12 || f.Date == "" || f.Time == "" {
			errs.Add(rel, 1, 1, "needs name, date, time and 12 months")
			continue
		}
		if len(f.Weekdays) != 0 && len(f.Weekdays) != 7 {
			errs.Add(rel, 1, 1, "weekdays needs 7 names, Sunday first")
			continue
		}
		if f.Direction == "" {
			f.Direction = "ltr"
		}
		b.Langs = append(b.Langs, &Lang{
			Tag: tagText, Name: f.Name, Dir: f.Direction, tag: tag, f: f,
			coll: &collator{c: collate.New(tag, collate.IgnoreCase, collate.Numeric)},
			num:  message.NewPrinter(tag),
		})
	}
	if len(b.Langs) == 0 && errs.Len() == 0 {
		errs.Add(dir, 0, 0, "no languages: add one file per site language, e.g. %s/en.yaml", dir)
	}
	// Every language must have every string some language has.
	all := map[string]bool{}
	for _, l := range b.Langs {
		for k := range l.f.Strings {
			all[k] = true
		}
	}
	for _, l := range b.Langs {
		var missing []string
		for k := range all {
			if _, ok := l.f.Strings[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			errs.Add(path.Join(dir, l.Tag+".yaml"), 1, 1, "missing strings that other languages have: %s", strings.Join(missing, ", "))
		}
	}
	sort.Slice(b.Langs, func(i, j int) bool { return b.Langs[i].Tag < b.Langs[j].Tag })
	return b, errs.Err()
}

// FillFrom gives each language the strings it lacks from defaults: the
// same language's there, else the default language's. A site that keeps
// its own i18n files then still works with a newer theme that uses more
// strings than the site has translated.
func (b *Bundle) FillFrom(defaults *Bundle) {
	if defaults == nil || len(defaults.Langs) == 0 {
		return
	}
	for _, l := range b.Langs {
		from := defaults.Get(l.Tag)
		for _, src := range []*Lang{from, defaults.Default()} {
			if src == nil {
				continue
			}
			for k, m := range src.f.Strings {
				if _, ok := l.f.Strings[k]; !ok {
					if l.f.Strings == nil {
						l.f.Strings = map[string]Message{}
					}
					l.f.Strings[k] = m
				}
			}
		}
	}
}

// AddNearest adds a site language for each tag of tags the bundle lacks,
// speaking through the nearest language that has a file (i18n.Nearest):
// its strings, formats and direction, under the tag's own name in CLDR
// (中文 (中國香港特別行政區) for zh-HK through zh-TW) and plural rules,
// collation and numbers. A tag no language stands in for is an error
// naming the languages there are.
func (b *Bundle) AddNearest(tags []string) error {
	var files []string
	for _, l := range b.Langs {
		if l.From == "" {
			files = append(files, l.Tag)
		}
	}
	for _, tag := range tags {
		if b.Get(tag) != nil {
			continue
		}
		near, ok := i18n.Nearest(tag, files)
		if !ok {
			return fmt.Errorf("language %q has no i18n file and no site language stands in for it; add i18n/%s.yaml or use one of: %s", tag, tag, strings.Join(files, ", "))
		}
		from := b.Get(near)
		t := language.Make(tag)
		f := from.f
		f.Name = display.Tags(t).Name(t)
		b.Langs = append(b.Langs, &Lang{
			Tag: tag, Name: f.Name, Dir: from.Dir, From: near, tag: t, f: f,
			coll: &collator{c: collate.New(t, collate.IgnoreCase, collate.Numeric)},
			num:  message.NewPrinter(t),
		})
	}
	sort.Slice(b.Langs, func(i, j int) bool { return b.Langs[i].Tag < b.Langs[j].Tag })
	return nil
}

// StandIns lists the tags of the languages AddNearest added, in order.
func (b *Bundle) StandIns() []string {
	var out []string
	for _, l := range b.Langs {
		if l.From != "" {
			out = append(out, l.Tag)
		}
	}
	return out
}

// Tags lists the site languages' tags.
func (b *Bundle) Tags() []string {
	out := make([]string, len(b.Langs))
	for i, l := range b.Langs {
		out[i] = l.Tag
	}
	return out
}

// Get returns the language with the given tag, or nil.
func (b *Bundle) Get(tag string) *Lang {
	for _, l := range b.Langs {
		if l.Tag == tag {
			return l
		}
	}
	return nil
}

// Default is the language a reader gets when nothing better matches:
// English when the site has it, else the first.
func (b *Bundle) Default() *Lang {
	if l := b.Get("en"); l != nil {
		return l
	}
	return b.Langs[0]
}

// Match picks the site language that best fits an Accept-Language header.
func (b *Bundle) Match(acceptLanguage string) *Lang {
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	supported := []language.Tag{b.Default().tag}
	for _, l := range b.Langs {
		if l != b.Default() {
			supported = append(supported, l.tag)
		}
	}
	_, i, conf := language.NewMatcher(supported).Match(tags...)
	if conf == language.No {
		return b.Default()
	}
	return b.Get(supported[i].String())
}

// T returns the string key with {name} placeholders filled from pairs of
// arguments: T("fallback", "lang", "English"). A missing key is an error,
// so templates fail loudly instead of printing a key.
func (l *Lang) T(key string, args ...any) (string, error) {
	m, ok := l.f.Strings[key]
	if !ok {
		return "", fmt.Errorf("i18n/%s.yaml has no string %q", l.Tag, key)
	}
	if m.Forms != nil {
		return "", fmt.Errorf("i18n/%s.yaml: %q has plural forms; use N with a count", l.Tag, key)
	}
	return fill(m.Text, args...), nil
}

// N returns the plural form of key that fits count n in this language,
// with {n} set to the number formatted for the language.
func (l *Lang) N(key string, n int, args ...any) (string, error) {
	m, ok := l.f.Strings[key]
	if !ok {
		return "", fmt.Errorf("i18n/%s.yaml has no string %q", l.Tag, key)
	}
	return l.plural(m, n, args...), nil
}

func (l *Lang) plural(m Message, n int, args ...any) string {
	text := m.Text
	if m.Forms != nil {
		form := plural.Cardinal.MatchPlural(l.tag, n, 0, 0, 0, 0)
		text = m.Forms["other"]
		for name, f := range pluralForms {
			if f == form {
				if t, ok := m.Forms[name]; ok {
					text = t
				}
			}
		}
	}
	return fill(text, append([]any{"n", l.num.Sprint(n)}, args...)...)
}

// HasKey reports whether the language defines key.
func (l *Lang) HasKey(key string) bool {
	_, ok := l.f.Strings[key]
	return ok
}

// LanguageName is the name of the language tag in this language
// ("Japanese", "日本語", "日文"), the tag itself when it has none.
func (l *Lang) LanguageName(tag string) string {
	t, err := language.Parse(tag)
	if err != nil {
		return tag
	}
	if name := display.Tags(l.tag).Name(t); name != "" {
		return name
	}
	return tag
}

// Number formats n with the language's digit grouping.
func (l *Lang) Number(n int) string { return l.num.Sprint(n) }

// Date formats the calendar date of t (in t's location) in the long form.
func (l *Lang) Date(t time.Time) string { return l.date(l.f.Date, t) }

// DateShort formats the date of t compactly, for lists.
func (l *Lang) DateShort(t time.Time) string {
	if l.f.DateShort == "" {
		return t.Format(timefmt.Date)
	}
	return l.date(l.f.DateShort, t)
}

// MonthYear names the month of t, for grouping headings.
func (l *Lang) MonthYear(t time.Time) string {
	if l.f.MonthYear == "" {
		return t.Format(timefmt.Month)
	}
	return l.date(l.f.MonthYear, t)
}

func (l *Lang) date(format string, t time.Time) string {
	weekday := ""
	if len(l.f.Weekdays) == 7 {
		weekday = l.f.Weekdays[t.Weekday()]
	}
	return fill(format,
		"year", strconv.Itoa(t.Year()), "month", l.f.Months[t.Month()-1],
		"mon", strconv.Itoa(int(t.Month())), "mon2", fmt.Sprintf("%02d", t.Month()),
		"day", strconv.Itoa(t.Day()), "day2", fmt.Sprintf("%02d", t.Day()), "weekday", weekday)
}

// Duration formats d in whole minutes: "2 h 4 min", "2 小時 4 分鐘".
func (l *Lang) Duration(d time.Duration) string {
	mins := int(d.Round(time.Minute) / time.Minute)
	days, hours, minutes := mins/(24*60), mins/60%24, mins%60
	var parts []string
	if days > 0 {
		parts = append(parts, l.plural(l.f.Duration.Days, days))
	}
	if hours > 0 {
		parts = append(parts, l.plural(l.f.Duration.Hours, hours))
	}
	if minutes > 0 || len(parts) == 0 {
		parts = append(parts, l.plural(l.f.Duration.Minutes, minutes))
	}
	sep := l.f.Duration.Separator
	if sep == "" {
		sep = " "
	}
	return strings.Join(parts, sep)
}

// Sort orders items by key in this language's collation.
func Sort[T any](l *Lang, items []T, key func(T) string) {
	var buf collate.Buffer
	keys := make(map[string][]byte, len(items))
	l.coll.mu.Lock()
	for _, it := range items {
		k := key(it)
		if _, ok := keys[k]; !ok {
			keys[k] = slices.Clone(l.coll.c.KeyFromString(&buf, k))
			buf.Reset()
		}
	}
	l.coll.mu.Unlock()
	sort.SliceStable(items, func(i, j int) bool {
		return bytes.Compare(keys[key(items[i])], keys[key(items[j])]) < 0
	})
}

// fill replaces {name} placeholders with values given as name, value
// pairs; unknown placeholders are left as written. It runs for every date
// and time on every page, so it scans once instead of building a Replacer.
func fill(text string, pairs ...any) string {
	if !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	for {
		open := strings.IndexByte(text, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(text[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(text[:open])
		name, value, found := text[open+1:open+end], "", false
		for i := 0; i+1 < len(pairs); i += 2 {
			if k, ok := pairs[i].(string); ok && k == name {
				if v, ok := pairs[i+1].(string); ok {
					value = v
				} else {
					value = fmt.Sprint(pairs[i+1])
				}
				found = true
				break
			}
		}
		if found {
			b.WriteString(value)
		} else {
			b.WriteString(text[open : open+end+1])
		}
		text = text[open+end+1:]
	}
	b.WriteString(text)
	return b.String()
}

func yamlLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return yamlLine(errors.New(te.Errors[0]))
	}
	return 1, msg
}
