// Package content is the load stage: it reads content/<id>/<lang>.md files,
// splits and strictly decodes their front matter, parses the Markdown once
// with goldmark and finds each page's timeline. It knows nothing of other
// pages; grouping translations into incidents is the link stage's job.
package content

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/markdown"
	"github.com/postmortem-archive/gen/internal/sitefs"

	"github.com/postmortem-archive/gen/i18n"
)

// MaxFileSize bounds one content file. Postmortems are a few pages long; a
// file far beyond that is a mistake, and refusing it keeps memory bounded.
const MaxFileSize = 4 << 20

// Page is one content file: one incident in one language.
type Page struct {
	ID   string // the incident id: the folder name
	Lang string // canonical BCP 47 tag: the file name without .md
	File string // "content/<id>/<lang>.md", for messages

	Meta Meta
	// Body is the Markdown after the front matter; nil for a page loaded
	// without a Cache, whose Source reads it again from the file: a build
	// of a large archive does not hold every page's text at once.
	Body     []byte
	BodyLine int // file line on which Body starts
	// Timeline holds the items of the list under the {#timeline} heading.
	Timeline    []Mark
	TimelinePos Pos // the timeline heading; zero when there is none
	// TimelineUnread counts the timeline items that could not be read
	// (each reported): the timeline is incomplete, so it is not compared
	// with other languages.
	TimelineUnread int
	// Sections are the ids of the body's headings, in order.
	Sections []string
	// Links are the link destinations written in the body, for checking.
	Links []Link
	// Sum is the SHA-256 of the file as read: a build records it, and
	// the next build tells from it which files changed without reading
	// them again.
	Sum [sha256.Size]byte

	lineStarts []int // byte offsets of each Body line, for positions; nil after Parse

	// When Body is nil: the file Source reads again, and the hash of the
	// body it read first, to refuse a file changed since.
	abs     string
	bodySum uint64
}

// Cache keeps parsed files between builds of a long-running server, so a
// rebuild parses only the files that changed. A file is parsed again when
// its size or modification time differs, or when it was forgotten.
type Cache struct {
	mu    sync.Mutex
	files map[string]cachedFile
	// forgotten counts the times each file was forgotten: a parse that
	// began before the last time keeps its result to itself, so that a
	// parse given up and finishing late cannot replace a newer version's
	// (the two may have the same size and modification time).
	forgotten map[string]uint64
	onParse   func(file string, src []byte)
}

type cachedFile struct {
	mod  time.Time
	size int64
	page *Page
	errs diag.List
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{files: map[string]cachedFile{}, forgotten: map[string]uint64{}}
}

// Forget drops a file, so the next load parses it again, and makes the
// results of parses of it running now be dropped.
func (c *Cache) Forget(abs string) {
	c.mu.Lock()
	delete(c.files, abs)
	c.forgotten[abs]++
	c.mu.Unlock()
}

// OnParse sets f to be called by the worker about to parse a file, with
// the file's name and text. The authoring server's tests use it to hold
// one parse, as a pathological file would, and see that a newer change
// does not wait for it. It must be set before the cache is first used.
func (c *Cache) OnParse(f func(file string, src []byte)) { c.onParse = f }

// Load reads every content file under dir/content. langs is the set of site
// languages (one per i18n file); a file in another language is an error,
// unless one of them can stand in for its interface (i18n.Nearest: a
// zh-HK.md on a site with zh-TW).
// All problems are collected; the pages that could be read are returned
// with them. cache may be nil.
func Load(dir string, langs []string, cache *Cache) ([]*Page, error) {
	return LoadContext(context.Background(), dir, langs, cache)
}

// LoadContext is Load that gives up when ctx is done, returning ctx's
// error: the files not yet parsed are not, and a parse already running is
// not waited for (a goldmark parse cannot be interrupted; it finishes on
// its own and its result is dropped).
func LoadContext(ctx context.Context, dir string, langs []string, cache *Cache) ([]*Page, error) {
	return loadPages(ctx, dir, langs, cache, nil)
}

// LoadAfter is LoadContext for a build that follows an earlier one: a
// file whose bytes are those the earlier build parsed is not parsed
// again, its page is taken from earlier (which may be nil).
func LoadAfter(ctx context.Context, dir string, langs []string, earlier *Earlier) ([]*Page, error) {
	return loadPages(ctx, dir, langs, nil, earlier)
}

