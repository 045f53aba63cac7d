package build_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/diag"
)

// The test site: one incident whose original (en.md) and translation
// (ja.md) are valid. Each error case changes one thing.
//
// Lines of errOrig: 1 ---, 2 title, 3 summary, 4 timezone, 5 begin, 6 end,
// 7 products, 8 regions, 9 causes, 10 severity, 11 ---, …, 25 the timeline
// heading, 27–29 the timeline items.
const (
	errID = "2021-06-01-test"

	errOrig = `---
title: Test incident
summary: Queries failed for an hour.
timezone: America/Los_Angeles
begin: 2021-06-01 10:00
end: 2021-06-01 11:00
products: [BigQuery]
regions: [us]
causes: [load-spike]
severity: major
---

## Impact {#impact}

Queries failed.

## Root cause {#root-cause}

A bug.

## Remediation {#remediation}

A fix.

## Timeline {#timeline}

- 2021-06-01 10:00 — Errors start.
- 10:30 — Fix deployed.
- 11:00 — Resolved.
`

	errJA = `---
title: テスト障害
summary: 一時間クエリが失敗した。
---

## 影響 {#impact}

クエリが失敗した。

## 根本原因 {#root-cause}

バグ。

## 対策 {#remediation}

修正。

## タイムライン {#timeline}

- 2021-06-01 10:00 — エラー開始。
- 10:30 — 修正を適用。
- 11:00 — 解決。
`
)

// files maps paths relative to the site folder to their text.
type files map[string]string

// with returns src with the first occurrence of old replaced by new; it
// fails the test when old is missing, so a case cannot silently test the
// unchanged file.
func with(t *testing.T, src, old, new string) string {
	t.Helper()
	if !strings.Contains(src, old) {
		t.Fatalf("test setup: %q not found in source", old)
	}
	return strings.Replace(src, old, new, 1)
}

// posOf returns "LINE:COL" of the first occurrence of needle in src, the
// column counted in characters, 1-based: where an error about that text
// must point.
func posOf(t *testing.T, src, needle string) string {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("test setup: %q not found in source", needle)
	}
	line := strings.Count(src[:i], "\n") + 1
	col := utf8.RuneCountInString(src[strings.LastIndex(src[:i], "\n")+1:i]) + 1
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// lineOf returns the 1-based line of the first occurrence of needle.
func lineOf(t *testing.T, src, needle string) int {
	t.Helper()
	p := posOf(t, src, needle)
	n, _ := strconv.Atoi(p[:strings.Index(p, ":")])
	return n
}

// writeSite writes files into a new temporary site folder.
func writeSite(t *testing.T, fs files) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range fs {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyI18n gives the site its own i18n/ folder: copies of gen's defaults.
func copyI18n(t *testing.T, dir string, only ...string) {
	t.Helper()
	names, err := fs.Glob(i18n.Files, "*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no embedded i18n files: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(i18n.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "i18n", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func buildSite(dir string) (*build.Result, error) {
	return build.Run(build.Options{Source: dir, Dest: filepath.Join(dir, "public"), BaseURL: "http://127.0.0.1:1313/"})
}

// mustFail builds the site and returns the error text, one problem a line.
func mustFail(t *testing.T, dir string) string {
	t.Helper()
	_, err := buildSite(dir)
	if err == nil {
		t.Fatal("build succeeded; want an error")
	}
	if _, statErr := os.Stat(filepath.Join(dir, "public")); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("a failed build created the output folder (stat: %v)", statErr)
	}
	return err.Error()
}

// findErr returns the error line that starts with prefix and contains
// every fragment, or "".
func findErr(out, prefix string, frags ...string) string {
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		ok := true
		for _, f := range frags {
			ok = ok && strings.Contains(line, f)
		}
		if ok {
			return line
		}
	}
	return ""
}

func file(id, lang string) string { return "content/" + id + "/" + lang + ".md" }

