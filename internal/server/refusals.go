package server

import (
	"sync"
	"time"
)

// refusals reports refused live reload connections to logf, the first at
// once and the rest counted and reported at most once per every: a flood
// of connections must not grow the log without bound.
type refusals struct {
	every time.Duration
	logf  func(string, ...any)

	mu      sync.Mutex
	n       int       // refused since the last line
	last    time.Time // of the last line
	pending bool      // a line for n is due
	why     string    // why the last was refused, to end its line
}

const refusalReportEvery = time.Minute

// add counts a refusal for the reason why.
func (r *refusals) add(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.why = why
	now := time.Now()
	if !r.pending && now.Sub(r.last) >= r.every {
		r.last = now
		r.logf("live reload: refused a connection: %s", r.why)
		return
	}
	r.n++
	if !r.pending {
		r.pending = true
		time.AfterFunc(r.every-now.Sub(r.last), r.report)
	}
}

func (r *refusals) report() {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	r.logf("live reload: refused %d connections in the last %s: %s", r.n, now.Sub(r.last).Round(time.Second), r.why)
	r.n, r.pending, r.last = 0, false, now
}