// loadPages is LoadContext, taking unchanged files' pages from earlier.
func loadPages(ctx context.Context, dir string, langs []string, cache *Cache, earlier *Earlier) ([]*Page, error) {
	var errs diag.List
	root := filepath.Join(dir, "content")
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, contentFolderError(root, err)
	}
	siteLangs := map[string]bool{}
	for _, l := range langs {
		siteLangs[l] = true
	}
	var jobs []job
	for _, e := range entries {
		jobs = append(jobs, folderJobs(root, e, siteLangs, langs, &errs)...)
	}
	out, err := cache.parseJobs(ctx, jobs, earlier, &errs)
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, errs.Err()
}

// Reload is Load after changes to the incident folders named in folders
// (names under content/), given prev, what the last Load or Reload with
// the same arguments returned without errors: the pages of other folders
// are taken from prev without reading their folder or looking at their
// files, so that one saved file costs the same in any archive. A folder
// that no longer exists has no pages.
func Reload(ctx context.Context, dir string, langs []string, cache *Cache, prev []*Page, folders map[string]bool) ([]*Page, error) {
	var errs diag.List
	root := filepath.Join(dir, "content")
	siteLangs := map[string]bool{}
	for _, l := range langs {
		siteLangs[l] = true
	}
	// Every folder gone may be content/ itself gone: that is the error a
	// full load reports, not an archive with no incidents.
	if _, err := os.Stat(root); err != nil {
		return nil, contentFolderError(root, err)
	}
	var jobs []job
	for _, name := range slices.Sorted(maps.Keys(folders)) {
		info, err := os.Lstat(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed
		}
		if err != nil {
			errs.Add(path.Join("content", name), 0, 0, "cannot read: %v", unwrapPath(err))
			continue
		}
		jobs = append(jobs, folderJobs(root, fs.FileInfoToDirEntry(info), siteLangs, langs, &errs)...)
	}
	fresh, err := cache.parseJobs(ctx, jobs, nil, &errs)
	if err != nil {
		return nil, err
	}
	// prev is in file order: the fresh pages are put in their places.
	out := make([]*Page, 0, len(prev)+len(fresh))
	for _, p := range prev {
		if !folders[p.ID] {
			out = append(out, p)
		}
	}
	sort.Slice(fresh, func(i, j int) bool { return fresh[i].File < fresh[j].File })
	for _, p := range fresh {
		i, _ := slices.BinarySearchFunc(out, p.File, func(q *Page, file string) int { return strings.Compare(q.File, file) })
		out = slices.Insert(out, i, p)
	}
	return out, errs.Err()
}

// contentFolderError is the error of a content folder, root, that cannot
// be read.
func contentFolderError(root string, err error) error {
	var errs diag.List
	if errors.Is(err, fs.ErrNotExist) {
		errs.Add(filepath.ToSlash(root), 0, 0, "no such folder; incidents live in content/<YYYY-MM-DD-slug>/<lang>.md under the site folder: create it, or point --source at the site")
	} else {
		errs.Add(filepath.ToSlash(root), 0, 0, "cannot read the content folder: %v", unwrapPath(err))
	}
	return errs.Err()
}

// job is one content file to parse.
type job struct{ id, lang, file, abs string }

// newJob is the job of the file fname of incident id, whose path from
// the site is file. A build keeps the strings of every page it loads: on
// Unix the page's file is the end of its absolute path, one string, not
// two; its language is the site's.
func newJob(root, id, lang, file, fname string) job {
	abs := filepath.Join(root, id, fname)
	if strings.HasSuffix(abs, string(filepath.Separator)+file) {
		file = abs[len(abs)-len(file):]
	}
	return job{id, lang, file, abs}
}

// siteLang is the site's copy of the language tag: one string for all of
// a language's pages.
func siteLang(langs []string, tag string) string {
	for _, l := range langs {
		if l == tag {
			return l
		}
	}
	return tag
}

