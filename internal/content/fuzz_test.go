package content

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/diag"
)

// seedFiles adds the bundled archive's content files to a fuzz corpus.
func seedFiles(f *testing.F) {
	files, _ := filepath.Glob("../../content/*/*.md")
	if len(files) == 0 {
		f.Fatal("no content files to seed the corpus with")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("---\ntitle: x\n---\n## T {#timeline}\n- 10:00 — a\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\ntitle: [a, {b: c}]\r\n---\r\n"))
	// Small versions of what the parse budget bounds: bare rows under a
	// table, tables in quotes and lists, fences goldmark does not take for
	// fences, heading attributes.
	for _, body := range []string{
		"|a|a|a|\n|-|:-:|-:|\nx\nx\n\n> |a|b|\n> |-|-|\nx\n\n- |a|\n  |-|\n  x\n",
		"a\n    ```\n[a*\n\n<div>\n```\n\n> ```\n\n```a`\n|a|\n|-|\n",
		"## Impact {#impact .c .c}\n\nT {#t}\n---\n\n## H {a={a=[1,2] b=\"{\"}}\n",
	} {
		f.Add([]byte("---\ntitle: x\n---\n" + body))
	}
}

// FuzzParse feeds arbitrary bytes to the front-matter reader and the
// Markdown and timeline parser: they may report errors, never panic, and
// every error must point inside the file.
func FuzzParse(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var errs diag.List
		p := Parse("content/2021-01-01-x/en.md", "2021-01-01-x", "en", src, &errs)
		// Lines end as Parse ends them (normalize).
		text, _ := normalize(src)
		lines := 1 + bytes.Count(text, []byte("\n"))
		for _, e := range errs.Errors() {
			if e.Line < 0 || e.Line > lines+1 || e.Col < 0 {
				t.Fatalf("error outside the file (%d lines): %v", lines, e)
			}
		}
		if p != nil {
			if _, err := p.PlainText(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzTimeline places arbitrary timeline items in time zones with
// daylight saving time: errors are fine, panics and events out of order
// are not.
func FuzzTimeline(f *testing.F) {
	f.Add("2021-03-14", "02:30", "", "03:10", int8(0))
	f.Add("2021-11-07", "01:10", "", "01:50", int8(1))
	f.Add("", "25:99", "2021-13-40", "00:00", int8(2))
	zones := []string{"America/Los_Angeles", "Europe/London", "Australia/Lord_Howe", "Pacific/Apia", "UTC"}
	f.Fuzz(func(t *testing.T, d1, c1, d2, c2 string, zone int8) {
		loc, err := time.LoadLocation(zones[int(uint8(zone))%len(zones)])
		if err != nil {
			t.Skip()
		}
		marks := []Mark{{Pos: Pos{1, 1}, Date: d1, Clock: c1, Written: d1 + " " + c1}, {Pos: Pos{2, 1}, Date: d2, Clock: c2, Written: d2 + " " + c2}}
		events, _ := PlaceEvents("en.md", marks, loc)
		for i := 1; i < len(events); i++ {
			if events[i].Instant.Before(events[i-1].Instant) {
				t.Fatalf("events out of order: %v", events)
			}
		}
	})
}
