package archive

import (
	"bufio"
	"fmt"
	"io"
	"sync"
)

// MoveTexts writes the texts of every incident's timelines to w and
// lets go of them: they are read back from r, where w wrote them (the
// same file), each time an incident's events are asked for. A build
// renders each incident's pages once, and the texts are most of what the
// archive holds that no other page shows (116 MB at 100,000 incidents in
// two languages). A read that fails gives blanks, and TextsErr says so.
// The archive must not be linked again from (Options.Prev) afterwards.
func (a *Archive) MoveTexts(w io.Writer, r io.ReaderAt) error {
	// Every text is written before any is let go, in the order the
	// offsets are then counted in: a failed write leaves the archive as
	// it was.
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, inc := range a.Incidents {
		bw.WriteString(inc.timeline.texts.s)
		for _, t := range inc.translations {
			bw.WriteString(t.texts.s)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("moving the timelines' texts: %w", err)
	}
	f := &textFile{r: r}
	var off int64
	move := func(t *texts) {
		t.s, t.off, off = "", off, off+int64(len(t.s))
	}
	for _, inc := range a.Incidents {
		move(&inc.timeline.texts)
		for i := range inc.translations {
			move(&inc.translations[i].texts)
		}
		inc.moved = f
	}
	a.moved = f
	return nil
}

// TextsErr is the first error reading back the texts MoveTexts moved.
func (a *Archive) TextsErr() error {
	if a.moved == nil {
		return nil
	}
	a.moved.mu.Lock()
	defer a.moved.mu.Unlock()
	return a.moved.err
}

// textFile is where an archive's timelines' texts were moved.
type textFile struct {
	r   io.ReaderAt
	mu  sync.Mutex
	err error // the first failed read
}

// read returns the n bytes of texts t: the string itself when f is nil
// (not moved).
func (f *textFile) read(t texts, n int) string {
	if f == nil || n == 0 {
		return t.s
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, t.off); err != nil {
		f.mu.Lock()
		if f.err == nil {
			f.err = fmt.Errorf("reading the timelines' texts back: %w", err)
		}
		f.mu.Unlock()
		clear(b)
	}
	return string(b)
}
