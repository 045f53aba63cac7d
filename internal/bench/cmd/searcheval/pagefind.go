package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/searcheval"
	"github.com/postmortem-archive/gen/internal/urls"
)

//go:embed build.mjs
var buildScript []byte

//go:embed query.mjs
var queryScript []byte

// pagefind is a running Node process answering queries from a Pagefind
// bundle.
type pagefind struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	depth int // results asked for, with their data (their URLs)
}

// startPagefind installs Pagefind into dir, indexes a tuned copy of the
// built site and starts the process that answers queries.
func startPagefind(ctx context.Context, public, dir, version string, log io.Writer) (*pagefind, error) {
	site := filepath.Join(dir, "site")
	if err := tunedCopy(public, site); err != nil {
		return nil, fmt.Errorf("copying the built site for Pagefind: %w", err)
	}
	// package.json says the scripts, and Pagefind's own, are ES modules.
	files := map[string][]byte{
		"build.mjs": buildScript, "query.mjs": queryScript,
		"package.json": []byte(`{"private": true, "type": "module"}` + "\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	npm := exec.CommandContext(ctx, "npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "pagefind@"+version)
	npm.Stdout, npm.Stderr = log, log
	if err := npm.Run(); err != nil {
		return nil, fmt.Errorf("npm install pagefind@%s: %w", version, err)
	}
	start := time.Now()
	bundle := filepath.Join(dir, "bundle")
	idx := exec.CommandContext(ctx, "node", filepath.Join(dir, "build.mjs"), site, bundle)
	idx.Dir, idx.Stderr = dir, log
	out, err := idx.Output()
	if err != nil {
		return nil, fmt.Errorf("indexing with Pagefind: %w", err)
	}
	fmt.Fprintf(log, "Pagefind indexed %s in %s\n", strings.TrimSpace(string(out)), time.Since(start).Round(time.Millisecond))
	q := exec.CommandContext(ctx, "node", filepath.Join(dir, "query.mjs"), bundle)
	q.Dir, q.Stderr = dir, log
	p := &pagefind{cmd: q, depth: searcheval.RankDepth}
	if p.in, err = q.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := q.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.out = bufio.NewScanner(stdout)
	p.out.Buffer(nil, 1<<20)
	if err := q.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// pagefindQuery is one line to query.mjs.
type pagefindQuery struct {
	Lang    string            `json:"lang"`
	Term    string            `json:"term"`
	Filters map[string]string `json:"filters,omitempty"`
	K       int               `json:"k"`
}

type pagefindAnswer struct {
	URLs  []string `json:"urls"`
	Total int      `json:"total"`
	MS    float64  `json:"ms"`
}

// engine asks Pagefind a judged query: its words as the search term, its
// organization:, product:, region: and cause: terms as Pagefind filters.
func (p *pagefind) engine(ctx context.Context, q searcheval.Query) (searcheval.Answer, error) {
	term, filters := splitFacets(q.Q)
	line, err := json.Marshal(pagefindQuery{Lang: q.Lang, Term: term, Filters: filters, K: p.depth})
	if err != nil {
		return searcheval.Answer{}, err
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		return searcheval.Answer{}, fmt.Errorf("writing to the Pagefind process: %w", err)
	}
	if !p.out.Scan() {
		return searcheval.Answer{}, fmt.Errorf("the Pagefind process stopped answering: %v", p.out.Err())
	}
	var a pagefindAnswer
	if err := json.Unmarshal(p.out.Bytes(), &a); err != nil {
		return searcheval.Answer{}, fmt.Errorf("reading Pagefind's answer %q: %w", p.out.Text(), err)
	}
	ans := searcheval.Answer{Total: a.Total, Took: time.Duration(a.MS * float64(time.Millisecond))}
	for _, u := range a.URLs {
		if id := incidentID(u); id != "" && !slices.Contains(ans.IDs, id) {
			ans.IDs = append(ans.IDs, id)
		}
	}
	return ans, nil
}

func (p *pagefind) close() error {
	p.in.Close()
	return p.cmd.Wait()
}

// filterOf names the Pagefind filter made of each taxonomy that the
// queries' facets use.
var filterOf = map[string]string{
	"organizations": "organization", "products": "product", "regions": "region", "causes": "cause",
}

// scheme reads the built site's URLs, which are under the root.
var scheme = urls.Scheme{Taxonomies: slices.Sorted(maps.Keys(filterOf))}

// incidentID is the incident id in the URL of an incident page, or "".
func incidentID(url string) string {
	if l := scheme.Parse(url); l.Kind == urls.Incident {
		return l.ID
	}
	return ""
}

var facetTerm = regexp.MustCompile(`(?i)\b(org|organization|product|region|cause)s?:("[^"]*"|\S+)`)

// splitFacets takes the organization:, product:, region: and cause:
// terms out of a query in gen's syntax, as Pagefind filters named by them.
func splitFacets(q string) (string, map[string]string) {
	var filters map[string]string
	rest := facetTerm.ReplaceAllStringFunc(q, func(t string) string {
		m := facetTerm.FindStringSubmatch(t)
		if filters == nil {
			filters = map[string]string{}
		}
		name := strings.ToLower(m[1])
		if name == "org" {
			name = "organization"
		}
		filters[name] = strings.Trim(m[2], `"`)
		return ""
	})
	return strings.Join(strings.Fields(rest), " "), filters
}

// The markup that tunes Pagefind to the incident pages, added only to the
// copy it indexes: index only the incident's article (not lists, term
// pages or navigation), not the chart's tick labels, and make its
// organization, product, region and cause links filters.
var (
	articleTag = regexp.MustCompile(`<article class="incident"`)
	chartTag   = regexp.MustCompile(`<figure class="chart"`)
	link       = regexp.MustCompile(`<a href="([^"]*)"`)
)

// tunePage marks up an incident page for Pagefind.
func tunePage(b []byte) []byte {
	b = articleTag.ReplaceAll(b, []byte(`$0 data-pagefind-body`))
	b = chartTag.ReplaceAll(b, []byte(`$0 data-pagefind-ignore`))
	return link.ReplaceAllFunc(b, func(a []byte) []byte {
		l := scheme.Parse(string(link.FindSubmatch(a)[1]))
		f, ok := filterOf[l.Taxonomy]
		if !ok || l.Kind != urls.Term {
			return a
		}
		a = slices.Clone(a) // a is the page itself
		if f == "cause" {
			// A cause's name is in the reader's language; readers type
			// its slug (cause:load-spike), so that is the value.
			return fmt.Appendf(a, ` data-pagefind-filter="%s:%s"`, f, html.EscapeString(l.Term))
		}
		return fmt.Appendf(a, ` data-pagefind-filter="%s"`, f)
	})
}

// tunedCopy copies the pages of a built site (its HTML, without the
// bundle folder) into dst, marking incident pages for Pagefind.
func tunedCopy(public, dst string) error {
	return filepath.WalkDir(public, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(public, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir // never served
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if filepath.Ext(path) != ".html" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if scheme.ParseFile(filepath.ToSlash(rel)).Kind == urls.Incident {
			b = tunePage(b)
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
