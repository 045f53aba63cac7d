package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/check"
)

const original = `---
title: Queries failed
summary: Queries failed for an hour.
timezone: UTC
begin: 2021-06-01 10:00
end: 2021-06-01 11:00
products: [BigQuery]
severity: major
---

## Impact {#impact}
Queries failed.

## Timeline {#timeline}
- 2021-06-01 10:15 — Alerts fire.
- 10:45 — Fixed.
`

const translation = `---
title: 查詢失敗
summary: 查詢失敗了一小時。
---

## 影響 {#impact}
查詢失敗。

## 時間軸 {#timeline}
- 2021-06-01 10:15 — 警報觸發。
- 10:45 — 修復。
`

func write(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

const id = "2021-06-01-queries-failed"

func TestMatrixWarningsAndOutdatedTranslations(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	write(t, dir, "content/"+id+"/en.md", original)
	write(t, dir, "content/"+id+"/zh-TW.md", translation)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first", "--date", "2021-06-02T00:00:00Z")

	rep := check.Run(dir)
	if len(rep.Errors) != 0 {
		t.Fatalf("errors: %v", rep.Errors)
	}
	row := rep.Matrix[0]
	if row.Langs["en"] != check.Original || row.Langs["zh-TW"] != check.Translated || row.Langs["ja"] != check.Missing {
		t.Errorf("matrix row %v", row.Langs)
	}
	var warned []string
	for _, w := range rep.Warnings {
		warned = append(warned, w.Error())
	}
	for _, want := range []string{"no Root cause section", "no Remediation section", "timeline starts after the incident began", "content/" + id + "/en.md:16:3: timeline ends before"} {
		if !strings.Contains(strings.Join(warned, "\n"), want) {
			t.Errorf("warnings %q lack %q", warned, want)
		}
	}

	// The original changes after the translation: out of date.
	write(t, dir, "content/"+id+"/en.md", strings.Replace(original, "Queries failed.", "Queries failed badly.", 1))
	git(t, dir, "commit", "-q", "-am", "second", "--date", "2021-07-01T00:00:00Z")
	if got := check.Run(dir).Matrix[0].Langs["zh-TW"]; got != check.Outdated {
		t.Errorf("after the original changed: %s, want outdated", got)
	}

	// Saying which revision it was translated from settles it.
	head := git(t, dir, "rev-parse", "HEAD")
	write(t, dir, "content/"+id+"/zh-TW.md", strings.Replace(translation, "summary:", "translated_from: "+head[:10]+"\nsummary:", 1))
	if got := check.Run(dir).Matrix[0].Langs["zh-TW"]; got != check.Translated {
		t.Errorf("translated_from the current revision: %s, want translated", got)
	}
	write(t, dir, "content/"+id+"/zh-TW.md", strings.Replace(translation, "summary:", "translated_from: 0123456789\nsummary:", 1))
	if got := check.Run(dir).Matrix[0]; got.Langs["zh-TW"] != check.Outdated || len(got.Notes) == 0 {
		t.Errorf("translated_from an older revision: %v", got)
	}
}

func TestErrorsReportedWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "content/"+id+"/en.md", strings.Replace(original, "Queries failed.", "See [the other one](../2020-01-01-nothing/).", 1))
	rep := check.Run(dir)
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "content/"+id+"/en.md:12:") {
		t.Errorf("errors %v, want one broken link at en.md:12", rep.Errors)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("check wrote into the site: %v", entries)
	}
}

// Without readable git history, check says so instead of calling every
// translation current.
func TestWarnsWhenGitHistoryCannotBeRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "content/"+id+"/en.md", original)
	write(t, dir, "content/"+id+"/zh-TW.md", translation)
	historyWarning := func(rep *check.Report) string {
		for _, w := range rep.Warnings {
			if strings.Contains(w.Msg, "git history") {
				return w.Error()
			}
		}
		return ""
	}
	w := historyWarning(check.Run(dir))
	if w == "" || !strings.Contains(w, "translated_from") {
		t.Errorf("outside a repository: warning %q, want one about the git history and translated_from", w)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	if w := historyWarning(check.Run(dir)); w != "" {
		t.Errorf("inside a repository: unexpected warning %q", w)
	}
}
