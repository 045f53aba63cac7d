package timefmt

import (
	"testing"
	"time"
)

func TestForms(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	at := time.Date(2020, 8, 20, 3, 55, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{UTC(at.In(la)), "2020-08-20 03:55 UTC"},
		{Zoned(at.In(la)), "2020-08-19 20:55 PDT"},
		{Offset(at.In(la)), "2020-08-19T20:55:00-07:00"},
		{at.Format(Date), "2020-08-20"},
		{at.Format(Month), "2020-08"},
		{at.In(la).Format(Clock), "20:55"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, layout := range Written {
		if _, err := time.Parse(layout, time.Date(2021, 2, 3, 4, 5, 6, 0, time.UTC).Format(layout)); err != nil {
			t.Errorf("%s does not read back what it writes: %v", layout, err)
		}
	}
}
