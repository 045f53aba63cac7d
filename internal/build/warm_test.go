package build_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/server/published"
	"github.com/postmortem-archive/gen/search"
)

// generatedSite writes a generated archive of n incidents in English and
// Traditional Chinese (generated(n)), with both languages' i18n files.
func generatedSite(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := corpus.Generate(dir, generated(n)); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"en", "zh-TW"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "i18n", l+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "i18n", l+".yaml"), string(data))
	}
	return dir
}

// generated are the options of generatedSite's archive of n incidents.
func generated(n int) corpus.Options {
	return corpus.Options{N: n, Langs: []string{"en", "zh-TW"}, Seed: 5}
}

func buildOpts(src, dest string) build.Options {
	return build.Options{Source: src, Dest: dest, BaseURL: "http://127.0.0.1:1313/", Generator: "gen test"}
}

// incidentFile is the English file of the i-th incident folder, in name order.
func incidentFile(t *testing.T, dir string, i int) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "content", entries[i].Name(), "en.md")
}

// originalFile is the file of incident id, in the archive generated
// with o into dir, that states its facts (begin, terms): the original's.
func originalFile(t *testing.T, dir string, o corpus.Options, id string) string {
	t.Helper()
	originals, err := corpus.Originals(o)
	if err != nil {
		t.Fatal(err)
	}
	if originals[id] == "" {
		t.Fatalf("%s is not an incident of the generated archive", id)
	}
	return filepath.Join(dir, "content", id, originals[id]+".md")
}

// folderName is the name of the i-th incident folder of dir, in name order.
func folderName(t *testing.T, dir string, i int) string {
	return filepath.Base(filepath.Dir(incidentFile(t, dir, i)))
}

// frontMatter replaces the value of a front matter key in file.
func frontMatter(t *testing.T, file, key, value string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, key+":") {
			lines[i] = key + ": " + value
			writeFile(t, file, strings.Join(lines, "\n"))
			return
		}
	}
	t.Fatalf("%s has no %s", file, key)
}

