package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/output"
	"github.com/postmortem-archive/gen/internal/output/bundle"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/source"
)

// manifestFormat is the version of the manifest's layout: a manifest of
// another version is not read, and the build is cold.
const manifestFormat = 2

// manifest records what a build was made from, so that the next build
// can tell what changed: a hash of everything every page depends on
// (gen itself, the options, layouts and languages), a hash of each
// incident's files, and the shape of the linked archive that decides
// which pages show which incident (links, terms, list order, years). It
// is written into the build's bundle, which is never served, field by
// field (encode: a field added here is written there too).
type manifest struct {
	Format    int                       `json:"format"`
	Inputs    string                    `json:"inputs"`  // gen, options, layouts and languages
	Content   map[string]string         `json:"content"` // incident folder name → hash of its Markdown files
	Incidents []manifestIncident        `json:"incidents"`
	Terms     map[string][]manifestTerm `json:"terms"` // by taxonomy, in archive order
}

// manifestIncident is what of an incident decides the pages it is on.
type manifestIncident struct {
	ID          string              `json:"id"`
	Begin       time.Time           `json:"begin"` // in its own zone, which gives its local year
	Prev        string              `json:"prev,omitempty"`
	Next        string              `json:"next,omitempty"`
	Related     []string            `json:"related,omitempty"`
	Overlapping []string            `json:"overlapping,omitempty"`
	Similar     []string            `json:"similar,omitempty"`
	Terms       map[string][]string `json:"terms,omitempty"` // taxonomy → slugs, in order
	// Months are those whose timeline pages show it
	// (render.IncidentMonths).
	Months []string `json:"months"`
}

// manifestTerm is a term's label and its incidents, newest first.
type manifestTerm struct {
	Slug         string   `json:"slug"`
	Name         string   `json:"name"`
	Organization string   `json:"organization,omitempty"`
	Shared       bool     `json:"shared,omitempty"`
	Incidents    []string `json:"incidents"`
}

// newManifest records the archive of site, with the inputs and content
// hashes computed for it.
func newManifest(a *archive.Archive, inputs string, content map[string]string) *manifest {
	m := &manifest{Format: manifestFormat, Inputs: inputs, Content: content, Terms: map[string][]manifestTerm{}}
	ids := func(list []*archive.Incident) []string {
		var out []string
		for _, inc := range list {
			out = append(out, inc.ID)
		}
		return out
	}
	id := func(inc *archive.Incident) string {
		if inc == nil {
			return ""
		}
		return inc.ID
	}
	for _, inc := range a.Incidents {
		mi := manifestIncident{
			ID: inc.ID, Begin: inc.Begin.In(inc.Location), Prev: id(inc.Prev), Next: id(inc.Next),
			Related: ids(inc.Related), Overlapping: ids(inc.Overlapping), Similar: ids(inc.Similar),
		}
		for _, m := range render.IncidentMonths(inc) {
			mi.Months = append(mi.Months, m.String())
		}
		for tax, terms := range inc.Terms.All() {
			if mi.Terms == nil {
				mi.Terms = map[string][]string{}
			}
			for _, t := range terms {
				mi.Terms[string(tax)] = append(mi.Terms[string(tax)], t.Slug)
			}
		}
		m.Incidents = append(m.Incidents, mi)
	}
	for tax, terms := range a.Terms {
		for _, t := range terms {
			m.Terms[string(tax)] = append(m.Terms[string(tax)], manifestTerm{
				Slug: t.Slug, Name: t.Name, Organization: orgName(t), Shared: t.Shared, Incidents: ids(t.Incidents),
			})
		}
	}
	return m
}

// skeleton rebuilds from the manifest the part of the previous archive
// that the authoring server's scope (affected) reads: incidents with
// their ids, local years, links and terms, and terms with their labels
// and incidents.
func (m *manifest) skeleton() *archive.Archive {
	a := &archive.Archive{Terms: map[archive.Taxonomy][]*archive.Term{}}
	byID := map[string]*archive.Incident{}
	for _, mi := range m.Incidents {
		inc := &archive.Incident{ID: mi.ID, Begin: mi.Begin, Location: mi.Begin.Location()}
		byID[mi.ID] = inc
		a.Incidents = append(a.Incidents, inc)
	}
	list := func(ids []string) []*archive.Incident {
		var out []*archive.Incident
		for _, id := range ids {
			if inc := byID[id]; inc != nil {
				out = append(out, inc)
			}
		}
		return out
	}
	terms := map[string]*archive.Term{}
	for tax, mts := range m.Terms {
		for _, mt := range mts {
			t := &archive.Term{Taxonomy: archive.Taxonomy(tax), Name: mt.Name, Slug: mt.Slug, Shared: mt.Shared, Incidents: list(mt.Incidents)}
			if mt.Organization != "" {
				t.Organization = &archive.Term{Taxonomy: archive.Organizations, Name: mt.Organization}
			}
			terms[tax+"/"+mt.Slug] = t
			a.Terms[t.Taxonomy] = append(a.Terms[t.Taxonomy], t)
		}
	}
	for i, mi := range m.Incidents {
		inc := a.Incidents[i]
		inc.Prev, inc.Next = byID[mi.Prev], byID[mi.Next]
		inc.Related, inc.Overlapping, inc.Similar = list(mi.Related), list(mi.Overlapping), list(mi.Similar)
		for tax, slugs := range mi.Terms {
			for _, slug := range slugs {
				if t := terms[tax+"/"+slug]; t != nil {
					inc.Terms.Add(t)
				}
			}
		}
	}
	return a
}

