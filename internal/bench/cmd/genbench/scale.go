package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/postmortem-archive/gen/internal/urls"
)

// searchQueries are what the load sends to /api/search: words, a phrase,
// facets, a Chinese run and an exclusion, so that every kind of query the
// parser knows is in the mix.
var searchQueries = []string{
	"database", "configuration change", `"error rates"`, "latency", "rollback",
	"cause:config-change", "region:global", "product:Slack", "錯誤", "timeout -dns",
	"certificate", "year:2019 outage",
}

// scalePhase is one load run against nginx with some replicas behind it.
type scalePhase struct {
	name     string
	replicas int
	// stop, if set, is sent to one replica halfway through: SIGTERM is a
	// replica taken out as in a rolling deploy (it finishes what it has
	// begun), SIGKILL is a crash.
	stop syscall.Signal
}

// runScale builds the archive once, starts three gen serve --dir replicas
// behind nginx and loads it with wrk, pages and searches at once, with one
// replica, with three, and with three of which one is stopped mid-run, once
// gracefully and once by SIGKILL.
func runScale(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a archiveFlags
	a.register(fs)
	duration := fs.Duration("duration", 20*time.Second, "length of each load run")
	pageConns := fs.Int("page-connections", 8, "wrk connections fetching pages")
	searchConns := fs.Int("search-connections", 2, "wrk connections searching")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tools := map[string]string{}
	for _, t := range []string{"nginx", "wrk"} {
		p, err := ensureTool(ctx, t, t, stderr)
		if err != nil {
			return err
		}
		tools[t] = p
	}
	b, cleanup, err := a.prepare(ctx, stderr, false)
	if err != nil {
		return err
	}
	defer cleanup()
	public := filepath.Join(b.work, "public")
	if _, err := measure(exec.CommandContext(ctx, b.gen, "build", "--source", b.genSite, "--dest", public)); err != nil {
		return err
	}
	scripts, err := writeWrkScripts(b.work, public)
	if err != nil {
		return err
	}
	replicas, err := startReplicas(ctx, b, public, 3)
	if err != nil {
		return err
	}
	defer func() {
		for _, r := range replicas {
			stopProcess(r.cmd)
		}
	}()
	fmt.Fprintf(stdout, "%d incidents × %d languages behind nginx (worker_processes auto); wrk: %d connections on pages, %d on /api/search, %s per run; load average %s\n\n",
		b.incidents, len(b.langs), *pageConns, *searchConns, *duration, loadAverage())
	fmt.Fprintln(stdout, "| replicas | pages/s | page p50 / p99 | searches/s | search p50 / p99 | failed requests (non-2xx/3xx + socket errors) | replica errors nginx saw |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
	for _, ph := range []scalePhase{{"1", 1, 0}, {"3", 3, 0}, {"3, one stopped (SIGTERM) halfway", 3, syscall.SIGTERM}, {"3, one killed (SIGKILL) halfway", 3, syscall.SIGKILL}} {
		if err := ensureReplicas(ctx, b, public, replicas); err != nil {
			return err
		}
		res, err := runPhase(ctx, b, tools, ph, replicas, scripts, *duration, *pageConns, *searchConns)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "| %s | %.0f | %s / %s | %.0f | %s / %s | %d | %d |\n", ph.name,
			res.pages.perSec, ms(res.pages.p50), ms(res.pages.p99), res.search.perSec, ms(res.search.p50), ms(res.search.p99),
			res.pages.failed+res.search.failed, res.replicaErrors)
	}
	return nil
}

// replica is one gen serve --dir process.
type replica struct {
	cmd  *exec.Cmd
	port int
}

// startReplicas starts n replicas on free ports.
func startReplicas(ctx context.Context, b *bench, public string, n int) ([]*replica, error) {
	var rs []*replica
	for range n {
		port, err := freePort()
		if err != nil {
			return rs, err
		}
		rs = append(rs, &replica{port: port})
	}
	return rs, ensureReplicas(ctx, b, public, rs)
}