// TestWarmBuildEqualsColdBuild: after each change to the sources, a
// build over the previous output carries most files over (the same
// inodes) and writes, byte for byte, what a cold build of the same
// sources into another folder writes, with a search index that answers
// every query alike.
func TestWarmBuildEqualsColdBuild(t *testing.T) {
	src := generatedSite(t, 60)
	warm := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(buildOpts(src, warm)); err != nil {
		t.Fatal(err)
	}
	var limits render.SitemapLimits // the protocol's, until a step sets them
	opts := func(dest string) build.Options {
		o := buildOpts(src, dest)
		o.Sitemap = limits
		return o
	}
	first := incidentFile(t, src, 3)
	copied := filepath.Dir(incidentFile(t, src, 45))
	added := copied + "-again"
	steps := []struct {
		name    string
		change  func()
		carries bool // most files carried over
		split   bool // the sitemap is an index of parts
		parsed  int  // content files parsed: the others' pages are the last build's
	}{
		{"a line of the body", func() {
			data, _ := os.ReadFile(first)
			writeFile(t, first, string(data)+"\nOne more line about the rollback.\n")
		}, true, false, 1},
		{"the title", func() { frontMatter(t, first, "title", `"Edited: the rollback that failed"`) }, true, false, 1},
		{"a term", func() {
			frontMatter(t, originalFile(t, src, generated(60), folderName(t, src, 10)), "causes", "[config-push, brand-new-cause]")
		}, true, false, 1},
		{"the date, which moves it in every list", func() {
			f := originalFile(t, src, generated(60), folderName(t, src, 20))
			frontMatter(t, f, "begin", filepath.Base(filepath.Dir(f))[:len("2006-01-02")]+" 00:01")
		}, true, false, 1},
		{"a translation removed", func() {
			if err := os.Remove(filepath.Join(filepath.Dir(incidentFile(t, src, 30)), "zh-TW.md")); err != nil {
				t.Fatal(err)
			}
		}, true, false, 0},
		{"an incident removed", func() {
			if err := os.RemoveAll(filepath.Dir(incidentFile(t, src, 40))); err != nil {
				t.Fatal(err)
			}
		}, true, false, 0},
		{"an incident added, past the sitemap's limit of a file", func() {
			_, entries := readSitemap(t, warm, opts(warm).BaseURL)
			limits.URLs = len(entries) + 1
			if err := os.CopyFS(added, os.DirFS(copied)); err != nil {
				t.Fatal(err)
			}
		}, true, true, mdFiles(t, copied)},
		{"nothing", func() {}, true, true, 0},
		{"the added incident removed: one sitemap file again", func() {
			if err := os.RemoveAll(added); err != nil {
				t.Fatal(err)
			}
		}, true, false, 0},
		{"a language's strings: cold", func() {
			edit(t, filepath.Join(src, "i18n", "en.yaml"), "site_title: Incident archive", "site_title: Outage archive")
		}, false, false, 0}, // the same gen parses the same files alike
	}
	for _, st := range steps {
		before := inodes(t, warm)
		beforeIndex := inodes(t, indexOf(t, warm))
		served := readTree(t, warm)
		spareBefore, spareErr := os.Stat(output.SparePath(warm))
		st.change()
		res, err := build.Run(opts(warm))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		cold := filepath.Join(t.TempDir(), "public")
		want, err := build.Run(opts(cold))
		if err != nil {
			t.Fatalf("%s: cold build: %v", st.name, err)
		}
		sameBuild(t, st.name, warm, cold)
		// The output the build replaced, which the next warm build
		// starts from, was not written into: it holds what it held
		// while it was served.
		// A warm build after a warm build starts from the spare: its
		// folders are reused, not made again.
		if now, err := os.Stat(warm); st.carries && spareErr == nil && (err != nil || !os.SameFile(now, spareBefore)) {
			t.Errorf("%s: the build did not start from the spare output", st.name)
		}
		if spare := output.SparePath(warm); st.carries {
			compareTrees(t, st.name+": the previous output", readTree(t, spare), served)
		} else if _, err := os.Stat(spare); err == nil {
			t.Errorf("%s: a cold build kept a spare output", st.name)
		}
		sameSearch(t, st.name, warm, cold)
		if parts, _ := readSitemap(t, warm, opts(warm).BaseURL); (parts != nil) != st.split {
			t.Errorf("%s: the sitemap has %d parts, want them: %t", st.name, len(parts), st.split)
		}
		if res.Pages != want.Pages {
			t.Errorf("%s: %d pages, a cold build %d", st.name, res.Pages, want.Pages)
		}
		if res.Parsed != st.parsed || want.Parsed != mdFiles(t, filepath.Join(src, "content")) {
			t.Errorf("%s: the build parsed %d content files, want %d; a first build %d of %d", st.name, res.Parsed, st.parsed,
				want.Parsed, mdFiles(t, filepath.Join(src, "content")))
		}
		shared := sharedInodes(t, before, warm)
		if st.carries && (res.Carried < len(before)*8/10 || shared < len(before)*8/10) {
			t.Errorf("%s: carried %d files, %d share their inode with the previous build's, of %d", st.name, res.Carried, shared, len(before))
		}
		if linked := sharedInodes(t, beforeIndex, indexOf(t, warm)); st.carries && (linked == 0 || len(res.Warnings) > 0) {
			t.Errorf("%s: the search index was not updated in place (%d files linked), warnings %v", st.name, linked, res.Warnings)
		}
		if !st.carries && (res.Carried != 0 || shared != 0) {
			t.Errorf("%s: a cold build carried %d files (%d inodes shared)", st.name, res.Carried, shared)
		}
		if t.Failed() {
			t.Fatalf("after step %q", st.name)
		}
	}
}

