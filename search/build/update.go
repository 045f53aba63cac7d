package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
	"github.com/postmortem-archive/gen/search/schema"
	"github.com/postmortem-archive/gen/search/vocab"
)

// ErrNotUpdatable is returned by Update when the change adds a language
// index or empties one, or the index has been updated many times: the
// index is then built whole.
var ErrNotUpdatable = errors.New("search: this change needs the index built whole")

// Update writes into dir, which must not exist, the index at prev with
// every document of the incidents in replace removed and docs added (an
// incident changed is in replace and in docs): an index that answers
// every search as the one Create and Add would build of the whole new
// archive, at the cost of the changed documents only. prev is not
// changed. Its bleve segments are hard-linked (the documents replaced are
// marked deleted in the copy; the new ones go into a segment of their
// own), its document stores copied; the replaced documents' words and
// field lengths are counted out of the vocabulary and the BM25
// statistics by analysing their stored text again.
func Update(prev, dir string, replace map[string]bool, docs []schema.Document, opts ...Option) error {
	o := newOptions(opts)
	mj, err := schema.ReadMeta(prev)
	if err != nil {
		return err
	}
	byLang := map[string][]*schema.Document{}
	docs = slices.Clone(docs)
	for i := range docs {
		if err := schema.Normalize(&docs[i]); err != nil {
			return err
		}
		if !replace[docs[i].ID] {
			return fmt.Errorf("search: update: document %s is not among those replaced", docs[i].ID)
		}
		byLang[docs[i].Lang] = append(byLang[docs[i].Lang], &docs[i])
	}
	for lang := range byLang {
		if !slices.Contains(mj.Indexes, lang) {
			return fmt.Errorf("%w: a first document in %s", ErrNotUpdatable, lang)
		}
	}
	if mj.Updates >= o.maxUpdates {
		return fmt.Errorf("%w: the index has had %d updates", ErrNotUpdatable, mj.Updates)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search: update: %w", err)
	}
	for _, lang := range mj.Indexes {
		if err := updateLang(filepath.Join(prev, lang), filepath.Join(dir, lang), lang, replace, byLang[lang]); err != nil {
			return err
		}
	}
	mj.Updates++
	if err := schema.WriteMeta(dir, *mj); err != nil {
		return fmt.Errorf("search: write %s: %w", schema.MetaFile, err)
	}
	return shareable(dir)
}

// langUpdate is the update of one language index.
type langUpdate struct {
	m     *mapping.IndexMappingImpl
	fast  *analysis.Fast
	kind  analysis.Kind
	words *vocab.Builder
	lens  *schema.Lengths
	batch *index.Batch
}

// updateLang writes the language index dir from prev, with the documents
// in replace removed and docs added.
func updateLang(prev, dir, lang string, replace map[string]bool, docs []*schema.Document) error {
	m, err := schema.Mapping(lang)
	if err != nil {
		return fmt.Errorf("search: mapping for %s: %w", lang, err)
	}
	u := &langUpdate{m: m, fast: analysis.NewFast(m.AnalyzerNamed(analysis.For(lang))), kind: analysis.KindOf(lang), batch: index.NewBatch()}
	v, err := vocab.Read(filepath.Join(prev, vocab.FileName))
	if err != nil {
		return err
	}
	u.words = v.Builder()
	if u.lens, err = schema.ReadLengths(filepath.Join(prev, schema.LengthsFile)); err != nil {
		return err
	}
	store, metas, err := docstore.Open(filepath.Join(prev, docstore.FileName))
	if err != nil {
		return err
	}
	defer store.Close()
	if err := linkBleve(prev, dir); err != nil {
		return fmt.Errorf("search: update %s: %w", lang, err)
	}
	kept, err := u.countOut(store, metas, replace)
	if err != nil {
		return err
	}
	if len(kept)+len(docs) == 0 {
		return fmt.Errorf("%w: no document left in %s", ErrNotUpdatable, lang)
	}
	w, err := docstore.Extend(store, filepath.Join(dir, docstore.FileName), replace)
	if err != nil {
		return err
	}
	added, err := u.add(w, store.Dict(), docs)
	if err != nil {
		w.Abort()
		return err
	}
	for _, m := range append(kept, added...) {
		if err := w.AddMeta(m); err != nil {
			w.Abort()
			return err
		}
	}
	if err := w.Finish(); err != nil {
		return err
	}
	if err := vocab.Write(filepath.Join(dir, vocab.FileName), u.words.Vocab()); err != nil {
		return err
	}
	if err := schema.WriteLengths(filepath.Join(dir, schema.LengthsFile), u.lens); err != nil {
		return err
	}
	return u.apply(dir, lang)
}

