package build_test

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
)

var vnuIncidents = flag.Int("vnu.incidents", 200, "incidents of the generated archive TestHTMLValidates checks")

// TestHTMLValidates runs the Nu Html Checker (vnu.jar, from npm's vnu-jar;
// VNU_JAR names it) over every page of the bundled archive and of a
// generated one (-vnu.incidents, 200 by default; 1,000 was checked when
// the theme last changed), each in the four built-in languages, the
// generated one with texts in en, zh-TW and zh-CN: not one error.
// Without VNU_JAR the test is skipped, except in CI, where it fails.
func TestHTMLValidates(t *testing.T) {
	jar := os.Getenv("VNU_JAR")
	if jar == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("VNU_JAR is not set: CI must check the HTML (.ci/run installs vnu-jar)")
		}
		t.Skip("VNU_JAR is not set: set it to vnu-jar's vnu.jar to check the HTML")
	}
	n := *vnuIncidents
	gen := t.TempDir()
	if err := corpus.Generate(gen, corpus.Options{N: n, Langs: []string{"en", "zh-TW", "zh-CN"}, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for name, root := range map[string]string{"bundled": repoRoot, "reports": "testdata/reports", "generated": gen} {
		dest := filepath.Join(t.TempDir(), "public")
		if _, err := build.Run(build.Options{Source: root, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cmd := exec.Command("java", "-jar", jar, "--errors-only", "--skip-non-html", "--format", "gnu", dest)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var errs []string
		sc := bufio.NewScanner(&out)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" {
				errs = append(errs, strings.TrimPrefix(line, dest+string(filepath.Separator)))
			}
		}
		if err != nil || len(errs) > 0 {
			t.Errorf("%s: the Nu Html Checker found %d errors (%v):\n%s", name, len(errs), err, strings.Join(errs[:min(len(errs), 40)], "\n"))
		}
	}
}
