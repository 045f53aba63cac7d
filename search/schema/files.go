package schema

// The files beside the language indexes of an index: meta.json, in the
// index's folder, and lengths.json, in each language's.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/document"
)

// Format is the version of the on-disk layout; ReadMeta refuses others.
// Format 2: no stored text or term vectors of the long fields in bleve;
// per-language document stores (package docstore) hold the documents' text and
// metadata, meta.json only the lists of languages. Format 3: a vocabulary
// beside each language index (package vocab). Format 4: Chinese indexed
// folded into Simplified (analysis.ChineseAnalyzer).
const Format = 4

// MetaFile is the file of Meta, in the index's folder.
const MetaFile = "meta.json"

// Meta is the content of meta.json.
type Meta struct {
	Format    int      `json:"format"`
	SiteLangs []string `json:"site_langs"`
	Indexes   []string `json:"indexes"` // languages that have a bleve index and a document store
	// Updates is the number of updates (Update) since the index was
	// built whole.
	Updates int `json:"updates,omitempty"`
}

// WriteMeta writes the meta.json of the index in dir.
func WriteMeta(dir string, mj Meta) error {
	mj.Format = Format
	if mj.SiteLangs == nil {
		mj.SiteLangs = []string{}
	}
	if mj.Indexes == nil {
		mj.Indexes = []string{}
	}
	b, err := json.Marshal(&mj)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, MetaFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, MetaFile))
}

// ReadMeta reads the meta.json of the index in dir: an error if there
// is none (an unfinished build) or its format is not Format.
func ReadMeta(dir string) (*Meta, error) {
	b, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("search: %s is not a finished search index (no %s)", dir, MetaFile)
		}
		return nil, err
	}
	var mj Meta
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, fmt.Errorf("search: %s: %v", filepath.Join(dir, MetaFile), err)
	}
	if mj.Format != Format {
		return nil, fmt.Errorf("search: index format %d in %s, this program reads format %d: rebuild the index", mj.Format, dir, Format)
	}
	return &mj, nil
}

// LengthsFile holds the Lengths of a language index, beside it.
const LengthsFile = "lengths.json"

// Lengths are the number of documents of a language index and the
// total length (tokens) of each of their fields.
type Lengths struct {
	Docs   int            `json:"docs"`
	Tokens map[string]int `json:"tokens"`
}

// DocLengths returns the length of each field of an analysed document.
func DocLengths(doc *document.Document) map[string]int {
	out := make(map[string]int, len(doc.Fields))
	for _, f := range doc.Fields {
		out[f.Name()] += f.AnalyzedLength()
	}
	return out
}

// Add counts a document's field lengths in (sign 1) or out (sign -1).
func (fl *Lengths) Add(lengths map[string]int, sign int) {
	if fl.Tokens == nil {
		fl.Tokens = map[string]int{}
	}
	fl.Docs += sign
	for f, n := range lengths {
		fl.Tokens[f] += sign * n
	}
}

// WriteLengths writes fl into the file path.
func WriteLengths(path string, fl *Lengths) error {
	b, err := json.Marshal(fl)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// ReadLengths reads the file path.
func ReadLengths(path string) (*Lengths, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var fl Lengths
	if err := json.Unmarshal(b, &fl); err != nil {
		return nil, fmt.Errorf("search: %s: %w", path, err)
	}
	return &fl, nil
}
