package markdown

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/yuin/goldmark/util"
)

// Budget bounds what one document may cost to parse. goldmark's memory
// grows with the nodes it makes, not with the bytes: each inline mark it
// has to match (a bracket, an emphasis run, a table cell, a linkified URL)
// and each line costs a few hundred bytes of heap ("[a*" repeated costs
// about 300 bytes per byte of text, "# a" lines about 470), and its time
// grows with the depth of nested lists and quotes (each line is matched
// against every open container). A scan in one pass, before parsing,
// refuses a document over any bound, at the place it is exceeded.
//
// The scan may count more than goldmark makes, never less: where it
// cannot tell (a fence in a nested list, a line that may be a table row),
// it counts the costlier reading.
type Budget struct {
	// MaxNesting bounds list items and block quotes inside each other.
	MaxNesting int
	// MaxMarks bounds the inline marks outside fenced code: [ * _ ~ ` < |
	// @ and each "://" or "www.".
	MaxMarks int
	// MaxLines bounds the lines of the document, and MaxTextLines those
	// that are neither blank nor in fenced code.
	MaxLines, MaxTextLines int
	// MaxCells bounds the cells of all the document's tables together.
	// goldmark gives every row as many cells as the delimiter row has
	// columns, and every line up to a blank one is a row: a bare "x" line
	// under a table 3,000 columns wide costs 3,000 cells and no mark.
	MaxCells int
	// MaxAttributes and MaxAttributeBytes bound a heading's `{#id .class}`:
	// how many attributes it may hold, and its length from the `{` to the
	// end of the heading. goldmark tries each `{` of a heading up to the
	// end of the line and copies the classes gathered so far for each new
	// one, so a long block costs time and memory quadratic in its length.
	MaxAttributes, MaxAttributeBytes int
}

// DefaultBudget is far above what a postmortem needs — reports nest lists
// a few levels deep, a long one has a few thousand links and emphases and
// a few thousand lines, its tables a few thousand cells, its headings an
// id and a class or two — and keeps the heap one file can take to parse
// near 100 MB (see the bounds test).
var DefaultBudget = Budget{
	MaxNesting: 32, MaxMarks: 100_000, MaxLines: 100_000, MaxTextLines: 20_000,
	MaxCells: 50_000, MaxAttributes: 8, MaxAttributeBytes: 64,
}

// Check returns where src exceeds the budget, with what to do, or nil.
func (b Budget) Check(src []byte) *Problem {
	s := scan{Budget: b, prev: -1}
	return s.run(src)
}

// run scans src line by line.
func (s *scan) run(src []byte) *Problem {
	for lineFrom := 0; lineFrom < len(src); {
		end := bytes.IndexByte(src[lineFrom:], '\n')
		if end < 0 {
			end = len(src) - lineFrom
		}
		if pr := s.line(src[lineFrom:lineFrom+end], lineFrom); pr != nil {
			return pr
		}
		lineFrom += end + 1
	}
	return nil
}

// scan is the state of Check between lines.
type scan struct {
	Budget
	lines, text, marks, cells int   // counted so far; text: lines neither blank nor in fenced code
	items                     []int // content columns of the open list items

	fence []byte // the open code fence, or nil
	// A line that opens a fence for goldmark or not, depending on list
	// items and HTML blocks the scan does not follow (an indented fence,
	// one in a list or quote), turns skipping off: from there on, fenced
	// code is counted as text, which costs more than anything goldmark
	// could read there.
	unsure bool

	html    bool           // in an HTML block, where a fence is no fence
	htmlEnd *regexp.Regexp // a line it matches ends the block; nil: a blank line

	// The paragraph the scan is in: its previous line, which a delimiter
	// row would make a table's header, and the widest table opened in it.
	prev         int    // offset of the previous line's text, or -1
	prevText     []byte // its text
	cols, header int    // columns and header offset of the table, 0 and 0 when none
}

