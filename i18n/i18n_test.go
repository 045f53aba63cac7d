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

// A language without an i18n file takes the interface of a regional
// variant's neighbour, never of another language.
func TestNearest(t *testing.T) {
	site := []string{"en", "ja", "zh-CN", "zh-TW"}
	for tag, want := range map[string]string{
		"zh-HK": "zh-TW", "zh-MO": "zh-TW", "zh-Hant-HK": "zh-TW", "zh-SG": "zh-CN", "en-GB": "en",
		"fr": "", "yue": "", "ko": "", "pt-BR": "",
	} {
		got, ok := Nearest(tag, site)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("Nearest(%q) = %q, %v; want %q", tag, got, ok, want)
		}
	}
	// Hong Kong's Traditional text does not take a Simplified interface.
	if got, ok := Nearest("zh-HK", []string{"en", "zh-CN"}); ok {
		t.Errorf("Nearest(zh-HK) on a site without zh-TW = %q; want none", got)
	}
}

func TestReadable(t *testing.T) {
	for _, c := range []struct {
		tag  string
		have []string
		want string
	}{
		{"zh-CN", []string{"en", "zh-TW"}, "zh-TW"},
		{"zh-HK", []string{"en", "zh-CN", "zh-TW"}, "zh-TW"},
		{"zh-SG", []string{"zh-TW", "zh-CN", "en"}, "zh-CN"},
		{"zh-TW", []string{"ja", "zh-CN"}, "zh-CN"},
		{"ja", []string{"en", "zh-TW"}, ""},
		{"en", []string{"ja", "zh-CN"}, ""},
	} {
		got, ok := Readable(c.tag, c.have)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("Readable(%q, %q) = %q, %v; want %q", c.tag, c.have, got, ok, c.want)
		}
	}
}
