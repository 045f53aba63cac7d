// Package layouts holds gen's default theme: html/template page layouts,
// partials and static files, built into the binary. A site overrides any
// one of them by putting a file of the same name in its own layouts/.
package layouts

import "embed"

// Files is the default theme.
//
//go:embed *.html partials/*.html static/*
var Files embed.FS