// line scans one line starting at offset from.
func (s *scan) line(line []byte, from int) *Problem {
	if s.lines++; s.lines > s.MaxLines {
		return &Problem{Offset: from, Msg: fmt.Sprintf(
			"the file has more than %d lines, more than gen parses in one file: link to long logs instead of pasting them, or split the report", s.MaxLines)}
	}
	if s.fence != nil {
		if closesFence(line, s.fence) {
			s.fence = nil
		}
		return nil
	}
	col, quotes, rest := containerPrefix(line)
	if len(bytes.TrimSpace(line)) == 0 {
		if s.htmlEnd == nil {
			s.html = false
		}
		s.endParagraph()
		return nil
	}
	if len(bytes.TrimSpace(rest)) == 0 {
		// Only quote markers: a blank line inside the quotes, unless one
		// of them is indented too far to be a marker and the line is a
		// paragraph's (or a table's) ">".
		if q, _ := quoteMarkers(line); q == quotes {
			s.endParagraph()
			return nil
		}
	}
	for len(s.items) > 0 && s.items[len(s.items)-1] > col {
		s.items = s.items[:len(s.items)-1]
	}
	// A fence at the start of a line, outside an HTML block, opens code
	// whatever came before: nothing can hold it, nothing but its closing
	// fence ends it. One after a list marker ("- ```") needs no care: the
	// next line that goldmark takes for a fence at the start of a line
	// ends the item, and opens a fence for both.
	if openFence(rest) != nil && !s.unsure {
		if col == 0 && !s.html {
			s.fence = openFence(rest)
			s.endParagraph()
			return nil
		}
		s.unsure = true
	}
	return s.textLine(line, from, col, quotes, rest)
}

// textLine scans a line that is neither blank nor in fenced code.
func (s *scan) textLine(line []byte, from, col, quotes int, rest []byte) *Problem {
	if s.text++; s.text > s.MaxTextLines {
		return &Problem{Offset: from, Msg: fmt.Sprintf(
			"the file has more than %d lines of text outside fenced code blocks, more than gen parses in one file: put logs and data in fenced code blocks (```), or split the report%s", s.MaxTextLines, s.unsureNote())}
	}
	unmarked := rest
	cols := delimiterColumns(rest)
	// "- - a" opens two items on one line; "- > a" an item and a quote.
	for w := listMarker(rest); w > 0; w = listMarker(rest) {
		s.items = append(s.items, col+w)
		var c, q int
		c, q, rest = containerPrefix(rest[w:])
		col, quotes = col+w+c, quotes+q
		cols = max(cols, delimiterColumns(rest))
	}
	at := from + len(line) - len(rest)
	if depth := quotes + len(s.items); depth > s.MaxNesting {
		return &Problem{Offset: at, Msg: fmt.Sprintf(
			"lists and quotes are nested %d deep here; at most %d levels are allowed: flatten the list, or put pasted text in a fenced code block (```)",
			depth, s.MaxNesting)}
	}
	if pr := s.headingLine(unmarked, rest, at); pr != nil {
		return pr
	}
	if pr := s.tableLine(cols); pr != nil {
		return pr
	}
	s.htmlLine(rest)
	if i := markOver(rest, &s.marks, s.MaxMarks); i >= 0 {
		return &Problem{Offset: at + i, Msg: fmt.Sprintf(
			"the text has more than %d link, emphasis and table marks ([ * _ ~ ` < | @ and URLs) outside fenced code blocks, more than gen parses in one file: put logs and data in fenced code blocks (```), or split the report%s",
			s.MaxMarks, s.unsureNote())}
	}
	s.prev, s.prevText = at, rest
	return nil
}

// unsureNote says why fenced code was counted, when it was.
func (s *scan) unsureNote() string {
	if !s.unsure {
		return ""
	}
	return "; fenced code is counted too in this file, since a fence above is indented or in a list, quote or HTML block: start long code blocks at the beginning of a line, outside lists"
}

// endParagraph forgets the paragraph and its table at a line that surely
// ends it: a blank one, or a fence.
func (s *scan) endParagraph() { s.prev, s.prevText, s.cols, s.header = -1, nil, 0, 0 }

