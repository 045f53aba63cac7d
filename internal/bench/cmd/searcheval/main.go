// Command searcheval measures the archive's search against Pagefind on a
// judged query set:
//
//	go run ./internal/bench/cmd/searcheval [-distractors 1000] [-seed 1] [-varied-length=true] [-pagefind=true] [-misses] [-control]
//
// It writes the judged site (internal/bench/searcheval: hand-written incidents
// among generated ones) into a temporary folder, builds it with gen build,
// asks gen's index every judged query, then indexes the same built pages
// with Pagefind (installed with npm into the temporary folder; needs node
// and npm) and asks it the same queries from Node with Pagefind's own
// search script. It prints, per kind of query and per language of the
// readers, recall@5, MRR@10, the number of queries without any result,
// and latency p50/p95 for both.
//
// With -control it judges, instead, generated incidents alone by their
// first cause (searcheval.Site.CauseQueries): the check that a change of
// ranking the judged queries like does not favour the hand-written
// incidents for their length.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/searcheval"
)

// errUsage marks a mistake on the command line (exit 2, not 1).
var errUsage = errors.New("usage")

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "searcheval:", err)
		os.Exit(1)
	}
}

type options struct {
	site     searcheval.Site
	pagefind bool
	version  string // of the pagefind npm package
	misses   bool
	control  bool
	work     string
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("searcheval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.site.Distractors, "distractors", 1000, "generated incidents mixed among the judged ones")
	fs.Int64Var(&o.site.Seed, "seed", 1, "seed of the generated incidents")
	fs.BoolVar(&o.site.VariedLength, "varied-length", true, "generated incidents of every length, from short notes to long postmortems (false: all 800–1,200 words)")
	fs.BoolVar(&o.pagefind, "pagefind", true, "also measure Pagefind (needs node and npm)")
	fs.StringVar(&o.version, "pagefind-version", "1.6.0", "version of the pagefind npm package")
	fs.BoolVar(&o.misses, "misses", false, "list the queries whose first 5 results miss a relevant incident, or whose first is not relevant")
	fs.BoolVar(&o.control, "control", false, "judge generated incidents alone, each cause's name finding the incidents it was the first cause of")
	fs.StringVar(&o.work, "work", "", "folder to work in, kept afterwards (default: a temporary folder, removed)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage // the flag package has said what is wrong
	}
	o.site.WithoutJudged = o.control
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "searcheval: unexpected arguments: %v\n", fs.Args())
		return errUsage
	}
	if o.work == "" {
		tmp, err := os.MkdirTemp("", "searcheval-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		o.work = tmp
	}
	return evaluate(context.Background(), o, stdout, stderr)
}

// controlDepth is how many results of gen the control judges: as many as
// a cause has first-cause incidents among 1,000.
const controlDepth = 200

// queries returns the queries to ask and where they come from.
func queries(o options) ([]searcheval.Query, string, error) {
	if o.control {
		qs, err := o.site.CauseQueries()
		return qs, "each cause's name, judged by the generator's first cause", err
	}
	qs, err := searcheval.Queries()
	if err != nil {
		return nil, "", err
	}
	qs, err = o.site.Judge(qs)
	return qs, searcheval.QueriesFile, err
}

func evaluate(ctx context.Context, o options, stdout, stderr io.Writer) error {
	qs, file, err := queries(o)
	if err != nil {
		return err
	}
	start := time.Now()
	public, err := o.site.Build(filepath.Join(o.work, "site"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "built the judged site with %d generated incidents in %s\n", o.site.Distractors, time.Since(start).Round(time.Millisecond))
	ix, err := searcheval.OpenIndex(public)
	if err != nil {
		return err
	}
	defer ix.Close()
	runs := []*searcheval.Run{}
	depth := searcheval.RankDepth
	if o.control {
		depth = controlDepth
	}
	genRun, err := searcheval.Evaluate(ctx, "gen", qs, searcheval.GenEngineDepth(ix, depth))
	if err != nil {
		return err
	}
	runs = append(runs, genRun)
	if o.pagefind {
		pf, err := startPagefind(ctx, public, filepath.Join(o.work, "pagefind"), o.version, stderr)
		if err != nil {
			return err
		}
		pf.depth = depth
		pfRun, err := searcheval.Evaluate(ctx, "Pagefind", qs, pf.engine)
		if cerr := pf.close(); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		runs = append(runs, pfRun)
	}
	lengths := "regular"
	if o.site.VariedLength {
		lengths = "varied"
	}
	fmt.Fprintf(stdout, "%d judged queries (%s), %d generated incidents (lengths %s), seed %d\n\n", len(qs), file, o.site.Distractors, lengths, o.site.Seed)
	if err := searcheval.WriteTable(stdout, runs...); err != nil {
		return err
	}
	if o.control {
		for _, r := range runs {
			s, _ := r.Score("all")
			fmt.Fprintf(stdout, "\n%s: R-precision %.3f (the first %d results)\n", r.Engine, s.RPrec, depth)
		}
	}
	if o.misses {
		for _, r := range runs {
			fmt.Fprintf(stdout, "\n%s misses:\n", r.Engine)
			for _, m := range r.Misses() {
				fmt.Fprintf(stdout, "  %-28s %-34q recall %.2f, RR %.2f → %s\n", m.Query.ID, m.Query.Q, m.Recall, m.RR, strings.Join(m.Got, " "))
			}
		}
	}
	return nil
}
