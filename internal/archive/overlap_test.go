package archive

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// overlapArchive is n incidents oldest first, one about every 13 hours
// from 2010 and lasting from minutes to hours, some of them instants,
// and among them a month (March 2020) of crowded incidents that all
// overlap one another: each begins in its first two days and lasts to
// its end.
func overlapArchive(n, crowded int) (incs []*Incident, month []*Incident) {
	start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	march := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range n - crowded {
		begin := start.Add(time.Duration(i) * 13 * time.Hour).Add(time.Duration(i*7919%600) * time.Minute)
		d := time.Duration(i*104729%(20*60)) * time.Minute
		if i%17 == 0 {
			d = 0 // a report that states no end and nothing after its beginning
		}
		incs = append(incs, &Incident{ID: fmt.Sprintf("bg-%05d", i), Begin: begin, Through: begin.Add(d), Duration: d})
	}
	for i := range crowded {
		begin := march.Add(time.Duration(i*2*24*60/crowded) * time.Minute)
		through := time.Date(2020, 3, 31, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		inc := &Incident{ID: fmt.Sprintf("march-%03d", i), Begin: begin, Through: through, Duration: through.Sub(begin)}
		incs = append(incs, inc)
		month = append(month, inc)
	}
	slices.SortFunc(incs, order)
	return incs, month
}

// TestOverlapsAtTenThousand: the sweep finds, at 10,000 incidents with a
// month of 200 that all overlap, exactly the incidents a comparison with
// every other incident finds, in order.
func TestOverlapsAtTenThousand(t *testing.T) {
	incs, month := overlapArchive(10_000, 200)
	linkOverlaps(incs)
	check := func(inc *Incident) {
		var want []*Incident
		for _, o := range incs {
			if o != inc && overlaps(o, inc) {
				want = append(want, o)
			}
		}
		if !slices.Equal(inc.Overlapping, want) {
			t.Errorf("%s: %d overlapping, want %d", inc.ID, len(inc.Overlapping), len(want))
		}
	}
	for _, inc := range month {
		if len(inc.Overlapping) < len(month)-1 {
			t.Errorf("%s overlaps %d incidents, fewer than the %d others of its month", inc.ID, len(inc.Overlapping), len(month)-1)
		}
		check(inc)
	}
	for i := 0; i < len(incs); i += 37 {
		check(incs[i])
	}
}

// BenchmarkOverlaps links the overlaps of 10,000 incidents, 200 of them in
// one month all overlapping.
func BenchmarkOverlaps(b *testing.B) {
	incs, _ := overlapArchive(10_000, 200)
	b.ReportAllocs()
	for b.Loop() {
		for _, inc := range incs {
			inc.Overlapping = inc.Overlapping[:0]
		}
		linkOverlaps(incs)
	}
}
