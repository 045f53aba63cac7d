package content_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/diag"
)

// The text starts on line 9, after this front matter and a blank line.
const frontMatter = "---\ntitle: T\nsummary: S\ntimezone: UTC\nbegin: 2021-06-01 10:00\nend: 2021-06-01 11:00\n---\n\n"

const bodyLine = 9

func fill(unit string, n int) string { return strings.Repeat(unit, n/len(unit)) }

// nestedList is about n bytes of a list indented one level deeper on
// every line.
func nestedList(n int) string {
	var b strings.Builder
	for k := 0; b.Len() < n; k++ {
		b.WriteString(strings.Repeat("  ", k) + "- a\n")
	}
	return b.String()
}

// table is a table of cols columns under header line, followed by rows
// lines of row.
func table(prefix string, cols, rows int, row string) string {
	return prefix + "|" + strings.Repeat("a|", cols) + "\n" + prefix + "|" + strings.Repeat("-|", cols) + "\n" + strings.Repeat(row+"\n", rows)
}

// tables is n tables of cols columns and rows rows each, blank lines between.
func tables(n, cols, rows int) string {
	return strings.Repeat(table("", cols, rows, "x")+"\n", n)
}

// markAt is the column where fill("[a*", …) goes over the budget's
// 100,000 marks when prior marks came before it.
func markAt(prior int) int {
	k := 100_000 - prior // 0-based: the first mark over
	return 3*(k/2) + 2*(k%2) + 1
}

func parse(body string) (*content.Page, error) {
	var errs diag.List
	p := content.Parse("content/2021-06-01-a/en.md", "2021-06-01-a", "en", []byte(frontMatter+body), &errs)
	return p, errs.Err()
}

