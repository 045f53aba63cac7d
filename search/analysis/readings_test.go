package analysis

import (
	"slices"
	"testing"
)

// The table has the readings the corrections need, in both directions.
func TestReadings(t *testing.T) {
	for _, tc := range []struct {
		c      rune
		sounds Sounds
		want   rune
	}{
		{'褲', Mandarin, '庫'}, {'褲', Mandarin, '库'}, {'正', Mandarin, '證'},
		{'裁', Japanese, '済'}, {'早', Japanese, '速'},
	} {
		if got := SameSound(tc.c, tc.sounds); !slices.Contains(got, tc.want) || slices.Contains(got, tc.c) {
			t.Errorf("SameSound(%c): %s, want %c and not itself", tc.c, string(got), tc.want)
		}
	}
	if got := SameSound('裁', Mandarin); slices.Contains(got, '済') {
		t.Errorf("SameSound(裁, Mandarin) has 済 (jì, not cái): %s", string(got))
	}
	if got := SameSound('a', Mandarin|Japanese); len(got) != 0 {
		t.Errorf("SameSound(a): %s", string(got))
	}
	if !slices.Contains(KanjiReadings('決'), "けつ") {
		t.Errorf("決 reads %v", KanjiReadings('決'))
	}
	if len(readings().chars[0]) < 390 || len(readings().chars[1]) < 1000 {
		t.Errorf("%d Mandarin readings, %d Japanese", len(readings().chars[0]), len(readings().chars[1]))
	}
}

// A kana word's runs are read as kanji with the sound changes of
// compounds.
func TestKanjiFor(t *testing.T) {
	spans := func(kana string, first bool) map[string][]rune {
		out := map[string][]rune{}
		for _, s := range KanjiFor(kana, first) {
			out[kana[:s.Bytes]] = s.Kanji
		}
		return out
	}
	if got := spans("けっさい", true); !slices.Contains(got["けっ"], '決') || len(got["け"]) == 0 {
		t.Errorf("けっさい: %v", got)
	}
	if got := spans("さい", false); !slices.Contains(got["さい"], '済') {
		t.Errorf("さい: %v", got)
	}
	if got := spans("だな", false); !slices.Contains(got["だな"], '棚') {
		t.Errorf("だな (voiced, not first: 本棚): %v", got)
	}
	if got := spans("だな", true); slices.Contains(got["だな"], '棚') {
		t.Errorf("だな (first): %v has 棚 (たな)", got)
	}
	if got := spans("っさい", false); len(got) != 0 {
		t.Errorf("っさい: %v", got)
	}
	if got := spans("けっ", true); len(got["けっ"]) != 0 {
		t.Errorf("けっ with nothing after: %v", got)
	}
}
