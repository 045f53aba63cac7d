package build_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/server/published"
	"github.com/postmortem-archive/gen/internal/sitetest"
	"github.com/postmortem-archive/gen/search"
)

func copySite(t *testing.T) string { return sitetest.Copy(t, repoRoot) }

func sessionOpts(dir string) build.Options {
	return build.Options{Source: dir, BaseURL: "http://127.0.0.1:1313/", Generator: "gen test"}
}

// newSession starts a session for the site in dir, closed when the test
// ends (its search indexes are in a folder of its own).
func newSession(t testing.TB, dir string) *build.Session {
	return newSessionWith(t, sessionOpts(dir))
}

// newSessionWith is newSession with other options.
func newSessionWith(t testing.TB, opts build.Options) *build.Session {
	s := build.NewSession(opts)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// sameOutput fails unless the incremental output of s (its files, and
// its incident pages rendered now) equals a full build's, and the full
// build's equals what gen build writes, and unless its search index
// answers as gen build's.
func sameOutput(t *testing.T, s *build.Session, dir string) {
	t.Helper()
	sameOutputWith(t, s, sessionOpts(dir))
}

// sameOutputWith is sameOutput for a session started with opts.
func sameOutputWith(t *testing.T, s *build.Session, opts build.Options) {
	t.Helper()
	got := withPages(t, s)
	full := newSessionWith(t, opts)
	defer full.Close()
	if _, err := full.Update(nil); err != nil {
		t.Fatalf("full build: %v", err)
	}
	want := withPages(t, full)
	built := opts
	built.Dest = filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(built); err != nil {
		t.Fatal(err)
	}
	for p, data := range readTree(t, built.Dest) {
		if p != ".gen-output" && !bytes.Equal(want[p], data) {
			t.Errorf("the authoring server's %s differs from gen build's", p)
		}
	}
	compareTrees(t, "incremental output (against a full build)", got, want)
	site, err := published.OpenSite(built.Dest)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	index, _ := s.Search()
	sameAnswers(t, "the authoring server's search index (against gen build's)", index.Value(), site.Index.Value())
}

// withPages is the session's files, made.
func withPages(t *testing.T, s *build.Session) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for p, page := range s.Pages() {
		data, err := page.Bytes()
		if err != nil {
			t.Fatalf("rendering %s: %v", p, err)
		}
		out[p] = data
	}
	return out
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	if err := os.WriteFile(file, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSessionIncrementalEqualsFullBuild(t *testing.T) {
	dir := copySite(t)
	s := newSession(t, dir)
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	bq := filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	pubsub := filepath.Join(dir, "content", "2016-10-31-pubsub-subscription-creation", "en.md")

	steps := []struct {
		name   string
		change func()
		files  []string
	}{
		{"title edit shows on every page that lists the incident", func() {
			edit(t, bq, "title: ", "title: Edited ")
		}, []string{bq}},
		{"new product term", func() {
			edit(t, bq, "products: [", "products: [Cloud Widgets, ")
		}, []string{bq}},
		{"time change moves it in every list", func() {
			edit(t, pubsub, "end: 2016-10-31 15:15", "end: 2016-11-02 15:15")
		}, []string{pubsub}},
		{"another organization's product of the same name: both are shown with their organization", func() {
			edit(t, pubsub, "organization: Google Cloud", "organization: AWS")
			edit(t, pubsub, "products: [", "products: [BigQuery, ")
		}, []string{pubsub}},
		{"end removed: ongoing", func() {
			edit(t, pubsub, "end: 2016-11-02 15:15\n", "ongoing: true\n")
		}, []string{pubsub}},
		{"translation removed", func() {
			if err := os.Remove(filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "ja.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "ja.md")}},
		{"i18n change rebuilds everything", func() {
			edit(t, filepath.Join(dir, "i18n", "en.yaml"), "site_title: Incident archive", "site_title: Outage archive")
		}, []string{filepath.Join(dir, "i18n", "en.yaml")}},
	}
	for _, st := range steps {
		st.change()
		res, err := s.Update(st.files)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if res.Pages == 0 {
			t.Fatalf("%s: rendered no pages", st.name)
		}
		sameOutput(t, s, dir)
		if t.Failed() {
			t.Fatalf("after step %q", st.name)
		}
	}
}

// writeUnrelated writes n incidents a month apart that share no product,
// region or cause, so each is linked only to its neighbours in time.
func writeUnrelated(t *testing.T, dir string, n int) []string {
	t.Helper()
	var files []string
	for i := 0; i < n; i++ {
		day := fmt.Sprintf("2020-%02d-10", i+1)
		id := fmt.Sprintf("%s-incident-%d", day, i)
		if err := os.MkdirAll(filepath.Join(dir, "content", id), 0o755); err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf(`---
title: Incident %[1]d
summary: Summary %[1]d.
timezone: UTC
begin: %[2]s 10:00
end: %[2]s 11:00
products: [Product %[1]d]
regions: [region-%[1]d]
causes: [cause-%[1]d]
severity: minor
---

## Timeline {#timeline}
- %[2]s 10:00 — Began.
- 11:00 — Ended.
`, i, day)
		file := filepath.Join(dir, "content", id, "en.md")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	return files
}

func TestSessionRendersOnlyWhatAChangeTouches(t *testing.T) {
	dir := t.TempDir()
	files := writeUnrelated(t, dir, 12)
	s := newSession(t, dir)
	full, err := s.Update(nil)
	if err != nil {
		t.Fatal(err)
	}
	edit(t, files[5], "title: Incident 5", "title: Incident five")
	inc, err := s.Update(files[5:6])
	if err != nil {
		t.Fatal(err)
	}
	// Per language (the built-in ones): the incident and its two
	// neighbours, its three terms, the list, the timeline, its year and
	// its month, the search page, three term indexes (products, regions,
	// causes: no report names an organization) and the 404 page; plus the
	// home page and the site's 404 page.
	if want := len(siteLangs)*(3+3+1+3+1+3+1) + 2; inc.Pages != want {
		t.Errorf("a one-file edit made %d pages again (a full build %d), want %d", inc.Pages, full.Pages, want)
	}
	sameOutput(t, s, dir)
}

func TestSessionKeepsLastGoodBuildOnError(t *testing.T) {
	dir := copySite(t)
	s := newSession(t, dir)
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	good := s.Pages()
	bq := filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	edit(t, bq, "severity: major", "severity: apocalyptic")
	_, err := s.Update([]string{bq})
	if err == nil || !strings.Contains(err.Error(), "en.md:") {
		t.Fatalf("want an error naming en.md, got %v", err)
	}
	if !maps.Equal(s.Pages(), good) {
		t.Errorf("a failed update changed the pages served")
	}
	edit(t, bq, "severity: apocalyptic", "severity: major")
	_, err = s.Update([]string{bq})
	if err != nil {
		t.Fatal(err)
	}
	sameOutput(t, s, dir)
}

func TestSessionKeepsSearchIndexCurrent(t *testing.T) {
	dir := copySite(t)
	s := newSession(t, dir)
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	find := func(q string) []string {
		t.Helper()
		index, _ := s.Search()
		res, err := index.Value().Search(context.Background(), search.Request{Query: q, Lang: "en"})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		var ids []string
		for _, r := range res.Results {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if got := find("zeppelin"); len(got) != 0 {
		t.Fatalf("zeppelin already found in %v", got)
	}
	zh := filepath.Join(dir, "content", "2020-08-19-blob-storage-metadata-overload", "zh-TW.md")
	edit(t, zh, "title: ", "title: zeppelin ")
	if _, err := s.Update([]string{zh}); err != nil {
		t.Fatal(err)
	}
	if got := find("zeppelin"); !slices.Equal(got, []string{"2020-08-19-blob-storage-metadata-overload"}) {
		t.Errorf("after the edit, zeppelin found in %v", got)
	}
	edit(t, zh, "title: zeppelin ", "title: ")
	if _, err := s.Update([]string{zh}); err != nil {
		t.Fatal(err)
	}
	if got := find("zeppelin"); len(got) != 0 {
		t.Errorf("after undoing the edit, zeppelin still found in %v", got)
	}
}

// TestSessionClosesReplacedIndexWhenDone: a full rebuild replaces the
// index; the old one stays open while a search holds it, and is closed
// and its folder removed as soon as the last one lets go, not after some
// time. The indexes are built outside the site, and Close removes them.
func TestSessionClosesReplacedIndexWhenDone(t *testing.T) {
	dir := copySite(t)
	s := newSession(t, dir)
	defer s.Close()
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	all, oldDir := s.IndexFolders()
	if rel, err := filepath.Rel(dir, all); err == nil && !strings.HasPrefix(rel, "..") {
		t.Errorf("the search index is built in %s, inside the site", all)
	}
	old, _ := s.Search()
	if !old.Acquire() { // a search running on it
		t.Fatal("the index is closed")
	}
	query := func(ix search.Searcher) error {
		_, err := ix.Search(context.Background(), search.Request{Query: "Gmail", Lang: "en"})
		return err
	}
	if _, err := s.Update(nil); err != nil { // a full rebuild
		t.Fatal(err)
	}
	if now, _ := s.Search(); now == old {
		t.Fatal("a full rebuild kept the index")
	}
	if err := query(old.Value()); err != nil {
		t.Fatalf("the running search lost its index: %v", err)
	}
	if _, err := os.Stat(oldDir); err != nil {
		t.Fatalf("the replaced index's folder is gone while a search holds it: %v", err)
	}
	old.Release()
	if err := query(old.Value()); err == nil {
		t.Error("the replaced index is still open after its last search ended")
	}
	if _, err := os.Stat(oldDir); !os.IsNotExist(err) {
		t.Errorf("the replaced index's folder is still there after its last search ended (%v)", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(all); !os.IsNotExist(err) {
		t.Errorf("the folder of the search indexes is still there after Close (%v)", err)
	}
}

// TestSessionKeepsListPagesAChangeLeaves: with 300 incidents (six list
// pages, terms of several pages), an edit to the newest incident's title
// renders only the first page of the list and of its terms; removing the
// oldest changes the count every page shows and renders them all. Both
// equal a full build.
func TestSessionKeepsListPagesAChangeLeaves(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{N: 300, Langs: []string{"en"}, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, dir)
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	before := s.Pages()
	entries, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	newest := filepath.Join(dir, "content", entries[len(entries)-1].Name(), "en.md")
	edit(t, newest, "title: ", "title: Edited ")
	if _, err := s.Update([]string{newest}); err != nil {
		t.Fatal(err)
	}
	after := s.Pages()
	sameOutput(t, s, dir)
	later := regexp.MustCompile(`^en/(?:[a-z]+/[^/]+/)?page/[2-9]/index\.html$`)
	var lists, terms int
	for page, data := range before {
		if !later.MatchString(page) {
			continue
		}
		if strings.Count(page, "/") == 3 {
			lists++
		} else {
			terms++
		}
		if after[page] != data {
			t.Errorf("%s was rendered again for an edit to the newest incident", page)
		}
	}
	if lists < 4 || terms < 2 {
		t.Fatalf("the archive has %d later list pages and %d later term pages; the test needs more", lists, terms)
	}
	oldest := entries[0].Name()
	changed := []string{filepath.Join(dir, "content", oldest, "en.md")}
	if err := os.RemoveAll(filepath.Join(dir, "content", oldest)); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[1:] { // no incident names it as related any more
		file := filepath.Join(dir, "content", e.Name(), "en.md")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if text := string(data); strings.Contains(text, oldest) {
			text = strings.NewReplacer(oldest+", ", "", ", "+oldest, "", oldest, "").Replace(text)
			writeFile(t, file, text)
			changed = append(changed, file)
		}
	}
	_, err = s.Update(changed)
	if err != nil {
		t.Fatal(err)
	}
	sameOutput(t, s, dir)
}

// TestSessionNarrowChangesEqualFullBuild: a change reads only its
// incident's folder and links only what it alters; after each kind of
// change an author makes, and after a failed build followed by a change
// elsewhere, the output equals a full build of the same sources.
func TestSessionNarrowChangesEqualFullBuild(t *testing.T) {
	dir := t.TempDir()
	generatedOpts := corpus.Options{N: 120, Langs: []string{"en", "zh-TW"}, Seed: 7}
	if err := corpus.Generate(dir, generatedOpts); err != nil {
		t.Fatal(err)
	}
	// A sitemap file holds a few more URLs than the archive has at first:
	// the last step goes past them.
	opts := sessionOpts(dir)
	opts.Sitemap.URLs = sitemapURLs(t, dir) + 8
	s := newSessionWith(t, opts)
	defer s.Close()
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	id := func(i int) string { return entries[i].Name() }
	file := func(id, lang string) string { return filepath.Join(dir, "content", id, lang+".md") }
	original := func(id string) string { return originalFile(t, dir, generatedOpts, id) }
	// moved is an incident that begins and ends in March, to move to May.
	var moved string
	for _, e := range entries[60:] {
		data, err := os.ReadFile(original(e.Name()))
		if err == nil && e.Name()[5:7] == "03" && !bytes.Contains(data, []byte(e.Name()[:5]+"04-")) {
			moved = e.Name()
			break
		}
	}
	if moved == "" {
		t.Fatal("no incident in March to move")
	}
	movedTo := moved[:5] + "05" + moved[7:]
	causes := regexp.MustCompile(`(?m)^causes: \[.*\]$`)
	addCause := func(file string) {
		if c := causes.FindString(string(must(os.ReadFile(file)))); c != "" {
			edit(t, file, c, strings.TrimSuffix(c, "]")+", zeppelin-crash]")
		} else {
			edit(t, file, "\ntimezone:", "\ncauses: [zeppelin-crash]\ntimezone:")
		}
	}
	var before string
	steps := []struct {
		name   string
		change func() []string
	}{
		{"a title", func() []string {
			edit(t, file(id(10), "en"), "title: ", "title: Edited ")
			return []string{file(id(10), "en")}
		}},
		{"a cause added", func() []string {
			before = string(must(os.ReadFile(original(id(20)))))
			addCause(original(id(20)))
			return []string{original(id(20))}
		}},
		{"the cause removed", func() []string {
			writeFile(t, original(id(20)), before)
			return []string{original(id(20))}
		}},
		{"an incident moved from March to May", func() []string {
			var changed []string
			for _, lang := range []string{"en", "zh-TW"} {
				data, err := os.ReadFile(file(moved, lang))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, file(moved, lang), strings.ReplaceAll(string(data), moved[:8], movedTo[:8]))
				changed = append(changed, file(moved, lang), file(movedTo, lang))
			}
			if err := os.Rename(filepath.Join(dir, "content", moved), filepath.Join(dir, "content", movedTo)); err != nil {
				t.Fatal(err)
			}
			return changed
		}},
		{"a cross-link added", func() []string {
			edit(t, file(id(30), "en"), "\n## Impact {#impact}\n", "\n## Impact {#impact}\n\nSee [the other one](../"+id(31)+"/#impact).\n")
			return []string{file(id(30), "en")}
		}},
		{"an incident deleted", func() []string {
			gone := id(50)
			changed := []string{file(gone, "en"), file(gone, "zh-TW")}
			if err := os.RemoveAll(filepath.Join(dir, "content", gone)); err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				for _, lang := range []string{"en", "zh-TW"} {
					data, err := os.ReadFile(file(e.Name(), lang))
					if err != nil || !bytes.Contains(data, []byte(gone)) {
						continue
					}
					text := strings.NewReplacer(gone+", ", "", ", "+gone, "", "related: ["+gone+"]\n", "").Replace(string(data))
					writeFile(t, file(e.Name(), lang), text)
					changed = append(changed, file(e.Name(), lang))
				}
			}
			return changed
		}},
		{"an incident made a draft", func() []string {
			edit(t, original(id(40)), "\ntimezone:", "\ndraft: true\ntimezone:")
			return []string{original(id(40))}
		}},
		{"the draft published", func() []string {
			edit(t, original(id(40)), "\ndraft: true\n", "\n")
			return []string{original(id(40))}
		}},
		{"the oldest incident names its regions otherwise", func() []string {
			regions := regexp.MustCompile(`(?m)^regions: \[(.*)\]$`)
			for _, e := range entries {
				if r := regions.FindStringSubmatch(string(must(os.ReadFile(original(e.Name()))))); r != nil {
					edit(t, original(e.Name()), r[0], "regions: ["+strings.ToUpper(r[1])+"]")
					return []string{original(e.Name())}
				}
			}
			t.Fatal("no incident names a region")
			return nil
		}},
		{"an incident added", func() []string {
			to := filepath.Join(dir, "content", id(70)+"-again")
			if err := os.CopyFS(to, os.DirFS(filepath.Join(dir, "content", id(70)))); err != nil {
				t.Fatal(err)
			}
			return []string{filepath.Join(to, "en.md"), filepath.Join(to, "zh-TW.md")}
		}},
		{"incidents added, past the URLs a sitemap file holds", func() []string {
			var changed []string
			for i := range 6 {
				to := filepath.Join(dir, "content", id(100+i)+"-again")
				if err := os.CopyFS(to, os.DirFS(filepath.Join(dir, "content", id(100+i)))); err != nil {
					t.Fatal(err)
				}
				changed = append(changed, filepath.Join(to, "en.md"), filepath.Join(to, "zh-TW.md"))
			}
			return changed
		}},
	}
	for i, st := range steps {
		_, err := s.Update(st.change())
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		sameOutputWith(t, s, opts)
		if _, split := s.Pages()["sitemap-1.xml"]; split != (i == len(steps)-1) {
			t.Errorf("%s: the sitemap is split: %t, want it only after the last step", st.name, split)
		}
		if t.Failed() {
			t.Fatalf("after %s", st.name)
		}
	}

	// A failed build, a change elsewhere that fails with it, then the fix:
	// the change elsewhere is built too.
	broken := original(id(80))
	edit(t, broken, "\ntimezone:", "\nseverity: apocalyptic\ntimezone:")
	if _, err := s.Update([]string{broken}); err == nil {
		t.Fatal("a wrong severity built")
	}
	addCause(original(id(90)))
	if _, err := s.Update([]string{original(id(90))}); err == nil {
		t.Fatal("a wrong severity built")
	}
	edit(t, broken, "\nseverity: apocalyptic\n", "\n")
	_, err = s.Update([]string{broken})
	if err != nil {
		t.Fatal(err)
	}
	sameOutputWith(t, s, opts)
}

// sitemapURLs counts the URLs of the sitemap of the site in dir.
func sitemapURLs(t *testing.T, dir string) int {
	t.Helper()
	s := newSession(t, dir)
	defer s.Close()
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	data, err := s.Pages()["sitemap.xml"].Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("<url>"))
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}

// TestSessionPagesMadeWhileUpdating: pages of one build are made (as a
// server makes them on request) while the next builds run and carry
// them over; run with -race. The output is then a full build's.
func TestSessionPagesMadeWhileUpdating(t *testing.T) {
	dir := copySite(t)
	s := newSession(t, dir)
	defer s.Close()
	if _, err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	builds := make(chan map[string]*build.Page)
	done := make(chan error)
	go func() {
		for pages := range builds {
			for _, p := range pages {
				if _, err := p.Bytes(); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	bq := filepath.Join(dir, "content", "2017-03-13-bigquery-streaming-inserts", "en.md")
	for i := range 6 {
		builds <- s.Pages()
		edit(t, bq, "title: ", fmt.Sprintf("title: Edit %d ", i))
		if _, err := s.Update([]string{bq}); err != nil {
			t.Fatal(err)
		}
	}
	close(builds)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sameOutput(t, s, dir)
}
