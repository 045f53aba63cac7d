package archive_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/corpus"
)

// describe writes down everything the link stage decides, by id, so that
// two archives linked from the same pages can be compared.
func describe(a *archive.Archive) string {
	var b strings.Builder
	ids := func(list []*archive.Incident) string {
		var out []string
		for _, inc := range list {
			out = append(out, inc.ID)
		}
		return strings.Join(out, ",")
	}
	id := func(inc *archive.Incident) string {
		if inc == nil {
			return "-"
		}
		return inc.ID
	}
	for _, inc := range a.Incidents {
		fmt.Fprintf(&b, "%s %s..%s %v related[%s] overlapping[%s] similar[%s] prev %s next %s events %d\n",
			inc.ID, inc.Begin, inc.Through, inc.Duration, ids(inc.Related), ids(inc.Overlapping), ids(inc.Similar), id(inc.Prev), id(inc.Next), len(inc.Events))
		for _, tax := range archive.Taxonomies {
			for _, t := range inc.Terms[tax] {
				fmt.Fprintf(&b, "  %s/%s\n", tax, t.Slug)
			}
		}
		for _, lang := range slices.Sorted(func(yield func(string) bool) {
			for l := range inc.Versions {
				if !yield(l) {
					return
				}
			}
		}) {
			fmt.Fprintf(&b, "  %s %q %d events\n", lang, inc.Versions[lang].Meta.Title.V, len(inc.Timeline(lang)))
		}
	}
	for _, tax := range archive.Taxonomies {
		for _, t := range a.Terms[tax] {
			fmt.Fprintf(&b, "%s/%s %q shared %v [%s]\n", tax, t.Slug, t.Name, t.Shared, ids(t.Incidents))
		}
	}
	for _, e := range a.Events {
		fmt.Fprintf(&b, "%s#%d ", e.Incident.ID, e.Index)
	}
	return b.String()
}

// rewrite replaces old with new in every content file holding it and
// renames folders named old; it returns the files it changed or removed.
func rewrite(t *testing.T, dir, old, new string) []string {
	t.Helper()
	var changed []string
	root := filepath.Join(dir, "content")
	folders, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range folders {
		files, err := filepath.Glob(filepath.Join(root, f.Name(), "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), old) {
				if err := os.WriteFile(file, []byte(strings.ReplaceAll(string(data), old, new)), 0o644); err != nil {
					t.Fatal(err)
				}
				changed = append(changed, file)
			}
		}
		if strings.Contains(f.Name(), old) {
			to := filepath.Join(root, strings.ReplaceAll(f.Name(), old, new))
			if err := os.Rename(filepath.Join(root, f.Name()), to); err != nil {
				t.Fatal(err)
			}
			changed = append(changed, files...)
		}
	}
	return changed
}

