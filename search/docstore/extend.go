package docstore

import (
	"fmt"
	"io"
	"os"
)

// Extend creates the store at path, which must not exist, holding the
// records of prev but those of the documents drop names: prev's records
// are copied as they are (the file system may share their blocks), with
// its dictionary, and the new records are added with Add, compressed with
// prev's dictionary (Dict). A dropped document's record stays in the file
// as unused bytes, which the next full build leaves out.
func Extend(prev *Reader, path string, drop map[string]bool) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	// io.Copy of a file section to a file is copy_file_range on Linux.
	if _, err := io.Copy(f, io.NewSectionReader(prev.f, 0, int64(prev.dataEnd))); err != nil {
		f.Close()
		return nil, fmt.Errorf("search: copying %s: %w", prev.path, err)
	}
	dw, err := newWriter(path, f, prev.dataEnd)
	if err != nil {
		return nil, err
	}
	dw.dict = prev.dict
	for id, e := range prev.entries {
		if !drop[id] {
			dw.row = appendRow(dw.row[:0], id, e)
			dw.rows.add(id, dw.row)
		}
	}
	return dw, nil
}

// Dict is the preset dictionary the store's records are compressed with.
func (s *Reader) Dict() []byte { return s.dict }
