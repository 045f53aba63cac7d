package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func incident(id, title, begin string) Incident {
	return Incident{ImportID: id, Title: title, Begin: utc(begin), End: utc(begin).Add(time.Hour),
		Updates: []Update{{At: utc(begin), Status: "Investigating", Text: "Looking into " + title + "."}}}
}

func plan(t *testing.T, site, lang string, incs ...Incident) []Change {
	t.Helper()
	var files []File
	for _, inc := range incs {
		files = append(files, render(t, inc, "UTC"))
	}
	changes, err := Plan(site, lang, files)
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

func summary(changes []Change) string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Action.String()+" "+c.Path)
	}
	return strings.Join(out, "\n")
}

// TestPlanIDs: two incidents with one title on one day, and an incident
// whose title is an id a person already uses, get ids that stay theirs on
// every later import.
func TestPlanIDs(t *testing.T) {
	site := t.TempDir()
	os.MkdirAll(filepath.Join(site, "content", "2024-05-01-login-delays"), 0o755)
	os.WriteFile(filepath.Join(site, "content", "2024-05-01-login-delays", "en.md"), []byte("---\ntitle: written by hand\n---\n"), 0o644)
	a := incident("AAA", "Login delays", "2024-05-01T10:00:00Z")
	b := incident("BBB", "Queue backlog", "2024-05-01T11:00:00Z")
	c := incident("CCC", "Queue backlog", "2024-05-01T12:00:00Z")
	want := "create content/2024-05-01-login-delays-aaa/en.md\n" +
		"create content/2024-05-01-queue-backlog/en.md\n" +
		"create content/2024-05-01-queue-backlog-ccc/en.md"
	changes := plan(t, site, "en", c, b, a)
	if got := summary(changes); got != want {
		t.Fatalf("first import:\n%s\nwant\n%s", got, want)
	}
	if err := Apply(site, changes); err != nil {
		t.Fatal(err)
	}
	// b drops out of a later export; c keeps its id all the same.
	if got := summary(plan(t, site, "en", c, a)); got != "unchanged content/2024-05-01-login-delays-aaa/en.md\nunchanged content/2024-05-01-queue-backlog-ccc/en.md" {
		t.Errorf("later import:\n%s", got)
	}
	// In another language the facts would be stated twice.
	if got := plan(t, site, "ja", a); got[0].Action != Conflict || !strings.Contains(got[0].Why, "already imported in en") {
		t.Errorf("import in another language: %+v", got[0])
	}
	// A begin moved to another day cannot move the id, which is in URLs.
	moved := incident("AAA", "Login delays", "2024-05-02T10:00:00Z")
	if got := plan(t, site, "en", moved); got[0].Action != Conflict || !strings.Contains(got[0].Why, "begin on 2024-05-02") {
		t.Errorf("begin moved a day: %+v", got[0])
	}
	// Of two exports holding the same incident, the later one wins.
	renamed := incident("AAA", "Login delays everywhere", "2024-05-01T10:00:00Z")
	if got := plan(t, site, "en", a, renamed); len(got) != 1 || got[0].Action != Overwrite || !strings.Contains(string(got[0].Text), "Login delays everywhere") {
		t.Errorf("same incident twice: %+v", got)
	}
}

// TestApplyStaysInSite: a folder that is a link out of the site is not
// written through.
func TestApplyStaysInSite(t *testing.T) {
	site, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(site, "content"), 0o755)
	changes := plan(t, site, "en", incident("AAA", "Login delays", "2024-05-01T10:00:00Z"))
	if err := os.Symlink(outside, filepath.Join(site, "content", "2024-05-01-login-delays")); err != nil {
		t.Skip(err)
	}
	changes[0].Action = Create // as if the link appeared after the plan
	if err := Apply(site, changes); err == nil {
		t.Error("wrote through a symbolic link out of the site")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote %v outside the site", entries)
	}
}
