package search

// An index opened WithUpdates: bleve's index is changed in its folder;
// the texts, words and field lengths of the documents changed since are
// kept in memory over those the folder holds.

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/docstore"
)

// updatableConfig returns bleve's configuration of an index opened
// WithUpdates. A change waits for bleve to take it, not for the disk: the
// folder is thrown away with the index. bleve merges the small segments
// of the changes in the background (those under half of MaxSegmentSize
// documents), but none of the Writer's batches: merged with the few
// documents of an edit, they would be written again, whole, every few
// edits. At 1,000 (eight segments a language, unmergedMax), merging
// those under 500 made an edit cost three times the CPU (55–62 ms
// against 18–19), under 128 a third more (a last batch of 104). A new
// map each time: bleve writes the path of the index it creates into it.
func updatableConfig() map[string]interface{} {
	return map[string]interface{}{
		"unsafe_batch":           true,
		"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentSize": builderBatch / 2},
	}
}

// overlay is the document store of a language of an index opened
// WithUpdates: the store it was opened with (nil for a language it had
// no document of), under the texts of the documents changed since (nil:
// removed).
type overlay struct {
	base  *docstore.Reader
	added docstore.Memory
}

// Text returns the text of document id.
func (o *overlay) Text(id string) (*docstore.Text, error) {
	if t, ok := o.added[id]; ok || o.base == nil {
		return t, nil
	}
	return o.base.Text(id)
}

// Sketch returns the sketch of document id.
func (o *overlay) Sketch(id string) ([]byte, bool) {
	if _, ok := o.added[id]; ok || o.base == nil {
		return o.added.Sketch(id)
	}
	return o.base.Sketch(id)
}

// Length returns the length of the text of document id.
func (o *overlay) Length(id string) (int, bool) {
	if _, ok := o.added[id]; ok || o.base == nil {
		return o.added.Length(id)
	}
	return o.base.Length(id)
}

// setText records the text of document id of an updatable language
// index (nil: removed).
func (ix *Index) setText(lang, id string, t *docstore.Text) {
	ix.docs[lang].(*overlay).added[id] = t
}

// countBase makes the words and field lengths of document id of the
// folder an index was opened from known to its language's counts (they
// are in the totals, but not by document), so that replacing or
// removing it counts them out: its stored text is analysed again, as
// Update does. Documents added since are known already.
func (ix *Index) countBase(m *mapping.IndexMappingImpl, fast *analysis.Fast, lang, id string) error {
	o := ix.docs[lang].(*overlay)
	if _, changed := o.added[id]; changed || o.base == nil {
		return nil
	}
	in := ix.meta.incidents[id]
	if in == nil || in.docs[lang] == nil {
		return nil
	}
	t, err := o.base.Text(id)
	if err != nil {
		return err
	}
	if t == nil {
		return fmt.Errorf("search: %s (%s) has no text in the document store", id, lang)
	}
	a, err := analyse(m, fast, nil, documentOf(in.docs[lang]), t)
	if err != nil {
		return err
	}
	ix.memWords[lang].byID[id] = a.words
	ix.memLens[lang].byID[id] = docLengths(a.doc)
	return nil
}