func TestBuildErrors(t *testing.T) {
	type tc struct {
		name   string
		files  func(t *testing.T) files
		prefix func(t *testing.T) string // exact "file:line:col: " (or "file:line: ", "file: ")
		frags  []string                  // what is wrong and what would be right
	}
	orig := func(t *testing.T, old, new string) files {
		return files{file(errID, "en"): with(t, errOrig, old, new)}
	}
	en := file(errID, "en")
	ja := file(errID, "ja")
	cases := []tc{
		{
			name:   "yaml syntax error",
			files:  func(t *testing.T) files { return orig(t, "regions: [us]", "regions: us: eu") },
			prefix: func(t *testing.T) string { return en + ":8: " },
			frags:  []string{"not valid YAML", "needs quotes"},
		},
		{
			name:   "yaml tab indentation",
			files:  func(t *testing.T) files { return orig(t, "regions: [us]", "regions:\n\t- us") },
			prefix: func(t *testing.T) string { return en + ":9: " },
			frags:  []string{"not valid YAML"},
		},
		{
			name:   "unknown key with suggestion",
			files:  func(t *testing.T) files { return orig(t, "summary:", "sumary:") },
			prefix: func(t *testing.T) string { return en + ":3:1: " },
			frags:  []string{`unknown front-matter key "sumary"`, `did you mean "summary"?`},
		},
		{
			name:   "key given twice",
			files:  func(t *testing.T) files { return orig(t, "causes: [load-spike]", "causes: [load-spike]\ntitle: Again") },
			prefix: func(t *testing.T) string { return en + ":10:1: " },
			frags:  []string{`key "title" is given twice`, "keep one"},
		},
		{
			name:   "wrong type",
			files:  func(t *testing.T) files { return orig(t, "products: [BigQuery]", "products: {a: b}") },
			prefix: func(t *testing.T) string { return en + ":7:11: " },
			frags:  []string{"products must be a list like [a, b], not a mapping"},
		},
		{
			name:   "bad time value",
			files:  func(t *testing.T) files { return orig(t, "begin: 2021-06-01 10:00", "begin: yesterday") },
			prefix: func(t *testing.T) string { return en + ":5:8: " },
			frags:  []string{`"yesterday" is not a time`, "write YYYY-MM-DD HH:MM", "RFC 3339"},
		},
		{
			name:   "impossible date",
			files:  func(t *testing.T) files { return orig(t, "end: 2021-06-01 11:00", "end: 2021-06-31 11:00") },
			prefix: func(t *testing.T) string { return en + ":6:6: " },
			frags:  []string{"end:", "is not a time", "YYYY-MM-DD HH:MM"},
		},
		{
			name: "unknown time zone",
			files: func(t *testing.T) files {
				return orig(t, "timezone: America/Los_Angeles", "timezone: Mars/Olympus_Mons")
			},
			prefix: func(t *testing.T) string { return en + ":4:11: " },
			frags:  []string{`unknown time zone "Mars/Olympus_Mons"`, "IANA zone name such as America/Los_Angeles"},
		},
		{
			name:   "time zone Local is not a zone",
			files:  func(t *testing.T) files { return orig(t, "timezone: America/Los_Angeles", "timezone: Local") },
			prefix: func(t *testing.T) string { return en + ":4:11: " },
			frags:  []string{`unknown time zone "Local"`, "IANA zone name"},
		},
		{
			name: "begin in spring-forward gap",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-03-14 02:30")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-03-14 04:00")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-03-14 03:00")
				return files{file("2021-03-14-gap", "en"): src}
			},
			prefix: func(t *testing.T) string { return file("2021-03-14-gap", "en") + ":5:8: " },
			frags:  []string{"2021-03-14 02:30 does not exist in America/Los_Angeles", "use the time after the change"},
		},
		{
			name: "begin ambiguous in fall-back",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-11-07 01:30")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-11-07 03:00")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-11-07 02:00")
				return files{file("2021-11-07-overlap", "en"): src}
			},
			prefix: func(t *testing.T) string { return file("2021-11-07-overlap", "en") + ":5:8: " },
			frags:  []string{"happens twice", "2021-11-07T01:30:00-07:00", "2021-11-07T01:30:00-08:00"},
		},
		{
			name:   "end before begin",
			files:  func(t *testing.T) files { return orig(t, "end: 2021-06-01 11:00", "end: 2021-06-01 09:00") },
			prefix: func(t *testing.T) string { return en + ":6:6: " },
			frags:  []string{"end 2021-06-01 09:00 is before begin 2021-06-01 10:00", "ends after it begins"},
		},
		{
			name:   "id date is not the local begin date",
			files:  func(t *testing.T) files { return files{file("2021-06-02-test", "en"): errOrig} },
			prefix: func(t *testing.T) string { return file("2021-06-02-test", "en") + ":5:8: " },
			frags:  []string{"begins on 2021-06-01", "rename the folder to 2021-06-01-test"},
		},
		{
			// 03:00 UTC on 2 June is still 1 June in Los Angeles.
			name: "id date is the UTC date instead of the local one",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-06-02T03:00:00Z")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-06-02T04:00:00Z")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-06-01 20:00")
				src = with(t, src, "- 10:30", "- 20:30")
				src = with(t, src, "- 11:00", "- 21:00")
				return files{file("2021-06-02-utc", "en"): src}
			},
			prefix: func(t *testing.T) string { return file("2021-06-02-utc", "en") + ":5:8: " },
			frags:  []string{"begins on 2021-06-01 in America/Los_Angeles", "rename the folder to 2021-06-01-utc"},
		},
		{
			name:   "first timeline item without date",
			files:  func(t *testing.T) files { return orig(t, "- 2021-06-01 10:00 — Errors", "- 10:00 — Errors") },
			prefix: func(t *testing.T) string { return en + ":27:3: " },
			frags:  []string{"the first timeline item needs a date", "YYYY-MM-DD 10:00"},
		},
		{
			name:   "timeline going backwards",
			files:  func(t *testing.T) files { return orig(t, "- 10:30 — Fix", "- 09:30 — Fix") },
			prefix: func(t *testing.T) string { return en + ":28:3: " },
			frags:  []string{"timeline goes backwards", "2021-06-01 09:30 is before the previous item (2021-06-01 10:00)", "write the new date"},
		},
		{
			name:   "timeline item without a time",
			files:  func(t *testing.T) files { return orig(t, "- 10:30 — Fix deployed.", "- Fix deployed.") },
			prefix: func(t *testing.T) string { return en + ":28:3: " },
			frags:  []string{"timeline item must start with a time", "HH:MM — …"},
		},
		{
			// The incident is moved to the spring-forward day, on which
			// 02:30 does not exist.
			name: "timeline time in a DST gap",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-03-14 01:00")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-03-14 04:00")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-03-14 01:00")
				src = with(t, src, "- 10:30", "- 02:30")
				src = with(t, src, "- 11:00", "- 03:30")
				return files{file("2021-03-14-gap", "en"): src}
			},
			prefix: func(t *testing.T) string { return file("2021-03-14-gap", "en") + ":28:3: " },
			frags:  []string{"2021-03-14 02:30 does not exist in America/Los_Angeles", "use the time after the change"},
		},
		{
			name: "unknown language",
			files: func(t *testing.T) files {
				return files{en: errOrig, file(errID, "fr"): errJA}
			},
			prefix: func(t *testing.T) string { return file(errID, "fr") + ":1:1: " },
			frags:  []string{`language "fr" has no i18n file`, "add i18n/fr.yaml", "en, ja, zh-CN, zh-TW"},
		},
		{
			name: "non-canonical language tag",
			files: func(t *testing.T) files {
				return files{en: errOrig, file(errID, "zh-tw"): errJA}
			},
			prefix: func(t *testing.T) string { return file(errID, "zh-tw") + ":1:1: " },
			frags:  []string{`"zh-tw" is not in canonical form`, "rename the file to zh-TW.md"},
		},
		{
			name: "file name is not a language",
			files: func(t *testing.T) files {
				return files{en: errOrig, file(errID, "notes_draft"): errJA}
			},
			prefix: func(t *testing.T) string { return file(errID, "notes_draft") + ":1:1: " },
			frags:  []string{"is not a BCP 47 language tag", "en.md or zh-TW.md"},
		},
		{
			name: "unknown related id",
			files: func(t *testing.T) files {
				other := errOrig
				other = with(t, other, "begin: 2021-06-01 10:00", "begin: 2021-05-01 10:00")
				other = with(t, other, "end: 2021-06-01 11:00", "end: 2021-05-01 11:00")
				other = with(t, other, "- 2021-06-01 10:00", "- 2021-05-01 10:00")
				return files{
					en:                             with(t, errOrig, "severity: major", "severity: major\nrelated: [2021-05-01-bravx]"),
					file("2021-05-01-bravo", "en"): other,
				}
			},
			prefix: func(t *testing.T) string { return en + ":11:11: " },
			frags:  []string{`related incident "2021-05-01-bravx" does not exist`, `did you mean "2021-05-01-bravo"?`},
		},
		{
			name:   "link to a missing incident",
			files:  func(t *testing.T) files { return orig(t, "A fix.", "A fix, like [last time](../2021-06-01-tset/).") },
			prefix: func(t *testing.T) string { return en + ":23:13: " },
			frags:  []string{"2021-06-01-tset", "does not exist", `did you mean "2021-06-01-test"?`},
		},
		{
			name: "translation contradicts a fact",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: with(t, errJA, "summary:", "products: [Cloud SQL]\nsummary:")}
			},
			prefix: func(t *testing.T) string { return ja + ":3:11: " },
			frags:  []string{"products [Cloud SQL] contradicts the original " + en + ":7 which says [BigQuery]", "remove products from the translation"},
		},
		{
			name: "translation timeline differs",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: with(t, errJA, "- 10:30 — 修正", "- 10:35 — 修正")}
			},
			prefix: func(t *testing.T) string { return ja + ":" + posOf(t, errJA, "10:30 — 修正") + ": " },
			frags: []string{"timeline event 2 is at 2021-06-01 17:35 UTC", "in the original (" + en + ":28) at 2021-06-01 17:30 UTC",
				"keep the original's times"},
		},
		{
			name: "translation timeline misses an event",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: with(t, errJA, "- 11:00 — 解決。\n", "")}
			},
			prefix: func(t *testing.T) string {
				return ja + ":" + strconv.Itoa(lineOf(t, errJA, "10:30 — 修正")) + ":1: "
			},
			frags: []string{"timeline is missing the event at 11:00 (" + en + ":29)", "translate every event"},
		},
		{
			name: "two originals",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: with(t, errOrig, "title: Test incident", "title: テスト障害")}
			},
			prefix: func(t *testing.T) string { return ja + ":5:8: " },
			frags:  []string{"two originals (" + en + " and this file)", "keep the facts", "only in the original"},
		},
		{
			name: "no original",
			files: func(t *testing.T) files {
				return files{en: with(t, errJA, "title: テスト障害", "title: Test incident"), ja: errJA}
			},
			prefix: func(t *testing.T) string { return en + ":1:1: " },
			frags:  []string{"incident " + errID + " has no original", "must hold the facts"},
		},
		{
			name: "ids differing only in case",
			files: func(t *testing.T) files {
				return files{en: errOrig, file("2021-06-01-Test", "en"): errOrig}
			},
			prefix: func(t *testing.T) string { return "content/2021-06-01-Test: " },
			frags:  []string{"lowercase"},
		},
		{
			name:   "invalid UTF-8",
			files:  func(t *testing.T) files { return orig(t, "title: Test incident", "title: Test \xff incident") },
			prefix: func(t *testing.T) string { return en + ":2:13: " },
			frags:  []string{"not valid UTF-8", "save the file as UTF-8"},
		},
		{
			name: "invalid UTF-8 after multibyte text",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: with(t, errJA, "修正を適用", "修正を\xc3適用")}
			},
			prefix: func(t *testing.T) string { return ja + ":" + posOf(t, errJA, "適用") + ": " },
			frags:  []string{"not valid UTF-8"},
		},
		{
			name:   "empty file",
			files:  func(t *testing.T) files { return files{en: errOrig, ja: ""} },
			prefix: func(t *testing.T) string { return ja + ":1:1: " },
			frags:  []string{"file is empty", "front matter between `---` lines"},
		},
		{
			name:   "blank file",
			files:  func(t *testing.T) files { return files{en: errOrig, ja: " \n\n\t\n"} },
			prefix: func(t *testing.T) string { return ja + ":1:1: " },
			frags:  []string{"file is empty"},
		},
		{
			name:   "no front matter",
			files:  func(t *testing.T) files { return files{en: errOrig, ja: "# テスト\n\n本文。\n"} },
			prefix: func(t *testing.T) string { return ja + ":1:1: " },
			frags:  []string{"no front matter", "must start with a `---` line"},
		},
		{
			name: "front matter never closed",
			files: func(t *testing.T) files {
				return files{en: errOrig, ja: "---\ntitle: テスト\nsummary: x\n\n本文。\n"}
			},
			prefix: func(t *testing.T) string { return ja + ":1:1: " },
			frags:  []string{"front matter", "`---`"},
		},
		{
			name: "BOM and CRLF do not shift positions",
			files: func(t *testing.T) files {
				src := "\ufeff" + strings.ReplaceAll(with(t, errOrig, "summary:", "sumary:"), "\n", "\r\n")
				return files{en: src}
			},
			prefix: func(t *testing.T) string { return en + ":3:1: " },
			frags:  []string{`did you mean "summary"?`},
		},
		{
			name:   "severity not allowed",
			files:  func(t *testing.T) files { return orig(t, "severity: major", "severity: catastrophic") },
			prefix: func(t *testing.T) string { return en + ":10:11: " },
			frags:  []string{`severity "catastrophic" is not one of minor, major, critical`},
		},
		{
			name:   "summary missing points at the front matter",
			files:  func(t *testing.T) files { return orig(t, "summary: Queries failed for an hour.\n", "") },
			prefix: func(t *testing.T) string { return en + ":1:1: " },
			frags:  []string{"`summary:"},
		},
		{
			name:   "end past year 9999 in UTC",
			files:  func(t *testing.T) files { return orig(t, "end: 2021-06-01 11:00", "end: 9999-12-31 23:00") },
			prefix: func(t *testing.T) string { return en + ":6:6: " },
			frags:  []string{"end: 9999-12-31 23:00 is 10000-01-01 07:00 in UTC", "years 1–9999"},
		},
		{
			name: "begin before year 1 in UTC",
			files: func(t *testing.T) files {
				f := orig(t, "timezone: America/Los_Angeles", "timezone: Asia/Tokyo")
				f[en] = with(t, with(t, f[en], "begin: 2021-06-01 10:00", "begin: 0001-01-01 05:00"), "end: 2021-06-01 11:00\n", "")
				return f
			},
			prefix: func(t *testing.T) string { return en + ":5:8: " },
			frags:  []string{"begin: 0001-01-01 05:00 is 0000-12-31", "years 1–9999"},
		},
		{
			name:   "timeline event past year 9999",
			files:  func(t *testing.T) files { return orig(t, "- 11:00 — Resolved.", "- 9999-12-31 23:30 — Resolved.") },
			prefix: func(t *testing.T) string { return en + ":29:3: " },
			frags:  []string{"9999-12-31 23:30 is 10000-01-01", "years 1–9999"},
		},
		{
			// 3.9 MB of "[a*" took 1.84 GB to parse; it is refused first.
			name:   "markup too dense to parse",
			files:  func(t *testing.T) files { return orig(t, "A bug.", strings.Repeat("[a*", 1_300_000)) },
			prefix: func(t *testing.T) string { return en + ":" + strconv.Itoa(lineOf(t, errOrig, "A bug.")) + ":150001: " },
			frags:  []string{"more than 100000 link, emphasis and table marks", "fenced code blocks"},
		},
		{
			name:   "ongoing contradicts end",
			files:  func(t *testing.T) files { return orig(t, "severity: major\n", "severity: major\nongoing: true\n") },
			prefix: func(t *testing.T) string { return en + ":11:10: " },
			frags:  []string{"ongoing: true contradicts end 2021-06-01 11:00", "remove end"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeSite(t, c.files(t))
			out := mustFail(t, dir)
			prefix := c.prefix(t)
			if findErr(out, prefix, c.frags...) == "" {
				t.Errorf("no error line starting %q and containing %q; got:\n%s", prefix, c.frags, out)
			}
		})
	}
}

