package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/postmortem-archive/gen/internal/urls"
)

// serverResult is what one authoring server did: how long until it served
// the incident page, its resident memory then and at its peak, and how
// long each edit took to show.
type serverResult struct {
	name                        string
	ready                       time.Duration
	rssReady, rssEdited, rssHWM int64
	edits                       []time.Duration
	usage                       usage
}

// runServe starts gen serve and hugo server in turn on the same archive,
// waits for each to serve an incident page, then appends a line to that
// incident's source -edits times and polls the page until the line shows.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a archiveFlags
	a.register(fs)
	edits := fs.Int("edits", 7, "edits per server; the median is reported")
	readyLimit := fs.Duration("ready-timeout", 45*time.Minute, "how long a server may take to serve its first page")
	genOnly := fs.Bool("gen-only", false, "measure gen serve alone (to follow a change to gen without waiting for Hugo)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *edits < 1 {
		return errors.New("-edits must be at least 1")
	}
	var hugo string
	if !*genOnly {
		var err error
		if hugo, err = ensureTool(ctx, "hugo", "hugo", stderr); err != nil {
			return err
		}
	}
	b, cleanup, err := a.prepare(ctx, stderr, !*genOnly)
	if err != nil {
		return err
	}
	defer cleanup()
	id, lang, err := b.incidentToEdit()
	if err != nil {
		return err
	}
	loadBefore := loadAverage()
	gen, gerr := b.measureServer(ctx, "gen serve", *edits, *readyLimit,
		func(port int) *exec.Cmd {
			return exec.CommandContext(ctx, b.gen, "serve", "--source", b.genSite, "--port", strconv.Itoa(port))
		},
		filepath.Join(b.genSite, "content", id, lang+".md"), urls.IncidentLoc(lang, id).Path())
	var hg *serverResult
	var herr error
	if !*genOnly {
		hg, herr = b.measureServer(ctx, "hugo server", *edits, *readyLimit,
			func(port int) *exec.Cmd {
				return exec.CommandContext(ctx, hugo, "server", "--source", b.hugoSite, "--bind", "127.0.0.1", "--port", strconv.Itoa(port),
					"--cacheDir", filepath.Join(b.work, "hugo-cache"))
			},
			filepath.Join(b.hugoSite, "content", "incidents", id, "index."+hugoLang(lang)+".md"), urls.IncidentLoc(hugoLang(lang), id).Path()) // the Hugo site has gen's URL shapes
	}
	// One server failing (not ready in time) still leaves the other's
	// figures worth printing.
	fmt.Fprintf(stdout, "%d incidents × %d languages, %d edits of %s each; load average before %s, after %s\n\n",
		b.incidents, len(b.langs), *edits, id, loadBefore, loadAverage())
	printServeTable(stdout, gen, hg)
	return errors.Join(gerr, herr)
}

