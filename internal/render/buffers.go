package render

import "sync"

// pageBuffers lends the buffers pages are made in and takes back those
// their Emit has written out (Renderer.Recycle): a build makes hundreds
// of thousands of pages of 30–170 KB, and a buffer grown for each was a
// quarter of all it allocated, garbage for the collector to reclaim.
// Only buffers it lent are taken back: an Emit may be handed bytes the
// render does not own (a layout's static file).
type pageBuffers struct {
	mu   sync.Mutex
	lent map[*byte]struct{} // the first byte of each page not yet taken back
	free [][]byte
}

const (
	pageBufferSize = 64 << 10 // most incident pages fit
	maxFreeBuffers = 64       // as many as the writers' queue turns over quickly
	maxBufferSize  = 1 << 20  // a larger page's buffer is left to the collector
)

// get returns an empty buffer to make a page in; nil when nothing is
// recycled, for the page to grow its own.
func (p *pageBuffers) get() []byte {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b
	}
	return make([]byte, 0, pageBufferSize)
}

// lend records page, made in a buffer from get (grown or not), as one to
// take back.
func (p *pageBuffers) lend(page []byte) {
	if p == nil || cap(page) == 0 {
		return
	}
	p.mu.Lock()
	p.lent[&page[:1][0]] = struct{}{}
	p.mu.Unlock()
}

// put takes page back if it was lent.
func (p *pageBuffers) put(page []byte) {
	if p == nil || cap(page) == 0 {
		return
	}
	first := &page[:1][0]
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.lent[first]; !ok {
		return
	}
	delete(p.lent, first)
	if cap(page) <= maxBufferSize && len(p.free) < maxFreeBuffers {
		p.free = append(p.free, page[:0])
	}
}

// Recycle hands back a page's bytes once its Emit has written them and
// keeps no reference to them, for a later page to be made in. Bytes the
// render did not lend are ignored, so an Emit may hand back every file.
// It does nothing unless the renderer was made with Options.Recycle.
func (r *Renderer) Recycle(data []byte) { r.buffers.put(data) }
