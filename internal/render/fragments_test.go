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
			if _, err := f.get(fragmentKey{id, lang, part}, 0, func() (string, error) { made++; return id + lang, nil }); err != nil {
				t.Fatal(err)
			}
		}
		get("a", "", partJSON)
		get("a", "", partJSON)
		get("a", "en", partItem)
		get("a", "en", partItem)
		get("a", "ja", partItem)
		get("a", "ja", partLine)
		get("a", "ja", partLine)
		f.forgetLang("en")
		kept := len(f.m)
		if once && (made != 6 || kept != 1) || !once && (made != 4 || kept != 3) {
			t.Errorf("once %v: made %d fragments, %d kept after forgetting English", once, made, kept)
		}
	}
}

// TestFragmentsOfAnOlderRendererAreNotKept: a renderer made before an
// incident was forgotten (an older build rendering a page on request)
// makes that incident's fragments from its own archive and does not
// leave them for the newer one.
func TestFragmentsOfAnOlderRendererAreNotKept(t *testing.T) {
	f := NewFragments()
	k := fragmentKey{"2020-01-01-a", "en", partItem}
	made := func(v string) func() (string, error) { return func() (string, error) { return v, nil } }
	older := f.now()
	if v, _ := f.get(k, older, made("old")); v != "old" {
		t.Fatalf("first get made %q", v)
	}
	if v, _ := f.get(k, older, made("again")); v != "old" {
		t.Fatalf("a kept fragment was made again: %q", v)
	}
	f.Forget(map[string]bool{k.id: true})
	newer := f.now()
	if v, _ := f.get(k, older, made("old, late")); v != "old, late" {
		t.Errorf("the older renderer got %q, not its own", v)
	}
	if v, _ := f.get(k, newer, made("new")); v != "new" {
		t.Errorf("the newer renderer got %q, made by the older one", v)
	}
	if v, _ := f.get(k, newer, made("again")); v != "new" {
		t.Errorf("the newer renderer's fragment was not kept: %q", v)
	}
}