// TestUnknownLanguageWithSiteI18n: a site with its own i18n/ folder still
// refuses a file in a language it has no i18n file for.
func TestUnknownLanguageWithSiteI18n(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig, file(errID, "fr"): errJA})
	copyI18n(t, dir)
	out := mustFail(t, dir)
	if findErr(out, file(errID, "fr")+":1:1: ", `language "fr" has no i18n file`, "add i18n/fr.yaml") == "" {
		t.Errorf("want an error for fr.md naming i18n/fr.yaml; got:\n%s", out)
	}
	// With i18n/fr.yaml the same file is accepted.
	data, err := fs.ReadFile(i18n.Files, "en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "i18n", "fr.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := buildSite(dir)
	if err != nil {
		t.Fatalf("with i18n/fr.yaml the build fails: %v", err)
	}
	if res.Languages != 5 {
		t.Errorf("built %d languages, want 5 (en, fr, ja, zh-CN, zh-TW)", res.Languages)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "fr", "incidents", errID, "index.html")); err != nil {
		t.Errorf("no French incident page: %v", err)
	}
}

// TestHongKongTextNeedsTraditional: a zh-HK text speaks through zh-TW
// (cmd/gen's TestHongKongTextThroughZhTW); on a site without it, it is
// refused as any language without an i18n file, not given a Simplified
// interface.
func TestHongKongTextNeedsTraditional(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig, file(errID, "zh-HK"): errJA})
	copyI18n(t, dir)
	if err := os.Remove(filepath.Join(dir, "i18n", "zh-TW.yaml")); err != nil {
		t.Fatal(err)
	}
	out := mustFail(t, dir)
	if findErr(out, file(errID, "zh-HK")+":1:1: ", `language "zh-HK" has no i18n file; add i18n/zh-HK.yaml or use one of: en, ja, zh-CN`) == "" {
		t.Errorf("want zh-HK.md refused, naming the languages there are; got:\n%s", out)
	}
}

