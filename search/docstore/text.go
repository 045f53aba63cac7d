package docstore

import (
	"strings"
	"sync"
	"time"
)

// Text is the text of the long fields (summary, impact, root cause, body,
// timeline) of one
// document, one after the other. The text must be cleaned as it was
// indexed (analysis.CleanText), so that offsets found in it are offsets
// in what bleve indexed.
type Text struct {
	s      string
	ends   [NumFields]int
	Flags  uint8  // analysis.TextFlags of the text
	Sketch []byte // phrase sketch (analysis.SketchBuilder); nil: none

	// folded is the text as Folded's fold made it, once.
	foldOnce sync.Once
	folded   string
}

// NewText returns the Text of the fields, with flags.
func NewText(fields [NumFields]string, flags uint8) *Text {
	t := &Text{s: strings.Join(fields[:], ""), Flags: flags}
	n := 0
	for i, f := range fields {
		n += len(f)
		t.ends[i] = n
	}
	return t
}

// All returns the text of every field, one after the other.
func (t *Text) All() string { return t.s }

// Field returns the text of long field i.
func (t *Text) Field(i int) string {
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.s[start:t.ends[i]]
}

// FoldedField returns the text of long field i as fold makes it (fold
// keeps byte offsets: the folding of Chinese characters the analyzer
// does), folding the fields the first time only: a Text the Reader keeps
// is searched by query after query. Every call must pass the same fold.
func (t *Text) FoldedField(i int, fold func(string) string) string {
	t.foldOnce.Do(func() {
		var sb strings.Builder
		sb.Grow(len(t.s))
		for j := range t.ends {
			sb.WriteString(fold(t.Field(j)))
		}
		t.folded = sb.String()
	})
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.folded[start:t.ends[i]]
}

// Source gives the text of the documents of one language.
type Source interface {
	// Text returns the text of the document id, nil if there is none.
	Text(id string) (*Text, error)
	// Sketch returns the phrase sketch of the document id; ok is false
	// if it has none.
	Sketch(id string) (sk []byte, ok bool)
	// Length returns the length in bytes of the text of the document
	// id; ok is false if there is none.
	Length(id string) (n int, ok bool)
}

// Memory is a document store held in memory, a map by id: the texts of
// the documents an index opened to be changed has changed.
type Memory map[string]*Text

// Text returns the text of document id.
func (s Memory) Text(id string) (*Text, error) { return s[id], nil }

// Length returns the length of the text of document id.
func (s Memory) Length(id string) (int, bool) {
	if t := s[id]; t != nil {
		return len(t.s), true
	}
	return 0, false
}

// Sketch returns the sketch of document id.
func (s Memory) Sketch(id string) ([]byte, bool) {
	if t := s[id]; t != nil {
		return t.Sketch, t.Sketch != nil
	}
	return nil, false
}

// Meta is what results and facets need about one language version of an
// incident. The index keeps it in memory (a few hundred bytes per
// document) so that collapsing, facet counting and result rendering never
// read bleve's stored fields; the store keeps it on disk.
type Meta struct {
	ID           string    `json:"id"`
	Lang         string    `json:"lang"`
	OriginalLang string    `json:"orig_lang,omitempty"`
	Title        string    `json:"title"`
	URL          string    `json:"url"`
	Begin        time.Time `json:"begin"`
	Date         string    `json:"date,omitempty"` // local date of Begin, as the site lists it
	Duration     int64     `json:"duration_s,omitempty"`
	Products     []string  `json:"products,omitempty"`
	Regions      []string  `json:"regions,omitempty"`
	Causes       []string  `json:"causes,omitempty"`
	Organization string    `json:"org,omitempty"`
	Severity     string    `json:"severity,omitempty"`
	Zone         string    `json:"zone,omitempty"`    // IANA name of the incident's zone
	Ongoing      bool      `json:"ongoing,omitempty"` // not over when reported
}
