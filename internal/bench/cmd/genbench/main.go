// Command genbench measures gen against Hugo on the same archive, gen's
// build as the archive grows and after an edit, and gen's server behind a
// load balancer:
//
//	go run ./internal/bench/cmd/genbench build -n 1000 -runs 5    # gen build vs hugo, alternately
//	go run ./internal/bench/cmd/genbench growth -n 10000 -times 10 # gen build at 10,000 and 100,000, alternately
//	go run ./internal/bench/cmd/genbench warm -n 10000 -edits 5   # gen build cold, then warm after each edit
//	go run ./internal/bench/cmd/genbench serve -n 1000 -edits 7   # gen serve vs hugo server
//	go run ./internal/bench/cmd/genbench scale -n 1000            # gen serve --dir ×3 behind nginx, loaded by wrk
//
// It generates a synthetic archive with internal/bench/corpus, writes the same
// incidents as a Hugo site where a mode compares with Hugo (same Markdown
// bodies, front matter translated, a theme cut to what both build),
// builds gen once with go build, and installs Debian's hugo, nginx and
// wrk with apt-get when they are missing.
// It prints medians and gen/Hugo ratios as Markdown tables, with the load
// average, since the figures depend on what else the machine runs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/bench/corpus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbench:", err)
		os.Exit(1)
	}
}

const usageText = `usage: genbench build|growth|warm|serve|scale [flags]
  build   gen build and hugo, alternately, -runs times each
  growth  gen build of -n and of -times as many incidents, alternately
  warm    gen build cold, then warm after each of -edits edits
  serve   gen serve and hugo server: ready time, memory, edit latency
  scale   gen serve --dir replicas behind nginx under wrk, one killed mid-run
genbench <mode> -h lists a mode's flags.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return flag.ErrHelp
	}
	modes := map[string]func(context.Context, []string, io.Writer, io.Writer) error{
		"build": runBuild, "growth": runGrowth, "warm": runWarm, "serve": runServe, "scale": runScale,
	}
	mode, ok := modes[args[0]]
	if !ok {
		fmt.Fprint(stderr, usageText)
		return fmt.Errorf("unknown mode %q", args[0])
	}
	return mode(ctx, args[1:], stdout, stderr)
}

// archiveFlags are the flags every mode shares: which archive to generate
// and where to work.
type archiveFlags struct {
	n     int
	langs string
	seed  int64
	work  string
	keep  bool
	// related has Hugo list similar incidents with .Related, as gen does;
	// without it Hugo does less than gen, and no work that grows with the
	// square of the archive.
	related bool
}

func (a *archiveFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&a.n, "n", 1000, "incidents to generate")
	fs.StringVar(&a.langs, "langs", "en,zh-TW", "languages of the archive and of both sites")
	fs.Int64Var(&a.seed, "seed", 1, "corpus seed")
	fs.StringVar(&a.work, "work", "", "working folder (default: a new temporary folder)")
	fs.BoolVar(&a.related, "hugo-related", true, "Hugo lists similar incidents with .Related (its cost grows with the square of the archive)")
	fs.BoolVar(&a.keep, "keep", false, "keep the working folder")
}

func (a *archiveFlags) langList() []string {
	var ls []string
	for _, l := range strings.Split(a.langs, ",") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// bench is one prepared working folder: the gen site, its Hugo twin and
// the gen binary.
type bench struct {
	work, genSite, hugoSite, gen string
	langs                        []string
	incidents                    int
	log                          io.Writer
}

// prepare makes the working folder, generates the archive as a gen site,
// writes the Hugo site if withHugo and builds gen. cleanup removes the
// folder unless -keep.
func (a *archiveFlags) prepare(ctx context.Context, stderr io.Writer, withHugo bool) (b *bench, cleanup func(), err error) {
	work := a.work
	if work == "" {
		if work, err = os.MkdirTemp("", "genbench-"); err != nil {
			return nil, nil, err
		}
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, err
	}
	cleanup = func() {
		if a.keep {
			fmt.Fprintln(stderr, "genbench: kept", work)
			return
		}
		os.RemoveAll(work)
	}
	b = &bench{work: work, genSite: filepath.Join(work, "gen-site"), gen: filepath.Join(work, "bin", "gen"),
		langs: a.langList(), log: stderr}
	if withHugo {
		b.hugoSite = filepath.Join(work, "hugo-site")
	}
	if err := b.writeSites(a); err != nil {
		cleanup()
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "genbench: building gen into %s\n", b.gen)
	build := exec.CommandContext(ctx, "go", "build", "-o", b.gen, "github.com/postmortem-archive/gen/cmd/gen")
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("go build of gen (run genbench inside the module): %w", err)
	}
	return b, cleanup, nil
}

// writeSites generates the gen site and, if the bench has one, translates
// it into the Hugo site.
func (b *bench) writeSites(a *archiveFlags) error {
	if err := writeGenSite(b.genSite, a, b.langs, b.log); err != nil {
		return err
	}
	if b.hugoSite == "" {
		b.incidents = a.n
		return nil
	}
	if err := os.RemoveAll(b.hugoSite); err != nil {
		return err
	}
	n, err := writeHugoSite(b.genSite, b.hugoSite, b.langs, a.related)
	b.incidents = n
	return err
}

// writeGenSite generates a.n incidents into dir, a new gen site with the
// languages' files.
func writeGenSite(dir string, a *archiveFlags, langs []string, log io.Writer) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	fmt.Fprintf(log, "genbench: generating %d incidents in %s\n", a.n, strings.Join(langs, ", "))
	if _, err := corpus.GenerateStats(dir, corpus.Options{N: a.n, Langs: langs, Seed: a.seed}); err != nil {
		return err
	}
	for _, l := range langs {
		lf, err := i18n.Files.ReadFile(l + ".yaml")
		if err != nil {
			return fmt.Errorf("gen has no built-in language %q: %w", l, err)
		}
		if err := writeFile(filepath.Join(dir, "i18n", l+".yaml"), lf); err != nil {
			return err
		}
	}
	return nil
}

// ensureTool finds a command, installing the Debian package that has it
// when it is missing.
func ensureTool(ctx context.Context, name, pkg string, log io.Writer) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	fmt.Fprintf(log, "genbench: %s not found; apt-get install %s\n", name, pkg)
	apt := func(args ...string) error {
		c := exec.CommandContext(ctx, "apt-get", args...)
		c.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		c.Stdout, c.Stderr = log, log
		if err := c.Run(); err != nil {
			return fmt.Errorf("apt-get %s: %w", strings.Join(args, " "), err)
		}
		return nil
	}
	// A fresh machine may have no package lists yet: update once and retry.
	if err := apt("install", "-y", "-q", pkg); err != nil {
		if err := apt("update", "-q"); err != nil {
			return "", err
		}
		if err := apt("install", "-y", "-q", pkg); err != nil {
			return "", err
		}
	}
	return exec.LookPath(name)
}
