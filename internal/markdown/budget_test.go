package markdown

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// cellsCounted is how many table cells the budget's scan counts in src.
func cellsCounted(src []byte) int {
	s := scan{Budget: Budget{MaxNesting: 1 << 30, MaxMarks: 1 << 30, MaxLines: 1 << 30, MaxTextLines: 1 << 30,
		MaxCells: 1 << 30, MaxAttributes: 1 << 30, MaxAttributeBytes: 1 << 30}, prev: -1}
	s.run(src)
	return s.cells
}

// cellsMade is how many table cells goldmark makes of src, the reference.
func cellsMade(src []byte) int {
	doc := NewMarkdown().Parser().Parse(text.NewReader(src))
	n := 0
	_ = ast.Walk(doc, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Kind() == east.KindTableCell {
			n++
		}
		return ast.WalkContinue, nil
	})
	return n
}

// tableShapes are tables as goldmark reads them, where a line-by-line
// scan could lose count: rows without pipes, lazy lines, containers,
// a delimiter row only goldmark's reading makes wide, a table after a
// block the scan does not follow, fences that are not fences.
var tableShapes = []string{
	"|a|b|c|\n|-|:-:|--:|\nx\nx\n\ny\n",
	"> |a|b|\n> |-|-|\n> x\ny\n>\nz\n",
	"- |a|b|\n  |-|-|\n  x\ny\n",
	"|a|b|\n    - | -\nx\nx\n",
	"a\n:-\n# h\n|a|b|c|\n|-|-|-|\nx\nx\n",
	"a\n:-\n- |a|b|c|\n  |-|-|-|\n  x\nx\n",
	"|a|b|\n|-|-|\n    >\nx\n    > >\nx\n",
	"|a|b|\n|-|-|\n    ```\nx\nx\n",
	"<div>\n```\n\n|a|b|\n|-|-|\nx\n",
	"p\n|a|b|\n|-|-|\nx",
	"|a|\n|-|-|\nx\n",
	"|a|b|\n|-|-|\n\n|a|b|c|\n|-|-|-|\nx\n",
	"\t|a|b|\n\t|-|-|\n\tx\n",
	"a\n2. |a|b|\n|-|-|\nx\n",
	"|a|b|\n|-|-|\nx\n---\nx\n",
	"> ```\n    > x\n   > |a|b|\n   > |-|-|\nx\n",
	"|a|b|\n|-|-|\n```a`\nx\n",
	"|" + strings.Repeat("a|", 300) + "\n|" + strings.Repeat("-|", 300) + "\n" + strings.Repeat("x\n", 10),
}

// The scan counts at least the cells goldmark makes, for every shape.
func TestCellsCountedAtLeastAsMade(t *testing.T) {
	for _, src := range tableShapes {
		if counted, made := cellsCounted([]byte(src)), cellsMade([]byte(src)); counted < made {
			t.Errorf("%q: the budget counts %d cells, goldmark makes %d", src, counted, made)
		}
	}
	// And not many more for a plain table: it is exact there.
	if counted, made := cellsCounted([]byte(tableShapes[0])), cellsMade([]byte(tableShapes[0])); counted != made {
		t.Errorf("a plain table: %d cells counted, %d made", counted, made)
	}
}

// FuzzCellsCounted looks for a table goldmark makes bigger than the
// budget counts it.
func FuzzCellsCounted(f *testing.F) {
	for _, src := range tableShapes {
		f.Add([]byte(src))
	}
	f.Add([]byte("## H {.c .c .c}\n"))
	f.Add([]byte("## H {a={a={a=[[[\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<12 {
			t.Skip()
		}
		if counted, made := cellsCounted(src), cellsMade(src); counted < made {
			t.Fatalf("%q: the budget counts %d cells, goldmark makes %d", src, counted, made)
		}
	})
}

// Each new bound lets through a document at it, and refuses one past it
// at the place named in its message.
func TestBudgetNewBoundsAreExact(t *testing.T) {
	b := DefaultBudget
	wide := func(rows int) string { // 50 columns: 50 cells for the header, 50 a row
		return "|" + strings.Repeat("a|", 50) + "\n|" + strings.Repeat("-|", 50) + "\n" + strings.Repeat("x\n", rows)
	}
	block := func(n int) string { return "{#" + strings.Repeat("a", n-3) + "}" } // n bytes, 1 attribute
	cases := []struct {
		name, at, over string
		offset         int // of the problem in over
	}{
		{"cells", wide(b.MaxCells/50 - 1), wide(b.MaxCells / 50), 0},
		{"cells of two tables", wide(b.MaxCells/100-1) + "\n" + wide(b.MaxCells/100-1), wide(b.MaxCells/100-1) + "\n" + wide(b.MaxCells/100), len(wide(b.MaxCells/100-1)) + 1},
		{"attribute bytes", "## H " + block(b.MaxAttributeBytes), "## H " + block(b.MaxAttributeBytes+1), 5},
		{"attributes", "## H {#a" + strings.Repeat(" .c", b.MaxAttributes-1) + "}", "## H {#a" + strings.Repeat(" .c", b.MaxAttributes) + "}", 5},
		{"setext attributes", "T " + block(b.MaxAttributeBytes) + "\n===\n", "T " + block(b.MaxAttributeBytes+1) + "\n===\n", 2},
	}
	for _, c := range cases {
		if pr := b.Check([]byte(c.at)); pr != nil {
			t.Errorf("%s: at the bound, refused: %+v", c.name, pr)
		}
		if pr := b.Check([]byte(c.over)); pr == nil || pr.Offset != c.offset {
			t.Errorf("%s: past the bound: %+v, want a problem at offset %d", c.name, pr, c.offset)
		}
	}
}
