// Package i18n holds the default site languages: one <tag>.yaml file per
// language with its UI strings, plural forms and formats, built into the
// binary for sites that have no i18n/ folder of their own; the one
// spelling of a language tag that every part of gen uses (Canonical); and
// which language stands in for another (Nearest, Readable).
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

// Nearest is the tag among have (site languages with an i18n file) whose
// interface a language without a file takes: the one CLDR's language
// matching finds a regional variant or other spelling of tag (confidence
// High or Exact: zh-HK and zh-MO → zh-TW, zh-SG → zh-CN, en-GB → en).
// ok is false when none is that near (fr, or zh-HK on a site without
// zh-TW), and tag is no language of the site.
func Nearest(tag string, have []string) (near string, ok bool) {
	near, conf := closest(tag, have)
	return near, conf >= language.High
}

// Readable is the tag among have (the languages an incident is written
// in) whose text a reader of tag reads most easily, when it is the same
// language in another script or region: a Simplified Chinese reader gets
// the Traditional translation (zh-CN → zh-TW) rather than an English
// original. ok is false when no tag of have is tag's language.
func Readable(tag string, have []string) (near string, ok bool) {
	var same []string
	for _, h := range have {
		if SameLanguage(h, tag) {
			same = append(same, h)
		}
	}
	switch len(same) {
	case 0:
		return "", false
	case 1:
		return same[0], true
	}
	near, _ = closest(tag, same)
	return near, true
}

// closest is the tag of have CLDR's matching picks for tag, and how
// confident it is; have[0] with No when have is empty or tag malformed.
func closest(tag string, have []string) (string, language.Confidence) {
	if len(have) == 0 {
		return "", language.No
	}
	want, err := language.Parse(tag)
	if err != nil {
		return have[0], language.No
	}
	tags := make([]language.Tag, len(have))
	for i, h := range have {
		tags[i] = language.Make(h)
	}
	_, i, conf := language.NewMatcher(tags).Match(want)
	return have[i], conf
}

// SameLanguage reports whether two canonical tags are one language,
// perhaps in other scripts or regions: zh-CN and zh-Hant-HK are.
func SameLanguage(a, b string) bool { return baseOf(a) == baseOf(b) }

// baseOf is the language subtag of a canonical tag: zh of zh-Hant-HK.
func baseOf(tag string) string {
	if i := strings.IndexByte(tag, '-'); i >= 0 {
		return tag[:i]
	}
	return tag
}
