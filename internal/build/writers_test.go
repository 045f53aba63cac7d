package build

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
)

// TestWritersOverlap: files handed to the pool are written several at a
// time, while the caller goes on. Every write waits until all n are in
// progress at once; one writer after another would never get there, and
// synctest reports the deadlock. Each file is handed back once written.
func TestWritersOverlap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n = 8
		var mu sync.Mutex
		inFlight, got, done := 0, map[string]string{}, map[string]bool{}
		all := make(chan struct{})
		w := newWriters(n, 0, func(path string, data []byte) error {
			mu.Lock()
			inFlight++
			if inFlight == n {
				close(all)
			}
			mu.Unlock()
			<-all
			mu.Lock()
			got[path] = string(data)
			mu.Unlock()
			return nil
		}, func(data []byte) {
			mu.Lock()
			if _, written := got[string(data[len("data "):])]; !written {
				t.Errorf("%q handed back before it was written", data)
			}
			done[string(data)] = true
			mu.Unlock()
		})
		for i := range n {
			if err := w.emit(fmt.Sprint(i), []byte(fmt.Sprint("data ", i))); err != nil {
				t.Fatal(err)
			}
		}
		w.wait()
		for i := range n {
			if got[fmt.Sprint(i)] != fmt.Sprint("data ", i) {
				t.Errorf("file %d: got %q", i, got[fmt.Sprint(i)])
			}
			if !done[fmt.Sprint("data ", i)] {
				t.Errorf("file %d was not handed back", i)
			}
		}
	})
}
