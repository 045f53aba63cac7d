package locate

import (
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

// fragmentsOf highlights word in an English document's summary, body and
// timeline, searched in all three.
func fragmentsOf(t *testing.T, word, summary, body, timeline string) []string {
	t.Helper()
	an := mapping.NewIndexMapping().AnalyzerNamed(analysis.For("en"))
	loc := &Locator{Analyzer: an, Kind: analysis.KindOf("en")}
	text := docstore.NewText([docstore.NumFields]string{summary, body, timeline}, 0)
	text.Flags = analysis.TextFlags(text.All(), loc.Kind)
	h := Highlight{Pattern: NewPattern(an.Analyze([]byte(word)), loc.Kind), Fields: 0b111}
	return Fragments(loc, text, []Highlight{h})
}

// A fragment is the best passages of one block each: never a heading run
// into its text, a table row's cells apart, and never the same sentence
// twice, though the body's timeline section and the timeline field both
// hold each event.
func TestFragmentsKeepBlocksAndDoNotRepeat(t *testing.T) {
	body := "Impact\nOn Monday the streaming API refused requests.\n" +
		"Region\tRequests refused\nus\t91%\n" +
		"Timeline\n10:22 — A surge reaches the streaming API; protection starts refusing requests.\n" +
		"10:52 — Engineers block the source and the API recovers.\n" +
		"Remediation\nRefusing requests is now limited per project. " + strings.Repeat("More words about the work. ", 20)
	timeline := "A surge reaches the streaming API; protection starts refusing requests.\nEngineers block the source and the API recovers."
	fs := fragmentsOf(t, "refused", "", body, timeline)
	if len(fs) < 2 || len(fs) > 3 {
		t.Fatalf("%d fragments: %q", len(fs), fs)
	}
	seen := map[string]bool{}
	for _, f := range fs {
		plain := strings.NewReplacer("<mark>", "", "</mark>", "", "…", "").Replace(f)
		if strings.Contains(plain, "Impact On") || strings.Contains(plain, "Timeline 10:22") || strings.Contains(plain, "\n") {
			t.Errorf("fragment runs blocks together: %q", f)
		}
		if strings.Contains(plain, "Region") && !strings.Contains(plain, "Region · Requests refused") {
			t.Errorf("table cells not apart: %q", f)
		}
		if strings.Contains(plain, "A surge") {
			if seen["surge"] {
				t.Errorf("the same event twice: %q", fs)
			}
			seen["surge"] = true
		}
	}
	if fs[0] != "On Monday the streaming API <mark>refused</mark> requests." {
		t.Errorf("first fragment %q, want the whole line of the paragraph", fs[0])
	}
	// An event only in the timeline and the body: shown once.
	fs = fragmentsOf(t, "surge", "", body, timeline)
	if len(fs) != 1 {
		t.Errorf("the surge: %q, want one fragment", fs)
	}
}

func TestNormalSentence(t *testing.T) {
	for _, s := range []string{"", "  ", "The Quota  System\twas\n overloaded ", "控制平面 資源耗盡", "ÀB\u00a0c", "İstanbul DŽ x"} {
		if got, want := normalSentence(s), strings.ToLower(strings.Join(strings.Fields(s), " ")); got != want {
			t.Errorf("normalSentence(%q) = %q, want %q", s, got, want)
		}
	}
}

// A fragment is written in one allocation, however many marks it has.
func TestFormatFragmentAllocatesOnce(t *testing.T) {
	s := strings.Repeat("The quota system failed and the quota was raised. ", 4)
	fr := fragment{Start: 4, End: len(s) - 10}
	for i := strings.Index(s, "quota"); i >= 0 && i+5 <= fr.End; {
		fr.marks = append(fr.marks, mark{Span: Span{i, i + 5}})
		j := strings.Index(s[i+5:], "quota")
		if j < 0 {
			break
		}
		i += 5 + j
	}
	var out string
	if n := testing.AllocsPerRun(100, func() { out = formatFragment(s, fr) }); n != 1 {
		t.Errorf("%v allocations for %d marks", n, len(fr.marks))
	}
	if strings.Count(out, "<mark>quota</mark>") != len(fr.marks) || !strings.HasPrefix(out, "…") || !strings.HasSuffix(out, "…") {
		t.Errorf("fragment %q", out)
	}
}

// Picking the fragments of a result allocates their list once.
func TestPickFragmentsAllocatesOnce(t *testing.T) {
	var cands []fragment
	for i := range 8 {
		cands = append(cands, fragment{f: 0, Start: i * 100, End: i*100 + 50, marks: []mark{{Span{i * 100, i*100 + 5}, i % 3}},
			sentences: []string{string(rune('a' + i))}})
	}
	if n := testing.AllocsPerRun(100, func() {
		for i := range cands {
			cands[i].f = 0
		}
		if got := pickFragments(cands); len(got) != maxFragments {
			t.Fatalf("%d fragments", len(got))
		}
	}); n > 1 {
		t.Errorf("%v allocations", n)
	}
}
