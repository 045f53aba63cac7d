//go:build !unix

package output

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// key names the folder dir by the id in its marker file: where inode
// numbers are not at hand, the marker says which bundle is the output's.
func key(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(data)) {
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), "id: "); ok && filepath.IsLocal(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("%s: no id in %s", dir, Marker)
}

// markerID is the line of the marker file that names the bundle.
func markerID() string { return "id: " + rand.Text() + "\n" }

// isKey reports whether name is a key, the name of a bundle: an id of
// markerID.
func isKey(name string) bool {
	return len(name) == len(rand.Text()) && strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") == ""
}
