package sitefs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/sitefs"
)

// Dir refuses a link made after the build's check, whether it points out
// of the folder or inside it, and does not list it; real files read as
// with os.DirFS.
func TestDirRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	for p, text := range map[string]string{outside: "secret", filepath.Join(dir, "static", "style.css"): "body{}"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"static/passwd.txt": outside,
		"static/alias.css":  "style.css",
		"linked":            "static",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	fsys := sitefs.Dir(dir)
	if data, err := fs.ReadFile(fsys, "static/style.css"); err != nil || string(data) != "body{}" {
		t.Errorf("static/style.css = %q, %v", data, err)
	}
	for _, name := range []string{"static/passwd.txt", "static/alias.css", "linked/style.css"} {
		data, err := fs.ReadFile(fsys, name)
		if err == nil || !strings.Contains(err.Error(), "is a symbolic link, not a regular file") {
			t.Errorf("%s = %q, %v; want refused as a symbolic link", name, data, err)
		}
	}
	names, err := fs.Glob(fsys, "static/*")
	if err != nil || strings.Join(names, " ") != "static/style.css" {
		t.Errorf("static/* = %q, %v; want only the real file", names, err)
	}
}
