package build_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/content"
)

// A file far over the size limit is refused by its size, before it is read.
func TestHugeFileRefused(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig})
	huge := filepath.Join(dir, "content", errID, "ja.md")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// 50 MB without writing 50 MB: a sparse file of that size.
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := mustFail(t, dir)
	if !strings.Contains(out, "content/"+errID+"/ja.md:1:1: file is 50.0 MiB; the limit for one incident is") || content.MaxFileSize >= 50<<20 {
		t.Errorf("huge file: %s", out)
	}
}

// Symbolic links are not followed: not a loop, not a way out of content/.
func TestSymlinksNotFollowed(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("---\ntitle: secret\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, "content", "2021-06-02-loop"):       filepath.Join(dir, "content", "2021-06-02-loop"),
		filepath.Join(dir, "content", "2021-06-03-outside"):    outside,
		filepath.Join(dir, "content", errID, "zh-TW.md"):       filepath.Join(outside, "secret.md"),
		filepath.Join(dir, "content", "2021-06-04-parent-dir"): filepath.Join(dir, ".."),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	out := mustFail(t, dir)
	for _, want := range []string{
		"content/2021-06-02-loop: is a symbolic link",
		"content/2021-06-03-outside: is a symbolic link",
		"content/2021-06-04-parent-dir: is a symbolic link",
		"content/" + errID + "/zh-TW.md: is a symbolic link, not a regular file",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") {
		t.Errorf("a file outside content/ was read:\n%s", out)
	}
}

// Symbolic links under layouts/ and i18n/ are refused as content's are,
// each at its place and together with the content's errors: a linked
// static file or 404 page would publish the file it points to.
func TestLayoutSymlinksRefused(t *testing.T) {
	en, err := os.ReadFile(filepath.Join("..", "..", "i18n", "en.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := writeSite(t, files{file(errID, "en"): errOrig, "i18n/en.yaml": string(en)})
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("root:x:0:0:secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"layouts/static/passwd.txt", "layouts/404.html", "layouts/partials", "i18n/fr.yaml", file(errID, "ja")} {
		full := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, full); err != nil {
			t.Fatal(err)
		}
	}
	// An editor's lock file is a hidden symbolic link: not the site's.
	if err := os.Symlink("user@host.1234", filepath.Join(dir, "layouts", ".#404.html")); err != nil {
		t.Fatal(err)
	}
	out := mustFail(t, dir)
	for _, want := range []string{
		"layouts/static/passwd.txt: is a symbolic link, not a regular file",
		"layouts/404.html: is a symbolic link",
		"layouts/partials: is a symbolic link",
		"i18n/fr.yaml: is a symbolic link",
		"content/" + errID + "/ja.md: is a symbolic link",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") || strings.Contains(out, ".#404.html") {
		t.Errorf("a linked file was read, or a hidden one reported:\n%s", out)
	}

	// A linked layouts/ or i18n/ folder is refused whole and not read:
	// its broken language file would be reported too.
	dir = writeSite(t, files{file(errID, "en"): errOrig})
	theirs := t.TempDir()
	if err := os.WriteFile(filepath.Join(theirs, "fr.yaml"), []byte("{{ broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"layouts", "i18n"} {
		if err := os.Symlink(theirs, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	out = mustFail(t, dir)
	if !strings.Contains(out, "layouts: is a symbolic link") || !strings.Contains(out, "i18n: is a symbolic link") || strings.Contains(out, "fr.yaml") {
		t.Errorf("linked folders:\n%s", out)
	}
}

// A broken layout a site overrides is reported with its file and line,
// and the previous output stays.
func TestOverridingLayoutErrors(t *testing.T) {
	dir := writeSite(t, files{
		file(errID, "en"):       errOrig,
		"layouts/incident.html": "{{define \"incident.html\"}}{{template \"base.html\" .}}{{end}}\n{{define \"main\"}}\n<h1>{{.Incident.Title}</h1>\n{{end}}\n",
	})
	if out := mustFail(t, dir); !strings.Contains(out, "layouts/incident.html:3:") {
		t.Errorf("parse error without file:line: %s", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "layouts", "incident.html"), []byte("{{define \"incident.html\"}}{{template \"base.html\" .}}{{end}}\n{{define \"main\"}}\n<h1>{{.Incident.NoSuchField}}</h1>\n{{end}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustFail(t, dir); !strings.Contains(out, "incident.html:3:") || !strings.Contains(out, "NoSuchField") {
		t.Errorf("execution error without file:line: %s", out)
	}
}

// A table whose bare rows would cost gigabytes, and a heading whose
// attributes would cost seconds, are refused at their place, both in one
// build; the previous output stays as it was.
func TestCostlyMarkdownRefused(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig, file(errID, "ja"): errJA})
	if _, err := buildSite(dir); err != nil {
		t.Fatal(err)
	}
	public := filepath.Join(dir, "public")
	before := readTree(t, public)
	// 14 KB: 3,000 columns and 1,000 bare rows took 1.9 GB to check.
	wide := "|" + strings.Repeat("a|", 3000) + "\n|" + strings.Repeat("-|", 3000) + "\n" + strings.Repeat("x\n", 1000)
	en := with(t, errOrig, "Queries failed.\n", "Queries failed.\n\n"+wide)
	ja := with(t, errJA, "## 影響 {#impact}", "## 影響 {#impact"+strings.Repeat(" .c", 80000)+"}")
	for name, src := range map[string]string{file(errID, "en"): en, file(errID, "ja"): ja} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := buildSite(dir)
	if err == nil {
		t.Fatal("build succeeded; want the table and the attributes refused")
	}
	out := err.Error()
	if findErr(out, file(errID, "en")+":"+posOf(t, en, "|a|a|")+": ", "more than 50000 cells", "3000 columns", "blank line") == "" {
		t.Errorf("no error at the table's header in:\n%s", out)
	}
	if findErr(out, file(errID, "ja")+":"+posOf(t, ja, "{#impact .c")+": ", "the heading's attributes", "at most 64") == "" {
		t.Errorf("no error at the heading's { in:\n%s", out)
	}
	compareTrees(t, "public/ after the failed build", readTree(t, public), before)
}
