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

// runGrowth times gen build on two archives of the same generated text,
// one -times the size of the other, alternately, and prints how many times
// the smaller build's wall time, CPU and memory the larger one took: what
// "linear" means for a build.
func runGrowth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("growth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a archiveFlags
	a.register(fs)
	times := fs.Int("times", 10, "the larger archive has -times as many incidents as -n")
	runs := fs.Int("runs", 3, "runs at each size")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *times < 2 || *runs < 1 {
		return errors.New("-times must be at least 2 and -runs at least 1")
	}
	b, cleanup, err := a.prepare(ctx, stderr, false)
	if err != nil {
		return err
	}
	defer cleanup()
	large := a
	large.n = a.n * *times
	largeSite := filepath.Join(b.work, "gen-site-large")
	if err := writeGenSite(largeSite, &large, b.langs, stderr); err != nil {
		return err
	}
	sizes := []growthSize{
		{res: &buildResult{name: fmt.Sprintf("%d incidents", a.n)}, site: b.genSite},
		{res: &buildResult{name: fmt.Sprintf("%d incidents", large.n)}, site: largeSite},
	}
	loadBefore := loadAverage()
	if err := b.growthRuns(sizes, *runs, func(site, dest string) *exec.Cmd {
		return exec.CommandContext(ctx, b.gen, "build", "--source", site, "--dest", dest)
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "gen build of %d and %d incidents × %d languages (%s), %d runs each, alternately; load average before %s, after %s\n\n",
		a.n, large.n, len(b.langs), strings.Join(b.langs, ", "), *runs, loadBefore, loadAverage())
	printGrowthTable(stdout, sizes[0].res, sizes[1].res)
	return nil
}

// growthSize is one of the two archives and its runs.
type growthSize struct {
	res  *buildResult
	site string
}

// growthRuns builds each size in turn, runs times, the larger right after
// the smaller. Before each build the disk is settled, so that a build
// starts from the same state whichever ran before it.
func (b *bench) growthRuns(sizes []growthSize, runs int, build func(site, dest string) *exec.Cmd) error {
	for i := range runs {
		for _, s := range sizes {
			read, err := settle(s.site)
			if err != nil {
				return err
			}
			fmt.Fprintf(b.log, "genbench: settled: writes flushed, %s of %s read into the page cache\n", megabytes(read), s.site)
			if err := b.buildOnce(s.res, func(dest, _ string) *exec.Cmd { return build(s.site, dest) }, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// settle waits for the system to write what earlier builds left in its
// cache (sync) and reads every file of the archive at site, so that the
// build's input is in memory. Without it a build right after a larger one
// reads its archive from the disk (the larger build's 10 GB pushed it out
// of the cache) while that output is still being written: 10,000 builds
// each right after a 100,000 one took 11–17 % more CPU (medians) than
// 10,000 builds one after another. It returns the bytes read.
func settle(site string) (int64, error) {
	if err := exec.Command("sync").Run(); err != nil {
		return 0, fmt.Errorf("sync: %w", err)
	}
	var read int64
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := io.Copy(io.Discard, f)
		read += n
		return err
	})
	return read, err
}

// printGrowthTable prints the medians at each size and their ratio, and
// each larger run against the smaller run just before it.
func printGrowthTable(w io.Writer, small, large *buildResult) {
	s, l := medianUsage(small.runs), medianUsage(large.runs)
	fmt.Fprintf(w, "| median of each | %s | %s | ratio |\n|---|---|---|---|\n", small.name, large.name)
	row := func(what, sv, lv, r string) { fmt.Fprintf(w, "| %s | %s | %s | %s |\n", what, sv, lv, r) }
	row("wall", seconds(s.Wall), seconds(l.Wall), ratio(l.Wall, s.Wall))
	row("CPU (user + system)", seconds(s.CPU())+" ("+seconds(s.User)+" + "+seconds(s.Sys)+")",
		seconds(l.CPU())+" ("+seconds(l.User)+" + "+seconds(l.Sys)+")", ratio(l.CPU(), s.CPU()))
	row("user CPU", seconds(s.User), seconds(l.User), ratio(l.User, s.User))
	row("peak RSS", megabytes(s.MaxRSS), megabytes(l.MaxRSS), ratio(l.MaxRSS, s.MaxRSS))
	row("output", megabytes(small.out.Bytes), megabytes(large.out.Bytes), ratio(large.out.Bytes, small.out.Bytes))
	fmt.Fprintf(w, "\neach run of %s against the run of %s before it:\n", large.name, small.name)
	for i := range min(len(small.runs), len(large.runs)) {
		sr, lr := small.runs[i], large.runs[i]
		fmt.Fprintf(w, "- run %d: CPU %s / %s = %s; wall %s / %s = %s\n", i+1,
			seconds(lr.CPU()), seconds(sr.CPU()), ratio(lr.CPU(), sr.CPU()),
			seconds(lr.Wall), seconds(sr.Wall), ratio(lr.Wall, sr.Wall))
	}
}
