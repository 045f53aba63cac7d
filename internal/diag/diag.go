// Package diag carries build diagnostics: errors that point at a place in a
// source file (file:line:col) and say what is wrong and what would be right.
//
// Every stage of the pipeline reports into a List instead of stopping at the
// first problem, so one build shows the author every mistake at once.
package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/search/vocab"
)

// Error is one problem at one place in one source file.
type Error struct {
	File string `json:"file"`           // path relative to the site source, with forward slashes
	Line int    `json:"line,omitempty"` // 1-based; 0 when the problem concerns the whole file
	Col  int    `json:"col,omitempty"`  // 1-based; 0 when unknown
	Msg  string `json:"message"`        // what is wrong; "; " then what would be right
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg // not about a file: a failed write, say
	}
	return e.Place() + ": " + e.Msg
}

// Place is where the problem is, as editors and terminals link it:
// "file:line:col", "file:line" or "file"; "" when not about a file.
func (e *Error) Place() string {
	switch {
	case e.File == "":
		return ""
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	default:
		return e.File
	}
}

// Problems lists the problems err holds, sorted, as values for the
// terminal, JSON and the authoring server's overlay alike: a List's, one
// Error, or a plain error as an Error about no file; nil for nil.
func Problems(err error) []Error {
	if err == nil {
		return nil
	}
	var l List
	l.AddError(err)
	out := make([]Error, 0, l.Len())
	for _, e := range l.Errors() {
		out = append(out, *e)
	}
	return out
}

// List collects errors. The zero value is ready to use.
type List struct {
	errs []*Error
}

// Add records a problem at file:line:col.
func (l *List) Add(file string, line, col int, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// AddError records an already-built error; a plain error is kept as a
// file-less message so nothing is swallowed.
func (l *List) AddError(err error) {
	if err == nil {
		return
	}
	var de *Error
	if errors.As(err, &de) {
		l.errs = append(l.errs, de)
		return
	}
	var dl *List
	if errors.As(err, &dl) {
		l.errs = append(l.errs, dl.errs...)
		return
	}
	l.errs = append(l.errs, &Error{Msg: err.Error()})
}

// Len reports how many problems were recorded.
func (l *List) Len() int { return len(l.errs) }

// Errors returns the problems sorted by file, line and column.
func (l *List) Errors() []*Error {
	out := append([]*Error(nil), l.errs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// Err returns the list as an error, or nil when it is empty.
func (l *List) Err() error {
	if l.Len() == 0 {
		return nil
	}
	return l
}

// Error prints one problem per line, sorted.
func (l *List) Error() string {
	var b strings.Builder
	for i, e := range l.Errors() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Suggest is the hint for word, which is not among candidates: "did you
// mean" the nearest (Nearest), or otherwise when none is close.
func Suggest(word string, candidates []string, otherwise string) string {
	if near := Nearest(word, candidates); near != "" {
		return fmt.Sprintf("did you mean %q?", near)
	}
	return otherwise
}

// Nearest returns the candidate closest to word by edit distance, for
// "did you mean" suggestions, or "" when none is reasonably close.
//
// It is called once per unknown key or link, so a file with hundreds of
// thousands of them must not pay a full edit distance for each pair: a
// candidate whose length alone puts it beyond the best so far is skipped,
// and a distance stops as soon as it cannot beat the best.
func Nearest(word string, candidates []string) string {
	w := lowerRunes(nil, word)
	best, bestDist := "", len(word)/2+2
	var distances vocab.Distances
	for _, c := range candidates {
		lower := strings.ToLower(c)
		if abs(len(w)-utf8.RuneCountInString(lower)) >= bestDist {
			continue
		}
		if d := distances.Within(w, lower, bestDist-1); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// lowerRunes appends s in lower case, rune by rune, to dst.
func lowerRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, unicode.ToLower(r))
	}
	return dst
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
