package locate

// Highlighting: up to maxFragments fragments of about FragmentRunes
// characters from the long fields of a result, centred on the places where
// the query's words and phrases occur, chosen so that together they show
// as many different words of the query as they can, and never the same
// sentence twice (a report may say one twice). A
// fragment stays within one line of its field, one block of the page (a
// heading, a paragraph, a list item, a table row), shown whole when it is
// short enough; a table row's cells (separated by tabs) are shown apart. Matches are wrapped in <mark>…</mark> (a phrase, and a
// run of Chinese characters, as one), everything else is HTML-escaped, and
// a fragment that does not reach the start or end of its field has "…"
// there.

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

const (
	// FragmentRunes is the size of a highlighted fragment.
	FragmentRunes = 200
	// maxFragments is the number of highlighted fragments per result.
	maxFragments = 3
	// snapRunes is how far a fragment's edges move to fall between words.
	snapRunes = 24
	// maxSeeds bounds the number of candidate fragments per field.
	maxSeeds = 64
)

// Highlight is a pattern to highlight and the long fields it applies to.
type Highlight struct {
	Pattern *Pattern
	Fields  uint8 // bit i: long field i (docstore.Text.Field)
}

// mark is an occurrence of pattern pat in a field.
type mark struct {
	Span
	pat int
}

// fragment is a candidate fragment: bytes [start, end) of field f.
type fragment struct {
	f          int
	Start, End int
	marks      []mark   // inside it, in order
	sentences  []string // the sentences of its marks, normalised (sentenceOf)
}

// Fragments returns the highlighted fragments of a document's text for the
// patterns hs, nil when none occurs.
func Fragments(loc *Locator, t *docstore.Text, hs []Highlight) []string {
	var fields [docstore.NumFields]string
	for fi := range fields {
		fields[fi] = t.Field(fi)
	}
	marks := findMarks(loc, t, hs)
	n := 0
	for _, ms := range marks {
		n += min(len(ms), maxSeeds)
	}
	cands := make([]fragment, 0, n)
	for fi, ms := range marks {
		cands = candidates(cands, fi, fields[fi], ms)
	}
	if len(cands) == 0 {
		return nil
	}
	picked := pickFragments(cands)
	out := make([]string, len(picked))
	for i, fr := range picked {
		out[i] = formatFragment(fields[fr.f], fr)
	}
	return out
}

// findMarks returns the occurrences of the patterns in each long field,
// sorted and merged.
func findMarks(loc *Locator, t *docstore.Text, hs []Highlight) [docstore.NumFields][]mark {
	var marks [docstore.NumFields][]mark
	for fi := range marks {
		f := TextField(t, fi)
		for pi, h := range hs {
			if h.Fields&(1<<fi) == 0 {
				continue
			}
			for _, sp := range loc.Find(h.Pattern, f, false) {
				marks[fi] = append(marks[fi], mark{sp, pi})
			}
		}
		if len(marks[fi]) > 0 {
			marks[fi] = mergeMarks(marks[fi])
		}
	}
	return marks
}

// TextField returns long field i of t to Find in, folded once for all
// searches if the text has Chinese to fold.
func TextField(t *docstore.Text, i int) *Field {
	f := &Field{Text: t.Field(i), Flags: t.Flags}
	if f.Flags&analysis.FoldHan != 0 {
		f.Folded = t.FoldedField(i, analysis.FoldChineseString)
	}
	return f
}