// tableLine counts the cells a line of a paragraph may cost: a row of
// the table open in it, or, on a delimiter row wider than that table,
// the header of a new one (goldmark reads the first delimiter row of a
// paragraph, and a heading or list item the scan does not follow may
// have begun a new paragraph).
func (s *scan) tableLine(delimiterCols int) *Problem {
	switch {
	case s.prev >= 0 && delimiterCols > s.cols:
		s.cols, s.header = delimiterCols, s.prev
		s.cells += delimiterCols
	case s.cols > 0:
		s.cells += s.cols
	default:
		return nil
	}
	if s.cells <= s.MaxCells {
		return nil
	}
	return &Problem{Offset: s.header, Msg: fmt.Sprintf(
		"the tables have more than %d cells in all (columns × rows), more than gen parses in one file; this table has %d columns, and every line after it up to a blank line is one more row: end the table with a blank line, make it narrower or shorter, or put the data in a fenced code block (```)",
		s.MaxCells, s.cols)}
}

// headingLine checks the `{…}` attributes of a line that may be a
// heading: an ATX one ("## Impact {#impact}"), or the line before a
// setext underline ("---" or "===").
func (s *scan) headingLine(unmarked, rest []byte, at int) *Problem {
	if s.prev >= 0 && setextUnderline(unmarked) {
		if pr := s.attributes(s.prevText, s.prev); pr != nil {
			return pr
		}
	}
	if atxHeading(rest) {
		return s.attributes(rest, at)
	}
	return nil
}

// attributes checks the attribute blocks goldmark would try in a heading's
// text, which starts at offset at: from its first `{` (not escaped) to
// the end of the line.
func (s *scan) attributes(text []byte, at int) *Problem {
	i := 0
	for ; i < len(text) && text[i] != '{'; i++ {
		if text[i] == '\\' && i+1 < len(text) && util.IsPunct(text[i+1]) {
			i++
		}
	}
	block := bytes.TrimRight(text[i:], " \t\r")
	if len(block) == 0 {
		return nil
	}
	if len(block) > s.MaxAttributeBytes {
		return &Problem{Offset: at + i, Msg: fmt.Sprintf(
			"the heading's attributes {…} run %d bytes from here to the end of the heading; at most %d are allowed: keep them to an id and a class or two ({#impact .major}), or write the brace as \\{ if it is text",
			len(block), s.MaxAttributeBytes)}
	}
	// Each attribute starts with # or . or has a =; counting every one of
	// them counts dots inside names too, never fewer than goldmark reads.
	if n := bytes.Count(block, []byte("#")) + bytes.Count(block, []byte(".")) + bytes.Count(block, []byte("=")); n > s.MaxAttributes {
		return &Problem{Offset: at + i, Msg: fmt.Sprintf(
			"the heading has %d attributes in {…} (each #id, .class and name=value, counted by its #, . or =); at most %d are allowed: keep them to an id and a class or two ({#impact .major})",
			n, s.MaxAttributes)}
	}
	return nil
}

// htmlLine follows HTML blocks, inside which a fence is text: a line of
// text starting with "<" may open one, and what closes it depends on how
// it starts (CommonMark's seven kinds, as goldmark reads them).
func (s *scan) htmlLine(rest []byte) {
	if !s.html && len(rest) > 0 && rest[0] == '<' {
		s.html, s.htmlEnd = true, nil
		for _, k := range htmlKinds {
			if k.open.Match(rest) {
				s.htmlEnd = k.end
				break
			}
		}
	}
	if s.html && s.htmlEnd != nil && s.htmlEnd.Match(rest) {
		s.html, s.htmlEnd = false, nil
	}
}

// htmlKinds are the HTML blocks that end at a line holding a marker
// rather than at a blank line.
var htmlKinds = []struct{ open, end *regexp.Regexp }{
	{regexp.MustCompile(`(?i)^<(script|pre|style|textarea)(?:\s|>|/>|$)`), regexp.MustCompile(`(?i)</(?:script|pre|style|textarea)>`)},
	{regexp.MustCompile(`^<!--`), regexp.MustCompile(`-->`)},
	{regexp.MustCompile(`^<\?`), regexp.MustCompile(`\?>`)},
	{regexp.MustCompile(`^<![A-Z]`), regexp.MustCompile(`>`)},
	{regexp.MustCompile(`^<!\[CDATA\[`), regexp.MustCompile(`\]\]>`)},
}

