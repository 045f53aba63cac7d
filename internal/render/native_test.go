package render

import (
	"testing"

	"github.com/postmortem-archive/gen/layouts"
)

// TestNativeFollowsDefaults: the Go writers follow the default layouts as
// they are; when one changes, its writer must change with it (and the
// digest in native.go), or the default theme falls back to html/template.
// internal/build's TestNativeLayoutsEqualTemplates checks the bytes.
func TestNativeFollowsDefaults(t *testing.T) {
	if got := nativeFor(layouts.Files); got != (nativeParts{incident: true, item: true, line: true}) {
		t.Errorf("written from Go: %+v; a default layout changed: make its writer in native.go write what the layout does now, then update its digest there", got)
	}
}