// TestRelatedToBrokenIncident: an incident that lists a related incident
// which exists but has its own error must not be told the related
// incident "does not exist" — the author would hunt for a typo that is
// not there. Only the real error should be reported.
func TestRelatedToBrokenIncident(t *testing.T) {
	other := errOrig
	other = with(t, other, "timezone: America/Los_Angeles", "timezone: Mars/Olympus_Mons")
	other = with(t, other, "begin: 2021-06-01 10:00", "begin: 2021-05-01 10:00")
	other = with(t, other, "end: 2021-06-01 11:00", "end: 2021-05-01 11:00")
	dir := writeSite(t, files{
		file(errID, "en"):              with(t, errOrig, "severity: major", "severity: major\nrelated: [2021-05-01-bravo]"),
		file("2021-05-01-bravo", "en"): other,
	})
	out := mustFail(t, dir)
	if findErr(out, file("2021-05-01-bravo", "en")+":4:11: ", "unknown time zone") == "" {
		t.Errorf("the real error is missing; got:\n%s", out)
	}
	if line := findErr(out, file(errID, "en"), "does not exist"); line != "" {
		t.Errorf("spurious error for an existing related incident: %s", line)
	}
}

// TestValidSites: inputs that look unusual but are right build fine.
func TestValidSites(t *testing.T) {
	cases := []struct {
		name  string
		files func(t *testing.T) files
		check func(t *testing.T, dest string)
	}{
		{
			name: "BOM and CRLF",
			files: func(t *testing.T) files {
				crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
				return files{
					file(errID, "en"): "\ufeff" + crlf(errOrig),
					file(errID, "ja"): "\ufeff" + crlf(errJA),
				}
			},
			check: func(t *testing.T, dest string) {
				for _, lang := range []string{"en", "ja"} {
					doc := parseHTML(t, filepath.Join(dest, lang, "incidents", errID, "index.html"))
					// The three events, anchored at their UTC minute (PDT is UTC-7).
					for _, id := range []string{"t-20210601T1700Z", "t-20210601T1730Z", "t-20210601T1800Z"} {
						if len(findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "id") == id })) != 1 {
							t.Errorf("%s: no timeline item with id %q", lang, id)
						}
					}
					for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
						if strings.ContainsAny(textOf(n), "\r\ufeff") {
							t.Errorf("%s: <%s> text keeps a carriage return or BOM: %q", lang, n.Data, textOf(n))
							break
						}
					}
				}
			},
		},
		{
			// 23:30 in Los Angeles is already 2 June in UTC: the id uses
			// the local date.
			name: "late local begin uses the local date",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-06-01 23:30")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-06-02 00:30")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-06-01 23:30")
				src = with(t, src, "- 10:30", "- 2021-06-02 00:00")
				src = with(t, src, "- 11:00", "- 00:30")
				return files{file("2021-06-01-late", "en"): src}
			},
			check: func(t *testing.T, dest string) {
				doc := parseHTML(t, filepath.Join(dest, "en", "incidents", "2021-06-01-late", "index.html"))
				for _, id := range []string{"t-20210602T0630Z", "t-20210602T0700Z", "t-20210602T0730Z"} {
					if len(findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "id") == id })) != 1 {
						t.Errorf("no timeline item with id %q", id)
					}
				}
			},
		},
		{
			name: "begin written with an offset in the fall-back hour",
			files: func(t *testing.T) files {
				src := errOrig
				src = with(t, src, "begin: 2021-06-01 10:00", "begin: 2021-11-07T01:30:00-08:00")
				src = with(t, src, "end: 2021-06-01 11:00", "end: 2021-11-07 03:00")
				src = with(t, src, "- 2021-06-01 10:00", "- 2021-11-07 01:30")
				src = with(t, src, "- 10:30", "- 01:10")
				src = with(t, src, "- 11:00", "- 03:00")
				return files{file("2021-11-07-fallback", "en"): src}
			},
			check: func(t *testing.T, dest string) {
				doc := parseHTML(t, filepath.Join(dest, "en", "incidents", "2021-11-07-fallback", "index.html"))
				// 01:30 PDT (08:30Z), then 01:10 PST (09:10Z) after the
				// clocks went back, then 03:00 PST (11:00Z).
				for _, id := range []string{"t-20211107T0830Z", "t-20211107T0910Z", "t-20211107T1100Z"} {
					if len(findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "id") == id })) != 1 {
						t.Errorf("no timeline item with id %q", id)
					}
				}
			},
		},
		{
			// Items as people write them: the text after the time starts
			// with emphasis, a bare URL, strong text, code, a link or an
			// image, in the original and the translation.
			name: "timeline items starting with formatting",
			files: func(t *testing.T) files {
				en := with(t, errOrig, "- 10:30 — Fix deployed.\n- 11:00 — Resolved.\n",
					"- 10:10 — _joe_ runs the script.\n- 10:20 — https://gerrit.example.org/r/489823/ gets merged.\n- 10:30 — **Paged** on-call.\n"+
						"- 10:40 — `kubectl rollout undo` runs.\n- 10:50 — [The dashboard](https://example.org/d) recovers.\n- 11:00 — ![graph](g.png) Resolved.\n")
				en = with(t, en, "- 2021-06-01 10:00 — Errors start.", "- 2021-06-01 10:00 — *Errors* start.")
				ja := with(t, errJA, "- 2021-06-01 10:00 — エラー開始。", "- 2021-06-01 10:00 — *エラー*開始。")
				ja = with(t, ja, "- 10:30 — 修正を適用。\n- 11:00 — 解決。\n",
					"- 10:10 — _joe_ がスクリプトを実行。\n- 10:20 — https://gerrit.example.org/r/489823/ がマージ。\n- 10:30 — **呼び出し**。\n"+
						"- 10:40 — `kubectl rollout undo` を実行。\n- 10:50 — [ダッシュボード](https://example.org/d) が回復。\n- 11:00 — ![グラフ](g.png) 解決。\n")
				return files{file(errID, "en"): en, file(errID, "ja"): ja}
			},
			check: func(t *testing.T, dest string) {
				inline := []string{"em", "em", "a", "strong", "code", "a", "img"}
				for _, lang := range []string{"en", "ja"} {
					doc := parseHTML(t, filepath.Join(dest, lang, "incidents", errID, "index.html"))
					for i, minute := range []string{"1700", "1710", "1720", "1730", "1740", "1750", "1800"} {
						id := "t-20210601T" + minute + "Z"
						items := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && attr(n, "id") == id })
						if len(items) != 1 {
							t.Errorf("%s: no timeline item with id %q", lang, id)
							continue
						}
						if len(findAll(items[0], func(n *html.Node) bool { return attr(n, "class") == "event-time" })) != 1 {
							t.Errorf("%s: item %s has no time", lang, id)
						}
						if len(findAll(items[0], func(n *html.Node) bool { return n.Data == inline[i] })) == 0 {
							t.Errorf("%s: item %s lost its <%s>", lang, id, inline[i])
						}
					}
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeSite(t, c.files(t))
			if _, err := buildSite(dir); err != nil {
				t.Fatalf("build failed: %v", err)
			}
			c.check(t, filepath.Join(dir, "public"))
		})
	}
}

