package build_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
)

var (
	benchIncidents   = flag.Int("build.incidents", 200, "incidents in the generated archive of the build benchmarks")
	benchEditProfile = flag.String("build.editprofile", "", "write a CPU profile of BenchmarkEditToRebuilt's edits, without the first build, to this file")
)

// benchSite generates an archive of n incidents in English and Traditional
// Chinese, once per size.
func benchSite(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gen-bench-%d", n))
	if _, err := os.Stat(filepath.Join(dir, "content")); err != nil {
		if err := corpus.Generate(dir, corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		// Two site languages, like the archives the targets speak of.
		if err := os.MkdirAll(filepath.Join(dir, "i18n"), 0o755); err != nil {
			b.Fatal(err)
		}
		for _, l := range []string{"en", "zh-TW"} {
			data, err := os.ReadFile(filepath.Join(repoRoot, "i18n", l+".yaml"))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "i18n", l+".yaml"), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

// BenchmarkBuild is a full gen build: HTML, feeds, sitemap and the search
// index, written to disk. Each build is cold, into a folder of its own:
// into the previous one's, every build after the first carried that
// output over (warm.go). The previous output is removed outside the timer
// (but inside a CPU profile: os.RemoveAll).
func BenchmarkBuild(b *testing.B) {
	dir := benchSite(b, *benchIncidents)
	root := b.TempDir()
	b.ResetTimer()
	// The process's CPU time during the builds, as gen build's own user +
	// system time: on a shared machine wall time says more of the others.
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		dest := filepath.Join(root, strconv.Itoa(i), "public")
		start := cpuTime(b)
		res, err := build.Run(build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"})
		if err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime(b) - start
		b.ReportMetric(float64(res.Pages), "pages")
		b.ReportMetric(float64(res.Bytes)/1e6, "MB")
		b.StopTimer()
		if err := os.RemoveAll(filepath.Dir(dest)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkEditToRebuilt is the authoring server's work after a one-line
// edit to one incident: from the changed file to the new site in memory,
// search index included.
func BenchmarkEditToRebuilt(b *testing.B) {
	dir := benchSite(b, *benchIncidents)
	s := build.NewSession(build.Options{Source: dir, BaseURL: "http://127.0.0.1:1313/"})
	defer s.Close()
	if _, err := s.Update(nil); err != nil {
		b.Fatal(err)
	}
	file, orig := benchEditedFile(b, dir)
	// CPU time, the process's (collector and index merges included): on a
	// shared machine wall time says more of the others than of gen.
	if *benchEditProfile != "" {
		f, err := os.Create(*benchEditProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	b.ResetTimer()
	start := cpuTime(b)
	defer func() {
		if start > 0 {
			b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}()
	for i := 0; i < b.N; i++ {
		edited := append(append([]byte{}, orig...), fmt.Sprintf("\nOne more line, edit %d.\n", i)...)
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			b.Fatal(err)
		}
		res, err := s.Update([]string{file})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Pages), "pages")
		for i, name := range res.Phases.Names {
			b.ReportMetric(float64(res.Phases.Took[i].Microseconds())/1000, name+"-ms")
		}
	}
}

// benchEditedFile is the English file of the incident in the middle of
// the site at dir, which a benchmark edits: its text as generated, put
// back when the benchmark ends.
func benchEditedFile(b *testing.B, dir string) (file string, orig []byte) {
	b.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		b.Fatal(err)
	}
	file = filepath.Join(dir, "content", entries[len(entries)/2].Name(), "en.md")
	orig, err = os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(file, orig, 0o644) })
	return file, orig
}
