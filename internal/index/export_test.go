package index

// SetStreamWindow sets how far ahead of the index the render may run, and
// returns a function that restores it.
func SetStreamWindow(n int) (restore func()) {
	old := streamWindow
	streamWindow = n
	return func() { streamWindow = old }
}

// LastOf reports whether document n of the stream is the last of its
// language.
func (s *Stream) LastOf(n int) bool { return s.lastOf(n) }
