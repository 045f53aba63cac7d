package markdown

import (
	"bytes"
	"fmt"
)

// Budget bounds what one document may cost to parse. goldmark's memory
// grows with the nodes it makes, not with the bytes: each inline mark it
// has to match (a bracket, an emphasis run, a table cell, a linkified URL)
// and each line costs a few hundred bytes of heap ("[a*" repeated costs
// about 300 bytes per byte of text, "# a" lines about 470), and its time
// grows with the depth of nested lists and quotes (each line is matched
// against every open container). A scan in one pass, before parsing,
// refuses a document over any bound, at the place it is exceeded.
type Budget struct {
	// MaxNesting bounds list items and block quotes inside each other.
	MaxNesting int
	// MaxMarks bounds the inline marks outside fenced code: [ * _ ~ ` < |
	// @ and each "://" or "www.".
	MaxMarks int
	// MaxLines bounds the lines of the document, and MaxTextLines those
	// that are neither blank nor in fenced code.
	MaxLines, MaxTextLines int
}

// DefaultBudget is far above what a postmortem needs — reports nest lists
// a few levels deep, a long one has a few thousand links and emphases and
// a few thousand lines — and keeps the heap one file can take to parse
// near 100 MB (see the bounds test).
var DefaultBudget = Budget{MaxNesting: 32, MaxMarks: 100_000, MaxLines: 100_000, MaxTextLines: 20_000}

// Check returns where src exceeds the budget, with what to do, or nil.
func (b Budget) Check(src []byte) *Problem {
	var (
		fence    []byte // the open code fence, or nil
		items    []int  // content columns of the open list items
		marks    int
		lines    int
		text     int // lines neither blank nor in fenced code
		lineFrom int
	)
	for lineFrom < len(src) {
		end := bytes.IndexByte(src[lineFrom:], '\n')
		if end < 0 {
			end = len(src) - lineFrom
		}
		line := src[lineFrom : lineFrom+end]
		col, quotes, rest := containerPrefix(line)
		if lines++; lines > b.MaxLines {
			return &Problem{Offset: lineFrom, Msg: fmt.Sprintf(
				"the file has more than %d lines, more than gen parses in one file: link to long logs instead of pasting them, or split the report", b.MaxLines)}
		}
		switch {
		case fence != nil:
			if closesFence(rest, fence) {
				fence = nil
			}
		case len(bytes.TrimSpace(rest)) == 0:
			// A blank line closes nothing by itself.
		default:
			for len(items) > 0 && items[len(items)-1] > col {
				items = items[:len(items)-1]
			}
			if f := openFence(rest); f != nil {
				fence = f
				break
			}
			if text++; text > b.MaxTextLines {
				return &Problem{Offset: lineFrom, Msg: fmt.Sprintf(
					"the file has more than %d lines of text outside fenced code blocks, more than gen parses in one file: put logs and data in fenced code blocks (```), or split the report", b.MaxTextLines)}
			}
			// "- - a" opens two items on one line; "- > a" an item and a quote.
			for w := listMarker(rest); w > 0; w = listMarker(rest) {
				items = append(items, col+w)
				var c, q int
				c, q, rest = containerPrefix(rest[w:])
				col, quotes = col+w+c, quotes+q
			}
			if depth := quotes + len(items); depth > b.MaxNesting {
				return &Problem{Offset: lineFrom + len(line) - len(rest), Msg: fmt.Sprintf(
					"lists and quotes are nested %d deep here; at most %d levels are allowed: flatten the list, or put pasted text in a fenced code block (```)",
					depth, b.MaxNesting)}
			}
			if i := markOver(rest, &marks, b.MaxMarks); i >= 0 {
				return &Problem{Offset: lineFrom + len(line) - len(rest) + i, Msg: fmt.Sprintf(
					"the text has more than %d link, emphasis and table marks ([ * _ ~ ` < | @ and URLs) outside fenced code blocks, more than gen parses in one file: put logs and data in fenced code blocks (```), or split the report",
					b.MaxMarks)}
			}
		}
		lineFrom += end + 1
	}
	return nil
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

// openFence returns the fence a line opens (``` or ~~~, three or more).
func openFence(text []byte) []byte {
	for _, c := range []byte("`~") {
		n := 0
		for n < len(text) && text[n] == c {
			n++
		}
		if n >= 3 {
			return text[:n]
		}
	}
	return nil
}

// closesFence reports whether a line closes fence: the same character, at
// least as many, and nothing after.
func closesFence(text, fence []byte) bool {
	n := 0
	for n < len(text) && text[n] == fence[0] {
		n++
	}
	return n >= len(fence) && len(bytes.TrimSpace(text[n:])) == 0
}
