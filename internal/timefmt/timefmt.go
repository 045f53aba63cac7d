// Package timefmt names the time layouts gen reads and writes, so that
// each is spelled once: the forms authors write, and the forms gen shows
// in messages and machine-readable places. How a page shows a time to a
// reader, in the reader's language, is internal/locale's.
package timefmt

import "time"

const (
	// Date is a calendar day: incident ids, sitemaps, messages.
	Date = "2006-01-02"
	// Month is a calendar month: archive timeline keys.
	Month = "2006-01"
	// Wall is a wall-clock time as authors write it in front matter and
	// timelines, and as gen new and gen import write it.
	Wall = "2006-01-02 15:04"
	// Clock is a time of day, as a timeline entry gives it after its date.
	Clock = "15:04"
)

// Written are the forms of a wall-clock time that front matter accepts.
var Written = []string{"2006-01-02 15:04:05", Wall, "2006-01-02T15:04:05", "2006-01-02T15:04"}

// UTC shows an instant in UTC for messages and titles: "2020-08-20 03:55 UTC".
func UTC(t time.Time) string { return t.UTC().Format(Wall + " UTC") }

// Zoned shows t in its own zone with the zone's abbreviation: "2020-08-19
// 20:55 PDT".
func Zoned(t time.Time) string { return t.Format(Wall + " MST") }

// Offset shows t with its numeric offset, as RFC 3339 allows it in front
// matter ("+00:00", never "Z"), for messages where two readings of one
// wall-clock time must be told apart.
func Offset(t time.Time) string { return t.Format("2006-01-02T15:04:05-07:00") }
