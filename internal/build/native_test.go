package build_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/corpus"
	"github.com/postmortem-archive/gen/internal/sitetest"
	"github.com/postmortem-archive/gen/layouts"
)

// The layouts written from Go (see render's native.go), each copied into
// a site's own layouts/ with a comment in front: the same pages, but
// files that are not the defaults, so html/template renders them.
var nativeLayouts = []string{
	"base.html", "incident.html", "partials/lang-switch.html", "partials/incident-links.html",
	"partials/incident-item.html", "partials/timeline-line.html",
}

// hostile is an incident whose words need escaping everywhere they go.
const hostile = `---
title: "<b>Q&A</b> \"quoted\" 'single' 1+1 <script>alert(1)</script>"
summary: "Summary with <i>tags</i> & a + sign"
timezone: Asia/Taipei
begin: 2021-02-03 04:05
products: ["Blob 存储 <x>", "a+b&c"]
regions: ["eu \"west\""]
causes: ["it's <bad>"]
sources:
  - title: "Report <1> & \"2\""
    url: "https://example.com/a b?x=1&y='2'+<3>#frag"
  - title: "Odd"
    url: "HTTPS://example.com/é/%41/it's+x(1)"
  - title: "No link"
---

## Impact {#impact}

Body with <b>raw</b> & text.

## Timeline {#timeline}

- 2021-02-03 04:05 — Starts <here> & "there" + 'also'.
- 05:00 — Still <going>.
`

// TestNativeLayoutsEqualTemplates: the pages written from Go are, byte
// for byte, those html/template makes of the same layouts, on the bundled
// archive, the published-report shapes, a generated archive and an
// incident full of characters to escape.
func TestNativeLayoutsEqualTemplates(t *testing.T) {
	gen := t.TempDir()
	if err := corpus.Generate(gen, corpus.Options{N: 40, Langs: []string{"en", "zh-TW"}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	sites := map[string]string{"bundled": repoRoot, "reports": "testdata/reports", "generated": gen, "hostile": repoRoot}
	for name, root := range sites {
		t.Run(name, func(t *testing.T) {
			site := t.TempDir()
			if root == repoRoot {
				site = sitetest.Copy(t, root)
			} else if err := os.CopyFS(site, os.DirFS(root)); err != nil {
				t.Fatal(err)
			}
			if name == "hostile" {
				writeFile(t, filepath.Join(site, "content", "2021-02-03-hostile", "en.md"), hostile)
			}
			native := buildTree(t, site)
			for _, f := range nativeLayouts {
				data, err := layouts.Files.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(site, "layouts", f), "{{/* the default, copied */}}"+string(data))
			}
			templated := buildTree(t, site)
			if len(native) != len(templated) {
				t.Errorf("%d files from Go, %d from templates", len(native), len(templated))
			}
			for path, want := range templated {
				if got := native[path]; !bytes.Equal(got, want) {
					t.Errorf("%s differs from the template's output:\n%s", path, firstDifference(got, want))
				}
			}
		})
	}
}

func buildTree(t *testing.T, site string) map[string][]byte {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(build.Options{Source: site, Dest: dest, BaseURL: "https://example.org/arc/"}); err != nil {
		t.Fatal(err)
	}
	return readTree(t, dest)
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDifference shows where two outputs part.
func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	return "Go:       …" + string(got[from:min(len(got), i+120)]) + "\ntemplate: …" + string(want[from:min(len(want), i+120)])
}
