//go:build unix

package output

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// key names the folder dir by its device and inode, which a rename or an
// exchange moves with it: the path of the output leads to its bundle.
func key(dir string) (string, error) {
	info, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", fmt.Errorf("%s: no inode number", dir)
	}
	return fmt.Sprintf("%x-%x", uint64(st.Dev), uint64(st.Ino)), nil
}

// markerID is extra text for the marker file; the inode needs none.
func markerID() string { return "" }

// isKey reports whether name is a key, the name of a bundle.
func isKey(name string) bool {
	dev, ino, ok := strings.Cut(name, "-")
	return ok && isHex(dev) && isHex(ino)
}

func isHex(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdef") == ""
}
