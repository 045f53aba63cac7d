//go:build unix

package build_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe is named as one, not as a link, and is not opened: opening
// it would wait for a writer for ever.
func TestNamedPipesRefused(t *testing.T) {
	dir := writeSite(t, files{file(errID, "en"): errOrig})
	for _, p := range []string{file(errID, "ja"), "layouts/static/pipe.css"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(full, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	out := mustFail(t, dir)
	for _, want := range []string{
		"content/" + errID + "/ja.md: is a named pipe, not a regular file",
		"layouts/static/pipe.css: is a named pipe, not a regular file",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}