// candidates appends to cands the candidate fragments of field fi, whose
// text is s and marks ms: around each of its first maxSeeds marks, its
// line when it is short, else a window of it.
func candidates(cands []fragment, fi int, s string, ms []mark) []fragment {
	if len(ms) == 0 {
		return cands
	}
	from := len(cands)
	// The sentence of each mark, once: fragments share marks.
	sentences := make([]string, len(ms))
	for _, m := range ms[:min(len(ms), maxSeeds)] {
		ls, le := lineOf(s, m.Span)
		a, b := ls, le
		if utf8.RuneCountInString(s[ls:le]) > FragmentRunes {
			a, b = around(s[ls:le], Span{m.Start - ls, m.End - ls})
			a, b = a+ls, b+ls
		}
		// Take in the marks it cuts through.
		for _, o := range ms {
			if o.Start < b && o.End > b {
				b = o.End
			}
			if o.Start < a && o.End > a {
				a = o.Start
			}
		}
		if slices.ContainsFunc(cands[from:], func(c fragment) bool { return c.Start == a && c.End == b }) {
			continue
		}
		// The marks inside it: a run of ms, which is sorted and has no
		// overlaps (mergeMarks).
		lo := 0
		for lo < len(ms) && ms[lo].Start < a {
			lo++
		}
		hi := lo
		for hi < len(ms) && ms[hi].End <= b {
			hi++
		}
		fr := fragment{f: fi, Start: a, End: b, marks: ms[lo:hi:hi]}
		for i := lo; i < hi; i++ {
			if sentences[i] == "" {
				sentences[i] = sentenceOf(s, ms[i].Span)
			}
			if sn := sentences[i]; !slices.Contains(fr.sentences, sn) {
				fr.sentences = append(fr.sentences, sn)
			}
		}
		cands = append(cands, fr)
	}
	return cands
}

// lineOf returns the line of s that holds sp (the lines that do, for a
// match across a line break).
func lineOf(s string, sp Span) (int, int) {
	a := strings.LastIndexByte(s[:sp.Start], '\n') + 1
	b := len(s)
	if i := strings.IndexByte(s[sp.End:], '\n'); i >= 0 {
		b = sp.End + i
	}
	return a, b
}

// sentenceEnds are what ends a sentence (a line ends one too).
var sentenceEnds = []string{". ", "! ", "? ", "; ", "。", "！", "？", "；", "\t"}

// sentenceOf returns the sentence of s that holds sp, normalised for
// comparing: lower case, white space collapsed, without its final
// punctuation.
func sentenceOf(s string, sp Span) string {
	a, b := lineOf(s, sp)
	for _, e := range sentenceEnds {
		if i := strings.LastIndex(s[a:sp.Start], e); i >= 0 {
			a += i + len(e)
		}
		if i := strings.Index(s[sp.End:b], e); i >= 0 {
			b = sp.End + i
		}
	}
	return normalSentence(strings.TrimRight(s[a:b], ".!?"))
}

// normalSentence returns s in lower case with its white space collapsed
// to single spaces and trimmed: strings.ToLower(strings.Join(
// strings.Fields(s), " ")), in one allocation (a fragment's every mark
// asks for its sentence).
func normalSentence(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = sb.Len() > 0
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteRune(unicode.ToLower(r))
	}
	return sb.String()
}

// repeats reports whether c shows a sentence a picked fragment shows
// already: the same, or one holding the other (a timeline event and the
// body's list item that gives its time too).
func repeats(c fragment, picked []fragment) bool {
	for _, p := range picked {
		for _, x := range c.sentences {
			for _, y := range p.sentences {
				if strings.Contains(x, y) || strings.Contains(y, x) {
					return true
				}
			}
		}
	}
	return false
}

