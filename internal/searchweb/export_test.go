package searchweb

// Occupy takes every search slot, as searches running at once would,
// until the returned function is called.
func (h *Handler) Occupy() (free func()) {
	for range cap(h.slots) {
		h.slots <- struct{}{}
	}
	return func() {
		for range cap(h.slots) {
			<-h.slots
		}
	}
}