// folderJobs checks one entry of content/ and lists the files in it to
// parse.
func folderJobs(root string, e fs.DirEntry, siteLangs map[string]bool, langs []string, errs *diag.List) []job {
	name := e.Name()
	rel := path.Join("content", name)
	if strings.HasPrefix(name, ".") {
		return nil
	}
	if e.Type()&fs.ModeSymlink != 0 {
		errs.Add(rel, 0, 0, "is a symbolic link; incident folders must be real folders inside content/")
		return nil
	}
	if !e.IsDir() {
		errs.Add(rel, 0, 0, "stray file in content/; each incident is a folder content/<YYYY-MM-DD-slug>/ holding <lang>.md files")
		return nil
	}
	if !idPattern.MatchString(name) {
		errs.Add(rel, 0, 0, "incident folder name %q is not an id; name it <local begin date>-<slug>, e.g. 2017-03-13-bigquery-streaming-inserts (lowercase letters, digits, hyphens)", name)
		return nil
	}
	files, err := os.ReadDir(filepath.Join(root, name))
	if err != nil {
		errs.Add(rel, 0, 0, "cannot read folder: %v", unwrapPath(err))
		return nil
	}
	var jobs []job
	for _, f := range files {
		fname := f.Name()
		frel := path.Join(rel, fname)
		if strings.HasPrefix(fname, ".") || !strings.HasSuffix(fname, ".md") {
			continue
		}
		if kind := sitefs.Kind(f.Type()); kind != "" || f.IsDir() {
			if f.IsDir() {
				kind = "a folder"
			}
			errs.Add(frel, 0, 0, "is %s, not a regular file (links are not followed); put the text itself here", kind)
			continue
		}
		tagText := strings.TrimSuffix(fname, ".md")
		tag, err := i18n.Canonical(tagText)
		if err != nil {
			errs.Add(frel, 1, 1, "%q is not a BCP 47 language tag; name the file after its language, e.g. en.md or zh-TW.md", tagText)
			continue
		}
		if tag != tagText {
			errs.Add(frel, 1, 1, "language tag %q is not in canonical form; rename the file to %s.md", tagText, tag)
			continue
		}
		if !siteLangs[tagText] && !hasNearest(tagText, langs) {
			errs.Add(frel, 1, 1, "language %q has no i18n file; add i18n/%s.yaml or use one of: %s", tagText, tagText, strings.Join(langs, ", "))
			continue
		}
		jobs = append(jobs, newJob(root, name, siteLang(langs, tagText), frel, fname))
	}
	return jobs
}

// hasNearest reports whether a site language stands in for tag, which
// has no i18n file.
func hasNearest(tag string, langs []string) bool {
	_, ok := i18n.Nearest(tag, langs)
	return ok
}