// months are the months whose timeline pages showed each incident, by
// id.
func (m *manifest) months() (map[string][]render.YearMonth, error) {
	out := make(map[string][]render.YearMonth, len(m.Incidents))
	for _, mi := range m.Incidents {
		for _, s := range mi.Months {
			ym, err := render.ParseMonth(s)
			if err != nil {
				return nil, fmt.Errorf("incident %s: %w", mi.ID, err)
			}
			out[mi.ID] = append(out[mi.ID], ym)
		}
	}
	return out, nil
}

// readManifest reads the manifest at path; any fault is an error, and
// the build is then cold.
func readManifest(path string) (*manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("%s: format %d, not %d", path, m.Format, manifestFormat)
	}
	if m.Inputs == "" || m.Content == nil {
		return nil, fmt.Errorf("%s: incomplete", path)
	}
	if _, err := m.months(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// inputsHash hashes what every page depends on besides the content: the
// running gen (its executable: a new gen may render anything
// differently), the build's options, the site's languages, and every
// file of the layouts and languages. "" means gen cannot tell, and the build is cold.
func inputsHash(site *source.Site, opts Options) (string, error) {
	exe, err := executableHash()
	if err != nil {
		return "", fmt.Errorf("identifying the running gen: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "gen %s\x00%s\x00%s\x00%t\x00", exe, opts.Generator, opts.BaseURL, opts.Drafts)
	// A language without a file comes and goes with its texts, and
	// every page links to every language.
	fmt.Fprintf(h, "languages %s\x00", strings.Join(site.Bundle.Tags(), ","))
	for _, tree := range []struct {
		name string
		fsys fs.FS
	}{{"layouts", site.Layouts}, {"i18n", site.Langs}} {
		err := fs.WalkDir(tree.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(tree.fsys, p)
			if err != nil {
				return err
			}
			hashFile(h, tree.name+"/"+p, data)
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("hashing %s: %w", tree.name, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// executableHash is the hash of gen's own executable, read once.
var executableHash = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})

func hashFile(h hash.Hash, name string, data []byte) {
	fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
	h.Write(data)
}

// contentHashes hashes each incident folder's Markdown files, by
// folder name, from the pages loaded from them (each keeps the hash of
// its file as read): the folders are not listed nor the files read again.
// pages are in file order, so a folder's files are together and by name.
func contentHashes(pages []*content.Page) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(pages); {
		id, h := pages[i].ID, sha256.New()
		for ; i < len(pages) && pages[i].ID == id; i++ {
			hashFile(h, path.Base(pages[i].File), pages[i].Sum[:])
		}
		out[id] = hex.EncodeToString(h.Sum(nil))
	}
	return out
}

// writeManifest writes m into the build's bundle; a failure to write is
// collected with the others (output.Folder.Collect).
func writeManifest(b *output.Folder, m *manifest) error {
	return b.CollectStream(bundle.ManifestFile, m.encode)
}

// encode writes m as json.Marshal does, a piece at a time: encoding/json
// keeps the buffer of a Marshal for the next one (a pool), and every
// document of the search index and record of incidents.json is
// marshalled after the manifest, so the whole manifest's buffer (128 MB
// at 100,000 incidents) stayed live through the render.
func (m *manifest) encode(w io.Writer) error {
	j := jsonPieces{w: w}
	j.raw(`{"format":`)
	j.value(m.Format)
	j.raw(`,"inputs":`)
	j.value(m.Inputs)
	j.raw(`,"content":`)
	j.object(m.Content == nil, slices.Sorted(maps.Keys(m.Content)), func(k string) { j.value(m.Content[k]) })
	j.raw(`,"incidents":`)
	j.array(m.Incidents == nil, len(m.Incidents), func(i int) { j.value(&m.Incidents[i]) })
	j.raw(`,"terms":`)
	j.object(m.Terms == nil, slices.Sorted(maps.Keys(m.Terms)), func(tax string) {
		terms := m.Terms[tax]
		j.array(terms == nil, len(terms), func(i int) { j.value(&terms[i]) })
	})
	j.raw("}")
	return j.err
}

// jsonPieces writes a JSON document made of values marshalled one by
// one; the first error stops it.
type jsonPieces struct {
	w   io.Writer
	err error
}

func (j *jsonPieces) raw(s string) {
	if j.err == nil {
		_, j.err = io.WriteString(j.w, s)
	}
}

func (j *jsonPieces) value(v any) {
	if j.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		_, err = j.w.Write(b)
	}
	j.err = err
}

// object writes an object of keys, in their order, each key's value by
// value; null when isNil, as json.Marshal writes a nil map.
func (j *jsonPieces) object(isNil bool, keys []string, value func(k string)) {
	if isNil {
		j.raw("null")
		return
	}
	j.raw("{")
	for i, k := range keys {
		if i > 0 {
			j.raw(",")
		}
		j.value(k)
		j.raw(":")
		value(k)
	}
	j.raw("}")
}

// array writes an array of n elements, each by elem; null when isNil.
func (j *jsonPieces) array(isNil bool, n int, elem func(i int)) {
	if isNil {
		j.raw("null")
		return
	}
	j.raw("[")
	for i := range n {
		if i > 0 {
			j.raw(",")
		}
		elem(i)
	}
	j.raw("]")
}
