package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// metaFormat is the version of the on-disk layout; Open refuses others.
const metaFormat = 1

const metaFile = "meta.json"

// docMeta is what results and facets need about one language version of an
// incident. It lives in memory (a few hundred bytes per document) so that
// collapsing, facet counting and result rendering never load bleve's
// stored fields.
type docMeta struct {
	ID           string    `json:"id"`
	Lang         string    `json:"lang"`
	OriginalLang string    `json:"orig_lang,omitempty"`
	Title        string    `json:"title"`
	URL          string    `json:"url"`
	Begin        time.Time `json:"begin"`
	Duration     int64     `json:"duration_s,omitempty"`
	Products     []string  `json:"products,omitempty"`
	Regions      []string  `json:"regions,omitempty"`
	Causes       []string  `json:"causes,omitempty"`
}

func newDocMeta(d *Document) *docMeta {
	return &docMeta{
		ID:           d.ID,
		Lang:         d.Lang,
		OriginalLang: d.OriginalLang,
		Title:        d.Title,
		URL:          d.URL,
		Begin:        d.Begin.UTC(),
		Duration:     int64(d.Duration / time.Second),
		Products:     slices.Clone(d.Products),
		Regions:      slices.Clone(d.Regions),
		Causes:       slices.Clone(d.Causes),
	}
}

// incident groups the language versions of one incident. The derived
// fields are recomputed by refresh whenever docs changes, so that searches
// (which read them for every matching incident) do no work.
type incident struct {
	id   string
	docs map[string]*docMeta // by lang

	langs                     []string // sorted keys of docs
	orig                      string   // language of the original
	primary                   *docMeta // the original if present, else the first language
	year                      string   // of primary.Begin, "" if unknown
	products, regions, causes []string // distinct values over all languages
}

func (in *incident) refresh() {
	in.langs = sortedKeys(in.docs)
	// The original: the language whose document says it is the original,
	// else what the documents claim.
	in.orig = ""
	for _, l := range in.langs {
		if d := in.docs[l]; d.OriginalLang == l {
			in.orig = l
			break
		} else if in.orig == "" {
			in.orig = d.OriginalLang
		}
	}
	in.primary = in.docs[in.orig]
	if in.primary == nil {
		in.primary = in.docs[in.langs[0]]
	}
	in.year = ""
	if b := in.primary.Begin; !b.IsZero() {
		in.year = strconv.Itoa(b.Year())
	}
	// Keyword values normally agree across languages; a localised name
	// counts too.
	distinct := func(pick func(*docMeta) []string) []string {
		var out []string
		for _, l := range in.langs {
			for _, v := range pick(in.docs[l]) {
				if v != "" && !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
		return out
	}
	in.products = distinct(func(d *docMeta) []string { return d.Products })
	in.regions = distinct(func(d *docMeta) []string { return d.Regions })
	in.causes = distinct(func(d *docMeta) []string { return d.Causes })
}

// metaStore holds the docMeta of every indexed document.
type metaStore struct {
	incidents map[string]*incident
}

func newMetaStore() *metaStore { return &metaStore{incidents: map[string]*incident{}} }

func (s *metaStore) put(m *docMeta) {
	in := s.incidents[m.ID]
	if in == nil {
		in = &incident{id: m.ID, docs: map[string]*docMeta{}}
		s.incidents[m.ID] = in
	}
	in.docs[m.Lang] = m
	in.refresh()
}

func (s *metaStore) delete(id, lang string) {
	in := s.incidents[id]
	if in == nil {
		return
	}
	delete(in.docs, lang)
	if len(in.docs) == 0 {
		delete(s.incidents, id)
		return
	}
	in.refresh()
}

// metaJSON is the content of meta.json.
type metaJSON struct {
	Format    int        `json:"format"`
	SiteLangs []string   `json:"site_langs"`
	Indexes   []string   `json:"indexes"` // languages that have a bleve index
	Docs      []*docMeta `json:"docs"`
}

func (s *metaStore) write(dir string, siteLangs, indexes []string) error {
	ids := make([]string, 0, len(s.incidents))
	for id := range s.incidents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	mj := metaJSON{Format: metaFormat, SiteLangs: siteLangs, Indexes: indexes, Docs: []*docMeta{}}
	for _, id := range ids {
		in := s.incidents[id]
		for _, l := range in.langs {
			mj.Docs = append(mj.Docs, in.docs[l])
		}
	}
	b, err := json.Marshal(&mj)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, metaFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, metaFile))
}

func readMeta(dir string) (*metaStore, *metaJSON, error) {
	b, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, fmt.Errorf("search: %s is not a finished search index (no %s)", dir, metaFile)
		}
		return nil, nil, err
	}
	var mj metaJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, nil, fmt.Errorf("search: %s: %v", filepath.Join(dir, metaFile), err)
	}
	if mj.Format != metaFormat {
		return nil, nil, fmt.Errorf("search: index format %d in %s, this program reads format %d: rebuild the index", mj.Format, dir, metaFormat)
	}
	s := newMetaStore()
	for _, d := range mj.Docs {
		if d == nil || d.ID == "" || d.Lang == "" {
			return nil, nil, fmt.Errorf("search: %s: document without id or lang", filepath.Join(dir, metaFile))
		}
		s.put(d)
	}
	return s, &mj, nil
}
