package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildResult is one generator's runs and what its last run wrote.
type buildResult struct {
	name string
	runs []usage
	out  treeSize
}

// runBuild times gen build and hugo on the same archive, alternately, each
// into a new folder, and prints the medians.
func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a archiveFlags
	a.register(fs)
	runs := fs.Int("runs", 3, "runs of each generator")
	if err := fs.Parse(args); err != nil {
		return err
	}
	hugo, err := ensureTool(ctx, "hugo", "hugo", stderr)
	if err != nil {
		return err
	}
	b, cleanup, err := a.prepare(ctx, stderr, true)
	if err != nil {
		return err
	}
	defer cleanup()
	loadBefore := loadAverage()
	gen := &buildResult{name: "gen build"}
	hg := &buildResult{name: "hugo"}
	for i := range *runs {
		for _, step := range []struct {
			res *buildResult
			cmd func(dest, cache string) *exec.Cmd
		}{
			{gen, func(dest, _ string) *exec.Cmd {
				return exec.CommandContext(ctx, b.gen, "build", "--source", b.genSite, "--dest", dest)
			}},
			{hg, func(dest, cache string) *exec.Cmd {
				return exec.CommandContext(ctx, hugo, "--source", b.hugoSite, "--destination", dest,
					"--cacheDir", cache, "--quiet")
			}},
		} {
			if err := b.buildOnce(step.res, step.cmd, i); err != nil {
				return err
			}
		}
	}
	hugoVersion, _ := exec.CommandContext(ctx, hugo, "version").Output()
	fmt.Fprintf(stdout, "%d incidents × %d languages (%s), %d runs each, alternating; %s\nload average before %s, after %s\n\n",
		b.incidents, len(b.langs), strings.Join(b.langs, ", "), *runs, strings.TrimSpace(string(hugoVersion)), loadBefore, loadAverage())
	printBuildTable(stdout, gen, hg)
	return nil
}

// buildOnce runs one build into a folder of its own and records it.
// Nothing is deleted between runs: ext4 skips inodes freed in the last
// minutes when it allocates new ones (recently_deleted, up to 5 minutes
// while their table is unwritten), so a build that follows the deletion
// of the last one's thousands of files spends seconds of system time
// scanning past them, more with every run. The outputs go when the
// working folder does.
func (b *bench) buildOnce(res *buildResult, cmd func(dest, cache string) *exec.Cmd, i int) error {
	run := fmt.Sprintf("%s-%d", strings.Fields(res.name)[0], i+1)
	dest := filepath.Join(b.work, "out", run)
	cache := filepath.Join(b.work, "cache", run)
	for _, d := range []string{dest, cache} {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s exists: each run builds into a folder of its own", d)
		}
	}
	u, err := measure(cmd(dest, cache))
	if err != nil {
		return err
	}
	res.runs = append(res.runs, u)
	if res.out, err = measureTree(dest); err != nil {
		return err
	}
	fmt.Fprintf(b.log, "genbench: run %d %-9s wall %s  cpu %s  peak RSS %s  (load %s)\n",
		i+1, res.name, seconds(u.Wall), seconds(u.CPU()), megabytes(u.MaxRSS), loadAverage())
	return nil
}

// printBuildTable prints the medians of both and their ratio.
func printBuildTable(w io.Writer, gen, hugo *buildResult) {
	g, h := medianUsage(gen.runs), medianUsage(hugo.runs)
	fmt.Fprintln(w, "| median of each | gen build | hugo | gen/Hugo |")
	fmt.Fprintln(w, "|---|---|---|---|")
	row := func(what, gv, hv, r string) { fmt.Fprintf(w, "| %s | %s | %s | %s |\n", what, gv, hv, r) }
	row("wall", seconds(g.Wall), seconds(h.Wall), ratio(g.Wall, h.Wall))
	row("CPU (user + system)", seconds(g.User)+" + "+seconds(g.Sys), seconds(h.User)+" + "+seconds(h.Sys), ratio(g.CPU(), h.CPU()))
	row("peak RSS", megabytes(g.MaxRSS), megabytes(h.MaxRSS), ratio(g.MaxRSS, h.MaxRSS))
	row("output", megabytes(gen.out.Bytes), megabytes(hugo.out.Bytes), ratio(gen.out.Bytes, hugo.out.Bytes))
	row("files (HTML pages)", fmt.Sprintf("%d (%d)", gen.out.Files, gen.out.Pages), fmt.Sprintf("%d (%d)", hugo.out.Files, hugo.out.Pages),
		ratio(int64(gen.out.Pages), int64(hugo.out.Pages)))
}