// TestWarmBuildWithoutGoodManifestIsCold: a missing or damaged manifest
// makes a cold build that says so, and --cold one that does not carry.
func TestWarmBuildWithoutGoodManifestIsCold(t *testing.T) {
	src := generatedSite(t, 12)
	dest := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(buildOpts(src, dest)); err != nil {
		t.Fatal(err)
	}
	for _, damage := range []struct {
		name, data string
	}{{"cut short", `{"format":1,"inputs":"ab`}, {"another format", `{"format":99}`}, {"missing", ""}} {
		b, err := output.BundleOf(dest)
		if err != nil {
			t.Fatal(err)
		}
		m := filepath.Join(b, bundle.ManifestFile)
		if damage.data == "" {
			err = os.Remove(m)
		} else {
			err = os.WriteFile(m, []byte(damage.data), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(incidentFile(t, src, 2))
		writeFile(t, incidentFile(t, src, 2), string(data)+"\nAnother line: "+damage.name+".\n")
		res, err := build.Run(buildOpts(src, dest))
		if err != nil {
			t.Fatal(err)
		}
		if res.Carried != 0 || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Error(), "cold build") {
			t.Errorf("%s manifest: carried %d files, warnings %v; want a cold build that says why", damage.name, res.Carried, res.Warnings)
		}
		cold := filepath.Join(t.TempDir(), "public")
		if _, err := build.Run(buildOpts(src, cold)); err != nil {
			t.Fatal(err)
		}
		sameBuild(t, damage.name, dest, cold)
	}
	opts := buildOpts(src, dest)
	opts.Cold = true
	res, err := build.Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Carried != 0 || len(res.Warnings) != 0 {
		t.Errorf("--cold: carried %d files, warnings %v", res.Carried, res.Warnings)
	}
}

// TestDamagedSavedPagesAreParsedAgain: when the pages the last build
// saved cannot be read, every file is parsed, the build says why, and its
// output is a cold build's; --cold parses every file.
func TestDamagedSavedPagesAreParsedAgain(t *testing.T) {
	src := generatedSite(t, 12)
	dest := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(buildOpts(src, dest)); err != nil {
		t.Fatal(err)
	}
	files := mdFiles(t, filepath.Join(src, "content"))
	b, err := output.BundleOf(dest)
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(b, bundle.PagesFile)
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatalf("the build saved no pages: %v", err)
	}
	if err := os.WriteFile(saved, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := build.Run(buildOpts(src, dest))
	if err != nil {
		t.Fatal(err)
	}
	if res.Parsed != files || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Error(), "every file parsed") {
		t.Errorf("pages cut short: %d of %d files parsed, warnings %v; want every file, and why", res.Parsed, files, res.Warnings)
	}
	cold := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(buildOpts(src, cold)); err != nil {
		t.Fatal(err)
	}
	sameBuild(t, "pages cut short", dest, cold)
	opts := buildOpts(src, dest)
	opts.Cold = true
	if res, err = build.Run(opts); err != nil {
		t.Fatal(err)
	}
	if res.Parsed != files {
		t.Errorf("--cold parsed %d of %d files", res.Parsed, files)
	}
}

// indexOf is the search index of the output at dest.
func indexOf(t *testing.T, dest string) string {
	t.Helper()
	dir, err := output.BundleOf(dest)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, bundle.IndexDir)
}

// compareTrees fails unless two sets of files are the same, byte for byte.
func compareTrees(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	var diff []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diff = append(diff, "missing "+p)
		} else if !bytes.Equal(g, w) {
			diff = append(diff, "differs "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, "stale "+p)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("%s differs from what it should be in %d files: %s", what, len(diff), strings.Join(diff[:min(len(diff), 10)], "; "))
	}
}