// measureServer runs one server through startup and the edits, then stops
// it with SIGINT and reads its CPU time.
func (b *bench) measureServer(ctx context.Context, name string, edits int, readyLimit time.Duration, start func(port int) *exec.Cmd, source, page string) (*serverResult, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := start(port)
	logf, err := os.Create(filepath.Join(b.work, strings.Fields(name)[0]+"-server.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	res := &serverResult{name: name}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer stopProcess(cmd)
	url := fmt.Sprintf("http://127.0.0.1:%d%s", port, page)
	client := &http.Client{Timeout: 30 * time.Second}
	if err := pollUntil(ctx, client, url, "</html>", readyLimit); err != nil {
		return nil, fmt.Errorf("%s never served %s (log in %s): %w", name, url, logf.Name(), err)
	}
	res.ready = time.Since(t0)
	res.rssReady, _ = procStatus(cmd.Process.Pid, "VmRSS")
	fmt.Fprintf(b.log, "genbench: %s ready in %s, RSS %s\n", name, seconds(res.ready), megabytes(res.rssReady))
	for i := range edits {
		// Let the previous save settle (debouncers, rebuild) before the next.
		time.Sleep(time.Second)
		took, err := editAndWait(ctx, client, source, url, fmt.Sprintf("genbench-edit-%d-%d", i, time.Now().UnixNano()))
		if err != nil {
			return nil, fmt.Errorf("%s: edit %d: %w (log in %s)", name, i+1, err, logf.Name())
		}
		res.edits = append(res.edits, took)
		fmt.Fprintf(b.log, "genbench: %s edit %d shown after %s\n", name, i+1, took.Round(time.Millisecond))
	}
	res.rssEdited, _ = procStatus(cmd.Process.Pid, "VmRSS")
	res.rssHWM, _ = procStatus(cmd.Process.Pid, "VmHWM")
	if err := stopProcess(cmd); err != nil {
		fmt.Fprintf(b.log, "genbench: %s exited: %v\n", name, err)
	}
	if cmd.ProcessState != nil {
		res.usage = processUsage(cmd.ProcessState, time.Since(t0))
	}
	fmt.Fprintf(b.log, "genbench: %s stopped: peak RSS %s, CPU %s\n", name, megabytes(res.rssHWM), seconds(res.usage.CPU()))
	return res, nil
}

// editAndWait appends a paragraph with marker to source and polls url until
// the page holds it.
func editAndWait(ctx context.Context, client *http.Client, source, url, marker string) (time.Duration, error) {
	t0 := time.Now()
	if err := appendParagraph(source, marker); err != nil {
		return 0, err
	}
	if err := pollUntil(ctx, client, url, marker, 2*time.Minute); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// incidentToEdit is the incident the benchmarks edit, the middle one of
// the archive, in its first language.
func (b *bench) incidentToEdit() (id, lang string, err error) {
	ids, err := incidentIDs(filepath.Join(b.genSite, "content"))
	if err != nil || len(ids) == 0 {
		return "", "", fmt.Errorf("no incidents to edit: %v", err)
	}
	return ids[len(ids)/2], b.langs[0], nil
}

// appendParagraph appends a paragraph with marker to the Markdown file at
// source: the edit the benchmarks make.
func appendParagraph(source, marker string) error {
	f, err := os.OpenFile(source, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, werr := fmt.Fprintf(f, "\nAn edit: %s.\n", marker)
	return errors.Join(werr, f.Close())
}

// pollUntil fetches url every few milliseconds until its body contains
// want.
func pollUntil(ctx context.Context, client *http.Client, url, want string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err == nil {
			body, rerr := io.ReadAll(res.Body)
			res.Body.Close()
			if rerr == nil && res.StatusCode == http.StatusOK && strings.Contains(string(body), want) {
				return nil
			}
			last = fmt.Errorf("status %d, %d bytes, no %q", res.StatusCode, len(body), want)
		} else {
			last = err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("%w; last answer: %v", ctx.Err(), last)
}

// freePort asks the kernel for a port nobody listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// stopProcess asks a process started by genbench to stop, kills it if it
// has not within ten seconds, and reaps it. Calling it again is harmless.
func stopProcess(cmd *exec.Cmd) error {
	if cmd.Process == nil || cmd.ProcessState != nil {
		return nil
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		return <-done
	}
}

// procStatus reads one memory figure (VmRSS, VmHWM) of a running process,
// in bytes.
func procStatus(pid int, key string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n * 1024, err
			}
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, key)
}

// printServeTable prints both servers' figures and their ratio; a server
// that failed (nil) shows dashes.
func printServeTable(w io.Writer, gen, hugo *serverResult) {
	fmt.Fprintln(w, "| authoring server | gen serve | hugo server | gen/Hugo |")
	fmt.Fprintln(w, "|---|---|---|---|")
	row := func(what string, cell func(*serverResult) string, r func(g, h *serverResult) string) {
		gv, hv, rv := "—", "—", "—"
		if gen != nil {
			gv = cell(gen)
		}
		if hugo != nil {
			hv = cell(hugo)
		}
		if gen != nil && hugo != nil {
			rv = r(gen, hugo)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", what, gv, hv, rv)
	}
	row("ready (start to first incident page)", func(s *serverResult) string { return seconds(s.ready) },
		func(g, h *serverResult) string { return ratio(g.ready, h.ready) })
	row("RSS when ready", func(s *serverResult) string { return megabytes(s.rssReady) },
		func(g, h *serverResult) string { return ratio(g.rssReady, h.rssReady) })
	row("RSS after the edits", func(s *serverResult) string { return megabytes(s.rssEdited) },
		func(g, h *serverResult) string { return ratio(g.rssEdited, h.rssEdited) })
	row("peak RSS (after the edits)", func(s *serverResult) string { return megabytes(s.rssHWM) },
		func(g, h *serverResult) string { return ratio(g.rssHWM, h.rssHWM) })
	row("edit to page, median (min–max)", func(s *serverResult) string {
		return fmt.Sprintf("%s (%s–%s)", ms(median(s.edits)), ms(slices.Min(s.edits)), ms(slices.Max(s.edits)))
	}, func(g, h *serverResult) string { return ratio(median(g.edits), median(h.edits)) })
	row("CPU over the whole run", func(s *serverResult) string { return seconds(s.usage.CPU()) },
		func(g, h *serverResult) string { return ratio(g.usage.CPU(), h.usage.CPU()) })
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
