//go:build !linux && !darwin

package output

// exchange cannot swap two folders in one step here: Commit moves the
// previous output aside, then the new one into place (see swapInTwo).
func exchange(a, b string) error { return noExchange(a, b) }

func renameNoReplace(a, b string) error { return renameIfAbsent(a, b) }
