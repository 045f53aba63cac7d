package content

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/internal/diag"
)

// Pos is a place in a source file; the zero Pos means "not given".
type Pos struct{ Line, Col int }

// Given reports whether the value was written in the file.
func (p Pos) Given() bool { return p.Line > 0 }

// String is a scalar front-matter value and where it was written.
type String struct {
	Pos
	V string
}

// Strings is a list value; each item keeps its own position so that an error
// can point at the one bad entry.
type Strings struct {
	Pos
	V []String
}

// Values returns the plain strings of the list.
func (s Strings) Values() []string {
	out := make([]string, len(s.V))
	for i, v := range s.V {
		out[i] = v.V
	}
	return out
}

// Source is one entry of the sources list: a report the page is based on.
type Source struct {
	Pos
	Title string
	URL   string
}

// Meta is a file's front matter. The original of an incident holds the facts
// (everything but Title and Summary); a translation holds only words and
// inherits the facts.
type Meta struct {
	Title   String
	Summary String
	// Facts are the rest, read through Meta (m.Begin is m.Facts.Begin).
	// A build lets them go once the archive is linked (what pages show of
	// them is the incident's), so that every page of a large archive is
	// not kept whole: its Facts are nil then.
	*Facts
}

// Facts is the front matter but the title and summary.
type Facts struct {
	Timezone String
	Begin    String
	// End is optional: without it the incident is ongoing (Ongoing) or its
	// end was not stated.
	End String
	// Ongoing and Draft sit together, in one word.
	Ongoing bool
	Draft   bool
	// OngoingPos is where `ongoing:` was written; zero when it was not.
	OngoingPos Pos
	// Organization is whose incident it is: the operator whose products
	// failed (Google Cloud, AWS, Wikimedia, …).
	Organization String
	Products     Strings
	Regions      Strings
	Causes       Strings
	Severity     String
	Related      Strings
	Sources      []Source
	DraftPos     Pos
	// TranslatedFrom is the revision of the original a translation was made
	// from; optional, for tracking stale translations.
	TranslatedFrom String
	// ImportID and ImportHash are written by gen import: the incident's id
	// in the status page export it came from, and a hash of the file as gen
	// wrote it, so that a later import finds the file again and leaves it
	// alone once a person has edited it. They are carried, never shown.
	ImportID   String
	ImportHash String
}

// IsOriginal reports whether the file states the incident's facts: the
// original is the one file with a begin time.
func (m *Meta) IsOriginal() bool { return m.Begin.Given() }

// knownKeys lists every front-matter key, for strict decoding and for
// suggesting the nearest one when a key is misspelt.
var knownKeys = []string{
	"title", "summary", "timezone", "begin", "end", "ongoing", "organization",
	"products", "regions", "causes", "severity", "related", "sources", "draft",
	"translated_from", "import_id", "import_hash",
}

// Severities are the allowed values of the severity fact.
var Severities = []string{"minor", "major", "critical"}

// ParseMeta decodes only the front matter of a content file, for tools
// that need a file's facts without its body. ok is false when the file
// has no front matter or it is not YAML.
func ParseMeta(file string, src []byte, errs *diag.List) (m Meta, ok bool) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	yamlText, _, _, ok := splitFrontMatter(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
	if !ok {
		errs.Add(file, 1, 1, "no front matter; the file must start with a `---` line")
		return Meta{Facts: &Facts{}}, false
	}
	return decodeMeta(file, yamlText, 2, errs)
}

// splitFrontMatter separates the YAML block between the leading "---" lines
// from the Markdown body. bodyLine is the 1-based line on which the body
// starts.
func splitFrontMatter(src []byte) (yamlText, body []byte, bodyLine int, ok bool) {
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return nil, src, 1, false
	}
	rest := src[4:]
	line := 2
	for off := 0; off <= len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		var cur []byte
		if end < 0 {
			cur = rest[off:]
		} else {
			cur = rest[off : off+end]
		}
		if string(bytes.TrimRight(cur, " \t")) == "---" {
			yamlText = rest[:off]
			if end < 0 {
				return yamlText, nil, line + 1, true
			}
			return yamlText, rest[off+end+1:], line + 1, true
		}
		if end < 0 {
			break
		}
		off += end + 1
		line++
	}
	return nil, src, 1, false
}

