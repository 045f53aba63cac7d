package build_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
)

// The bundled incident given a Hong Kong text, a language with no i18n
// file that zh-TW stands in for.
const standInID = "2024-08-12-europe-west2-connectivity"

// writeHongKongText gives the bundled archive in dir a zh-HK.md (its
// Traditional translation) and returns its path.
func writeHongKongText(t *testing.T, dir string) string {
	t.Helper()
	folder := filepath.Join(dir, "content", standInID)
	data, err := os.ReadFile(filepath.Join(folder, "zh-TW.md"))
	if err != nil {
		t.Fatal(err)
	}
	hk := filepath.Join(folder, "zh-HK.md")
	writeFile(t, hk, strings.Replace(string(data), "網路節點", "網絡節點", 1))
	return hk
}

// TestStandInLanguageComesAndGoes: the first text in a language without
// an i18n file adds a language to every page, and the last one's removal
// takes it away: a warm build is then cold, and the authoring server
// loads the site whole, so both equal a cold build.
func TestStandInLanguageComesAndGoes(t *testing.T) {
	dir := copySite(t)
	dest := filepath.Join(t.TempDir(), "public")
	s := newSession(t, dir)
	if _, err := build.Run(buildOpts(dir, dest)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	hk := writeHongKongText(t, dir)
	for _, step := range []string{"zh-HK.md added", "zh-HK.md removed"} {
		res, err := build.Run(buildOpts(dir, dest))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if res.Carried != 0 {
			t.Errorf("%s: the warm build carried %d files over; want a cold one, every page's languages changed", step, res.Carried)
		}
		cold := filepath.Join(t.TempDir(), "public")
		if _, err := build.Run(buildOpts(dir, cold)); err != nil {
			t.Fatal(err)
		}
		sameBuild(t, step, dest, cold)
		if _, err := s.Update([]string{hk}); err != nil {
			t.Fatalf("%s: the authoring server: %v", step, err)
		}
		sameOutput(t, s, dir)
		_, err = os.Stat(filepath.Join(dest, "zh-HK", "incidents", standInID, "index.html"))
		if added := step == "zh-HK.md added"; added != (err == nil) {
			t.Errorf("%s: the zh-HK page: %v", step, err)
		}
		if err := os.Remove(hk); err != nil && step == "zh-HK.md added" {
			t.Fatal(err)
		}
	}
}
