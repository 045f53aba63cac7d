package content

import (
	"strings"
	"testing"
	"time"
)

// TestSlug: whatever the text, a slug is "" or a valid slug within the
// bounds, and an id made from it is an id the loader accepts.
func TestSlug(t *testing.T) {
	hash := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" // 64 characters
	for _, tc := range []struct{ text, want string }{
		{"Elevated API errors in the object store", "elevated-api-errors-in-the-object"},
		{"Pub/Sub: délais de livraison", "pub-sub-delais-de-livraison"},
		{hash + " broke the deploy", hash[:maxSlugLen]},
		{"Rollback of " + hash, "rollback-of"},
		{strings.Repeat("ab ", 40), "ab-ab-ab-ab-ab-ab"},
		{"資源耗盡", ""},
		{"🔥🔥🔥", ""},
		{"x", "x"},
		{"", ""},
		{"!?… — ///", ""},
		{"API 資源耗盡 v2", "api-v2"},
	} {
		got := Slug(tc.text)
		if got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.text, got, tc.want)
		}
		if got != "" && (!IsSlug(got) || len(got) > maxSlugLen) {
			t.Errorf("Slug(%q) = %q is not a slug of at most %d characters", tc.text, got, maxSlugLen)
		}
		if got == "" {
			continue
		}
		id := ID(time.Date(2024, 5, 1, 23, 30, 0, 0, time.UTC), got)
		if date, slug, ok := SplitID(id); !ok || date != "2024-05-01" || slug != got {
			t.Errorf("SplitID(%q) = %q, %q, %v", id, date, slug, ok)
		}
	}
	for _, bad := range []string{"", "-a", "a-", "a--b", "A", "a_b", "é"} {
		if _, _, ok := SplitID("2024-05-01-" + bad); ok || IsSlug(bad) {
			t.Errorf("%q taken for a slug", bad)
		}
	}
}