// TestTimelineErrorsDoNotCascade: a mistake in one timeline item is
// reported once, at that item; the items after it are read as if it were
// right, not reported as needing a date or being invalid themselves.
func TestTimelineErrorsDoNotCascade(t *testing.T) {
	en := file(errID, "en")
	cases := []struct {
		name, old, new string
		at             string // the one error's "line:col"
		frag           string
	}{
		{"first item's time unreadable", "- 2021-06-01 10:00 — Errors", "- 2021-06-01 10h00 — Errors", "27:3", "must start with a time"},
		{"first item's date invalid", "- 2021-06-01 10:00 — Errors", "- 2021-06-31 10:00 — Errors", "27:3", `"2021-06-31 10:00" is not a valid date`},
		{"first item's time formatted", "- 2021-06-01 10:00 — Errors", "- **2021-06-01 10:00** — Errors", "27:3", "the time of a timeline item must be plain text"},
		{"middle item unreadable", "- 10:30 — Fix", "- 10.30 — Fix", "28:3", "must start with a time"},
		{"middle item's clock invalid", "- 10:30 — Fix", "- 10:70 — Fix", "28:3", `"10:70" is not a valid date and time`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeSite(t, files{en: with(t, errOrig, c.old, c.new), file(errID, "ja"): errJA})
			out := mustFail(t, dir)
			var lines []string
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "content/") {
					lines = append(lines, line)
				}
			}
			if len(lines) != 1 || findErr(out, en+":"+c.at+": ", c.frag) == "" {
				t.Errorf("want exactly one error, at %s:%s, saying %q; got:\n%s", en, c.at, c.frag, out)
			}
		})
	}
}