// parseJobs parses the files of jobs (from the cache or earlier when
// unchanged) and returns the pages that could be read, adding problems to
// errs.
func (c *Cache) parseJobs(ctx context.Context, jobs []job, earlier *Earlier, errs *diag.List) ([]*Page, error) {
	pages := make([]*Page, len(jobs))
	perPage := make([]diag.List, len(jobs))
	if err := parseAll(ctx, len(jobs), func(i int) {
		j := jobs[i]
		pages[i] = c.load(j.abs, j.file, j.id, j.lang, earlier, &perPage[i])
	}); err != nil {
		return nil, err
	}
	out := pages[:0]
	for i, p := range pages {
		errs.AddError(perPage[i].Err())
		if p != nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// parsersPerCore is how many parses run at once for each core: a parse
// waiting for its file to be read, or for the collector, leaves its core
// to another. With one per core, parsing 10,000 incidents × 2 from the
// page cache took 10 % longer than with two.
const parsersPerCore = 2

// parseAll calls parse(i) for every i below n, parsersPerCore at a time
// on every core, and returns when all are done or, at once, when ctx is
// done: then no further file is handed out, and the parses running
// finish unwatched.
func parseAll(ctx context.Context, n int, parse func(i int)) error {
	next := make(chan int)
	finished := make(chan struct{})
	var wg sync.WaitGroup
	for range parsersPerCore * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				parse(i)
			}
		})
	}
	go func() {
		defer close(finished)
		defer wg.Wait()
		defer close(next)
		for i := range n {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	select {
	case <-finished:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unwrapPath drops the path an os error repeats, since messages already
// start with it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// load parses a file, or returns the page parsed before when the file has
// not changed since.
func (c *Cache) load(abs, file, id, lang string, earlier *Earlier, errs *diag.List) *Page {
	var gen uint64
	if c != nil {
		c.mu.Lock()
		gen = c.forgotten[abs]
		c.mu.Unlock()
	}
	info, err := os.Stat(abs)
	if err != nil {
		errs.Add(file, 0, 0, "cannot read: %v", unwrapPath(err))
		return nil
	}
	if c == nil {
		return c.loadFile(abs, info, file, id, lang, earlier, errs)
	}
	c.mu.Lock()
	hit, ok := c.files[abs]
	c.mu.Unlock()
	if ok && hit.mod.Equal(info.ModTime()) && hit.size == info.Size() {
		errs.AddError(hit.errs.Err())
		return hit.page
	}
	var own diag.List
	page := c.loadFile(abs, info, file, id, lang, nil, &own)
	c.mu.Lock()
	if c.forgotten[abs] == gen {
		c.files[abs] = cachedFile{mod: info.ModTime(), size: info.Size(), page: page, errs: own}
	}
	c.mu.Unlock()
	errs.AddError(own.Err())
	return page
}

// loadFile reads and parses one file, whose size info has already been
// taken, or takes its page from earlier. It returns nil when the file
// cannot be used at all; otherwise the page, with any problems recorded
// in errs.
func (c *Cache) loadFile(abs string, info os.FileInfo, file, id, lang string, earlier *Earlier, errs *diag.List) *Page {
	if err := tooLarge(info.Size()); err != nil {
		errs.Add(file, 1, 1, "%v", err)
		return nil
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		errs.Add(file, 0, 0, "cannot read: %v", unwrapPath(err))
		return nil
	}
	if c != nil && c.onParse != nil {
		c.onParse(file, src)
	}
	sum := sha256.Sum256(src)
	if p := earlier.take(file, sum); p != nil {
		// Parsed without errors from these bytes.
		p.abs = abs
		p.bodySum, _, _ = bodyHash(src)
		return p
	}
	p := Parse(file, id, lang, src, errs)
	if p != nil {
		p.Sum = sum
	}
	if c == nil && p != nil {
		p.abs, p.bodySum, p.Body = abs, maphash.Bytes(bodySeed, p.Body), nil
	}
	return p
}

// bodySeed seeds the hashes that tell a page's file changed between load
// and render.
var bodySeed = maphash.MakeSeed()

// bodyHash is the hash of the Markdown body of a file's bytes, and the
// body; ok is false for bytes that are not UTF-8.
func bodyHash(src []byte) (sum uint64, body []byte, ok bool) {
	src, err := normalize(src)
	if err != nil {
		return 0, nil, false
	}
	_, body, _, _ = splitFrontMatter(src)
	return maphash.Bytes(bodySeed, body), body, true
}

// Source is the page's Markdown body: Body, or for a page loaded without
// a Cache, the body read again from its file. It is an error for the file
// to have changed since it was loaded: its timeline and links were read
// from the first version.
func (p *Page) Source() ([]byte, error) {
	if p.Body != nil || p.abs == "" {
		return p.Body, nil
	}
	src, err := os.ReadFile(p.abs)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", p.File, unwrapPath(err))
	}
	if sum, body, ok := bodyHash(src); ok && sum == p.bodySum {
		return body, nil
	}
	return nil, fmt.Errorf("%s: changed while the site was built; build again", p.File)
}

// normalize drops a byte order mark and turns CRLF and CR line ends into
// LF; text that is not UTF-8 is an error.
func normalize(src []byte) ([]byte, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	if !utf8.Valid(src) {
		return src, errors.New("not UTF-8")
	}
	return src, nil
}

// tooLarge is the loader's refusal of a file of size bytes, or nil.
func tooLarge(size int64) error {
	if size <= MaxFileSize {
		return nil
	}
	return fmt.Errorf("file is %.1f MiB; the limit for one incident is %d MiB, split it or remove pasted logs", float64(size)/(1<<20), MaxFileSize>>20)
}

// CheckLimits returns why a build would refuse src, a whole content file,
// before parsing it: its size, or a body over the parse budget, at a line
// of the file. gen import calls it so as never to write a file the build
// refuses.
func CheckLimits(src []byte) error {
	if err := tooLarge(int64(len(src))); err != nil {
		return err
	}
	_, body, bodyLine, _ := splitFrontMatter(src)
	if pr := markdown.DefaultBudget.Check(body); pr != nil {
		return fmt.Errorf("line %d: %s", bodyLine+bytes.Count(body[:pr.Offset], []byte("\n")), pr.Msg)
	}
	return nil
}

// Parse turns the bytes of one content file into a Page. file, id and lang
// name the file for messages and grouping.
func Parse(file, id, lang string, src []byte, errs *diag.List) *Page {
	src, err := normalize(src)
	if err != nil {
		line, col := invalidUTF8At(src)
		errs.Add(file, line, col, "text is not valid UTF-8; save the file as UTF-8")
		return nil
	}
	if len(bytes.TrimSpace(src)) == 0 {
		errs.Add(file, 1, 1, "file is empty; start it with front matter between `---` lines (title, summary, …)")
		return nil
	}
	yamlText, body, bodyLine, ok := splitFrontMatter(src)
	if !ok {
		errs.Add(file, 1, 1, "no front matter; the file must start with a `---` line, then `title: …`, `summary: …`, then a closing `---`")
		return nil
	}
	p := &Page{ID: id, Lang: lang, File: file, Body: body, BodyLine: bodyLine}
	p.lineStarts = lineStarts(body)
	meta, ok := decodeMeta(file, yamlText, 2, errs)
	if !ok {
		return nil
	}
	p.Meta = meta
	if !p.Meta.Title.Given() {
		errs.Add(file, 1, 1, "front matter has no title; add `title: …`")
	} else if p.Meta.Title.V == "" {
		errs.Add(file, p.Meta.Title.Line, p.Meta.Title.Col, "title is empty; give the incident a title")
	}
	// A body that would cost too much to parse is refused before parsing.
	if pr := markdown.DefaultBudget.Check(body); pr != nil {
		pos := p.pos(pr.Offset)
		errs.Add(file, pos.Line, pos.Col, "%s", pr.Msg)
		return nil
	}
	// The tree is used here and dropped: a large archive cannot keep every
	// page's tree in memory. Tree parses again when a page is rendered.
	doc, timeline := parseMarkdown(body)
	for h := doc.FirstChild(); h != nil; h = h.NextSibling() {
		if _, ok := h.(*ast.Heading); ok {
			p.Sections = append(p.Sections, markdown.HeadingID(h))
		}
	}
	p.Links = collectLinks(p, doc)
	p.TimelineUnread = timeline.Unreadable
	p.Timeline, p.TimelinePos = marksOf(p, timeline, func(pos Pos, msg string) {
		errs.Add(file, pos.Line, pos.Col, "%s", msg)
	})
	p.lineStarts = nil // positions are all taken
	return p
}

// Tree parses the page's body into the tree the render stage prints (its
// timeline items hold EventTime nodes, numbered as Timeline is), and
// returns it with the source its segments point into.
func (p *Page) Tree() (ast.Node, []byte, error) {
	src, err := p.Source()
	if err != nil {
		return nil, nil, err
	}
	doc, _ := parseMarkdown(src)
	return doc, src, nil
}

// Link is a link written in a page's Markdown.
type Link struct {
	Pos
	Dest string
}

// collectLinks lists the body's links with the position of their text.
func collectLinks(p *Page, doc ast.Node) []Link {
	var out []Link
	at := p.positions()
	last := 0 // where the last text seen ends: a link without text is there
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Text:
			if entering {
				last = n.Segment.Stop
			}
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			if entering && n.Lines().Len() > 0 {
				last = n.Lines().At(0).Start
			}
		case *ast.Link:
			if entering {
				out = append(out, Link{Pos: at.at(inlineStart(n, last)), Dest: string(n.Destination)})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// inlineStart finds a source offset for an inline node: its first text,
// or else after, the text before it.
func inlineStart(n ast.Node, after int) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			// The text starts after "[".
			return max(t.Segment.Start-1, 0)
		}
	}
	return after
}

// pos converts a byte offset in Body to a file position (column in runes).
func (p *Page) pos(off int) Pos { return p.positions().at(off) }

// positions converts offsets one after another: counting the characters
// of a long line again for every link on it would take time quadratic in
// its length.
func (p *Page) positions() *positions { return &positions{p: p, line: -1} }

type positions struct {
	p              *Page
	line, off, col int // the last offset converted
}

func (ps *positions) at(off int) Pos {
	p := ps.p
	i := max(sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off })-1, 0)
	if i == ps.line && off >= ps.off {
		ps.col += utf8.RuneCount(p.Body[ps.off:off])
	} else {
		ps.col = utf8.RuneCount(p.Body[p.lineStarts[i]:off]) + 1
	}
	ps.line, ps.off = i, off
	return Pos{Line: p.BodyLine + i, Col: ps.col}
}

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func invalidUTF8At(b []byte) (line, col int) {
	line, col = 1, 1
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		b = b[size:]
	}
	return line, col
}