// countOut counts the replaced documents of a store out of the
// vocabulary and lengths and queues their deletion; it returns the
// metadata of the others.
func (u *langUpdate) countOut(store *docstore.Reader, metas []*docstore.Meta, replace map[string]bool) (kept []*docstore.Meta, err error) {
	for _, mt := range metas {
		if !replace[mt.ID] {
			kept = append(kept, mt)
			continue
		}
		t, err := store.Text(mt.ID)
		if err != nil {
			return nil, err
		}
		a, err := schema.Analyse(u.m, u.fast, nil, schema.DocumentOf(mt), t)
		if err != nil {
			return nil, err
		}
		u.words.Remove(a.Words)
		u.lens.Add(schema.DocLengths(a.Doc), -1)
		u.batch.Delete(mt.ID)
	}
	return kept, nil
}

// add analyses and compresses the new documents, writes them into the
// store w and queues them for bleve; it returns their metadata.
func (u *langUpdate) add(w *docstore.Writer, dict []byte, docs []*schema.Document) ([]*docstore.Meta, error) {
	c, err := docstore.NewCompressor(dict)
	if err != nil {
		return nil, err
	}
	var metas []*docstore.Meta
	for _, d := range docs {
		t := schema.NewText(d, u.kind)
		a, err := schema.Analyse(u.m, u.fast, nil, d, t)
		if err != nil {
			return nil, err
		}
		a.Complete(t)
		rec, err := c.Compress(t)
		if err != nil {
			return nil, fmt.Errorf("search: compress %s (%s): %w", d.ID, d.Lang, err)
		}
		w.Add(d.ID, rec)
		u.words.Add(a.Words)
		u.lens.Add(schema.DocLengths(a.Doc), 1)
		u.batch.Update(a.Doc) // after a Delete of the same id, replaces it
		metas = append(metas, schema.NewMeta(d))
	}
	return metas, nil
}

// noMerges is bleve's configuration of an index an update writes: no
// segment is small enough to merge (bleve merges those under half of
// MaxSegmentSize documents, empty ones included). A merge would write the
// linked segments again, whole, costing what the update is to save, and
// would happen or not by how the scheduler ran bleve's merger before Close.
var noMerges = map[string]interface{}{"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentSize": 1}}

// apply opens the linked copy of the bleve index and applies the batch.
func (u *langUpdate) apply(dir, lang string) error {
	idx, err := bleve.OpenUsing(dir, noMerges)
	if err != nil {
		return fmt.Errorf("search: open the copy of the %s index: %w", lang, err)
	}
	adv, err := idx.Advanced()
	if err == nil {
		err = adv.Batch(u.batch)
	}
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("search: update the %s index: %w", lang, err)
	}
	return nil
}

// linkBleve makes dir a copy of the bleve index prev: its segments
// (.zap files, never changed once written) hard-linked, or copied where
// the file system cannot link; the rest (bolt's root, which bleve
// rewrites) copied. The files the update writes anew are left out.
func linkBleve(prev, dir string) error {
	return filepath.WalkDir(prev, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(prev, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case rel == docstore.FileName || rel == vocab.FileName || rel == schema.LengthsFile:
			return nil
		case strings.HasSuffix(rel, ".zap") && os.Link(p, to) == nil:
			return nil
		}
		return copyFile(p, to)
	})
}

// copyFile copies a file where a hard link cannot be made (another file
// system).
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = dst.ReadFrom(src)
	return errors.Join(err, dst.Close())
}
