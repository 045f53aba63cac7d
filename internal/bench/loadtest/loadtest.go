// Package loadtest drives a running gen server with concurrent clients that
// mix static pages and searches, and reports throughput and latency. Every
// request goes to the base URL it is given: only servers on this machine.
package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// Options describe one run.
type Options struct {
	BaseURL  string        // e.g. http://127.0.0.1:4000
	Pages    []string      // site paths to fetch, e.g. /en/incidents/<id>/
	Queries  []string      // search queries, sent to /api/search
	Clients  int           // concurrent clients
	Duration time.Duration // how long to run; the run also stops when ctx is done
	// SearchEvery makes every n-th request of a client a search; 0 means
	// no searches.
	SearchEvery int
}

// Kind is the figures of one kind of request.
type Kind struct {
	Requests int
	Errors   int
	PerSec   float64
	P50, P99 time.Duration
}

// Result is a run's figures, by kind: "page" and "search".
type Result struct {
	Kinds   map[string]*Kind
	Elapsed time.Duration
	// FirstErrors holds a few error descriptions, for the report.
	FirstErrors []string
}

func (r *Result) String() string {
	s := ""
	for _, name := range []string{"page", "search"} {
		k := r.Kinds[name]
		if k == nil || k.Requests == 0 {
			continue
		}
		s += fmt.Sprintf("%-6s %8d requests %9.0f/s  p50 %7s  p99 %7s  errors %d\n", name, k.Requests, k.PerSec, k.P50.Round(time.Microsecond), k.P99.Round(time.Microsecond), k.Errors)
	}
	return s
}

// Errors is the number of failed requests of every kind.
func (r *Result) Errors() int {
	n := 0
	for _, k := range r.Kinds {
		n += k.Errors
	}
	return n
}

// Run drives the server until the duration passes or ctx is done. A
// request fails on a transport error or a status other than 200.
func Run(ctx context.Context, o Options) *Result {
	ctx, cancel := context.WithTimeout(ctx, o.Duration)
	defer cancel()
	transport := &http.Transport{MaxIdleConnsPerHost: o.Clients, MaxConnsPerHost: o.Clients, DisableCompression: false}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}

	type sample struct {
		kind string
		took time.Duration
		err  string
	}
	per := make([][]sample, o.Clients)
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < o.Clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				kind, target := "page", o.BaseURL+o.Pages[(c*7919+i)%len(o.Pages)]
				if o.SearchEvery > 0 && len(o.Queries) > 0 && i%o.SearchEvery == 0 {
					kind = "search"
					target = o.BaseURL + "/api/search?" + url.Values{"q": {o.Queries[(c+i)%len(o.Queries)]}, "lang": {"en"}}.Encode()
				}
				t0 := time.Now()
				errText := fetch(ctx, client, target)
				if ctx.Err() != nil {
					return // cut off by the end of the run, not a server error
				}
				per[c] = append(per[c], sample{kind, time.Since(t0), errText})
			}
		}(c)
	}
	wg.Wait()
	res := &Result{Kinds: map[string]*Kind{}, Elapsed: time.Since(start)}
	took := map[string][]time.Duration{}
	for _, samples := range per {
		for _, s := range samples {
			k := res.Kinds[s.kind]
			if k == nil {
				k = &Kind{}
				res.Kinds[s.kind] = k
			}
			k.Requests++
			if s.err != "" {
				k.Errors++
				if len(res.FirstErrors) < 5 {
					res.FirstErrors = append(res.FirstErrors, s.err)
				}
			}
			took[s.kind] = append(took[s.kind], s.took)
		}
	}
	for name, k := range res.Kinds {
		d := took[name]
		slices.Sort(d)
		k.PerSec = float64(k.Requests) / res.Elapsed.Seconds()
		k.P50, k.P99 = d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
	}
	return res
}

func fetch(ctx context.Context, client *http.Client, target string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := client.Do(req)
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err.Error()
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Sprintf("%s: status %d", target, res.StatusCode)
	}
	return ""
}