// Files that would take gigabytes or minutes to parse are refused before
// parsing, with the place the budget ran out and what to do.
func TestPathologicalFilesRefused(t *testing.T) {
	cases := []struct {
		name, body string
		at         string // "line:col" of the error
		frags      []string
	}{
		// 3.9 MB of "[a*": 1.84 GB and two minutes in gen build before.
		{"brackets", fill("[a*", 3900000), fmt.Sprintf("%d:150001", bodyLine), []string{"more than 100000 link, emphasis and table marks", "fenced code blocks"}},
		// 4 MB of a list one level deeper each line: three minutes before.
		{"deep list", nestedList(4 << 20), fmt.Sprintf("%d:67", bodyLine+32), []string{"nested 33 deep", "at most 32", "flatten the list"}},
		{"deep quotes", strings.Repeat(">", 40) + " a\n", fmt.Sprintf("%d:42", bodyLine), []string{"nested 40 deep"}},
		{"items on one line", strings.Repeat("- ", 40) + "a\n", fmt.Sprintf("%d:81", bodyLine), []string{"nested 40 deep"}},
		{"headings", fill("# a\n", 4<<20), fmt.Sprintf("%d:1", bodyLine+20000), []string{"more than 20000 lines of text"}},
		{"lines of code", "```\n" + fill("x\n", 4<<20), fmt.Sprintf("%d:1", bodyLine-1+100000), []string{"more than 100000 lines", "link to long logs"}}, // the blank line 8 counts
		{"wide table", "|" + strings.Repeat("a|", 200000) + "\n", fmt.Sprintf("%d:200001", bodyLine), []string{"table marks"}},
		{"autolinks", fill("see https://example.org/ ", 4<<20), fmt.Sprintf("%d:%d", bodyLine, 25*100000+10), []string{"and URLs"}},
		// 14 KB: 3,000 columns, 1,000 bare rows; 1.45-1.91 GB in gen check before.
		{"bare rows under a wide table", table("", 3000, 1000, "x"), fmt.Sprintf("%d:1", bodyLine), []string{"more than 50000 cells", "3000 columns", "end the table with a blank line"}},
		{"lazy rows under a quoted table", table("> ", 3000, 1000, "x"), fmt.Sprintf("%d:3", bodyLine), []string{"more than 50000 cells"}},
		{"table in a list item", table("- ", 3000, 20, "  x"), fmt.Sprintf("%d:3", bodyLine), []string{"more than 50000 cells"}},
		{"rows full of pipes", table("", 100, 600, strings.Repeat("a|", 100)), fmt.Sprintf("%d:1", bodyLine), []string{"more than 50000 cells", "100 columns"}},
		// 25 tables of 2,000 cells are the bound; the 26th's header is over.
		{"several tables", tables(30, 50, 39), fmt.Sprintf("%d:1", bodyLine+25*42), []string{"more than 50000 cells in all"}},
		// What the scan once took for fenced code, and goldmark does not.
		{"indented fence", "a\n    ```\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+2, markAt(3)), []string{"more than 100000 link", "fenced code is counted too"}},
		{"fence in an HTML block", "<div>\n```\n\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+3, markAt(4)), []string{"more than 100000 link"}},
		{"fence in an HTML comment", "<!--\n\n```\n\n-->\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+5, markAt(4)), []string{"more than 100000 link"}},
		{"fence in a quote that ended", "> ```\n\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+2, markAt(3)), []string{"more than 100000 link"}},
		{"fence in a list item that ended", "1. a\n   ```\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+2, markAt(3)), []string{"more than 100000 link"}},
		{"backtick after a fence", "```a`\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:%d", bodyLine+1, markAt(4)), []string{"more than 100000 link"}},
		{"closing fence indented 4", "```\n    ```\n```\n" + fill("[a*", 3*60000), fmt.Sprintf("%d:150001", bodyLine+3), []string{"more than 100000 link"}},
		// 240 KB of classes: 20-26 s in gen check before.
		{"attribute classes", "## H {" + strings.Repeat(".c ", 80000) + "}\n", fmt.Sprintf("%d:6", bodyLine), []string{"run 240002 bytes", "at most 64", `\{`}},
		{"many short attributes", "## Impact {#impact" + strings.Repeat(" k=v", 8) + "}\n", fmt.Sprintf("%d:11", bodyLine), []string{"has 9 attributes", "at most 8"}},
		{"setext heading attributes", "Intro.\n\nTitle {" + strings.Repeat(".c ", 100) + "}\n---\n", fmt.Sprintf("%d:7", bodyLine+2), []string{"run 302 bytes"}},
		{"heading in a quote", "> ### H {" + strings.Repeat("a=[", 100) + "\n", fmt.Sprintf("%d:9", bodyLine), []string{"run 301 bytes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := parse(c.body)
			if p != nil {
				t.Errorf("the page was parsed")
			}
			want := "content/2021-06-01-a/en.md:" + c.at + ": "
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "\n") != 0 {
				t.Fatalf("error %v; want one starting %q", err, want)
			}
			for _, f := range c.frags {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("error %q does not say %q", err, f)
				}
			}
		})
	}
}

// What a postmortem may hold is parsed: lists nested 32 deep, pasted logs
// in fenced code, marks and links inside code not counted.
func TestBudgetAllowsRealReports(t *testing.T) {
	body := nestedList(1100) + "\n```\n" + fill("[a* | x@y http://z\n", 1<<20) + "```\n\n" + fill("*a* [b](https://example.org/) ", 600_000) +
		// Tables of 48,000 cells in all; a table in code is not one.
		"\n\n## Impact {#impact .major}\n\n" + tables(2, 12, 1000) + table("> ", 24, 500, "> "+strings.Repeat("1 | ", 24)) +
		"\n```\n" + table("", 3000, 1000, "x") + "```\n\n" +
		// Braces in text, an escaped one in a long heading, a setext heading with an id.
		"The job's config was {\"retries\": 0}, see `{a=b}`.\n\n## Why \\{retries} was 0 in the job's configuration, and why nobody saw it for a year\n\n" +
		"Root cause {#root-cause}\n---\n\n## Timeline {#timeline}\n\n- 10:00 — a\n"
	if _, err := parse(body); err != nil {
		t.Fatalf("a valid report is refused: %v", err)
	}
}

// attributesAtBound is the costliest heading attributes found within the
// budget: 8 attributes, 64 bytes, each { a try that reads a number to
// the end of the line.
const attributesAtBound = "## H {a={a={a={a={a={a={a={a=1111111111111111111111111111111111111111\n"

// heapOfParse returns the bytes allocated while parsing body, an upper
// bound on the heap one parse needs.
func heapOfParse(t *testing.T, body string) uint64 {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := parse(body); err != nil {
		t.Fatalf("within the budget, yet refused: %v", err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The costliest files the budget lets through stay under maxParseHeap.
// Files are parsed GOMAXPROCS at a time (and parsed again, one language
// at a time, to render), so with 2 cores two such files take at most
// 2 × 192 MB of the 1 GB the build of a 10,000-incident archive is meant
// to stay under; before the budget one 3.9 MB file took 1.84 GB.
const maxParseHeap = 192 << 20

func TestParseHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("parses three 4 MB files")
	}
	var mixed strings.Builder
	mixed.WriteString(fill("# [a*\n", 6*19000))                   // 19,000 headings, 38,000 marks
	mixed.WriteString("```\n" + fill("x\n", 2*80000) + "```\n\n") // 80,000 lines of code
	mixed.WriteString(fill("[a*", 3*20000) + "\n\n")              // 60,000 marks in one paragraph
	mixed.WriteString(strings.Repeat("word ", (content.MaxFileSize-mixed.Len()-200)/5))
	// Tables and heading attributes at their bounds, with the rest of the
	// budget spent on marks and prose.
	var tablesAndMarks strings.Builder
	tablesAndMarks.WriteString(table("", 50, 999, strings.Repeat("a|", 50)) + "\n") // 50,000 cells, 50,000 marks
	tablesAndMarks.WriteString(fill("[a*", 3*24900) + "\n\n")                       // 49,800 marks
	tablesAndMarks.WriteString(strings.Repeat("word ", (content.MaxFileSize-tablesAndMarks.Len()-200)/5))
	for _, c := range []struct{ name, body string }{
		{"headings, code and marks up to 4 MB", mixed.String()},
		{"lists 32 deep, 19,900 lines", fill(nestedList(1100), 19900*1100/32)},
		{"quotes 32 deep, 19,900 lines", fill(strings.Repeat(">", 32)+" a\n", 19900*35)},
		{"50,000 bare cells, 50 columns", table("", 50, 999, "x")},
		{"48,000 bare cells, 3,000 columns", table("", 3000, 15, "x")},
		{"39,980 bare cells, 2 columns", table("", 2, 19989, "x")},
		{"50,000 cells of text and 99,800 marks in 4 MB", tablesAndMarks.String()},
		{"19,990 headings with 8 attributes in 64 bytes", strings.Repeat(attributesAtBound, 19990)},
	} {
		heap := heapOfParse(t, c.body)
		t.Logf("%s: %d KB parsed with %d MB allocated", c.name, len(c.body)>>10, heap>>20)
		if heap > maxParseHeap {
			t.Errorf("%s: parsing allocated %d MB, more than the %d MB bound", c.name, heap>>20, maxParseHeap>>20)
		}
	}
}

// BenchmarkParse reports time and memory per parse of a file at the
// budget's edges and of a realistic long report.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"marks-99k", fill("[a*", 3*33000)},
		{"lists-32-deep", fill(nestedList(1100), 19900*1100/32)},
		{"table-50x1000", table("", 50, 999, strings.Repeat("a|", 50))},
		{"attributes-8-in-64B", strings.Repeat(attributesAtBound, 19990)},
		{"prose-1MB", fill("Engineers *rolled back* the [change](https://example.org/c/1) at 10:42.\n\n", 1<<20)},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := []byte(frontMatter + c.body)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				var errs diag.List
				if content.Parse("content/2021-06-01-a/en.md", "2021-06-01-a", "en", src, &errs) == nil {
					b.Fatal(errs.Err())
				}
			}
		})
	}
}
