package vocab

// Builder returns a Builder holding v's counts, so that documents can be
// counted in or out of a vocabulary already written.
func (v *Vocab) Builder() *Builder {
	b := &Builder{docs: make(map[string]int32, len(v.words))}
	for i, w := range v.words {
		b.docs[w] = v.docs[i]
	}
	return b
}