// inodes stats every file of an output.
func inodes(t *testing.T, dir string) map[string]os.FileInfo {
	t.Helper()
	out := map[string]os.FileInfo{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = info
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sharedInodes counts the files of dir that are the same file as before.
func sharedInodes(t *testing.T, before map[string]os.FileInfo, dir string) int {
	t.Helper()
	n := 0
	for rel, info := range inodes(t, dir) {
		if b, ok := before[rel]; ok && os.SameFile(b, info) {
			n++
		}
	}
	return n
}

// mdFiles counts the Markdown files under dir.
func mdFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sameBuild fails unless two outputs and their bundles hold the same
// files, byte for byte, but the search indexes (compared by sameSearch).
func sameBuild(t *testing.T, step, got, want string) {
	t.Helper()
	compareTrees(t, step+": the warm build's output", readTree(t, got), readTree(t, want))
	bundles := func(dest string) map[string][]byte {
		dir, err := output.BundleOf(dest)
		if err != nil {
			t.Fatal(err)
		}
		files := readTree(t, dir)
		for p := range files {
			if strings.HasPrefix(p, bundle.IndexDir+"/") {
				delete(files, p)
			}
		}
		return files
	}
	compareTrees(t, step+": the warm build's bundle", bundles(got), bundles(want))
}

// sameSearch fails unless two outputs' search indexes give the same
// results (sameAnswers).
func sameSearch(t *testing.T, step, got, want string) {
	t.Helper()
	open := func(dest string) search.Searcher {
		out, err := published.OpenSite(dest)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { out.Close() })
		return out.Index.Value()
	}
	sameAnswers(t, step, open(got), open(want))
}

// sameAnswers fails unless two search indexes give the same results, in
// the same order, with the same facets, for a set of queries: words of
// titles, bodies and the edits, filters and browsing (which counts
// every incident, and the documents of each language in its facet).
func sameAnswers(t *testing.T, step string, g, w search.Searcher) {
	t.Helper()
	reqs := []search.Request{
		{Query: "rollback"}, {Query: "rollback", Lang: "zh-TW"}, {Query: "edited failed"}, {Query: `"schema migration"`},
		{Query: "metadata service -kinesis"}, {Query: "brand-new-cause"}, {Query: "cause:brand-new-cause"}, {Query: "outage", Page: 2},
		{Query: "服務"}, {Query: "服"}, {Query: "錯", Lang: "zh-TW"}, {Query: "rolback"}, {}, {Year: 2015}, {Query: "latency", Severity: "major"},
		{Query: "zeppelin"}, {Query: "cause:zeppelin-crash"}, {Query: "bigquery stream"}, {Sort: "date", Page: 2},
	}
	for _, r := range reqs {
		gr, err := g.Search(context.Background(), r)
		if err != nil {
			t.Fatalf("%s: %+v: %v", step, r, err)
		}
		wr, err := w.Search(context.Background(), r)
		if err != nil {
			t.Fatalf("%s: %+v: %v", step, r, err)
		}
		gr.TookMS, wr.TookMS = 0, 0
		// bleve sums the scores of many clauses (a single Chinese
		// character's bigrams) in an order that follows document
		// numbers, which differ: the last bit may.
		for _, resp := range []*search.Response{gr, wr} {
			for i := range resp.Results {
				resp.Results[i].Score = float64(float32(resp.Results[i].Score))
			}
		}
		if !reflect.DeepEqual(gr, wr) {
			t.Errorf("%s: %+v: the index answers\n%s\na cold build's\n%s", step, r, resultIDs(gr), resultIDs(wr))
		}
	}
}

func resultIDs(r *search.Response) string {
	var ids []string
	for _, res := range r.Results {
		ids = append(ids, res.ID)
	}
	return fmt.Sprintf("%s (total %d)", strings.Join(ids, " "), r.Total)
}

// BenchmarkWarmBuild is gen build after a one-line edit to one incident,
// over the output of the build before: the pages the edit alters
// rendered, the others carried over, the search index updated.
func BenchmarkWarmBuild(b *testing.B) {
	dir := benchSite(b, *benchIncidents)
	dest := filepath.Join(b.TempDir(), "public")
	opts := build.Options{Source: dir, Dest: dest, BaseURL: "http://127.0.0.1:1313/"}
	if _, err := build.Run(opts); err != nil {
		b.Fatal(err)
	}
	file, orig := benchEditedFile(b, dir)
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
		res, err := build.Run(opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Carried == 0 {
			b.Fatalf("carried nothing over: %v", res.Warnings)
		}
		b.ReportMetric(float64(res.Carried), "carried")
		for i, name := range res.Phases.Names {
			b.ReportMetric(float64(res.Phases.Took[i].Microseconds())/1000, name+"-ms")
		}
	}
}
