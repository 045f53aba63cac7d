// Package i18n holds the default site languages: one <tag>.yaml file per
// language with its UI strings, plural forms and formats, built into the
// binary for sites that have no i18n/ folder of their own.
package i18n

import "embed"

// Files are the default language files.
//
//go:embed *.yaml
var Files embed.FS
