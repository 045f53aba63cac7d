package importer

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// zoneAbbreviations are the offsets of the zone abbreviations that feeds
// write after their times (RFC 822 names and the North American ones AWS
// writes). Go's time.Parse reads an abbreviation it does not know as
// UTC, an hour or more off, so gen reads them itself.
var zoneAbbreviations = map[string]int{
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
	"AKST": -9, "AKDT": -8, "HST": -10,
}

var months = map[string]time.Month{
	"jan": time.January, "feb": time.February, "mar": time.March, "apr": time.April, "may": time.May, "jun": time.June,
	"jul": time.July, "aug": time.August, "sep": time.September, "oct": time.October, "nov": time.November, "dec": time.December,
}

// rfc822Time is an RSS date: "Sun, 10 Mar 2024 01:50:12 PST", the weekday
// and the seconds optional, the zone an abbreviation or an offset.
var rfc822Time = regexp.MustCompile(`^(?:([A-Za-z]{3}),\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s+([A-Za-z]{1,4}|[+-]\d{2}:?\d{2})$`)

// parseFeedTime reads an RSS date exactly, or says why it cannot.
func parseFeedTime(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	m := rfc822Time.FindStringSubmatch(s)
	if m == nil {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return t, nil
		}
		return time.Time{}, fmt.Errorf("%q is not a date; RSS writes dates like Sun, 10 Mar 2024 01:50:12 PST or Sun, 10 Mar 2024 09:50:12 +0000", s)
	}
	month, ok := months[strings.ToLower(m[3])]
	if !ok {
		return time.Time{}, fmt.Errorf("%q: %q is not a month; RSS writes Jan, Feb, … Dec", s, m[3])
	}
	var offset int
	if z := m[8]; z[0] == '+' || z[0] == '-' {
		digits := strings.ReplaceAll(z[1:], ":", "")
		h, _ := strconv.Atoi(digits[:2])
		mm, _ := strconv.Atoi(digits[2:])
		if h > 14 || mm > 59 {
			return time.Time{}, fmt.Errorf("%q: %s is not a time zone offset", s, z)
		}
		offset = h*3600 + mm*60
		if z[0] == '-' {
			offset = -offset
		}
	} else if h, ok := zoneAbbreviations[strings.ToUpper(z)]; ok {
		offset = h * 3600
	} else {
		return time.Time{}, fmt.Errorf("%q: gen does not know the time zone %q; it reads %s and offsets like -0800", s, z, strings.Join(slices.Sorted(maps.Keys(zoneAbbreviations)), ", "))
	}
	day, _ := strconv.Atoi(m[2])
	year, _ := strconv.Atoi(m[4])
	hour, _ := strconv.Atoi(m[5])
	minute, _ := strconv.Atoi(m[6])
	sec := 0
	if m[7] != "" {
		sec, _ = strconv.Atoi(m[7])
	}
	t := time.Date(year, month, day, hour, minute, sec, 0, time.FixedZone(m[8], offset))
	// time.Date carries 30 February over into March; a feed's date must
	// be one the calendar has.
	if t.Day() != day || t.Hour() != hour || t.Minute() != minute || t.Second() != sec {
		return time.Time{}, fmt.Errorf("%q is not a real time (the calendar has no such day or the clock no such hour)", s)
	}
	if m[1] != "" && !strings.EqualFold(m[1], t.Weekday().String()[:3]) {
		return time.Time{}, fmt.Errorf("%q: %d %s %d is a %s, not a %s; which of the two is wrong cannot be told", s, day, month, year, t.Weekday(), m[1])
	}
	return t, nil
}