// TestSeveralErrorsAllReported: one build shows every mistake of every
// file, sorted by file, line and column.
func TestSeveralErrorsAllReported(t *testing.T) {
	idA, idB, idC := "2021-06-01-alpha", "2021-06-02-bravo", "2021-06-03-charlie"
	origB := errOrig
	origB = with(t, origB, "begin: 2021-06-01 10:00", "begin: 2021-06-02 10:00")
	origB = with(t, origB, "end: 2021-06-01 11:00", "end: 2021-06-02 11:00")
	origB = with(t, origB, "- 2021-06-01 10:00", "- 2021-06-02 10:00")
	origC := errOrig
	origC = with(t, origC, "begin: 2021-06-01 10:00", "begin: 2021-06-03 10:00")
	origC = with(t, origC, "end: 2021-06-01 11:00", "end: 2021-06-03 11:00")
	origC = with(t, origC, "- 2021-06-01 10:00", "- 2021-06-03 10:00")

	// alpha/en: two problems in one file, the later one written first in
	// the want list to make sure the order comes from the positions.
	aEN := with(t, with(t, errOrig, "severity: major", "severity: extreme"), "causes:", "cuases:")
	// bravo/en: a timeline that goes backwards; bravo/ja: a fact that
	// contradicts it.
	bEN := with(t, origB, "- 11:00 — Resolved.", "- 10:15 — Resolved.")
	bJA := with(t, errJA, "summary:", "severity: minor\nsummary:")
	// charlie: valid original, empty translation, and a file in no site
	// language.
	site := files{
		file(idA, "en"):    aEN,
		file(idB, "en"):    bEN,
		file(idB, "ja"):    bJA,
		file(idC, "en"):    origC,
		file(idC, "ja"):    "",
		file(idC, "fr"):    errJA,
		file(idC, "zh-tw"): errJA,
	}
	dir := writeSite(t, site)
	out := mustFail(t, dir)

	want := []struct{ prefix, frag string }{
		{file(idA, "en") + ":9:1: ", `did you mean "causes"?`},
		{file(idA, "en") + ":10:11: ", `severity "extreme" is not one of`},
		{file(idB, "en") + ":29:3: ", "timeline goes backwards"},
		{file(idB, "ja") + ":3:11: ", `severity "minor" contradicts the original ` + file(idB, "en") + `:10 which says "major"`},
		{file(idC, "fr") + ":1:1: ", `language "fr" has no i18n file`},
		{file(idC, "ja") + ":1:1: ", "file is empty"},
		{file(idC, "zh-tw") + ":1:1: ", "rename the file to zh-TW.md"},
	}
	for _, w := range want {
		if findErr(out, w.prefix, w.frag) == "" {
			t.Errorf("missing error %q … %q", w.prefix, w.frag)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", out)
	}

	// Sorted by file, then line, then column.
	type key struct {
		file      string
		line, col int
	}
	re := regexp.MustCompile(`^(content/[^:]+?)(?::(\d+))?(?::(\d+))?: `)
	var keys []key
	for _, line := range strings.Split(out, "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("error line without a content/ file position: %q", line)
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		keys = append(keys, key{m[1], l, c})
	}
	for i := 1; i < len(keys); i++ {
		a, b := keys[i-1], keys[i]
		if a.file > b.file || a.file == b.file && (a.line > b.line || a.line == b.line && a.col > b.col) {
			t.Errorf("errors out of order: %v before %v\n%s", a, b, out)
		}
	}
	if len(keys) < len(want) {
		t.Errorf("%d error lines, want at least %d", len(keys), len(want))
	}

	// The error is a diag.List, so callers can walk the problems.
	_, err := buildSite(dir)
	var list *diag.List
	if !errors.As(err, &list) {
		t.Fatalf("build error is %T, want it to wrap *diag.List", err)
	}
	if list.Len() != len(keys) {
		t.Errorf("diag.List has %d problems but prints %d lines", list.Len(), len(keys))
	}
}

// TestLinkErrorsReportedWithOtherErrors: a broken link in one incident is
// reported even when another incident has an unrelated error.
func TestLinkErrorsReportedWithOtherErrors(t *testing.T) {
	origB := errOrig
	origB = with(t, origB, "begin: 2021-06-01 10:00", "begin: 2021-06-02 10:00")
	origB = with(t, origB, "end: 2021-06-01 11:00", "end: 2021-06-02 11:00")
	origB = with(t, origB, "- 2021-06-01 10:00", "- 2021-06-02 10:00")
	origB = with(t, origB, "severity: major", "severity: extreme")
	aEN := with(t, errOrig, "A fix.", "A fix, see [the other one](../2021-06-01-nope/).")
	dir := writeSite(t, files{file(errID, "en"): aEN, file("2021-06-02-bravo", "en"): origB})
	out := mustFail(t, dir)
	if findErr(out, file("2021-06-02-bravo", "en")+":10:11: ", "not one of") == "" {
		t.Errorf("severity error missing:\n%s", out)
	}
	if findErr(out, file(errID, "en")+":"+posOf(t, aEN, "[the other one]")+": ", "2021-06-01-nope") == "" {
		t.Errorf("broken link error missing:\n%s", out)
	}
}

// --- HTML safety: what authors write in Markdown cannot run script. ---

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// buildBody builds the test incident with extra Markdown in its Impact
// section and returns the parsed English page and its <main>.
func buildBody(t *testing.T, impact string) (doc, main *html.Node) {
	t.Helper()
	dir := writeSite(t, files{file(errID, "en"): with(t, errOrig, "Queries failed.", impact)})
	if _, err := buildSite(dir); err != nil {
		t.Fatalf("build failed: %v", err)
	}
	doc = parseHTML(t, filepath.Join(dir, "public", "en", "incidents", errID, "index.html"))
	mains := findAll(doc, func(n *html.Node) bool { return n.Data == "main" })
	if len(mains) != 1 {
		t.Fatalf("%d <main> elements, want 1", len(mains))
	}
	return doc, mains[0]
}

// scriptURL reports whether a URL attribute value would run script, read
// the way browsers read it (leading spaces and control characters and
// embedded tabs and newlines ignored, scheme case-insensitive).
func scriptURL(v string) bool {
	v = strings.TrimLeft(v, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	v = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
	v = strings.ToLower(v)
	return strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:text/html")
}

func TestRawHTMLIsEscaped(t *testing.T) {
	doc, main := buildBody(t, "Queries failed <img src=x onerror=alert(1)> inline.\n\n<script>alert(1)</script>\n\n<div onclick=\"alert(2)\">block</div>\n\nEnd <iframe src=\"https://evil.example/\"></iframe>.")
	for _, n := range findAll(doc, func(n *html.Node) bool { return n.Data == "script" }) {
		if strings.Contains(textOf(n), "alert") || attr(n, "src") == "" {
			t.Errorf("author's <script> element reached the page: %q", textOf(n))
		}
	}
	for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("<%s> has event handler %s=%q", n.Data, a.Key, a.Val)
			}
		}
		if n.Data == "img" && attr(n, "src") == "x" || n.Data == "iframe" {
			t.Errorf("author's <%s> element reached the page", n.Data)
		}
	}
	// The markup is shown as text, not dropped.
	body := textOf(main)
	for _, s := range []string{"<img src=x onerror=alert(1)>", "<script>alert(1)</script>", `<div onclick="alert(2)">block</div>`, "<iframe"} {
		if !strings.Contains(body, s) {
			t.Errorf("page text does not show %q as written", s)
		}
	}
}

