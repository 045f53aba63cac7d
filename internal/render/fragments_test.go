package render

import "testing"

// A render's own cache does not grow with the archive: fragments of no
// language are made each time, and a language's go when forgotten. A
// cache kept across renders keeps both.
func TestFragmentsOfOneRender(t *testing.T) {
	for _, once := range []bool{true, false} {
		f := NewFragments()
		f.once = once
		made := 0
		get := func(id, lang string, part int) {
			if _, err := f.get(fragmentKey{id, lang, part}, func() (string, error) { made++; return id + lang, nil }); err != nil {
				t.Fatal(err)
			}
		}
		get("a", "", partJSON)
		get("a", "", partJSON)
		get("a", "en", partItem)
		get("a", "en", partItem)
		get("a", "ja", partItem)
		f.forgetLang("en")
		kept := len(f.m)
		if once && (made != 4 || kept != 1) || !once && (made != 3 || kept != 2) {
			t.Errorf("once %v: made %d fragments, %d kept after forgetting English", once, made, kept)
		}
	}
}