// ensureReplicas (re)starts every replica that is not running, on its
// port, and waits until it serves.
func ensureReplicas(ctx context.Context, b *bench, public string, rs []*replica) error {
	for i, r := range rs {
		if r.cmd != nil && r.cmd.ProcessState == nil {
			continue
		}
		logf, err := os.OpenFile(filepath.Join(b.work, fmt.Sprintf("replica-%d.log", i)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		r.cmd = exec.CommandContext(ctx, b.gen, "serve", "--dir", public, "--port", strconv.Itoa(r.port))
		r.cmd.Stdout, r.cmd.Stderr = logf, logf
		err = r.cmd.Start()
		logf.Close() // the child has its own descriptor
		if err != nil {
			return err
		}
		if err := pollUntil(ctx, http.DefaultClient, fmt.Sprintf("http://127.0.0.1:%d%s", r.port, urls.ListLoc(b.langs[0]).Path()), "</html>", time.Minute); err != nil {
			return fmt.Errorf("replica %d: %w", i, err)
		}
	}
	return nil
}

// phaseResult is one load run's figures.
type phaseResult struct {
	pages, search wrkResult
	// replicaErrors counts the errors nginx logged talking to a replica;
	// it sent each request on to another replica unless the response had
	// begun.
	replicaErrors int
}

// runPhase starts nginx in front of the first ph.replicas replicas, runs
// both wrk loads at once, kills the last replica halfway when asked, and
// stops nginx.
func runPhase(ctx context.Context, b *bench, tools map[string]string, ph scalePhase, replicas []*replica, scripts [2]string,
	d time.Duration, pageConns, searchConns int) (phaseResult, error) {
	dir, err := os.MkdirTemp(b.work, "nginx-")
	if err != nil {
		return phaseResult{}, err
	}
	port, err := freePort()
	if err != nil {
		return phaseResult{}, err
	}
	var ports []int
	for _, r := range replicas[:ph.replicas] {
		ports = append(ports, r.port)
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), nginxConfig(dir, port, ports), 0o644); err != nil {
		return phaseResult{}, err
	}
	nginx := exec.CommandContext(ctx, tools["nginx"], "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	nginx.Stdout, nginx.Stderr = b.log, b.log
	if err := nginx.Start(); err != nil {
		return phaseResult{}, err
	}
	defer stopProcess(nginx)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := pollUntil(ctx, http.DefaultClient, base+urls.ListLoc(b.langs[0]).Path(), "</html>", time.Minute); err != nil {
		return phaseResult{}, fmt.Errorf("nginx: %w (log in %s)", err, dir)
	}
	// A short unmeasured run first, so that every phase starts with the
	// replicas' caches and nginx's connections warm.
	if out, err := wrkCommand(ctx, tools["wrk"], scripts[0], base, max(d/5, time.Second), pageConns).CombinedOutput(); err != nil {
		return phaseResult{}, fmt.Errorf("wrk warm-up: %w\n%s", err, out)
	}
	pages := wrkCommand(ctx, tools["wrk"], scripts[0], base, d, pageConns)
	search := wrkCommand(ctx, tools["wrk"], scripts[1], base, d, searchConns)
	var pageOut, searchOut strings.Builder
	pages.Stdout, search.Stdout = &pageOut, &searchOut
	pages.Stderr, search.Stderr = b.log, b.log
	if err := pages.Start(); err != nil {
		return phaseResult{}, err
	}
	if err := search.Start(); err != nil {
		stopProcess(pages)
		return phaseResult{}, err
	}
	if ph.stop != 0 {
		select {
		case <-time.After(d / 2):
		case <-ctx.Done():
		}
		victim := replicas[ph.replicas-1]
		victim.cmd.Process.Signal(ph.stop)
		victim.cmd.Wait()
		fmt.Fprintf(b.log, "genbench: sent %v to the replica on port %d at %s\n", ph.stop, victim.port, d/2)
	}
	perr, serr := pages.Wait(), search.Wait()
	if perr != nil || serr != nil {
		return phaseResult{}, fmt.Errorf("wrk: %v %v\n%s\n%s", perr, serr, pageOut.String(), searchOut.String())
	}
	fmt.Fprintf(b.log, "genbench: %s replicas, pages:\n%s\ngenbench: searches:\n%s\n", ph.name, pageOut.String(), searchOut.String())
	var res phaseResult
	if res.pages, err = parseWrk(pageOut.String()); err != nil {
		return res, err
	}
	if res.search, err = parseWrk(searchOut.String()); err != nil {
		return res, err
	}
	errlog, _ := os.ReadFile(filepath.Join(dir, "error.log"))
	for _, line := range strings.Split(string(errlog), "\n") {
		if strings.Contains(line, "[error]") && strings.Contains(line, "upstream") {
			res.replicaErrors++
		}
	}
	return res, nil
}

func wrkCommand(ctx context.Context, wrk, script, base string, d time.Duration, conns int) *exec.Cmd {
	return exec.CommandContext(ctx, wrk, "-t1", "-c"+strconv.Itoa(conns), "-d"+strconv.Itoa(int(d.Seconds()))+"s",
		"--timeout", "10s", "--latency", "-s", script, base)
}

// nginxConfig is a load balancer in front of the replicas: a replica that
// fails once is left out for five seconds, and a request that met a
// connection error, a timeout, a 502 or a 503 is sent to the next one.
// Everything nginx writes stays in dir.
func nginxConfig(dir string, port int, upstreams []int) []byte {
	var servers strings.Builder
	for _, p := range upstreams {
		fmt.Fprintf(&servers, "    server 127.0.0.1:%d max_fails=1 fail_timeout=5s;\n", p)
	}
	return []byte(fmt.Sprintf(`daemon off;
worker_processes auto;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/client_body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  upstream gen {
%[3]s    keepalive 32;
  }
  server {
    listen 127.0.0.1:%[2]d;
    location / {
      proxy_pass http://gen;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 1s;
      proxy_read_timeout 10s;
      proxy_max_temp_file_size 0;
    }
  }
}
`, dir, port, servers.String()))
}

// writeWrkScripts writes two wrk scripts: one cycling through the built
// site's pages (at most 5,000, spread over the whole site), one through
// searches in every language.
func writeWrkScripts(work, public string) ([2]string, error) {
	var all []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".gen" {
			return filepath.SkipDir
		}
		if d.Name() == "index.html" {
			rel, err := filepath.Rel(public, filepath.Dir(p))
			if err != nil {
				return err
			}
			all = append(all, strings.TrimSuffix("/"+filepath.ToSlash(rel), "/.")+"/")
		}
		return nil
	})
	if err != nil {
		return [2]string{}, err
	}
	if len(all) == 0 {
		return [2]string{}, fmt.Errorf("no pages in %s", public)
	}
	step := max(1, len(all)/5000)
	var pages []string
	for i := 0; i < len(all); i += step {
		pages = append(pages, all[i])
	}
	var searches []string
	for _, q := range searchQueries {
		searches = append(searches, urls.SearchAPILoc().Path()+"?"+url.Values{"q": {q}}.Encode())
	}
	names := [2]string{filepath.Join(work, "pages.lua"), filepath.Join(work, "search.lua")}
	for i, paths := range [][]string{pages, searches} {
		if err := os.WriteFile(names[i], wrkScript(paths), 0o644); err != nil {
			return names, err
		}
	}
	return names, nil
}

