package output

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders at a and b in one step (renamex_np with
// RENAME_SWAP): at every instant b is one of the two, whole.
// It returns an error matching os.ErrNotExist when b does not exist, and
// errNoExchange on a file system that cannot exchange.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// renameNoReplace renames a to b, failing with an error matching
// os.ErrExist when b exists.
func renameNoReplace(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_EXCL)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return renameIfAbsent(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
	return nil
}
