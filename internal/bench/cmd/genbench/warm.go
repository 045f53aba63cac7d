package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"time"
)

// runWarm times a cold gen build, then warm builds into the same folder,
// each after a paragraph appended to one incident, and prints what the
// warm builds took of the cold one.
func runWarm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("warm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a archiveFlags
	a.register(fs)
	edits := fs.Int("edits", 5, "warm builds, each after an edit; the median is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *edits < 1 {
		return errors.New("-edits must be at least 1")
	}
	b, cleanup, err := a.prepare(ctx, stderr, false)
	if err != nil {
		return err
	}
	defer cleanup()
	id, lang, err := b.incidentToEdit()
	if err != nil {
		return err
	}
	source := filepath.Join(b.genSite, "content", id, lang+".md")
	loadBefore := loadAverage()
	runs, err := b.warmRuns(*edits, source, func(dest string) *exec.Cmd {
		return exec.CommandContext(ctx, b.gen, "build", "--source", b.genSite, "--dest", dest)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "gen build of %d incidents × %d languages, cold, then warm after an edit of %s, %d times; load average before %s, after %s\n\n",
		b.incidents, len(b.langs), source, *edits, loadBefore, loadAverage())
	printWarmTable(stdout, runs)
	return nil
}

// warmBuilds are a cold build's usage, the first warm build's (no edit,
// and no earlier output kept beside the site yet to start from) and the
// usage of each warm build after an edit.
type warmBuilds struct {
	cold, first usage
	edited      []usage
}

// warmRuns builds cold into a new folder, warm once without a change,
// then warm after each of edits paragraphs appended to source. Before
// each build the disk is settled (see settle).
func (b *bench) warmRuns(edits int, source string, build func(dest string) *exec.Cmd) (w warmBuilds, err error) {
	dest := filepath.Join(b.work, "public")
	run := func(what string) (usage, error) {
		if _, err := settle(b.genSite); err != nil {
			return usage{}, err
		}
		u, err := measure(build(dest))
		if err != nil {
			return u, fmt.Errorf("%s: %w", what, err)
		}
		fmt.Fprintf(b.log, "genbench: %-18s wall %s  cpu %s  peak RSS %s  (load %s)\n",
			what, seconds(u.Wall), seconds(u.CPU()), megabytes(u.MaxRSS), loadAverage())
		return u, nil
	}
	if w.cold, err = run("cold"); err != nil {
		return w, err
	}
	if w.first, err = run("warm, no change"); err != nil {
		return w, err
	}
	for i := 1; i <= edits; i++ {
		if err := appendParagraph(source, fmt.Sprintf("genbench-warm-%d-%d", i, time.Now().UnixNano())); err != nil {
			return w, err
		}
		u, err := run(fmt.Sprintf("warm after edit %d", i))
		if err != nil {
			return w, err
		}
		w.edited = append(w.edited, u)
	}
	return w, nil
}

// printWarmTable prints the cold build, the first warm one and the median
// of the edited ones, each against the cold build.
func printWarmTable(w io.Writer, runs warmBuilds) {
	fmt.Fprintln(w, "| gen build | wall | CPU (user + system) | peak RSS | wall / cold | CPU / cold |\n|---|---|---|---|---|---|")
	row := func(what string, u usage) {
		fmt.Fprintf(w, "| %s | %s | %s (%s + %s) | %s | %s | %s |\n", what, seconds(u.Wall), seconds(u.CPU()), seconds(u.User), seconds(u.Sys),
			megabytes(u.MaxRSS), ratio(u.Wall, runs.cold.Wall), ratio(u.CPU(), runs.cold.CPU()))
	}
	row("cold", runs.cold)
	row("warm, no change (no earlier output kept yet)", runs.first)
	row(fmt.Sprintf("warm after an edit, median of %d", len(runs.edited)), medianUsage(runs.edited))
}
