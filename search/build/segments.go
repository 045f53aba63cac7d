package build

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"

	"github.com/postmortem-archive/gen/search/analysis"
	"github.com/postmortem-archive/gen/search/schema"
)

// segmentBuilder writes a language's index the way bleve's offline
// builder (scorch.Builder) does, a segment of every schema.SegmentDocs
// documents merged into one at the end, but builds each segment in the
// background while the next documents come: bleve's builder builds it
// in the call that hands over the batch's last document, so the
// language's writer stopped taking documents, and the analysis and the
// render behind it waited.
//
// The segments are merged in the order of their documents, whichever
// was built first, as bleve's builder merges them.
type segmentBuilder struct {
	path  string // the language's index
	tmp   string // the segments before they are merged, removed by Close
	m     *mapping.IndexMappingImpl
	slots chan struct{} // shared by the writer's languages: a place for each segment built at once
	// merging, shared by the writer's languages too, holds a place for
	// each merge running.
	merging chan struct{}
	pool    *analysis.TermsPool
	opts    *options // the merges' sizes and the hooks

	batch []*document.Document
	terms []*analysis.Terms // the batch's documents' terms, for pool once built
	segs  []string          // by batch, the built segments' files
	built sync.WaitGroup

	mu  sync.Mutex
	err error // the first failed build
}

// segmentPlugin is the segment format the builder writes, given to
// scorch as the index's, so that the two cannot differ.
var segmentPlugin = &zap.ZapPlugin{}

func newSegmentBuilder(path, tmp string, m *mapping.IndexMappingImpl, slots, merging chan struct{}, pool *analysis.TermsPool, opts *options) (*segmentBuilder, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	// What bleve.Open expects of a scorch index.
	if err := os.WriteFile(filepath.Join(path, "index_meta.json"), []byte(`{"storage":"scorch","index_type":"scorch"}`), 0o644); err != nil {
		return nil, err
	}
	// Segments go under tmp, on the same file system as the result,
	// which is renamed into place.
	dir, err := os.MkdirTemp(tmp, "segments")
	if err != nil {
		return nil, err
	}
	return &segmentBuilder{path: path, tmp: dir, m: m, slots: slots, merging: merging, pool: pool, opts: opts}, nil
}

// Index adds an analysed document, whose terms are kept in terms (nil:
// memory of its own) until its segment is built. It returns the error
// of an earlier segment that could not be built.
func (b *segmentBuilder) Index(doc *document.Document, terms *analysis.Terms) error {
	b.batch = append(b.batch, doc)
	if terms != nil {
		b.terms = append(b.terms, terms)
	}
	if len(b.batch) == schema.SegmentDocs {
		b.flush()
	}
	return b.failed()
}

// flush starts building the batch's segment once a slot is free.
func (b *segmentBuilder) flush() {
	if len(b.batch) == 0 {
		return
	}
	n := len(b.segs)
	file := filepath.Join(b.tmp, fmt.Sprintf("%08d.zap", n))
	b.segs = append(b.segs, file)
	docs, terms := b.batch, b.terms
	b.batch, b.terms = nil, nil
	b.slots <- struct{}{}
	b.built.Go(func() {
		defer func() { <-b.slots }()
		if start := b.opts.buildStarted; start != nil {
			defer start()()
		}
		err := buildSegment(docs, file)
		b.pool.Put(terms)
		if err != nil {
			b.fail(fmt.Errorf("segment %d: %w", n, err))
		}
	})
}

// buildSegment writes the segment of the analysed docs into file, as
// scorch.Builder does (the _id field added and analysed, the others
// being analysed already).
func buildSegment(docs []*document.Document, file string) error {
	seg, err := newSegment(docs)
	if err != nil {
		return err
	}
	return writeSegment(seg, file)
}

func newSegment(docs []*document.Document) (segment.Segment, error) {
	results := make([]index.Document, len(docs))
	for i, d := range docs {
		d.AddIDField()
		d.VisitFields(func(f index.Field) {
			if f.Options().IsIndexed() {
				f.Analyze()
			}
		})
		results[i] = d
	}
	seg, _, err := segmentPlugin.New(results)
	return seg, err
}

// writeSegment writes seg into file as Persist writes it, but does not
// sync it: the segment is merged and removed before the build ends (or
// is part of the index the build renames into place, whose pages are
// not synced either), and a failed build starts again. Persist's fsync,
// 1,564 of them at 100,000 incidents, each waiting behind the gigabytes
// of pages the render left for the disk, held the one place for a
// segment being built.
func writeSegment(seg segment.Segment, file string) error {
	w, ok := seg.(io.WriterTo)
	if !ok {
		return fmt.Errorf("a %T cannot be written", seg)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	_, err = w.WriteTo(f)
	return errors.Join(err, f.Close())
}

func (b *segmentBuilder) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = err
	}
}

func (b *segmentBuilder) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Abort waits for the segments being built and removes them.
func (b *segmentBuilder) Abort() {
	b.built.Wait()
	os.RemoveAll(b.tmp)
}

// Close builds the last segment, merges all of them into one and writes
// the index around it.
func (b *segmentBuilder) Close() error {
	b.flush()
	b.built.Wait()
	// The segments are merged next, with nothing more to analyse.
	b.pool.Drop()
	if err := b.failed(); err != nil {
		b.Abort()
		return err
	}
	segs, err := b.merge()
	if err == nil {
		err = b.frame(segs)
	}
	return errors.Join(err, os.RemoveAll(b.tmp))
}

