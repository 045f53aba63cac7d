package search

import (
	"slices"
	"testing"
)

// A single Chinese character finds the words the fold writes it
// otherwise in: 宕机 is indexed as 死机 (OpenCC's phrase), so 宕 finds
// the report that says 宕机, as 宕机 does, and 當 still finds 當機.
func TestSingleCharacterThroughPhraseFold(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("2024-01-01-cn-down", "zh-CN", "zh-CN", "服务器宕机", "机房的服务器宕机两小时。", "重启后恢复。", "2024-01-01", nil, nil, nil),
		doc("2024-01-02-tw-down", "zh-TW", "zh-TW", "伺服器當機", "機房的伺服器當機兩小時。", "重新啟動後恢復。", "2024-01-02", nil, nil, nil),
	}
	for name, ix := range map[string]*Index{"disk": diskIndex(t, docs), "memory": memoryOf(t, docs)} {
		for _, tc := range []struct {
			q, lang string
			want    []string
		}{
			{"宕", "zh-CN", []string{"2024-01-01-cn-down"}},
			{"宕", "zh-TW", []string{"2024-01-01-cn-down"}},
			{"當", "zh-TW", []string{"2024-01-02-tw-down"}},
			{"宕机", "zh-CN", []string{"2024-01-01-cn-down", "2024-01-02-tw-down"}},
		} {
			got := ids(search(t, ix, Request{Query: tc.q, Lang: tc.lang}))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q (%s): %v, want %v", name, tc.q, tc.lang, got, tc.want)
			}
		}
	}
}
