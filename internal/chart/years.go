package chart

import "slices"

// A chart's years are its rows (heat map) or columns (grid). An archive's
// years are few and mostly contiguous, but one incident dated in year 1
// beside this decade's drew a row for each of the 2,000 years between:
// 9.5 MB of heat map. So a run of empty years longer than maxEmptyRun is
// drawn as one gap, and at most maxYearSlots slots are drawn, the most
// recent; the years left out are still listed as text on the pages that
// carry the charts (the timeline's years, a term's incidents).
const (
	maxYearSlots = 40
	maxEmptyRun  = 2
)

// yearSlot is one row or column: the year first, or, when gap, the empty
// years first to last drawn as one narrow slot.
type yearSlot struct {
	first, last int
	gap         bool
}

// yearSlots lays out years, the distinct years that have incidents in
// ascending order, from the most recent back until maxYearSlots slots are
// taken; it returns the slots in ascending order.
func yearSlots(years []int) []yearSlot {
	var rev []yearSlot // newest first
	for i := len(years) - 1; i >= 0; i-- {
		y := years[i]
		var add []yearSlot
		if len(rev) > 0 {
			next := rev[len(rev)-1].first
			if next-y-1 > maxEmptyRun {
				add = append(add, yearSlot{first: y + 1, last: next - 1, gap: true})
			} else {
				for e := next - 1; e > y; e-- {
					add = append(add, yearSlot{first: e, last: e})
				}
			}
		}
		add = append(add, yearSlot{first: y, last: y})
		if len(rev)+len(add) > maxYearSlots {
			break
		}
		rev = append(rev, add...)
	}
	slices.Reverse(rev)
	return rev
}