// wrkScript is a wrk script requesting paths in turn, accepting gzip as a
// browser does.
func wrkScript(paths []string) []byte {
	var b strings.Builder
	b.WriteString("wrk.headers[\"Accept-Encoding\"] = \"gzip\"\nlocal paths = {\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "  %q,\n", p)
	}
	b.WriteString("}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n")
	return []byte(b.String())
}

// wrkResult is what parseWrk reads from wrk's report.
type wrkResult struct {
	perSec   float64
	p50, p99 time.Duration
	requests int
	failed   int // non-2xx/3xx responses and socket errors
}

// parseWrk reads the figures of wrk's report (run with --latency).
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	var seenRate bool
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "Requests/sec:":
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return r, fmt.Errorf("wrk: %q: %w", line, err)
			}
			r.perSec, seenRate = v, true
		case len(f) == 2 && (f[0] == "50%" || f[0] == "99%"):
			d, err := time.ParseDuration(f[1])
			if err != nil {
				return r, fmt.Errorf("wrk: %q: %w", line, err)
			}
			if f[0] == "50%" {
				r.p50 = d
			} else {
				r.p99 = d
			}
		case len(f) >= 2 && f[1] == "requests" && len(f) > 2 && f[2] == "in":
			r.requests, _ = strconv.Atoi(f[0])
		case strings.HasPrefix(strings.TrimSpace(line), "Non-2xx or 3xx responses:"):
			n, err := strconv.Atoi(f[len(f)-1])
			if err != nil {
				return r, fmt.Errorf("wrk: %q: %w", line, err)
			}
			r.failed += n
		case strings.HasPrefix(strings.TrimSpace(line), "Socket errors:"):
			// Socket errors: connect 0, read 0, write 0, timeout 0
			for i := 2; i+1 < len(f); i += 2 {
				n, err := strconv.Atoi(strings.TrimSuffix(f[i+1], ","))
				if err != nil {
					return r, fmt.Errorf("wrk: %q: %w", line, err)
				}
				r.failed += n
			}
		}
	}
	if !seenRate {
		return r, fmt.Errorf("wrk printed no Requests/sec:\n%s", out)
	}
	return r, nil
}
