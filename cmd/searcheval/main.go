// Command searcheval measures the archive's search against Pagefind on a
// judged query set:
//
//	go run ./cmd/searcheval [-distractors 1000] [-seed 1] [-pagefind=true] [-misses]
//
// It writes the judged site (internal/searcheval: hand-written incidents
// among generated ones) into a temporary folder, builds it with gen build,
// asks gen's index every judged query, then indexes the same built pages
// with Pagefind (installed with npm into the temporary folder; needs node
// and npm) and asks it the same queries from Node with Pagefind's own
// search script. It prints, per kind of query, recall@5, MRR@10, the
// number of queries without any result, and latency p50/p95 for both.
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

	"github.com/postmortem-archive/gen/internal/searcheval"
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
	work     string
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("searcheval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.site.Distractors, "distractors", 1000, "generated incidents mixed among the judged ones")
	fs.Int64Var(&o.site.Seed, "seed", 1, "seed of the generated incidents")
	fs.BoolVar(&o.pagefind, "pagefind", true, "also measure Pagefind (needs node and npm)")
	fs.StringVar(&o.version, "pagefind-version", "1.6.0", "version of the pagefind npm package")
	fs.BoolVar(&o.misses, "misses", false, "list the queries whose first 5 results miss a relevant incident")
	fs.StringVar(&o.work, "work", "", "folder to work in, kept afterwards (default: a temporary folder, removed)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage // the flag package has said what is wrong
	}
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

func evaluate(ctx context.Context, o options, stdout, stderr io.Writer) error {
	qs, err := searcheval.Queries()
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
	genRun, err := searcheval.Evaluate(ctx, "gen", qs, searcheval.GenEngine(ix))
	if err != nil {
		return err
	}
	runs = append(runs, genRun)
	if o.pagefind {
		pf, err := startPagefind(ctx, public, filepath.Join(o.work, "pagefind"), o.version, stderr)
		if err != nil {
			return err
		}
		pfRun, err := searcheval.Evaluate(ctx, "Pagefind", qs, pf.engine)
		if cerr := pf.close(); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		runs = append(runs, pfRun)
	}
	fmt.Fprintf(stdout, "%d judged queries (%s), %d generated incidents, seed %d\n\n", len(qs), searcheval.QueriesFile, o.site.Distractors, o.site.Seed)
	if err := searcheval.WriteTable(stdout, runs...); err != nil {
		return err
	}
	if o.misses {
		for _, r := range runs {
			fmt.Fprintf(stdout, "\n%s misses:\n", r.Engine)
			for _, m := range r.Misses() {
				fmt.Fprintf(stdout, "  %-28s %-34q → %s\n", m.Query.ID, m.Query.Q, strings.Join(m.Got, " "))
			}
		}
	}
	return nil
}