func TestScriptLinksNotEmitted(t *testing.T) {
	cases := []struct{ name, md, label string }{
		{"plain", "A [plain](javascript:alert(1)) link.", "plain"},
		{"mixed case", "A [cased](JavaScript:alert(2)) link.", "cased"},
		{"entity in scheme", "An [entity](jav&#x61;script:alert(3)) link.", "entity"},
		{"angle brackets", "An [angle](<javascript:alert(4)>) link.", "angle"},
		{"reference", "A [reference][ref] link.\n\n[ref]: javascript:alert(5)", "reference"},
		{"autolink", "An autolink <javascript:alert(6)>.", "alert(6)"},
		{"vbscript", "A [vb](vbscript:msgbox(7)) link.", "vb"},
		{"data html", "A [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==) link.", "data"},
		{"image", "An ![image](javascript:alert(9)) image.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			md := c.md + "\n\nA [good](https://example.com/ok) link."
			dir := writeSite(t, files{file(errID, "en"): with(t, errOrig, "Queries failed.", md)})
			if _, err := buildSite(dir); err != nil {
				// Refusing the link is as good as not emitting it, as
				// long as the error says which link.
				if !strings.Contains(err.Error(), file(errID, "en")+":15:") || !strings.Contains(err.Error(), "link") {
					t.Fatalf("build failed without pointing at the link: %v", err)
				}
				return
			}
			doc := parseHTML(t, filepath.Join(dir, "public", "en", "incidents", errID, "index.html"))
			for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
				for _, k := range []string{"href", "src", "action", "formaction", "xlink:href", "srcset"} {
					if v := attr(n, k); scriptURL(v) {
						t.Errorf("<%s %s=%q> runs script", n.Data, k, v)
					}
				}
			}
			mains := findAll(doc, func(n *html.Node) bool { return n.Data == "main" })
			if len(mains) != 1 {
				t.Fatalf("%d <main> elements, want 1", len(mains))
			}
			// The safe link is still a link, and the text is still shown.
			good := findAll(mains[0], func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "https://example.com/ok" })
			if len(good) != 1 {
				t.Errorf("the https link next to it is missing")
			}
			if !strings.Contains(textOf(mains[0]), c.label) {
				t.Errorf("link text %q is missing", c.label)
			}
		})
	}
}

