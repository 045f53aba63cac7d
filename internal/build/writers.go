package build

import (
	"sync"

	"github.com/postmortem-archive/gen/internal/render"
)

// writers hands rendered files to a bounded pool of goroutines that write
// them, so that rendering goes on while files are written, and files are
// written several at a time: on a disk slow at creating files and folders
// each write mostly waits. At most queue files wait at once, which bounds
// the memory they hold.
type writers struct {
	jobs chan file
	wg   sync.WaitGroup
}

type file struct {
	path string
	data []byte
}

// newWriters starts n goroutines passing files to write, which must be
// safe for concurrent use, then to done, once written.
func newWriters(n, queue int, write render.Emit, done func(data []byte)) *writers {
	w := &writers{jobs: make(chan file, queue)}
	for range n {
		w.wg.Go(func() {
			for f := range w.jobs {
				// Errors are the writer's to collect (output.Folder.Collect
				// records them for the staging's Err).
				_ = write(f.path, f.data)
				done(f.data)
			}
		})
	}
	return w
}

// emit queues one file; the caller must not change data afterwards.
func (w *writers) emit(path string, data []byte) error {
	w.jobs <- file{path, data}
	return nil
}

// wait returns once every queued file is written.
func (w *writers) wait() {
	close(w.jobs)
	w.wg.Wait()
}