// decodeMeta reads front matter strictly: unknown keys, wrong types and
// duplicate keys are errors that point at the offending line and column.
// firstLine is the file line on which the YAML text starts. ok is false
// when the text is not YAML at all, so that nothing else is said of it.
func decodeMeta(file string, yamlText []byte, firstLine int, errs *diag.List) (m Meta, ok bool) {
	m.Facts = &Facts{}
	root, ok := parseMetaYAML(file, yamlText, firstLine, errs)
	if root == nil {
		return m, ok
	}
	d := &metaDecoder{file: file, at: func(n *yaml.Node) Pos { return Pos{n.Line + firstLine - 1, n.Column} }, errs: errs}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			kp := d.at(k)
			errs.Add(file, kp.Line, kp.Col, "key %q is given twice; keep one", k.Value)
			continue
		}
		seen[k.Value] = true
		d.entry(&m, k, v)
	}
	return m, true
}

// parseMetaYAML parses the front matter into its top mapping. root is nil
// when there is nothing to decode: no keys at all (ok), or text that is
// not a YAML mapping (not ok, reported).
func parseMetaYAML(file string, yamlText []byte, firstLine int, errs *diag.List) (root *yaml.Node, ok bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(yamlText, &doc); err != nil {
		line, msg := yamlErrorLine(err)
		hint := "write `key: value` lines between the two `---` lines"
		if strings.Contains(msg, "mapping values are not allowed") {
			hint = "a value with \": \" in it needs quotes: summary: \"Cause: …\""
		}
		errs.Add(file, line+firstLine-1, 0, "front matter is not valid YAML: %s; %s", msg, hint)
		return nil, false
	}
	if len(doc.Content) == 0 {
		return nil, true
	}
	root = doc.Content[0]
	if root.Kind != yaml.MappingNode {
		errs.Add(file, root.Line+firstLine-1, root.Column, "front matter must be a mapping of keys to values, not a %s", kindName(root))
		return nil, false
	}
	return root, true
}

// entry decodes one key and its value into m.
func (d *metaDecoder) entry(m *Meta, k, v *yaml.Node) {
	key, known := metaKeys[k.Value]
	switch {
	case k.Value == "sources":
		m.Sources = decodeSources(d.file, v, d.at, d.errs)
	case !known:
		d.unknown(k)
	case key.str != nil:
		d.str(k.Value, v, key.str(m))
	case key.list != nil:
		d.list(k.Value, v, key.list(m))
	default:
		b, pos := key.flag(m)
		d.flag(k.Value, v, b, pos)
	}
}

// knownKeyList is knownKeys as the error message for an unknown key
// shows them, joined once rather than for every unknown key.
var knownKeyList = strings.Join(knownKeys, ", ")

// unknown reports a key gen does not know, with the nearest known key when
// one is close enough to be a misspelling.
func (d *metaDecoder) unknown(k *yaml.Node) {
	d.unknownKeys++
	hint := "remove it"
	if d.unknownKeys <= suggestedKeys {
		hint = diag.Suggest(k.Value, knownKeys, hint)
	}
	kp := d.at(k)
	d.errs.Add(d.file, kp.Line, kp.Col, "unknown front-matter key %q; %s (known keys: %s)", k.Value, hint, knownKeyList)
}

// metaKey says where one front-matter key's value goes: a single value, a
// list, or true/false (with where it was written).
type metaKey struct {
	str  func(*Meta) *String
	list func(*Meta) *Strings
	flag func(*Meta) (*bool, *Pos)
}

// metaKeys are the keys decodeMeta reads into Meta; "sources" has its own
// shape.
var metaKeys = map[string]metaKey{
	"title":           {str: func(m *Meta) *String { return &m.Title }},
	"summary":         {str: func(m *Meta) *String { return &m.Summary }},
	"timezone":        {str: func(m *Meta) *String { return &m.Timezone }},
	"begin":           {str: func(m *Meta) *String { return &m.Begin }},
	"end":             {str: func(m *Meta) *String { return &m.End }},
	"severity":        {str: func(m *Meta) *String { return &m.Severity }},
	"organization":    {str: func(m *Meta) *String { return &m.Organization }},
	"translated_from": {str: func(m *Meta) *String { return &m.TranslatedFrom }},
	"import_id":       {str: func(m *Meta) *String { return &m.ImportID }},
	"import_hash":     {str: func(m *Meta) *String { return &m.ImportHash }},
	"products":        {list: func(m *Meta) *Strings { return &m.Products }},
	"regions":         {list: func(m *Meta) *Strings { return &m.Regions }},
	"causes":          {list: func(m *Meta) *Strings { return &m.Causes }},
	"related":         {list: func(m *Meta) *Strings { return &m.Related }},
	"draft":           {flag: func(m *Meta) (*bool, *Pos) { return &m.Draft, &m.DraftPos }},
	"ongoing":         {flag: func(m *Meta) (*bool, *Pos) { return &m.Ongoing, &m.OngoingPos }},
}

