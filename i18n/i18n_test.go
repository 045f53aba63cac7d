package i18n

import "testing"

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"en": "en", "zh-tw": "zh-TW", "zh_TW": "zh-TW", " ja ": "ja", "ZH-hant-tw": "zh-Hant-TW", "zh-CN": "zh-CN",
	} {
		if got, err := Canonical(in); err != nil || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "  ", "en<", "zh TW", "e", "x-", "日本語"} {
		if got, err := Canonical(bad); err == nil {
			t.Errorf("Canonical(%q) = %q; want an error", bad, got)
		}
	}
}
