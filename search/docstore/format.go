// Package docstore is the document store of a search index: the metadata
// and the text of the long fields of every document of one language, next
// to that language's bleve index. The index keeps no text of its own:
// phrases are checked and results highlighted on the text kept here.
//
// On disk it is one file, <lang>/gen-docs:
//
//	"GENDOCS2"   magic
//	records      one raw DEFLATE stream per document (with the preset
//	             dictionary below): summary, impact, root cause, body and
//	             timeline, one after
//	             the other; the table gives their lengths
//	dictionary   a preset DEFLATE dictionary sampled from the first
//	             documents (documents of one archive share much wording,
//	             which a dictionary makes a third smaller)
//	meta         one raw DEFLATE stream of the JSON array of the
//	             documents' Meta
//	table        per document, sorted by id: uvarint length and bytes of
//	             the id, uvarint offset and length of its record, uvarint
//	             lengths of its five fields, a flags byte, the CRC-32C of
//	             its uncompressed text (4 bytes, little endian), uvarint
//	             length plus one (0: none) and bytes of its phrase sketch
//	             (analysis.SketchBuilder)
//	footer       offsets of dictionary, meta and table (uint64 each), the
//	             number of documents (uint32), the CRC-32C of everything
//	             from the dictionary to here (uint32), "GENDOCSE"
//
// Open reads the footer, table, dictionary and meta; records are read
// with ReadAt when a search needs them (to check a phrase, to highlight a
// result or to show an excerpt) and never cached: the file stays in the
// page cache. Any inconsistency is an error, never a panic.
package docstore

import (
	"errors"
	"fmt"
	"hash/crc32"
)

const (
	// FileName is the name of the store in a language's directory.
	FileName = "gen-docs"
	magic    = "GENDOCS2"
	endMagic = "GENDOCSE"
	// FooterSize is the size of the footer, in bytes.
	FooterSize = 8 + 8 + 8 + 4 + 4 + 8
	// DictSize is the largest dictionary.
	DictSize    = 32 << 10 // DEFLATE's window: a longer dictionary is not used
	flateLevel  = 4        // ratio within 3% of level 9, twice as fast
	maxDocBytes = 1 << 30  // sanity bound on one document's text
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NumFields is the number of long fields a document has in the store.
const NumFields = 5

// entry is the table entry of one document.
type entry struct {
	off, clen uint64
	lens      [NumFields]uint64
	flags     uint8
	crc       uint32
	sketch    []byte // nil: none (analysis.SketchBuilder)
}

// ErrCorrupt is wrapped by the errors about a damaged store.
var ErrCorrupt = errors.New("corrupt")

func corruptf(path, format string, args ...any) error {
	return fmt.Errorf("search: %s: %w: %s", path, ErrCorrupt, fmt.Sprintf(format, args...))
}
