package content

import (
	"regexp"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// An incident id is the local begin date, then a slug of lowercase ASCII
// letters and digits in hyphenated words: 2017-03-13-bigquery-streaming-inserts.
// It is in every URL of the incident, so it is spelled here only.
const (
	slugExpr = `[a-z0-9]+(?:-[a-z0-9]+)*`
	idDate   = time.DateOnly
	// maxSlugWords and maxSlugLen bound a slug made from a title: a URL
	// names the incident, it does not repeat its title.
	maxSlugWords = 6
	maxSlugLen   = 60
)

var (
	idPattern   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-` + slugExpr + `$`)
	slugPattern = regexp.MustCompile(`^` + slugExpr + `$`)
)

// ID is the id of the incident with slug that begins at begin, a time in
// the incident's own zone.
func ID(begin time.Time, slug string) string { return begin.Format(idDate) + "-" + slug }

// SplitID returns the date and the slug of an id, or ok false when id is
// not one.
func SplitID(id string) (date, slug string, ok bool) {
	if !idPattern.MatchString(id) {
		return "", "", false
	}
	n := len(idDate)
	return id[:n], id[n+1:], true
}

// IsSlug reports whether s may follow the date in an id.
func IsSlug(s string) bool { return slugPattern.MatchString(s) }

// Slug makes a slug from text: its first words of ASCII letters and digits,
// lowercased with accents dropped, at most maxSlugWords of them and
// maxSlugLen characters (a longer first word, a commit hash, is cut). It
// is "" when text has no such word (CJK only, emoji, punctuation).
func Slug(text string) string {
	plain := strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, norm.NFD.String(text))
	words := strings.FieldsFunc(plain, func(r rune) bool {
		return r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	s := strings.Join(words[:min(len(words), maxSlugWords)], "-")
	for len(s) > maxSlugLen {
		i := strings.LastIndexByte(s, '-')
		if i < 0 {
			return s[:maxSlugLen] // ASCII: any byte is a boundary
		}
		s = s[:i]
	}
	return s
}