// quoteMarkers counts the block quote markers a line surely starts with,
// each after at most 3 spaces, and returns the text after them.
func quoteMarkers(line []byte) (int, []byte) {
	n, spaces := 0, 0
	for i, c := range line {
		switch {
		case c == ' ' && spaces < 3:
			spaces++
		case c == '>':
			n, spaces = n+1, 0
		default:
			return n, line[i:]
		}
	}
	return n, nil
}

// delimiterColumns returns the columns of a table's delimiter row
// ("|---|:-:|"), read as goldmark reads it, or 0 for another line.
func delimiterColumns(text []byte) int {
	dashes := false
	for _, c := range text {
		switch {
		case c == '-':
			dashes = true
		case c == '|' || c == ':' || util.IsSpace(c):
		default:
			return 0
		}
	}
	if !dashes || len(bytes.Trim(text, "-")) == 0 {
		return 0
	}
	cols := bytes.Split(text, []byte("|"))
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	for _, c := range cols {
		c = bytes.TrimSpace(c)
		c = bytes.TrimPrefix(c, []byte(":"))
		c = bytes.TrimSuffix(c, []byte(":"))
		if len(c) == 0 || len(bytes.Trim(c, "-")) != 0 {
			return 0
		}
	}
	return len(cols)
}

// atxHeading reports whether text starts an ATX heading: 1 to 6 #, then
// a space or the end.
func atxHeading(text []byte) bool {
	n := 0
	for n < len(text) && text[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(text) || text[n] == ' ' || text[n] == '\t')
}

// setextUnderline reports whether text underlines the paragraph above it
// as a heading: only = or only -, then spaces.
func setextUnderline(text []byte) bool {
	text = bytes.TrimRight(text, " \t")
	return len(text) > 0 && (len(bytes.Trim(text, "=")) == 0 || len(bytes.Trim(text, "-")) == 0)
}

// markOver counts the inline marks of text into marks and returns where
// they go over max, or -1.
func markOver(text []byte, marks *int, max int) int {
	for i, c := range text {
		switch c {
		case '[', '*', '_', '~', '`', '<', '|', '@':
		case ':':
			if !bytes.HasPrefix(text[i:], []byte("://")) {
				continue
			}
		case 'w':
			if !bytes.HasPrefix(text[i:], []byte("www.")) {
				continue
			}
		default:
			continue
		}
		if *marks++; *marks > max {
			return i
		}
	}
	return -1
}

// containerPrefix reads a line's indentation and block quote markers: the
// column where its text starts (tabs to multiples of 4), how many quotes
// it is in, and the text.
func containerPrefix(line []byte) (col, quotes int, rest []byte) {
	i := 0
	for i < len(line) {
		switch line[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		case '>':
			quotes++
			col++
		default:
			return col, quotes, line[i:]
		}
		i++
	}
	return col, quotes, nil
}

// listMarker returns the width of a list item's marker and the space
// after it ("- ", "10. "), or 0 when the text does not start an item.
func listMarker(text []byte) int {
	n := 0
	switch {
	case len(text) > 0 && (text[0] == '-' || text[0] == '+' || text[0] == '*'):
		n = 1
	default:
		for n < len(text) && n < 9 && text[n] >= '0' && text[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(text) || (text[n] != '.' && text[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(text) && text[n] != ' ' && text[n] != '\t' {
		return 0
	}
	spaces := 0
	for n+spaces < len(text) && text[n+spaces] == ' ' && spaces < 4 {
		spaces++
	}
	// A marker that ends the line opens an empty item: its width stops there.
	return min(n+max(spaces, 1), len(text))
}

// openFence returns the fence a line opens (``` or ~~~, three or more;
// after backticks, no backtick: "```a`" is a code span).
func openFence(text []byte) []byte {
	for _, c := range []byte("`~") {
		n := 0
		for n < len(text) && text[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || bytes.IndexByte(text[n:], '`') < 0) {
			return text[:n]
		}
	}
	return nil
}

// closesFence reports whether a line closes fence: at most 3 spaces,
// the same character, at least as many, and nothing after.
func closesFence(line, fence []byte) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	n := 0
	for i+n < len(line) && line[i+n] == fence[0] {
		n++
	}
	return n >= len(fence) && len(bytes.TrimSpace(line[i+n:])) == 0
}