// TestLinkWithPrevEqualsLink: after each kind of change an author makes,
// an archive linked again from the previous one (carrying over what did
// not change) is the archive linked from scratch.
func TestLinkWithPrevEqualsLink(t *testing.T) {
	dir := t.TempDir()
	langs := []string{"en", "zh-TW"}
	generated := corpus.Options{N: 240, Langs: langs, Seed: 3}
	if err := corpus.Generate(dir, generated); err != nil {
		t.Fatal(err)
	}
	cache := content.NewCache()
	load := func() []*content.Page {
		t.Helper()
		pages, err := content.Load(dir, langs, cache)
		if err != nil {
			t.Fatal(err)
		}
		return pages
	}
	prev, err := archive.Link(load(), langs, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	folders, err := os.ReadDir(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	pick := func(i int) string { return folders[i].Name() }
	file := func(id, lang string) string { return filepath.Join(dir, "content", id, lang+".md") }
	originals, err := corpus.Originals(generated)
	if err != nil {
		t.Fatal(err)
	}
	orig := func(id string) string { return originals[id] } // the language of the file with its facts
	replace := func(id, lang, old, new string) []string {
		t.Helper()
		f := file(id, lang)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), old) {
			t.Fatalf("%s has no %q", f, old)
		}
		if err := os.WriteFile(f, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{f}
	}
	products := regexp.MustCompile(`(?m)^products: \[(.*)\]$`)
	related := regexp.MustCompile(`(?m)^related: \[(.*)\]$`)
	causes := regexp.MustCompile(`(?m)^causes: \[(.*)\]$`)
	field := func(re *regexp.Regexp, id string) string {
		data, err := os.ReadFile(file(id, orig(id)))
		if err != nil {
			t.Fatal(err)
		}
		return re.FindString(string(data))
	}
	month := regexp.MustCompile(`^(\d{4})-03-(\d\d)-`)
	moved := ""
	for _, f := range folders[110:] {
		if month.MatchString(f.Name()) {
			moved = f.Name()
			break
		}
	}
	if moved == "" {
		t.Fatal("no incident in March to move")
	}
	removed := pick(100)
	steps := []struct {
		name   string
		change func() []string
	}{
		{"a title", func() []string { return replace(pick(10), "en", "title: ", "title: Edited ") }},
		{"a cause added", func() []string {
			if c := field(causes, pick(20)); c != "" {
				return replace(pick(20), orig(pick(20)), c, strings.TrimSuffix(c, "]")+", config-push]")
			}
			return replace(pick(20), orig(pick(20)), "\ntimezone:", "\ncauses: [config-push]\ntimezone:")
		}},
		{"a product removed", func() []string {
			i := 30
			for field(products, pick(i)) == "" {
				i++
			}
			return replace(pick(i), orig(pick(i)), field(products, pick(i)), "products: []")
		}},
		{"a product of its own", func() []string {
			if p := field(products, pick(31)); p != "" {
				return replace(pick(31), orig(pick(31)), p, "products: [Zeppelin]")
			}
			return replace(pick(31), orig(pick(31)), "\ntimezone:", "\nproducts: [Zeppelin]\ntimezone:")
		}},
		{"an incident moved from March to May", func() []string {
			var changed []string
			for _, lang := range langs {
				changed = append(changed, replace(moved, lang, moved[:8], moved[:5]+"05-")...)
				for strings.Contains(string(must(os.ReadFile(file(moved, lang)))), moved[:8]) {
					replace(moved, lang, moved[:8], moved[:5]+"05-")
				}
			}
			return append(changed, rewrite(t, dir, moved, moved[:5]+"05"+moved[7:])...)
		}},
		{"a similar incident made related", func() []string {
			// It is no longer listed as similar, and another takes its place.
			var other string
			for _, inc := range prev.Incidents {
				if inc.ID == pick(40) {
					other = inc.Similar[0].ID
				}
			}
			if r := field(related, pick(40)); r != "" {
				return replace(pick(40), orig(pick(40)), r, strings.TrimSuffix(r, "]")+", "+other+"]")
			}
			return replace(pick(40), orig(pick(40)), "\ntimezone:", "\nrelated: ["+other+"]\ntimezone:")
		}},
		{"an incident deleted", func() []string {
			changed := rewrite(t, dir, ", "+removed, "")
			changed = append(changed, rewrite(t, dir, removed+", ", "")...)
			changed = append(changed, rewrite(t, dir, "related: ["+removed+"]\n", "")...)
			if err := os.RemoveAll(filepath.Join(dir, "content", removed)); err != nil {
				t.Fatal(err)
			}
			return append(changed, file(removed, "en"), file(removed, "zh-TW"))
		}},
		{"an incident added", func() []string {
			to := filepath.Join(dir, "content", pick(101)+"-again")
			if err := os.CopyFS(to, os.DirFS(filepath.Join(dir, "content", pick(101)))); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
		{"nothing", func() []string { return nil }},
	}
	for _, st := range steps {
		for _, f := range st.change() {
			cache.Forget(f)
		}
		t.Logf("%s", st.name)
		pages := load()
		got, err := archive.Link(pages, langs, archive.Options{Prev: prev})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		want, err := archive.Link(pages, langs, archive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := describe(got), describe(want); g != w {
			t.Fatalf("%s: linked again, the archive differs from one linked from scratch:\n%s", st.name, firstDiff(g, w))
		}
		prev = got
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\ngot  %s\nwant %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(g), len(w))
}
