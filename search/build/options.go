package build

// How the segments of a language are merged at the end of the build
// (segmentBuilder.merge), and how often an index is updated: the
// defaults of the options.
const (
	// builderMergeMax is the number of segments merged at once. Every
	// merge pass writes each document again: at 10 (bleve's default) a
	// language of 100,000 documents (782 segments) took three passes to
	// one segment and one of 10,000 two; at 100, two and one (10,000 × 2:
	// 7 % less CPU; 100,000 × 2: 6–11 % less), and one each since merging
	// stops at unmergedMax. Merging every segment at once
	// took the 100,000 build's peak from 1.85 to 2.32 GB: each open
	// segment costs memory.
	builderMergeMax = 100
	// unmergedMax is the most segments a language's index is left in: a
	// merge writes every document again, at the end of the build, when
	// nothing else is left to do, and a query of a few segments costs
	// little more than one of their union (search.BenchmarkQuery).
	unmergedMax = 10
	// maxUpdates bounds the updates of an index: each adds a segment (and
	// leaves the replaced documents' text in the document store), and a
	// search visits every segment, so after this many the index is built
	// whole again. They are counted, not its segments: a build leaves a
	// small index in up to unmergedMax.
	maxUpdates = 11
)

// Option changes a build (Create, Update): the defaults suit real
// archives; tests use options to force the less common paths and to
// watch the build's work.
type Option func(*options)

type options struct {
	mergeMax    int  // builderMergeMax
	unmergedMax int  // unmergedMax
	maxUpdates  int  // maxUpdates
	reuseTerms  bool // WithTermsReused
	// WithWatchers: called as a segment's build or a merge starts, and
	// what they return as it ends.
	buildStarted, mergeStarted func() (done func())
}

func newOptions(opts []Option) options {
	o := options{mergeMax: builderMergeMax, unmergedMax: unmergedMax, maxUpdates: maxUpdates, reuseTerms: true}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithMerges sets how many segments are merged at once (default
// builderMergeMax) and how many a language's index may be left in
// (default unmergedMax).
func WithMerges(atOnce, leftMax int) Option {
	return func(o *options) { o.mergeMax, o.unmergedMax = atOnce, leftMax }
}

// WithMaxUpdates sets how many updates an index takes before Update
// refuses the next (default maxUpdates).
func WithMaxUpdates(n int) Option {
	return func(o *options) { o.maxUpdates = n }
}

// WithTermsReused sets whether documents' terms are made in memory
// handed back once their segment is built (default true).
func WithTermsReused(reuse bool) Option {
	return func(o *options) { o.reuseTerms = reuse }
}

// WithWatchers sets functions called as a segment's build (builds) or a
// merge of segments (merges) starts, each returning what is called as it
// ends; nil: none.
func WithWatchers(builds, merges func() (done func())) Option {
	return func(o *options) { o.buildStarted, o.mergeStarted = builds, merges }
}
