package output

import (
	"errors"
	"os"
)

// errNoExchange: the system or file system cannot exchange two folders.
var errNoExchange = errors.New("cannot exchange two folders in one step here")

// renameIfAbsent renames a to b unless b exists. Between the check and the
// rename another build may create b; the rename then fails on a folder
// that is not empty, or replaces an empty one, which loses nothing.
func renameIfAbsent(a, b string) error {
	if _, err := os.Lstat(b); err == nil {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: os.ErrExist}
	}
	return os.Rename(a, b)
}

// noExchange is exchange where the system has none: it reports whether
// there is anything to exchange with.
func noExchange(a, b string) error {
	if _, err := os.Lstat(b); err != nil {
		return err
	}
	return errNoExchange
}
