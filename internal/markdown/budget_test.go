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
