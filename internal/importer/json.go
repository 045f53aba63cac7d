package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/internal/diag"
)

// maxDepth bounds how deeply an export may nest; real exports nest four
// levels, and the bound keeps a hostile file from exhausting the stack.
const maxDepth = 64

// kind is the type of a JSON value.
type kind int

const (
	null kind = iota
	boolean
	number
	text
	array
	object
)

var kindNames = [...]string{"null", "true or false", "a number", "text", "a list", "an object"}

// node is a JSON value with the place it was written, so that a message
// about it can give both its JSON path and its line and column.
type node struct {
	kind   kind
	path   string // incidents[12].incident_updates[3].created_at
	offset int    // byte offset of the value's first character
	value  string // the text, number or "true"/"false"
	keys   []string
	fields map[string]*node
	items  []*node
}

// parseJSON reads data into a tree of nodes. Only the first error is
// returned: after a syntax error nothing further can be trusted. dups are
// the keys an object repeats, each placed at its repetition: the last
// one's value is kept, as JSON readers keep it, but the export may have
// meant either.
func parseJSON(data []byte) (root *node, dups []*node, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err = parseValue(dec, data, "", 0, &dups)
	if err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, &placedError{skipSpace(data, int(dec.InputOffset())), "more after the end of the JSON value; an export is one object or list"}
	}
	return root, dups, nil
}

// placedError is a parse error at a byte offset.
type placedError struct {
	offset int
	msg    string
}

func (e *placedError) Error() string { return e.msg }

func parseValue(dec *json.Decoder, data []byte, path string, depth int, dups *[]*node) (*node, error) {
	start := skipSpace(data, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err, start)
	}
	n := &node{path: path, offset: start}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, &placedError{start, fmt.Sprintf("nested more than %d levels deep; this is not a status page export", maxDepth)}
		}
		if t == '{' {
			n.kind, n.fields = object, map[string]*node{}
			for dec.More() {
				keyAt := skipSpace(data, int(dec.InputOffset()))
				k, err := dec.Token()
				if err != nil {
					return nil, syntaxError(err, keyAt)
				}
				key, _ := k.(string)
				child, err := parseValue(dec, data, joinPath(path, key), depth+1, dups)
				if err != nil {
					return nil, err
				}
				if _, dup := n.fields[key]; dup {
					*dups = append(*dups, &node{path: child.path, offset: keyAt})
				} else {
					n.keys = append(n.keys, key)
				}
				n.fields[key] = child
			}
		} else {
			n.kind = array
			for dec.More() {
				child, err := parseValue(dec, data, fmt.Sprintf("%s[%d]", path, len(n.items)), depth+1, dups)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, child)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, syntaxError(err, skipSpace(data, int(dec.InputOffset())))
		}
	case string:
		n.kind, n.value = text, t
	case json.Number:
		n.kind, n.value = number, t.String()
	case bool:
		n.kind, n.value = boolean, fmt.Sprint(t)
	case nil:
		n.kind = null
	}
	return n, nil
}

func syntaxError(err error, at int) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &placedError{int(max(se.Offset-1, 0)), se.Error()}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &placedError{at, "the file ends in the middle of the JSON; was the download cut short?"}
	}
	return &placedError{at, err.Error()}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// skipSpace moves past the white space and separators before a value.
func skipSpace(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\r\n,:", data[i]) >= 0 {
		i++
	}
	return i
}

// source is one export file being read: it places messages about its
// nodes as file:line:col: path: message.
type source struct {
	file       string
	data       []byte
	lineStarts []int
	warns      *diag.List // what is read but may not be what the export meant; may be nil
}

func newSource(file string, data []byte, warns *diag.List) *source {
	s := &source{file: file, data: data, lineStarts: []int{0}, warns: warns}
	for i, c := range data {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	return s
}

// at converts a byte offset to a line and a column counted in characters.
// It is called only for messages: on an export written as one long line
// the column costs a count of everything before it.
func (s *source) at(offset int) (line, col int) {
	offset = min(offset, len(s.data))
	line, _ = slices.BinarySearch(s.lineStarts, offset+1)
	return line, utf8.RuneCount(s.data[s.lineStarts[line-1]:offset]) + 1
}

// fail records a problem with node n.
func (s *source) fail(errs *diag.List, n *node, format string, args ...any) {
	line, col := s.at(n.offset)
	msg := fmt.Sprintf(format, args...)
	if n.path != "" {
		msg = n.path + ": " + msg
	}
	errs.Add(s.file, line, col, "%s", msg)
}

// warn records something read that may not be what the export meant.
func (s *source) warn(n *node, format string, args ...any) {
	if s.warns != nil {
		s.fail(s.warns, n, format, args...)
	}
}

// markdown returns obj's text member key, converted to Markdown when it is
// HTML, with a warning that says where.
func (s *source) markdown(errs *diag.List, obj *node, key string) string {
	t := s.str(errs, obj, key, "")
	if isHTML(t) {
		t = htmlToMarkdown(t)
		s.warn(field(obj, key), "HTML converted to Markdown")
	}
	return t
}

// field returns obj's member key, or nil when it is absent or null.
func field(obj *node, key string) *node {
	if f := obj.fields[key]; f != nil && f.kind != null {
		return f
	}
	return nil
}

// missing reports that obj lacks a member it must have.
func (s *source) missing(errs *diag.List, obj *node, key, why string) {
	s.fail(errs, &node{path: joinPath(obj.path, key), offset: obj.offset}, "missing; %s", why)
}

// want checks that n is of kind k.
func (s *source) want(errs *diag.List, n *node, k kind) bool {
	if n.kind != k {
		s.fail(errs, n, "is %s, not %s as the format has it", kindNames[n.kind], kindNames[k])
		return false
	}
	return true
}

// str returns obj's text member key; why, when not empty, makes it
// required and says what it is for.
func (s *source) str(errs *diag.List, obj *node, key, why string) string {
	f := field(obj, key)
	if f == nil {
		if why != "" {
			s.missing(errs, obj, key, why)
		}
		return ""
	}
	if f.kind == number && key == "id" {
		// Some exports number their incidents; the number is read as
		// text, which finds the incident again only while it is written
		// the same way (12, not 12.0).
		s.warn(f, "is a number, not text as the format has it; read as the text %q", f.value)
		return f.value
	}
	if !s.want(errs, f, text) {
		return ""
	}
	if why != "" && strings.TrimSpace(f.value) == "" {
		s.fail(errs, f, "is empty; %s", why)
	}
	return f.value
}

// list returns the items of obj's list member key; a missing list is empty.
func (s *source) list(errs *diag.List, obj *node, key string) []*node {
	f := field(obj, key)
	if f == nil || !s.want(errs, f, array) {
		return nil
	}
	return f.items
}

// time returns obj's RFC 3339 time member key: zero when absent (an error
// when why says it is required) or when it is not a real time.
func (s *source) time(errs *diag.List, obj *node, key, why string) (time.Time, bool) {
	f := field(obj, key)
	if f == nil {
		if why != "" {
			s.missing(errs, obj, key, why)
		}
		return time.Time{}, false
	}
	if !s.want(errs, f, text) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, f.value)
	if err != nil {
		s.fail(errs, f, "%q is not a time; the format writes RFC 3339 times like 2024-08-12T17:22:05Z or 2024-08-12T10:22:05-07:00", f.value)
		return time.Time{}, false
	}
	return t, true
}
