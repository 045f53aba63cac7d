// Package i18n holds the default site languages: one <tag>.yaml file per
// language with its UI strings, plural forms and formats, built into the
// binary for sites that have no i18n/ folder of their own; and the one
// spelling of a language tag that every part of gen uses (Canonical).
package i18n

import (
	"embed"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// Files are the default language files.
//
//go:embed *.yaml
var Files embed.FS

// Canonical returns the canonical form of a BCP 47 tag ("zh-tw" and
// "zh_TW" → "zh-TW"), or an error saying why s is not one. File names
// (content/<id>/<tag>.md, i18n/<tag>.yaml) must be canonical already;
// command-line flags and search requests are made canonical.
func Canonical(s string) (string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "_", "-"))
	if s == "" {
		return "", errors.New("empty language tag")
	}
	for _, r := range s {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", fmt.Errorf("malformed language tag %q", s)
		}
	}
	t, err := language.Parse(s)
	if err != nil {
		return "", fmt.Errorf("malformed language tag %q: %v", s, err)
	}
	return t.String(), nil
}
