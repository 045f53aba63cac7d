// Package searcheval judges the archive's search: a set of queries, each
// with the incidents a reader typing it means, the site they are judged on
// (hand-written incidents among generated ones), and the scores of a
// search engine's answers for each kind of query and each language of
// the readers.
//
// The judged site and queries are in testdata/ and embedded, so that the
// benchmark command and the tests judge the same thing.
package searcheval

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
	"github.com/postmortem-archive/gen/internal/diag"
)

//go:embed testdata/queries.yaml
var queriesYAML []byte

//go:embed testdata/site
var siteFS embed.FS

// QueriesFile is the name the embedded query set is reported under.
const QueriesFile = "internal/bench/searcheval/testdata/queries.yaml"

// Categories are the kinds of query readers type, in the order reports
// list them.
var Categories = []string{
	"word",        // a plain word, as it is written
	"prefix",      // the first letters of a word, as typed so far (3 letters up to the word)
	"typo",        // a word misspelt
	"phrase",      // words in quotes, or several words
	"facet",       // org:, product:, region:, cause:, with or without words
	"cjk-word",    // a run of Chinese or Japanese characters
	"cjk-char",    // one Chinese or Japanese character
	"simplified",  // Simplified Chinese for text written in Traditional
	"traditional", // Traditional Chinese for text written in Simplified
	"compound",    // a run of Chinese or Japanese that the reports write apart
	"loanword",    // an operations word in English for katakana, or the reverse
	"mixed",       // Latin letters and Chinese or Japanese together
}

// Query is one judged query: what a reader types, in which site language,
// and the ids of the incidents they are looking for.
type Query struct {
	ID       string   `yaml:"id"`
	Category string   `yaml:"category"`
	Lang     string   `yaml:"lang"` // the reader's site language
	Q        string   `yaml:"q"`    // as typed, in gen's query syntax
	Relevant []string `yaml:"relevant"`
	// Causes are generated causes (internal/bench/corpus slugs) whose incidents
	// the reader is looking for too: those each names as its first cause,
	// which say it in their title, summary and report. Site.Judge adds
	// them to Relevant, for whatever incidents the site generated.
	Causes []string `yaml:"causes,omitempty"`
	Note   string   `yaml:"note,omitempty"` // why these are the relevant ones
}

// Queries returns the judged query set, checked against the judged site:
// every relevant id is one of its incidents, every cause one the
// generator draws from, every category known, every id unique. Its
// generated incidents are not yet among the relevant ones: Site.Judge
// adds them.
func Queries() ([]Query, error) {
	ids, err := FixtureIDs()
	if err != nil {
		return nil, err
	}
	return parseQueries(QueriesFile, queriesYAML, ids)
}

// parseQueries decodes a query set strictly and checks it; every mistake
// is reported at its line.
func parseQueries(file string, data []byte, incidents []string) ([]Query, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: want a list of queries", file)
	}
	var errs diag.List
	var qs []Query
	seen := map[string]bool{}
	causes := corpus.CauseSlugs()
	for _, n := range root.Content[0].Content {
		var q Query
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		if err := enc.Encode(n); err != nil {
			return nil, err
		}
		dec := yaml.NewDecoder(&buf)
		dec.KnownFields(true)
		if err := dec.Decode(&q); err != nil {
			errs.Add(file, n.Line, n.Column, "%v; the keys are id, category, lang, q, relevant, causes, note", err)
			continue
		}
		switch {
		case q.ID == "" || seen[q.ID]:
			errs.Add(file, n.Line, n.Column, "query id %q is empty or repeated; give each query its own id", q.ID)
		case !slices.Contains(Categories, q.Category):
			errs.Add(file, n.Line, n.Column, "query %s: unknown category %q; want one of %v", q.ID, q.Category, Categories)
		case q.Lang == "" || q.Q == "":
			errs.Add(file, n.Line, n.Column, "query %s: lang and q are required", q.ID)
		case len(q.Relevant) == 0:
			errs.Add(file, n.Line, n.Column, "query %s: no relevant incidents; judge at least one", q.ID)
		}
		for _, id := range q.Relevant {
			if !slices.Contains(incidents, id) {
				errs.Add(file, n.Line, n.Column, "query %s: relevant incident %q is not in the judged site; %s", q.ID, id,
					diag.Suggest(id, incidents, "judge one of the incidents in testdata/site/content"))
			}
		}
		for _, slug := range q.Causes {
			if !slices.Contains(causes, slug) {
				errs.Add(file, n.Line, n.Column, "query %s: unknown cause %q; %s", q.ID, slug,
					diag.Suggest(slug, causes, "name one of the generator's causes (internal/bench/corpus)"))
			}
		}
		seen[q.ID] = true
		qs = append(qs, q)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return qs, nil
}

// FixtureIDs lists the ids of the hand-written incidents.
func FixtureIDs() ([]string, error) {
	ents, err := fs.ReadDir(siteFS, "testdata/site/content")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}
