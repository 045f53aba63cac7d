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
	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/content"
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
			inc.ID, inc.Begin, inc.Through, inc.Duration, ids(inc.Related), ids(inc.Overlapping), ids(inc.Similar), id(inc.Prev), id(inc.Next), inc.EventCount())
		for _, tax := range archive.Taxonomies {
			for _, t := range inc.Terms.Of(tax) {
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
	return b.String()
}

// rewrite replaces old with new in every content file holding it and
// renames folders named old; it returns the files it changed, removed or
// made.
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
			changed = append(changed, filepath.Join(to, filepath.Base(files[0])))
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
	byID := func(a *archive.Archive, id string) *archive.Incident {
		for _, inc := range a.Incidents {
			if inc.ID == id {
				return inc
			}
		}
		t.Fatalf("no incident %s", id)
		return nil
	}
	// unlinked is an incident no other names as related, which a link
	// written by hand points at, and which is then deleted.
	unlinked := ""
	for i := 150; unlinked == ""; i++ {
		if inc := byID(prev, pick(i)); len(inc.Related) == 0 && inc.EventCount() > 0 {
			unlinked = pick(i)
		}
	}
	var unlinkedFiles map[string][]byte
	regions := regexp.MustCompile(`(?m)^regions: \[(.*)\]$`)
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
			return []string{filepath.Join(to, "en.md")}
		}},
		{"the oldest incident spells its regions otherwise", func() []string {
			oldest := prev.Incidents[len(prev.Incidents)-1].ID
			r := field(regions, oldest)
			if r == "" {
				t.Fatalf("%s names no region", oldest)
			}
			return replace(oldest, orig(oldest), r, "regions: ["+strings.ToUpper(regions.FindStringSubmatch(r)[1])+"]")
		}},
		{"an incident made a draft", func() []string {
			return replace(pick(50), orig(pick(50)), "\ntimezone:", "\ndraft: true\ntimezone:")
		}},
		{"the draft published", func() []string {
			return replace(pick(50), orig(pick(50)), "\ndraft: true\ntimezone:", "\ntimezone:")
		}},
		{"a product another organization has", func() []string {
			own := byID(prev, pick(70)).Organization()
			var other string
			for _, p := range prev.Terms[archive.Products] {
				if p.Organization != nil && own != nil && p.Organization.Slug != own.Slug && !p.Shared {
					other = p.Name
					break
				}
			}
			if p := field(products, pick(70)); p != "" {
				return replace(pick(70), orig(pick(70)), p, "products: ["+other+"]")
			}
			return replace(pick(70), orig(pick(70)), "\ntimezone:", "\nproducts: ["+other+"]\ntimezone:")
		}},
		{"a link to an event of another incident", func() []string {
			f := file(pick(60), "en")
			data := must(os.ReadFile(f))
			link := fmt.Sprintf("\nSee [the other one](../%s/#%s).\n", unlinked, byID(prev, unlinked).Events()[0].Anchor)
			if err := os.WriteFile(f, append(data, link...), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{f}
		}},
		{"the incident linked to deleted", func() []string {
			unlinkedFiles = map[string][]byte{}
			for _, lang := range langs {
				unlinkedFiles[lang] = must(os.ReadFile(file(unlinked, lang)))
			}
			if err := os.RemoveAll(filepath.Join(dir, "content", unlinked)); err != nil {
				t.Fatal(err)
			}
			return []string{file(unlinked, "en")}
		}},
		{"the incident linked to back", func() []string {
			for lang, data := range unlinkedFiles {
				if err := os.MkdirAll(filepath.Dir(file(unlinked, lang)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file(unlinked, lang), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return []string{file(unlinked, "en")}
		}},
		{"nothing", func() []string { return nil }},
	}
	for _, st := range steps {
		changed := map[string]bool{} // the folders of the changed files
		for _, f := range st.change() {
			cache.Forget(f)
			changed[filepath.Base(filepath.Dir(f))] = true
		}
		t.Logf("%s", st.name)
		pages := load()
		opts := archive.Options{Prev: prev, Changed: changed}
		was := describe(prev)
		followed := archive.Relink(pages, langs, opts)
		got, err := archive.Link(pages, langs, opts)
		want, wantErr := archive.Link(pages, langs, archive.Options{})
		if describe(prev) != was {
			t.Fatalf("%s: the previous archive was changed", st.name)
		}
		// A link to an incident deleted is an error, which a link from
		// scratch reports.
		if st.name == "the incident linked to deleted" {
			if followed != nil || err == nil || wantErr == nil || err.Error() != wantErr.Error() {
				t.Fatalf("%s: relinked %v; errors %v, from scratch %v", st.name, followed != nil, err, wantErr)
			}
			continue
		}
		if err != nil || wantErr != nil {
			t.Fatalf("%s: %v; from scratch %v", st.name, err, wantErr)
		}
		if followed == nil {
			t.Fatalf("%s: linked from scratch, not from the previous archive", st.name)
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