func TestHeadingAttributesFiltered(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): with(t, errOrig, "## Impact {#impact}", `## Impact {#impact .loud onclick="x" style="y" data-x="z"}`)})
	if _, err := buildSite(dir); err != nil {
		t.Fatalf("build failed: %v", err)
	}
	doc := parseHTML(t, filepath.Join(dir, "public", "en", "incidents", errID, "index.html"))
	hs := findAll(doc, func(n *html.Node) bool { return n.Data == "h2" && attr(n, "id") == "impact" })
	if len(hs) != 1 {
		t.Fatalf("%d <h2 id=impact>, want 1", len(hs))
	}
	h := hs[0]
	for _, k := range []string{"onclick", "style", "data-x"} {
		if hasAttr(h, k) {
			t.Errorf("heading keeps %s=%q", k, attr(h, k))
		}
	}
	if !strings.Contains(attr(h, "class"), "loud") {
		t.Errorf("heading lost its class: %v", h.Attr)
	}
	if got := strings.TrimSpace(textOf(h)); got != "Impact" {
		t.Errorf("heading text %q, want %q (the attribute block must not show)", got, "Impact")
	}
}

// TestEmptyTitleRejected: `title: ""` is as missing as no title; the
// summary is already checked this way.
func TestEmptyTitleRejected(t *testing.T) {
	for _, title := range []string{`title: ""`, `title: "   "`} {
		dir := writeSite(t, files{file(errID, "en"): with(t, errOrig, "title: Test incident", title)})
		out := mustFail(t, dir)
		if findErr(out, file(errID, "en")+":2:", "title") == "" {
			t.Errorf("%s: no error at line 2 about the title; got:\n%s", title, out)
		}
	}
}

// TestSourceURLChecked: a source URL the page cannot link to is an error
// at build time, not a silently dead link.
func TestSourceURLChecked(t *testing.T) {
	src := with(t, errOrig, "severity: major", "severity: major\nsources:\n  - title: Report\n    url: \"javascript:alert(1)\"")
	dir := writeSite(t, files{file(errID, "en"): src})
	out := mustFail(t, dir)
	if findErr(out, file(errID, "en")+":"+strconv.Itoa(lineOf(t, src, "url:"))+":", "url") == "" {
		t.Errorf("no error pointing at the source url; got:\n%s", out)
	}
}

// TestTextFieldsEscaped: front-matter text reaches the page as text.
func TestTextFieldsEscaped(t *testing.T) {
	src := errOrig
	src = with(t, src, "title: Test incident", `title: "<script>alert(1)</script> & <b>bold</b>"`)
	src = with(t, src, "summary: Queries failed for an hour.", `summary: "<img src=x onerror=alert(2)>"`)
	src = with(t, src, "severity: major", "severity: major\nsources:\n  - title: \"<script>alert(3)</script>\"\n    url: \"https://example.com/?q=<script>alert(4)</script>\"")
	src = with(t, src, "products: [BigQuery]", `products: ["<svg onload=alert(5)>"]`)
	dir := writeSite(t, files{file(errID, "en"): src})
	if _, err := buildSite(dir); err != nil {
		t.Fatalf("build failed: %v", err)
	}
	doc := parseHTML(t, filepath.Join(dir, "public", "en", "incidents", errID, "index.html"))
	for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
		switch n.Data {
		case "script":
			if strings.Contains(textOf(n), "alert") {
				t.Errorf("front-matter text became a <script> element")
			}
		case "img", "b":
			t.Errorf("front-matter text became a <%s> element", n.Data)
		case "svg":
			// The page's own chart is the only SVG.
			if !strings.Contains(attr(n, "id"), "chart") {
				t.Errorf("front-matter text became a <svg> element")
			}
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") || scriptURL(a.Val) && (a.Key == "href" || a.Key == "src") {
				t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
			}
		}
	}
	h1 := findAll(doc, func(n *html.Node) bool { return n.Data == "h1" })
	if len(h1) == 0 || !strings.Contains(textOf(h1[0]), "<script>alert(1)</script> & <b>bold</b>") {
		t.Errorf("the title is not shown as written in <h1>")
	}
}

// TestFullDiskReportedOnce: an output that runs out of space mid-build is
// one message naming the output path and the cause, with how many files
// were not written, not one per page; the previous output stays. It needs
// a small tmpfs, which only root can mount; internal/output tests the same
// report with a writer that fails.
func TestFullDiskReportedOnce(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	disk := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		// Lazily: a file the failed index left open must not keep the
		// mount, or the temporary folder, from going away.
		if out, err := exec.Command("umount", "-l", disk).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", disk, err, out)
		}
	})
	dir := writeSite(t, files{file(errID, "en"): errOrig, file(errID, "ja"): errJA})
	dest := filepath.Join(disk, "public")
	_, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"})
	if err == nil {
		t.Fatal("a build into a 64 KiB disk succeeded")
	}
	out := err.Error()
	// The first file that did not fit may be a page or in the search bundle
	// beside the output.
	full := regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.ToSlash(dest)) + `(\.gen)?/\S+: no space left on device; (\d+) files not written$`)
	lines := strings.Split(out, "\n")
	var found int
	for _, line := range lines {
		if m := full.FindStringSubmatch(line); m != nil {
			found++
			if n, _ := strconv.Atoi(m[2]); n < 2 {
				t.Errorf("%d files not written; a full disk keeps out every file after it fills", n)
			}
		} else if strings.Contains(line, "no space") {
			t.Errorf("the full disk is reported again: %q", line)
		}
	}
	if found != 1 {
		t.Errorf("want the full disk reported once as <output path>: no space left on device; N files not written; got:\n%s", out)
	}
	if entries, _ := os.ReadDir(disk); len(entries) != 0 {
		t.Errorf("a failed build left %d entries on the disk (want the staging folder removed)", len(entries))
	}
}