// merge merges the segments in passes until no more than unmergedMax
// are left, each pass merging every run of up to builderMergeMax in
// order, as evenly as it can. It returns the files of the segments
// left, in the order of their documents.
//
// bleve's builder merges on until one is left: at 100,000 documents
// (782 segments) a second pass wrote 90 % of the documents again, where
// the first pass's 8 segments answer queries with the same documents
// and scores, at about the same cost (search.BenchmarkQuery).
//
// A pass's runs are merged at once, as many as there are places in
// merging. One after another, the larger language's merges were the
// last 20 s of the 100,000 build, on one core.
func (b *segmentBuilder) merge() ([]string, error) {
	segs := b.segs
	if len(segs) == 0 {
		return nil, errors.New("no documents") // a language's writer starts with one
	}
	for k := 0; len(segs) > max(b.opts.unmergedMax, 1); {
		runs := (len(segs) + b.opts.mergeMax - 1) / b.opts.mergeMax
		merged := make([]string, runs)
		errs := make([]error, runs)
		var wg sync.WaitGroup
		for r := range runs {
			n := len(segs) / (runs - r) // what is left, shared among the runs left
			in, out := segs[:n], filepath.Join(b.tmp, fmt.Sprintf("merged-%08d.zap", k))
			segs, merged[r] = segs[n:], out
			k++
			b.merging <- struct{}{}
			wg.Go(func() {
				defer func() { <-b.merging }()
				if start := b.opts.mergeStarted; start != nil {
					defer start()()
				}
				errs[r] = mergeSegments(in, out)
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		segs = merged
	}
	return segs, nil
}

// mergeSegments merges the segments in files, in order, into out, and
// removes them.
func mergeSegments(files []string, out string) (err error) {
	segs := make([]segment.Segment, 0, len(files))
	defer func() {
		for _, s := range segs {
			err = errors.Join(err, s.Close())
		}
		for _, f := range files {
			err = errors.Join(err, os.Remove(f))
		}
	}()
	for _, f := range files {
		s, err := segmentPlugin.Open(f)
		if err != nil {
			return fmt.Errorf("opening segment %s: %w", f, err)
		}
		segs = append(segs, s)
	}
	if _, _, err := segmentPlugin.Merge(segs, make([]*roaring.Bitmap, len(segs)), out, nil, nil); err != nil {
		return fmt.Errorf("merging %d segments: %w", len(segs), err)
	}
	return nil
}

// frame writes the scorch index of the segments segs, in their order.
// scorch's snapshot record is bleve's to write: its offline builder
// writes it for a segment of one placeholder document, whose file the
// first segment then replaces, as the record names a segment by file
// only. The other segments are added to the record after it, under the
// next segment ids, as scorch records the segments of an index it wrote
// itself.
func (b *segmentBuilder) frame(segs []string) error {
	mb, err := util.MarshalJSON(b.m)
	if err != nil {
		return err
	}
	store := filepath.Join(b.path, "store")
	sb, err := scorch.NewBuilder(map[string]interface{}{
		"path":                store,
		"buildPathPrefix":     b.tmp,
		"forceSegmentType":    segmentPlugin.Type(),
		"forceSegmentVersion": int(segmentPlugin.Version()),
		"internal":            map[string][]byte{string(util.MappingInternalKey): mb},
	})
	if err != nil {
		return err
	}
	if err := sb.Index(document.NewDocument("placeholder")); err != nil {
		return err
	}
	if err := sb.Close(); err != nil {
		return err
	}
	entries, err := os.ReadDir(store)
	if err != nil {
		return err
	}
	var placeholder []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".zap") {
			placeholder = append(placeholder, e.Name())
		}
	}
	if len(placeholder) != 1 {
		return fmt.Errorf("bleve wrote %d segments around the placeholder, want 1", len(placeholder))
	}
	if err := os.Rename(segs[0], filepath.Join(store, placeholder[0])); err != nil {
		return err
	}
	if len(segs) == 1 {
		return nil
	}
	first, err := strconv.ParseUint(strings.TrimSuffix(placeholder[0], ".zap"), 16, 64)
	if err != nil {
		return fmt.Errorf("bleve's segment %s: %w", placeholder[0], err)
	}
	return recordSegments(store, segs[1:], first+1)
}

// recordSegments moves the segment files segs into the scorch index
// store under the segment ids from id on, and adds them, in that order,
// to the one snapshot its record holds.
func recordSegments(store string, segs []string, id uint64) error {
	root, err := util.OpenBolt(filepath.Join(store, "root.bolt"), 0o600, nil)
	if err != nil {
		return err
	}
	err = root.Update(func(tx *util.BoltTxImpl) error {
		snapshots := tx.Bucket(util.BoltSnapshotsBucket)
		if snapshots == nil {
			return errors.New("no snapshot")
		}
		epoch, _ := snapshots.Cursor().First()
		snapshot := snapshots.GetBucket(epoch)
		if snapshot == nil {
			return errors.New("no snapshot")
		}
		for i, seg := range segs {
			key, err := smallSegmentKey(id + uint64(i))
			if err != nil {
				return err
			}
			name := fmt.Sprintf("%012x.zap", id+uint64(i)) // scorch's name of a segment
			if err := os.Rename(seg, filepath.Join(store, name)); err != nil {
				return err
			}
			bucket, err := snapshot.CreateBucketIfNotExists(key)
			if err != nil {
				return err
			}
			if err := bucket.Put(util.BoltPathKey, []byte(name), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := root.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("recording segments in %s: %w", store, err)
	}
	return nil
}

// smallSegmentKey is scorch's key of a segment id in its record
// (encodeUvarintAscending), for the ids that take one byte.
func smallSegmentKey(id uint64) ([]byte, error) {
	const zero, small = 136, 109
	if id > small {
		return nil, fmt.Errorf("segment id %d is over %d", id, small)
	}
	return []byte{zero + byte(id)}, nil
}