// plainText is the text of a node and its descendants without markup.
// Its lines are the blocks: a paragraph, a heading, a list item, a table
// row (its cells apart, separated by tabs) each on a line of its own,
// and never two on one line, so that a search snippet cut from one line
// does not run a heading into the text under it. Inside a block, a line
// break is a space (or nothing between Chinese and Japanese characters).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	// endBlock ends the line of a block, once: nested blocks (a list item
	// holding a paragraph) do not leave empty lines.
	endBlock := func(sep byte) {
		s := b.String()
		if s == "" || s[len(s)-1] == '\n' || s[len(s)-1] == '\t' && sep == '\t' {
			return
		}
		if last := s[len(s)-1]; last == ' ' || last == '\t' {
			// Not a trailing space or an empty last cell before the
			// line's end.
			trimmed := strings.TrimRight(s, " \t")
			b.Reset()
			b.WriteString(trimmed)
		}
		b.WriteByte(sep)
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			switch {
			case c.Kind() == extast.KindTableCell:
				endBlock('\t')
			case c.Type() == ast.TypeBlock:
				endBlock('\n')
			}
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			// The line breaks package markdown keeps before a link are
			// spaces here: a line is a block.
			b.Write(bytes.ReplaceAll(t.Value, []byte("\n"), []byte(" ")))
		case *ast.CodeSpan:
			for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
				if tx, ok := ch.(*ast.Text); ok {
					b.Write(tx.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// PlainText is the page body as text without markup, for the search index.
func (p *Page) PlainText() (string, error) {
	doc, src, err := p.Tree()
	if err != nil {
		return "", err
	}
	return plainText(doc, src), nil
}

// Section is one part of a page body as plain text (see plainText): a
// second-level heading and the blocks up to the next one. ID is the
// heading's id ("impact", "root-cause"); the blocks before the first
// heading are a section without heading or id.
type Section struct {
	ID, Heading, Text string
}

// PlainSections is the page body as plain text cut at its second-level
// headings, so that the search index can weigh the parts of a report
// (its impact, its root cause) apart.
func (p *Page) PlainSections() ([]Section, error) {
	doc, src, err := p.Tree()
	if err != nil {
		return nil, err
	}
	return TreeSections(doc, src), nil
}

// TreeSections is PlainSections of a tree Tree returned, with the source
// it came with. The text of each timeline item (Mark.Text) is left out:
// the search indexes the timeline as a field of its own, and indexing it
// in the body too cost a tenth of the index's work.
func TreeSections(doc ast.Node, src []byte) []Section {
	var out []Section
	var blocks []string
	cur := Section{}
	flush := func() {
		cur.Text = strings.Join(blocks, "\n")
		if cur.Heading != "" || cur.Text != "" {
			out = append(out, cur)
		}
		blocks = blocks[:0]
	}
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok && h.Level == 2 {
			flush()
			cur = Section{Heading: plainText(h, src)}
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					cur.ID = string(b)
				}
			}
			continue
		}
		if t := blockText(c, src); t != "" {
			blocks = append(blocks, t)
		}
	}
	flush()
	return out
}

// blockText is plainText of a block of the body, but for the text of the
// timeline's items in it. What an item holds after its first paragraph
// (a nested list, another paragraph) is not the event's text, and stays.
func blockText(c ast.Node, src []byte) string {
	if !isTimeline(c) {
		return plainText(c, src)
	}
	var parts []string
	for item := c.FirstChild(); item != nil; item = item.NextSibling() {
		for b := item.FirstChild(); b != nil; b = b.NextSibling() {
			if b == item.FirstChild() && startsEvent(b) {
				continue
			}
			if t := plainText(b, src); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// isTimeline reports whether c is a list with a timeline item.
func isTimeline(c ast.Node) bool {
	if _, ok := c.(*ast.List); !ok {
		return false
	}
	for item := c.FirstChild(); item != nil; item = item.NextSibling() {
		if startsEvent(item.FirstChild()) {
			return true
		}
	}
	return false
}

// startsEvent reports whether the block b is a timeline item's text: it
// holds the item's time.
func startsEvent(b ast.Node) bool {
	if b == nil {
		return false
	}
	for n := b.FirstChild(); n != nil; n = n.NextSibling() {
		if _, ok := n.(*markdown.EventTime); ok {
			return true
		}
	}
	return false
}
