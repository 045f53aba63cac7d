package diag

import (
	"fmt"
	"testing"
)

func TestShown(t *testing.T) {
	for _, tc := range []struct {
		n, shown int
		more     string
	}{
		{0, 0, ""},
		{1, 1, ""},
		{MaxShown, MaxShown, ""},
		{MaxShown + 1, MaxShown, "… and 1 more"},
		{350000, MaxShown, "… and 349,900 more"},
	} {
		all := make([]string, tc.n)
		for i := range all {
			all[i] = fmt.Sprint(i)
		}
		shown, more := Shown(all)
		if len(shown) != tc.shown || more != tc.more {
			t.Errorf("Shown(%d): %d shown, %q; want %d, %q", tc.n, len(shown), more, tc.shown, tc.more)
		}
		if len(shown) > 0 && shown[0] != "0" {
			t.Errorf("Shown(%d) does not start with the first", tc.n)
		}
	}
}
