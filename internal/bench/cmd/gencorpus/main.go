// Command gencorpus writes a deterministic synthetic incident archive for
// benchmarks and tests:
//
//	go run ./internal/bench/cmd/gencorpus -n 10000 -langs en,zh-TW -seed 1 -out DIR [-varied-length]
//
// It writes DIR/content/<id>/<lang>.md and prints a one-line summary. It
// refuses to write into a non-empty DIR/content unless -force is given, in
// which case DIR/content is deleted first so that no stale incidents remain.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/bench/corpus"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "gencorpus:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 1000, "number of incidents")
	langs := fs.String("langs", "en,zh-TW", "comma-separated languages (en, zh-TW, ja, zh-CN); the first is the original of most incidents")
	seed := fs.Int64("seed", 1, "random seed; the same options give byte-identical output")
	out := fs.String("out", "", "output directory (required); incidents go to OUT/content")
	force := fs.Bool("force", false, "delete a non-empty OUT/content before writing")
	varied := fs.Bool("varied-length", false, "reports of every length, from a status page's short note to a long postmortem (default: all regular)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gencorpus -n N -langs en,zh-TW -seed S -out DIR [-varied-length] [-force]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *out == "" {
		fs.Usage()
		return errors.New("-out is required")
	}
	var ls []string
	for _, l := range strings.Split(*langs, ",") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	content := filepath.Join(*out, "content")
	if ents, err := os.ReadDir(content); err == nil && len(ents) > 0 {
		if !*force {
			return fmt.Errorf("%s is not empty (use -force to replace it)", content)
		}
		if err := os.RemoveAll(content); err != nil {
			return err
		}
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}

	start := time.Now()
	st, err := corpus.GenerateStats(*out, corpus.Options{N: *n, Langs: ls, Seed: *seed, VariedLength: *varied})
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(stdout, "gencorpus: %d incidents, %d files, %.1f MB in %.2fs (seed %d, langs %s) -> %s\n",
		st.Incidents, st.Files, float64(st.Bytes)/1e6, el.Seconds(), *seed, strings.Join(ls, ","), content)
	return nil
}
