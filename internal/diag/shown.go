package diag

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// MaxShown is how many problems a person is shown at once, in the
// terminal or over a page: a file with hundreds of thousands of mistakes
// would otherwise make every page served while authoring as large as its
// list. The first ones are shown, then how many more there are; tools
// (`gen check --format json`) get them all.
const MaxShown = 100

var english = message.NewPrinter(language.English)

// Shown cuts a list of problems to the first MaxShown; more says how many
// were left out ("… and 349,900 more"), or is "" when none were.
func Shown[T any](all []T) (shown []T, more string) {
	if len(all) <= MaxShown {
		return all, ""
	}
	return all[:MaxShown], More(len(all) - MaxShown)
}

// More says that n more problems were left out.
func More(n int) string {
	return english.Sprintf("… and %d more", n)
}
