package watch

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// The debouncer runs on synctest's clock: times are exact, and "no batch
// yet" is checked once every goroutine is idle, not by waiting.

func startDebouncer(t *testing.T, quiet, maxWait time.Duration) *debouncer {
	d := newDebouncer(quiet, maxWait)
	t.Cleanup(d.stop)
	return d
}

// none fails if a batch is ready now.
func none(t *testing.T, d *debouncer) {
	t.Helper()
	synctest.Wait()
	select {
	case b := <-d.batches():
		t.Fatalf("unexpected batch %q at %v", b.Paths, time.Now())
	default:
	}
}

// receive takes the next batch, at whatever fake time it comes, and
// checks when that was.
func receive(t *testing.T, d *debouncer, at time.Time, want ...string) {
	t.Helper()
	b, ok := <-d.batches()
	if !ok {
		t.Fatal("batches closed")
	}
	if now := time.Now(); !now.Equal(at) {
		t.Errorf("batch at %v, want %v", now.Sub(at), time.Duration(0))
	}
	if !slices.Equal(b.Paths, want) {
		t.Errorf("batch %q, want %q", b.Paths, want)
	}
}

func TestDebounceBurstEndsAfterQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := startDebouncer(t, 100*time.Millisecond, time.Second)
		t0 := time.Now()
		d.add([]string{"/c", "/a"})
		time.Sleep(60 * time.Millisecond)
		d.add([]string{"/b", "/a"})
		time.Sleep(99 * time.Millisecond)
		none(t, d) // 99ms of quiet is not enough
		d.add([]string{"/c"})
		receive(t, d, t0.Add(259*time.Millisecond), "/a", "/b", "/c")

		time.Sleep(time.Hour)
		none(t, d)
	})
}

// TestDebounceDefaultSettlesSoonAfterASave: with the watcher's defaults,
// a save (a few events a fraction of a millisecond apart, as an editor
// truncates, writes and renames) is a batch 20 ms after its last event.
func TestDebounceDefaultSettlesSoonAfterASave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := startDebouncer(t, defaultDebounce, defaultMaxWait)
		t0 := time.Now()
		for range 4 {
			d.add([]string{"/content/a/en.md"})
			time.Sleep(300 * time.Microsecond)
		}
		time.Sleep(19 * time.Millisecond)
		none(t, d)
		receive(t, d, t0.Add(20*time.Millisecond+900*time.Microsecond), "/content/a/en.md")
	})
}

func TestDebounceMaxWaitBoundsABurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := startDebouncer(t, 200*time.Millisecond, 300*time.Millisecond)
		t0 := time.Now()
		stop := make(chan struct{})
		writerDone := make(chan struct{})
		go func() { // never pauses for 200ms
			defer close(writerDone)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			d.add([]string{"/busy"})
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					d.add([]string{"/busy"})
				}
			}
		}()
		receive(t, d, t0.Add(300*time.Millisecond), "/busy")
		// The next burst began with the first change after the first
		// ended, at 300ms or 320ms.
		b := <-d.batches()
		if at := time.Since(t0); at != 600*time.Millisecond && at != 620*time.Millisecond {
			t.Errorf("second batch %q at %v, want 600ms or 620ms", b.Paths, at)
		}
		close(stop)
		<-writerDone
	})
}

func TestDebounceSlowConsumerGetsOneBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := startDebouncer(t, 50*time.Millisecond, time.Second)
		d.add([]string{"/a"})
		time.Sleep(time.Second) // the first burst ends; nobody reads
		d.add([]string{"/b"})
		time.Sleep(time.Second)
		receive(t, d, time.Now(), "/a", "/b")
		none(t, d)
	})
}

// A change with no paths (a folder created empty) keeps the burst going
// but is no batch of its own.
func TestDebounceActivityWithoutPaths(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := startDebouncer(t, 100*time.Millisecond, time.Second)
		d.add(nil)
		time.Sleep(time.Hour)
		none(t, d)

		t0 := time.Now()
		d.add([]string{"/a"})
		time.Sleep(90 * time.Millisecond)
		d.add(nil)
		receive(t, d, t0.Add(190*time.Millisecond), "/a")
	})
}

func TestDebounceStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDebouncer(100*time.Millisecond, time.Second)
		d.add([]string{"/a"})
		time.Sleep(time.Second) // ready, not taken
		d.stop()
		if b, ok := <-d.batches(); ok {
			t.Errorf("batch %q after stop", b.Paths)
		}
		d.add([]string{"/b"}) // returns at once
	})
}
