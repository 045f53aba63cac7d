package search

import "context"

// Index is a built index opened read-only, as the production server
// (gen serve --dir) opens the one a build left. Opening takes
// milliseconds, any number of processes may hold the same index open,
// and all methods are safe for concurrent use.
type Index struct{ *engine }

// Open opens the index a build.Writer (or build.Update) left in dir.
func Open(dir string, opts ...Option) (*Index, error) {
	e, err := openEngine(dir, newOptions(opts), false)
	if err != nil {
		return nil, err
	}
	// What a search reads of every document it meets, by ord.
	for l, t := range e.ords {
		t.norms = lengthNorms(e.meta.list, l, e.docs[l])
		t.sketches = newSketchTable(e.meta.list, l, e.docs[l])
	}
	return &Index{engine: e}, nil
}

// Search runs a request (see Searcher).
func (ix *Index) Search(ctx context.Context, r Request) (*Response, error) {
	return ix.search(ctx, r)
}

// Close releases the index. Searches after Close fail.
func (ix *Index) Close() error { return ix.close() }
