package search

// Option tunes an open index (Open, OpenEditable). The defaults suit real
// archives; tests use options to force the less common paths.
type Option func(*options)

type options struct {
	eagerChecks int
	splitAt     int
	allFields   bool // search a term in every field, though some lack it (tests)
}

func defaultOptions() options {
	return options{eagerChecks: 100, splitAt: 50_000}
}

func newOptions(opts []Option) options {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithEagerChecks sets how many candidates of one language whose phrases
// are not checked yet (see "Phrases" in the package documentation) a
// search checks all of, making totals and facets exact (default 100).
// Above it, only those that reach the page shown are checked, and totals
// and facets count the others as matches. Checking one costs 10–40 µs.
func WithEagerChecks(n int) Option {
	return func(o *options) { o.eagerChecks = n }
}

// WithSplitAt sets the number of documents from which a read-only
// language index is searched by two goroutines, each over half of its
// document numbers (default 50,000), so that a query of one language
// does not leave a core idle. Each half readies all of the query's
// searchers, a fifth of what a query allocates: at 10,000 incidents (a
// language index of 8,000 documents) the halves cost 15% more CPU at the
// median and made the tail worse (the collector runs more often), and
// the time they save needs an idle core: under a load average of 30, a
// query took 2.5 ms at the median with halves, 1.8 ms without.
func WithSplitAt(n int) Option {
	return func(o *options) { o.splitAt = n }
}
