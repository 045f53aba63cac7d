package content_test

import (
	"strings"
	"testing"
	"time"

	"github.com/postmortem-archive/gen/internal/content"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return loc
}

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad test time %q: %v", s, err)
	}
	return v
}

func wall(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		t.Fatalf("bad test wall time %q: %v", s, err)
	}
	return v
}

func TestWallInstants(t *testing.T) {
	cases := []struct {
		zone, wall string
		want       []string // UTC instants, earliest first
	}{
		// America/Los_Angeles: 2021-03-14 02:00 PST → 03:00 PDT;
		// 2021-11-07 02:00 PDT → 01:00 PST.
		{"America/Los_Angeles", "2021-03-14 02:30", nil},
		{"America/Los_Angeles", "2021-03-14 02:00", nil},
		{"America/Los_Angeles", "2021-03-14 01:59", []string{"2021-03-14T09:59:00Z"}},
		{"America/Los_Angeles", "2021-03-14 03:00", []string{"2021-03-14T10:00:00Z"}},
		{"America/Los_Angeles", "2021-11-07 01:30", []string{"2021-11-07T08:30:00Z", "2021-11-07T09:30:00Z"}},
		{"America/Los_Angeles", "2021-11-07 01:00", []string{"2021-11-07T08:00:00Z", "2021-11-07T09:00:00Z"}},
		{"America/Los_Angeles", "2021-11-07 02:00", []string{"2021-11-07T10:00:00Z"}},
		{"America/Los_Angeles", "2021-11-07 00:59", []string{"2021-11-07T07:59:00Z"}},
		{"America/Los_Angeles", "2021-06-01 10:00", []string{"2021-06-01T17:00:00Z"}},
		// Europe/London: 2021-03-28 01:00 GMT → 02:00 BST;
		// 2021-10-31 02:00 BST → 01:00 GMT.
		{"Europe/London", "2021-03-28 01:30", nil},
		{"Europe/London", "2021-03-28 02:00", []string{"2021-03-28T01:00:00Z"}},
		{"Europe/London", "2021-10-31 01:30", []string{"2021-10-31T00:30:00Z", "2021-10-31T01:30:00Z"}},
		{"Europe/London", "2021-01-15 12:00", []string{"2021-01-15T12:00:00Z"}},
		// Australia/Sydney, southern hemisphere: summer time ends in April
		// (03:00 AEDT → 02:00 AEST) and starts in October (02:00 AEST →
		// 03:00 AEDT).
		{"Australia/Sydney", "2021-04-04 02:30", []string{"2021-04-03T15:30:00Z", "2021-04-03T16:30:00Z"}},
		{"Australia/Sydney", "2021-10-03 02:30", nil},
		{"Australia/Sydney", "2021-10-03 03:00", []string{"2021-10-02T16:00:00Z"}},
		{"Australia/Sydney", "2021-01-15 12:00", []string{"2021-01-15T01:00:00Z"}},
		{"Australia/Sydney", "2021-07-15 12:00", []string{"2021-07-15T02:00:00Z"}},
		// Lord Howe Island moves its clocks by 30 minutes.
		{"Australia/Lord_Howe", "2021-04-04 01:45", []string{"2021-04-03T14:45:00Z", "2021-04-03T15:15:00Z"}},
		{"Australia/Lord_Howe", "2021-10-03 02:15", nil},
		// São Paulo's summer time started at midnight: 00:00–00:59 of
		// 4 November 2018 never happened.
		{"America/Sao_Paulo", "2018-11-04 00:30", nil},
		{"America/Sao_Paulo", "2018-11-04 01:00", []string{"2018-11-04T03:00:00Z"}},
		{"America/Sao_Paulo", "2018-11-03 23:59", []string{"2018-11-04T02:59:00Z"}},
		// Samoa skipped the whole of 30 December 2011.
		{"Pacific/Apia", "2011-12-30 12:00", nil},
		{"UTC", "2021-03-14 02:30", []string{"2021-03-14T02:30:00Z"}},
	}
	for _, c := range cases {
		t.Run(c.zone+" "+c.wall, func(t *testing.T) {
			loc := zone(t, c.zone)
			w := wall(t, c.wall)
			got := content.WallInstants(w, loc)
			if len(got) != len(c.want) {
				t.Fatalf("WallInstants = %v, want %v", got, c.want)
			}
			for i, g := range got {
				if want := utc(t, c.want[i]); !g.Equal(want) {
					t.Errorf("instant %d = %s, want %s", i, g.UTC(), want)
				}
				// Every instant really shows that wall time in loc.
				if s := g.In(loc).Format("2006-01-02 15:04"); s != c.wall {
					t.Errorf("instant %d shows %s in %s, want %s", i, s, c.zone, c.wall)
				}
			}
			// wall's own location is ignored.
			other := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, zone(t, "Asia/Tokyo"))
			if again := content.WallInstants(other, loc); len(again) != len(got) || len(got) > 0 && !again[0].Equal(got[0]) {
				t.Errorf("a wall time in another location gives %v, want %v", again, got)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	la := zone(t, "America/Los_Angeles")
	cases := []struct {
		in      string
		loc     *time.Location
		want    string   // UTC, RFC 3339; "" when an error is expected
		errFrag []string // parts of the error message
	}{
		{"2017-03-13 10:22", la, "2017-03-13T17:22:00Z", nil},
		{"2017-03-13 10:22:30", la, "2017-03-13T17:22:30Z", nil},
		{"2017-03-13T10:22", la, "2017-03-13T17:22:00Z", nil},
		{"2017-01-13 10:22", la, "2017-01-13T18:22:00Z", nil}, // PST
		{"2017-03-13T10:22:00-07:00", la, "2017-03-13T17:22:00Z", nil},
		{"2017-03-13T10:22:00+09:00", la, "2017-03-13T01:22:00Z", nil}, // offset wins over the zone
		{"2017-03-13T17:22:00Z", la, "2017-03-13T17:22:00Z", nil},
		{"2021-11-07T01:30:00-07:00", la, "2021-11-07T08:30:00Z", nil},
		{"2021-11-07T01:30:00-08:00", la, "2021-11-07T09:30:00Z", nil},
		{"2021-10-31 01:30", zone(t, "Europe/London"), "", []string{"happens twice", "2021-10-31T01:30:00+01:00", "2021-10-31T01:30:00+00:00"}},
		{"2021-07-01 09:00", zone(t, "Europe/London"), "2021-07-01T08:00:00Z", nil},
		{"2021-04-04 02:30", zone(t, "Australia/Sydney"), "", []string{"happens twice", "2021-04-04T02:30:00+11:00", "2021-04-04T02:30:00+10:00"}},
		{"2021-10-03 02:30", zone(t, "Australia/Sydney"), "", []string{"does not exist in Australia/Sydney", "use the time after the change"}},
		{"2021-01-04 09:00", zone(t, "Australia/Sydney"), "2021-01-03T22:00:00Z", nil},
		{"2021-03-14 02:30", la, "", []string{"2021-03-14 02:30 does not exist in America/Los_Angeles", "daylight saving", "RFC 3339 time with offset"}},
		{"2021-11-07 01:30", la, "", []string{"2021-11-07 01:30 happens twice in America/Los_Angeles", "2021-11-07T01:30:00-07:00 or 2021-11-07T01:30:00-08:00"}},
		{"yesterday", la, "", []string{`"yesterday" is not a time`, "YYYY-MM-DD HH:MM", "RFC 3339"}},
		{"2017-02-30 10:00", la, "", []string{"is not a time"}},
		{"2017-03-13 25:00", la, "", []string{"is not a time"}},
		{"13/03/2017 10:22", la, "", []string{"is not a time"}},
		{"", la, "", []string{"is not a time"}},
	}
	for _, c := range cases {
		t.Run(c.loc.String()+" "+c.in, func(t *testing.T) {
			got, err := content.ParseTime(c.in, c.loc)
			if c.want == "" {
				if err == nil {
					t.Fatalf("ParseTime = %s, want an error", got.UTC())
				}
				for _, f := range c.errFrag {
					if !strings.Contains(err.Error(), f) {
						t.Errorf("error %q does not contain %q", err, f)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTime: %v", err)
			}
			if want := utc(t, c.want); !got.Equal(want) {
				t.Errorf("ParseTime = %s, want %s", got.UTC(), want)
			}
		})
	}
}

// mark builds a timeline mark as the load stage would: spec is
// "YYYY-MM-DD HH:MM" or "HH:MM"; line positions the item.
func mark(line int, spec string) content.Mark {
	m := content.Mark{Pos: content.Pos{Line: line, Col: 3}, Written: spec, Text: "event at " + spec}
	if d, c, ok := strings.Cut(spec, " "); ok {
		m.Date, m.Clock = d, c
	} else {
		m.Clock = spec
	}
	return m
}

func marks(specs ...string) []content.Mark {
	out := make([]content.Mark, len(specs))
	for i, s := range specs {
		out[i] = mark(10+i, s)
	}
	return out
}

func TestPlaceEvents(t *testing.T) {
	type want struct {
		instant, anchor string
	}
	cases := []struct {
		name  string
		zone  string
		marks []content.Mark
		want  []want
	}{
		{
			name:  "time without date continues the previous date",
			zone:  "America/Los_Angeles",
			marks: marks("2017-03-13 10:22", "10:52", "11:06"),
			want: []want{
				{"2017-03-13T17:22:00Z", "t-20170313T1722Z"},
				{"2017-03-13T17:52:00Z", "t-20170313T1752Z"},
				{"2017-03-13T18:06:00Z", "t-20170313T1806Z"},
			},
		},
		{
			name:  "crossing midnight with a dated item",
			zone:  "America/Los_Angeles",
			marks: marks("2021-06-01 23:50", "2021-06-02 00:10", "00:40"),
			want: []want{
				{"2021-06-02T06:50:00Z", "t-20210602T0650Z"},
				{"2021-06-02T07:10:00Z", "t-20210602T0710Z"},
				{"2021-06-02T07:40:00Z", "t-20210602T0740Z"},
			},
		},
		{
			// The third item is after the clocks went back: 01:20 PST,
			// later than 01:50 PDT.
			name:  "fall-back overlap picks the first instant not before the previous event",
			zone:  "America/Los_Angeles",
			marks: marks("2021-11-07 01:10", "01:50", "01:20"),
			want: []want{
				{"2021-11-07T08:10:00Z", "t-20211107T0810Z"},
				{"2021-11-07T08:50:00Z", "t-20211107T0850Z"},
				{"2021-11-07T09:20:00Z", "t-20211107T0920Z"},
			},
		},
		{
			name:  "fall-back overlap: in order means the earlier instant",
			zone:  "America/Los_Angeles",
			marks: marks("2021-11-07 00:50", "01:20", "01:40", "02:10"),
			want: []want{
				{"2021-11-07T07:50:00Z", "t-20211107T0750Z"},
				{"2021-11-07T08:20:00Z", "t-20211107T0820Z"},
				{"2021-11-07T08:40:00Z", "t-20211107T0840Z"},
				{"2021-11-07T10:10:00Z", "t-20211107T1010Z"},
			},
		},
		{
			// The same wall minute twice: once in each offset.
			name:  "fall-back overlap: the same wall time twice",
			zone:  "America/Los_Angeles",
			marks: marks("2021-11-07 01:30", "01:30"),
			want: []want{
				{"2021-11-07T08:30:00Z", "t-20211107T0830Z"},
				{"2021-11-07T08:30:00Z", "t-20211107T0830Z-2"},
			},
		},
		{
			name:  "spring-forward: times either side of the gap",
			zone:  "America/Los_Angeles",
			marks: marks("2021-03-14 01:50", "03:10"),
			want: []want{
				{"2021-03-14T09:50:00Z", "t-20210314T0950Z"},
				{"2021-03-14T10:10:00Z", "t-20210314T1010Z"},
			},
		},
		{
			name:  "duplicate-minute anchors get -2, -3",
			zone:  "Asia/Taipei",
			marks: marks("2021-06-01 09:00", "09:00", "09:00", "09:01"),
			want: []want{
				{"2021-06-01T01:00:00Z", "t-20210601T0100Z"},
				{"2021-06-01T01:00:00Z", "t-20210601T0100Z-2"},
				{"2021-06-01T01:00:00Z", "t-20210601T0100Z-3"},
				{"2021-06-01T01:01:00Z", "t-20210601T0101Z"},
			},
		},
		{
			name:  "Europe/London fall-back",
			zone:  "Europe/London",
			marks: marks("2021-10-31 00:45", "01:15", "01:45", "01:05", "02:00"),
			want: []want{
				{"2021-10-30T23:45:00Z", "t-20211030T2345Z"},
				{"2021-10-31T00:15:00Z", "t-20211031T0015Z"},
				{"2021-10-31T00:45:00Z", "t-20211031T0045Z"},
				{"2021-10-31T01:05:00Z", "t-20211031T0105Z"},
				{"2021-10-31T02:00:00Z", "t-20211031T0200Z"},
			},
		},
		{
			name:  "Europe/London summer time",
			zone:  "Europe/London",
			marks: marks("2021-07-01 09:00", "17:30"),
			want: []want{
				{"2021-07-01T08:00:00Z", "t-20210701T0800Z"},
				{"2021-07-01T16:30:00Z", "t-20210701T1630Z"},
			},
		},
		{
			// Sydney's summer time ends in April: 02:00–03:00 happens twice.
			name:  "Australia/Sydney fall-back in April",
			zone:  "Australia/Sydney",
			marks: marks("2021-04-04 02:40", "02:10", "03:00"),
			want: []want{
				{"2021-04-03T15:40:00Z", "t-20210403T1540Z"},
				{"2021-04-03T16:10:00Z", "t-20210403T1610Z"},
				{"2021-04-03T17:00:00Z", "t-20210403T1700Z"},
			},
		},
		{
			// The local date is a day ahead of UTC: anchors use UTC.
			name:  "Australia/Sydney morning is the previous UTC day",
			zone:  "Australia/Sydney",
			marks: marks("2021-01-04 09:00", "2021-01-05 08:00"),
			want: []want{
				{"2021-01-03T22:00:00Z", "t-20210103T2200Z"},
				{"2021-01-04T21:00:00Z", "t-20210104T2100Z"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			events, errs := content.PlaceEvents("en.md", c.marks, zone(t, c.zone))
			if len(errs) > 0 {
				t.Fatalf("unexpected errors: %+v", errs)
			}
			if len(events) != len(c.want) {
				t.Fatalf("%d events, want %d", len(events), len(c.want))
			}
			for i, e := range events {
				w := c.want[i]
				if !e.Instant.Equal(utc(t, w.instant)) {
					t.Errorf("event %d (%s) at %s, want %s", i, c.marks[i].Written, e.Instant, w.instant)
				}
				if e.Instant.Location() != time.UTC {
					t.Errorf("event %d instant is in %s, want UTC", i, e.Instant.Location())
				}
				if e.Anchor != w.anchor {
					t.Errorf("event %d anchor %q, want %q", i, e.Anchor, w.anchor)
				}
				if m := c.marks[i]; e.Text != m.Text || e.NewDay != (m.Date != "") {
					t.Errorf("event %d is %q, new day %v; want the input mark's text %q and new day %v", i, e.Text, e.NewDay, m.Text, m.Date != "")
				}
				if i > 0 && e.Instant.Before(events[i-1].Instant) {
					t.Errorf("event %d goes backwards", i)
				}
			}
		})
	}
}

func TestPlaceEventsErrors(t *testing.T) {
	cases := []struct {
		name    string
		zone    string
		marks   []content.Mark
		placed  int // events still placed
		errLine int // line of the (only) error
		errFrag []string
	}{
		{
			name:    "first item without a date",
			zone:    "America/Los_Angeles",
			marks:   marks("10:22", "2017-03-13 10:52"),
			placed:  1,
			errLine: 10,
			errFrag: []string{"the first timeline item needs a date", "`YYYY-MM-DD 10:22 — …`"},
		},
		{
			name:    "backwards without a date suggests the new day",
			zone:    "America/Los_Angeles",
			marks:   marks("2021-06-01 23:50", "00:10"),
			placed:  1,
			errLine: 11,
			errFrag: []string{"timeline goes backwards", "2021-06-01 00:10 is before the previous item (2021-06-01 23:50)", "write the new date: `YYYY-MM-DD 00:10 — …`"},
		},
		{
			name:    "backwards with a date asks for order",
			zone:    "America/Los_Angeles",
			marks:   marks("2021-06-02 10:00", "2021-06-01 11:00"),
			placed:  1,
			errLine: 11,
			errFrag: []string{"timeline goes backwards", "put the items in order"},
		},
		{
			// After the clocks went back, 01:20 PST is past; 00:50 is not
			// in the overlap and so is simply earlier.
			name:    "backwards across the fall-back",
			zone:    "America/Los_Angeles",
			marks:   marks("2021-11-07 01:10", "01:50", "01:20", "00:50"),
			placed:  3,
			errLine: 13,
			errFrag: []string{"timeline goes backwards", "00:50"},
		},
		{
			name:    "time in the spring-forward gap",
			zone:    "America/Los_Angeles",
			marks:   marks("2021-03-14 01:30", "02:30", "03:30"),
			placed:  2,
			errLine: 11,
			errFrag: []string{"2021-03-14 02:30 does not exist in America/Los_Angeles", "use the time after the change"},
		},
		{
			name:    "time in the Sydney spring-forward gap",
			zone:    "Australia/Sydney",
			marks:   marks("2021-10-03 01:30", "02:15"),
			placed:  1,
			errLine: 11,
			errFrag: []string{"does not exist in Australia/Sydney"},
		},
		{
			name:    "invalid clock",
			zone:    "UTC",
			marks:   marks("2021-06-01 10:00", "24:30"),
			placed:  1,
			errLine: 11,
			errFrag: []string{`"24:30" is not a valid date and time`, "24-hour clock"},
		},
		{
			name:    "invalid date",
			zone:    "UTC",
			marks:   marks("2021-02-30 10:00"),
			placed:  0,
			errLine: 10,
			errFrag: []string{"is not a valid date and time"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			events, errs := content.PlaceEvents("en.md", c.marks, zone(t, c.zone))
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1: %+v", len(errs), errs)
			}
			e := errs[0]
			if e.Line != c.errLine || e.Col != 3 {
				t.Errorf("error at %d:%d, want %d:3", e.Line, e.Col, c.errLine)
			}
			for _, f := range c.errFrag {
				if !strings.Contains(e.Msg, f) {
					t.Errorf("error %q does not contain %q", e.Msg, f)
				}
			}
			if len(events) != c.placed {
				t.Errorf("%d events placed, want %d", len(events), c.placed)
			}
		})
	}
}
