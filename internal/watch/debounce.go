package watch

import (
	"maps"
	"slices"
	"time"
)

// debouncer turns a stream of changed paths into settled batches. A burst
// of changes ends when no change came for quiet, or maxWait after it
// began, whichever is first; its paths then become ready. Ready paths
// wait for the consumer, merged with those of later bursts, so a slow
// consumer never blocks the producer and gets one batch for all it
// missed. It knows nothing of files: only paths and its clock.
type debouncer struct {
	quiet   time.Duration
	maxWait time.Duration
	in      chan []string
	out     chan Batch
	done    chan struct{} // closed by stop
	ended   chan struct{} // closed when run has returned
}

// newDebouncer starts a debouncer; stop ends it.
func newDebouncer(quiet, maxWait time.Duration) *debouncer {
	d := &debouncer{
		quiet:   quiet,
		maxWait: maxWait,
		in:      make(chan []string),
		out:     make(chan Batch),
		done:    make(chan struct{}),
		ended:   make(chan struct{}),
	}
	go d.run()
	return d
}

// add records a change of paths. Any call extends the current burst, one
// with no paths too (a folder created empty is activity that may be
// followed by files). It returns at once after stop.
func (d *debouncer) add(paths []string) {
	select {
	case d.in <- paths:
	case <-d.done:
	}
}

// batches delivers one Batch per settled burst, or per several when the
// consumer was slow. It is closed by stop.
func (d *debouncer) batches() <-chan Batch { return d.out }

// stop ends the debouncer, dropping what was not taken, and closes
// batches. It must be called once.
func (d *debouncer) stop() {
	close(d.done)
	<-d.ended
}

func (d *debouncer) run() {
	defer close(d.ended)
	defer close(d.out)
	var (
		burst      = map[string]bool{} // paths of the burst going on
		ready      = map[string]bool{} // paths of ended bursts not taken yet
		burstStart time.Time
		timer      *time.Timer
		settle     <-chan time.Time // nil when no burst is going on
		out        Batch
		outDirty   bool
	)
	for {
		var outc chan<- Batch
		if len(ready) > 0 {
			if outDirty {
				out, outDirty = Batch{Paths: slices.Sorted(maps.Keys(ready))}, false
			}
			outc = d.out
		}
		select {
		case <-d.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case paths := <-d.in:
			now := time.Now()
			if settle == nil {
				burstStart = now
			}
			for _, p := range paths {
				burst[p] = true
			}
			wait := min(d.quiet, max(burstStart.Add(d.maxWait).Sub(now), 0))
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			settle = timer.C
		case <-settle:
			settle = nil
			if len(burst) > 0 {
				maps.Copy(ready, burst)
				clear(burst)
				outDirty = true
			}
		case outc <- out:
			// The consumer owns out.Paths now.
			ready, out = map[string]bool{}, Batch{}
		}
	}
}