// pickFragments picks the best fragments one by one, up to maxFragments:
// a word of the query not shown yet counts ten times more than another
// occurrence of one that is. They are returned in document order.
func pickFragments(cands []fragment) []fragment {
	shown := map[int]bool{}
	picked := make([]fragment, 0, maxFragments) // one allocation: a fragment is large
	for len(picked) < maxFragments {
		best, bestScore := -1, 0
		for i, c := range cands {
			if c.f < 0 || overlapsAny(c, picked) || repeats(c, picked) {
				continue
			}
			score, pats := 0, map[int]bool{}
			for _, m := range c.marks {
				score++
				if !pats[m.pat] && !shown[m.pat] {
					score += 10
				}
				pats[m.pat] = true
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		cands[best].f = -1
		for _, m := range c.marks {
			shown[m.pat] = true
		}
		picked = append(picked, c)
	}
	slices.SortFunc(picked, func(a, b fragment) int {
		if a.f != b.f {
			return a.f - b.f
		}
		return a.Start - b.Start
	})
	return picked
}

// mergeMarks sorts marks and merges overlapping ones (the first pattern
// names the merged mark).
func mergeMarks(ms []mark) []mark {
	slices.SortFunc(ms, func(a, b mark) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m.Start < last.End {
			last.End = max(last.End, m.End)
			continue
		}
		out = append(out, m)
	}
	return out
}

func overlapsAny(c fragment, picked []fragment) bool {
	for _, p := range picked {
		if p.f == c.f && c.Start < p.End && p.Start < c.End {
			return true
		}
	}
	return false
}

// breakRune reports whether a fragment may start after r or end before it.
func breakRune(r rune) bool {
	switch r {
	case '，', '；', '：', '・':
		return true
	}
	return unicode.IsSpace(r) || safeRune(r)
}

// around returns a window of about FragmentRunes characters of s centred
// on sp, its edges moved to fall between words when they can.
func around(s string, sp Span) (int, int) {
	n := utf8.RuneCountInString(s[sp.Start:sp.End])
	side := max(0, (FragmentRunes-n)/2)
	a, b := sp.Start, sp.End
	for i := 0; i < side && a > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(s[:a])
		a -= size
	}
	// What one side cannot use, the other can.
	extra := side - utf8.RuneCountInString(s[a:sp.Start])
	for i := 0; i < side+extra && b < len(s); i++ {
		_, size := utf8.DecodeRuneInString(s[b:])
		b += size
	}
	if extra = side - utf8.RuneCountInString(s[sp.End:b]); extra > 0 {
		for i := 0; i < extra && a > 0; i++ {
			_, size := utf8.DecodeLastRuneInString(s[:a])
			a -= size
		}
	}
	if a > 0 {
		for i, j := 0, a; i < snapRunes && j < sp.Start; i++ {
			r, size := utf8.DecodeRuneInString(s[j:])
			j += size
			if breakRune(r) {
				a = j
				break
			}
		}
	}
	if b < len(s) {
		for i, j := 0, b; i < snapRunes && j > sp.End; i++ {
			r, size := utf8.DecodeLastRuneInString(s[:j])
			if unicode.IsSpace(r) {
				b = j - size // before the space
				break
			}
			if breakRune(r) {
				b = j // after the punctuation
				break
			}
			j -= size
		}
	}
	return a, b
}

// formatFragment escapes s[fr.Start:fr.End] and marks its matches.
func formatFragment(s string, fr fragment) string {
	var b strings.Builder
	start, end := fr.Start, fr.End
	// Room for the text, its marks and ellipses, escaped but for a few
	// characters: one allocation, where growing it was a tenth of what
	// a query allocated.
	b.Grow(end - start + len(fr.marks)*len("<mark></mark>") + 2*len("…") + 16)
	// No white space next to an ellipsis.
	// A fragment that starts or ends with its line is not cut there.
	if start > 0 && s[start-1] != '\n' {
		for start < end {
			r, size := utf8.DecodeRuneInString(s[start:])
			if !unicode.IsSpace(r) {
				break
			}
			start += size
		}
		b.WriteString("…")
	}
	cutEnd := end < len(s) && s[end] != '\n'
	if cutEnd {
		for end > start {
			r, size := utf8.DecodeLastRuneInString(s[:end])
			if !unicode.IsSpace(r) {
				break
			}
			end -= size
		}
	}
	at := start
	for _, m := range fr.marks {
		if m.Start < at || m.End > end {
			continue
		}
		b.WriteString(escape(s[at:m.Start]))
		b.WriteString("<mark>")
		b.WriteString(escape(s[m.Start:m.End]))
		b.WriteString("</mark>")
		at = m.End
	}
	b.WriteString(escape(s[at:end]))
	if cutEnd {
		b.WriteString("…")
	}
	return b.String()
}

// cells shows a table row's cells apart, and a line break (inside a
// match across lines) as a space.
var cells = strings.NewReplacer("\t", " · ", "\n", " ")

// escape is s as HTML text in a fragment.
func escape(s string) string { return cells.Replace(html.EscapeString(s)) }
