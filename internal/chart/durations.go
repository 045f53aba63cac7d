package chart

import (
	"strconv"
	"strings"
	"time"
)

// Span is one incident in a summary picture.
type Span struct {
	Begin, End time.Time
	Severity   string // minor|major|critical → class
	// Open marks an incident whose end was not stated: End is only what
	// is known (its last event). Its duration counts in a bucket of its
	// own.
	Open bool
}

// Durations describes the histogram of how long incidents lasted.
type Durations struct {
	IDPrefix    string
	Title, Desc string
	Spans       []Span
	CountLabel  func(n int) string // e.g. "3 incidents" (for bar tooltips)
	// Buckets label the rows: <1 h, 1–4 h, 4–12 h, 12–24 h, ≥1 d, end
	// not stated (6 labels, localised by the caller; English by default).
	Buckets []string
}

// Layout of the durations histogram, in user units of the 720-wide viewBox.
const (
	durX0       = 24.0
	durX1       = 696.0
	durRowPitch = 30.0
	durRowBarH  = 18.0
)

// durationBounds are the upper bounds of the first four duration buckets;
// the fifth holds everything from one day.
var durationBounds = [4]time.Duration{time.Hour, 4 * time.Hour, 12 * time.Hour, 24 * time.Hour}

var defaultBuckets = []string{"<1 h", "1–4 h", "4–12 h", "12–24 h", "≥1 d", "end not stated"}

// openBucket is the histogram row of incidents whose end was not stated:
// their duration is unknown, so no duration bucket is right for them.
const openBucket = 5

// durationBucket returns the histogram bucket (0–4) of a duration.
func durationBucket(d time.Duration) int {
	for i, ub := range durationBounds {
		if d < ub {
			return i
		}
	}
	return len(durationBounds)
}

// DurationsSVG draws how long the spans lasted: one horizontal bar per
// duration bucket, and a row for spans whose end was not stated when
// there are some. Its size depends on the buckets only.
func DurationsSVG(d Durations) string {
	id := cleanID(d.IDPrefix)
	spans := validSpans(d.Spans)
	var b strings.Builder
	if len(spans) == 0 {
		emptyFrame(&b, id, "durations", d.Title, d.Desc)
		return b.String()
	}
	countLabel := d.CountLabel
	if countLabel == nil {
		countLabel = strconv.Itoa
	}
	hist, labels := durationHistogram(spans, d.Buckets)
	tips := make([]string, len(hist))
	for i := range hist {
		tips[i] = labels[i] + ": " + countLabel(hist[i])
	}
	openSVG(&b, id, "durations", viewWidth, 8+float64(len(hist))*durRowPitch+8, d.Title, d.Desc)
	hbarChart(&b, hist, tips, labels, 8)
	b.WriteString(`</svg>`)
	return b.String()
}

// durationHistogram counts spans per duration bucket, with the open
// bucket only when some span is open; labels fall back to the English.
func durationHistogram(spans []Span, names []string) (hist []int, labels []string) {
	hist = make([]int, len(defaultBuckets))
	rows := openBucket
	for _, sp := range spans {
		if sp.Open {
			hist[openBucket]++
			rows = openBucket + 1
			continue
		}
		end := sp.End
		if end.Before(sp.Begin) {
			end = sp.Begin
		}
		hist[durationBucket(end.Sub(sp.Begin))]++
	}
	labels = make([]string, rows)
	for i := range labels {
		labels[i] = defaultBuckets[i]
		if i < len(names) && names[i] != "" {
			labels[i] = names[i]
		}
	}
	return hist[:rows], labels
}

// hbarChart draws one horizontal bar per bucket, one row each from y top:
// its label right-aligned before the bar, its count after, so localised
// labels never collide, even on a phone.
func hbarChart(b *strings.Builder, counts []int, tips, labels []string, top float64) {
	labelW := 60.0
	for _, l := range labels {
		labelW = max(labelW, textWidth(l, fontTextNarrow)+12)
	}
	labelW = min(labelW, 300)
	peak, countW := 1, 0.0
	for _, c := range counts {
		peak = max(peak, c)
		countW = max(countW, textWidth(strconv.Itoa(c), fontCountNarrw)+10)
	}
	x0 := durX0 + labelW
	maxLen := durX1 - x0 - countW
	n := float64(len(counts))
	b.WriteString(`<line class="axis" x1="` + num(x0) + `" y1="` + num(top-4) + `" x2="` + num(x0) + `" y2="` + num(top+n*durRowPitch-durRowPitch+durRowBarH+4) + `"/>`)
	for i, c := range counts {
		y := top + float64(i)*durRowPitch
		mid := num(y + durRowBarH/2)
		w := float64(c) / float64(peak) * maxLen
		if c > 0 && w < 2 {
			w = 2
		}
		cs := strconv.Itoa(c)
		b.WriteString(`<text class="bucket-label" x="` + num(x0-8) + `" y="` + mid + `" text-anchor="end" dominant-baseline="central">` + esc(labels[i]) + `</text>`)
		b.WriteString(`<g class="duration-bar" data-bucket="` + strconv.Itoa(i) + `" data-count="` + cs + `"><title>` + esc(tips[i]) + `</title>`)
		b.WriteString(`<rect class="bar" x="` + num(x0) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(durRowBarH) + `"/>`)
		b.WriteString(`<text class="cnt" x="` + num(x0+w+6) + `" y="` + mid + `" dominant-baseline="central">` + cs + `</text></g>`)
	}
}

// severity ranks for stacking by severity, worst first.
func sevRank(sev string) int {
	switch sev {
	case "critical":
		return 0
	case "major":
		return 1
	case "minor":
		return 2
	}
	return 3
}

var sevNames = [4]string{"critical", "major", "minor", "none"}
