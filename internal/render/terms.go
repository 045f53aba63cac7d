package render

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/postmortem-archive/gen/internal/urls"
)

// A taxonomy's index lists its terms in the page language's order, split
// into pages of TermsPerPage like the list of incidents, with a letter
// index on every page: an archive may name thousands of products, and no
// page may grow with them.

// TermsPerPage is how many terms a page of a taxonomy's index lists.
const TermsPerPage = 250

// maxInitials is the most letters a letter index shows. An alphabet has a
// few dozen; labels in a script without one (Chinese, say) would give a
// letter per term, and no index at all serves better than an unbounded one.
const maxInitials = 60

// IndexedTerm is a term on its taxonomy's index: Anchor is the id of the
// first term under a letter, "" for the others.
type IndexedTerm struct {
	*TermView
	Anchor string
}

// Initial is one letter of a terms index and where its first term is.
type Initial struct {
	Letter string
	URL    string
}

// termsIndex lays out sorted terms for the index pages starting at first:
// its entries, the first under each letter anchored, and the letters.
func (r *Renderer) termsIndex(terms []*TermView, first urls.Loc) ([]*IndexedTerm, []Initial) {
	entries := make([]*IndexedTerm, len(terms))
	var initials []Initial
	seen := map[string]bool{}
	for i, t := range terms {
		entries[i] = &IndexedTerm{TermView: t}
		letter := initial(t.Label)
		if seen[letter] {
			continue
		}
		seen[letter] = true
		entries[i].Anchor = "l-" + letter
		if letter == "#" {
			entries[i].Anchor = "l-0"
		}
		loc := first.Nth(i/TermsPerPage + 1).At(entries[i].Anchor)
		initials = append(initials, Initial{Letter: letter, URL: r.urls.URL(loc)})
	}
	if len(initials) > maxInitials {
		for _, e := range entries {
			e.Anchor = ""
		}
		return entries, nil
	}
	return entries, initials
}

// initial is the letter a label is filed under: its first letter without
// accents, in upper case ("Ärzte" under A), and "#" for a label that
// starts with anything else (a digit, a sign).
func initial(label string) string {
	r, _ := utf8.DecodeRuneInString(norm.NFD.String(strings.TrimSpace(label)))
	if !unicode.IsLetter(r) {
		return "#"
	}
	return string(unicode.ToUpper(r))
}
