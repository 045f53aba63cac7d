package locale

import (
	"strconv"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/timefmt"
)

// Time shows an instant as wall-clock time in loc with the zone's
// abbreviation for that date, and in UTC: "10:22 PDT · 17:22 UTC". The
// UTC part carries its date ("20:55 PDT · 2020-08-20 03:55 UTC") when it
// differs from the local date, so that the two never seem to be the same
// day; an abbreviation several zones use is followed by its offset ("CST,
// UTC−6"), and a zone without one is named by its offset ("UTC+8"). An
// instant in UTC is shown once: "16:36 UTC".
func (l *Lang) Time(t time.Time, loc *time.Location) string {
	local, utc := t.In(loc), t.UTC()
	utcText := utc.Format(timefmt.Clock)
	if local.YearDay() != utc.YearDay() || local.Year() != utc.Year() {
		utcText = l.DateShort(utc) + " " + utcText
	}
	if isUTC(local) {
		format := l.f.TimeUTC
		if format == "" {
			format = "{utc} UTC"
		}
		return fill(format, "utc", utcText)
	}
	return fill(l.f.Time, "local", local.Format(timefmt.Clock), "zone", ZoneName(local), "utc", utcText)
}

// DateTime shows an instant as the date and wall-clock time in loc with
// the zone's name for that date, as lists give an incident's beginning:
// "August 19, 2020, 20:55 PDT" (the date_time format), "16:36 UTC" for an
// incident kept in UTC.
func (l *Lang) DateTime(t time.Time, loc *time.Location) string {
	local := t.In(loc)
	format := l.f.DateTime
	if format == "" {
		format = "{date} {time}"
	}
	return fill(format, "date", l.Date(local), "time", local.Format(timefmt.Clock)+" "+ZoneName(local))
}

// isUTC reports whether t's zone is UTC itself (not a zone that happens to
// be at offset 0 for part of the year, like Europe/London in winter).
func isUTC(t time.Time) bool {
	name, offset := t.Zone()
	return offset == 0 && name == "UTC"
}

// ambiguous are the abbreviations the time zone database gives to zones of
// different offsets: Central Standard Time in the US and China Standard
// Time are both CST, India's, Israel's and Ireland's are all IST.
var ambiguous = map[string]bool{
	"CST": true, "CDT": true, "IST": true, "BST": true, "AST": true, "ADT": true,
	"GST": true, "SST": true, "ECT": true, "AMT": true,
}

// ZoneName is t's zone as a reader can tell it apart: its abbreviation,
// with the offset after one that several zones share ("CST, UTC−6"); the
// offset alone when the zone has no abbreviation (the database writes
// "+08"). Unambiguous abbreviations ("PDT", "JST") stand alone.
func ZoneName(t time.Time) string {
	name, offset := t.Zone()
	if name == "" || name[0] == '+' || name[0] == '-' {
		return Offset(offset)
	}
	if ambiguous[name] {
		return name + ", " + Offset(offset)
	}
	return name
}

// Offset writes an offset from UTC in seconds as "UTC+8", "UTC−6" (with a
// minus sign) or "UTC+5:30".
func Offset(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "−", -seconds
	}
	h, m := seconds/3600, seconds/60%60
	s := "UTC" + sign + strconv.Itoa(h)
	if m != 0 {
		s += ":" + strings.Repeat("0", 2-len(strconv.Itoa(m))) + strconv.Itoa(m)
	}
	return s
}

// MonthShort names a month briefly, for chart columns: the language's
// month name, cut to three characters when it is longer than four
// ("Jan", "1月", "十一月").
func (l *Lang) MonthShort(m time.Month) string {
	name := []rune(l.f.Months[m-1])
	if len(name) > 4 {
		name = name[:3]
	}
	return string(name)
}