// metaDecoder reads values of one file's front matter, reporting wrong
// shapes at the value.
type metaDecoder struct {
	file string
	at   func(*yaml.Node) Pos
	errs *diag.List
	// unknownKeys counts the unknown keys reported so far.
	unknownKeys int
}

// suggestedKeys is how many unknown keys of one file get a "did you mean":
// many more than a person is shown (diag.MaxShown), few enough that a
// file of hundreds of thousands of junk keys is not spent on guessing.
const suggestedKeys = 10 * diag.MaxShown

func (d *metaDecoder) str(key string, v *yaml.Node, dst *String) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		d.errs.Add(d.file, d.at(v).Line, d.at(v).Col, "%s must be a single value, not a %s", key, kindName(v))
		return
	}
	*dst = String{d.at(v), strings.TrimSpace(v.Value)}
}

func (d *metaDecoder) list(key string, v *yaml.Node, dst *Strings) {
	*dst = Strings{Pos: d.at(v)}
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		// A lone value is a list of one: `products: BigQuery`.
		dst.V = []String{{d.at(v), strings.TrimSpace(v.Value)}}
		return
	}
	if v.Kind != yaml.SequenceNode {
		d.errs.Add(d.file, d.at(v).Line, d.at(v).Col, "%s must be a list like [a, b], not a %s", key, kindName(v))
		return
	}
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || strings.TrimSpace(item.Value) == "" {
			d.errs.Add(d.file, d.at(item).Line, d.at(item).Col, "each entry of %s must be a non-empty name, not a %s", key, kindName(item))
			continue
		}
		dst.V = append(dst.V, String{d.at(item), strings.TrimSpace(item.Value)})
	}
}

func (d *metaDecoder) flag(key string, v *yaml.Node, dst *bool, pos *Pos) {
	b, err := strconv.ParseBool(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil {
		d.errs.Add(d.file, d.at(v).Line, d.at(v).Col, "%s must be true or false, not %q", key, v.Value)
		return
	}
	*dst, *pos = b, d.at(v)
}

func decodeSources(file string, v *yaml.Node, at func(*yaml.Node) Pos, errs *diag.List) []Source {
	if v.Kind != yaml.SequenceNode {
		errs.Add(file, at(v).Line, at(v).Col, "sources must be a list of {title: …, url: …}, not a %s", kindName(v))
		return nil
	}
	var out []Source
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			errs.Add(file, at(item).Line, at(item).Col, "each source must be {title: …, url: …}, not a %s", kindName(item))
			continue
		}
		s := Source{Pos: at(item)}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, val := item.Content[i], item.Content[i+1]
			if val.Kind != yaml.ScalarNode {
				errs.Add(file, at(val).Line, at(val).Col, "source %s must be text, not a %s", k.Value, kindName(val))
				continue
			}
			switch k.Value {
			case "title":
				s.Title = val.Value
			case "url":
				s.URL = val.Value
				if u, err := url.Parse(val.Value); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
					errs.Add(file, at(val).Line, at(val).Col, "source url %q is not a web address; write a full http:// or https:// URL", val.Value)
				}
			default:
				errs.Add(file, at(k).Line, at(k).Col, "unknown source key %q; a source has title and url", k.Value)
			}
		}
		if s.Title == "" {
			errs.Add(file, s.Line, s.Col, "source has no title; give it `title: …`")
		}
		out = append(out, s)
	}
	return out
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "empty value"
		}
		return "single value"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// yamlErrorLine pulls the line number out of a yaml.v3 error message
// ("yaml: line 3: …"), which is the only place the library reports it.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return 1, msg
}
