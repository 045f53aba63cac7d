// Package memory is a build's memory policy, in one place: whether a
// build keeps what it can in files rather than in the heap (the
// timelines' texts, a cold build's search documents until the pages are
// written), and how the collector is set around the search index. The
// collector's settings are the process's, so a Policy changes them only
// when the program's main allows it (Tune): a library build leaves them
// as they are.
package memory

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"

	"github.com/postmortem-archive/gen/internal/archive"
)

// Policy says how a build uses memory. The zero Policy keeps what it can
// in files only near the soft memory limit and changes no process
// setting.
type Policy struct {
	// Tune lets the policy set the process's collector percentage (GOGC)
	// around the search index and give a large heap back to the system
	// before the index's final merge. Only a program's main sets it.
	Tune bool
	// Scratch says when a build keeps what it can in files.
	Scratch Scratching
}

// Scratching says when a build keeps what it can in files.
type Scratching int

const (
	// NearTheLimit keeps what it can in files when the collector's goal
	// after linking passes ScratchAbove of the soft memory limit.
	NearTheLimit Scratching = iota
	// Always keeps what it can in files, for tests of that path on small
	// archives.
	Always
	// Never keeps everything in memory, for tests that compare both.
	Never
)

// ScratchAbove is how much of the soft memory limit the collector's goal
// after linking (the live heap grown by GOGC's percentage) passes when a
// build keeps what it can in files: the render and the index would add
// their own to what is live, and the goal would meet the limit, where
// each byte of heap makes the collections come sooner (at 100,000
// incidents). Below it the goal is GOGC's, what is live costs only its
// room, and reading the texts back would cost the 10,000 build 1–2 % of
// its CPU.
const ScratchAbove = 0.5

// nearTheLimit reports whether the process's heap after linking is near
// enough the soft memory limit to keep what it can in files.
func (p Policy) nearTheLimit() bool {
	switch p.Scratch {
	case Always:
		return true
	case Never:
		return false
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return GoalPasses(s[0].Value.Uint64(), s[1].Value.Uint64(), debug.SetMemoryLimit(-1), ScratchAbove)
}

// GoalPasses reports whether the collector's goal for a live heap of
// live bytes at GOGC percent passes the fraction of the memory limit.
func GoalPasses(live, percent uint64, limit int64, fraction float64) bool {
	return float64(live)*(1+float64(percent)/100) > fraction*float64(limit)
}

// HeapToTheLimit lets the heap grow to the soft memory limit before a
// collection, whatever is live (GOGC off), until restore: for the search
// documents of a build near the limit, added once the render is done
// (scratch). With the archive let go, about 200 MB are live then at
// 100,000 incidents, and GOGC's goal made a collection for every 400 MB
// of the index's garbage (225 of them); the load and the render have
// held the heap at the limit already, so the build's peak is no higher.
// Nothing changes without Tune, without a limit, or with GOGC lower than
// mergePercent.
func (p Policy) HeapToTheLimit() (restore func()) {
	if !p.Tune || debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	if old < mergePercent {
		debug.SetGCPercent(old) // lower already, or off
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}

// mergePercent is how far the heap may grow past what is live while the
// index's segments are merged (the GOGC percentage): what gen build
// sets. With the document store's records in files until it is written,
// 110–240 MB are live during the merge at 100,000 incidents; at 100 %
// the merge's garbage made 169 collections there (13.7 s of CPU against
// 5.9 s at 200 %).
const mergePercent = 200

// LeanHeap readies the process for the index's final merge, which maps
// the segments it merges beside the heap: at 100,000 incidents hundreds
// of megabytes of them resident, while the heap the render left (grown
// to the soft limit around the archive, which is let go by then) would
// stay resident too. So a heap holding more than half the soft memory
// limit is given back to the system; a smaller one is kept, as the
// collection that gives it back and the pages the merge then touches
// again cost 5 % of a 1,000-incident build's CPU. The heap is held to
// mergePercent, if a higher percentage is set (GOGC), until restore.
// Nothing changes without Tune. It sets the process's percentage: builds
// running at once in one process may leave the lower one set.
func (p Policy) LeanHeap() (restore func()) {
	if !p.Tune {
		return func() {}
	}
	if heapHeld() > debug.SetMemoryLimit(-1)/2 {
		debug.FreeOSMemory()
	}
	old := debug.SetGCPercent(mergePercent)
	if old < mergePercent {
		debug.SetGCPercent(old) // lower already, or off
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}

// heapHeld is the memory the heap holds from the system, used or free,
// but not what it has already given back.
func heapHeld() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	var held uint64
	for _, v := range s {
		held += v.Value.Uint64()
	}
	return int64(held)
}

// Scratch is what a build near the soft memory limit keeps in files
// beside the output rather than in memory: the archive's timelines'
// texts (archive.MoveTexts), moved once for all its writes (an
// incident's are read back for its pages, its search documents and its
// record in incidents.json), and a cold write's search documents, which
// wait for the render to end before they are indexed (index.NewStream).
// The collector then has that much less heap under the limit at every
// cycle, and the render and the index are never live at once.
type Scratch struct {
	Policy Policy
	texts  *os.File // nil while the texts are in memory
	files  []*os.File
	named  []string // files whose name could not be removed at once
}

// MoveTexts moves a's texts into a new file in dir, when near the limit
// and not moved already (by a write before this one).
func (s *Scratch) MoveTexts(a *archive.Archive, dir string) error {
	if s.texts != nil || !s.Policy.nearTheLimit() {
		return nil
	}
	f, err := s.create(dir, ".gen-scratch-texts-*")
	if err != nil {
		return fmt.Errorf("moving the timelines' texts: %w", err)
	}
	s.texts = f
	return a.MoveTexts(f, f)
}

// Documents returns a new file in dir for the search documents of a cold
// write to wait in, or nil when the texts are in memory: the archive is
// small enough for the render and the index to share the heap.
func (s *Scratch) Documents(dir string) (io.ReadWriteSeeker, error) {
	if s.texts == nil {
		return nil, nil
	}
	f, err := s.create(dir, ".gen-scratch-documents-*")
	if err != nil {
		return nil, fmt.Errorf("keeping the search documents until the pages are written: %w", err)
	}
	return f, nil
}

// create makes a file in dir that, where an open file can lose its name
// (Unix), loses it at once: a build killed from here on leaves nothing.
func (s *Scratch) create(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	s.files = append(s.files, f)
	if os.Remove(f.Name()) != nil {
		s.named = append(s.named, f.Name())
	}
	return f, nil
}

// Close closes the files and removes those still named.
func (s *Scratch) Close() error {
	var errs []error
	for _, f := range s.files {
		errs = append(errs, f.Close())
	}
	for _, name := range s.named {
		errs = append(errs, os.Remove(name))
	}
	*s = Scratch{Policy: s.Policy}
	return errors.Join(errs...)
}
