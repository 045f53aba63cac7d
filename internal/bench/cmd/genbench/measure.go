package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// usage is what one finished process cost: wall time from start to exit,
// CPU time as the kernel counted it (wait4's rusage), and its peak
// resident set.
type usage struct {
	Wall, User, Sys time.Duration
	MaxRSS          int64 // bytes
}

// CPU is user plus system time.
func (u usage) CPU() time.Duration { return u.User + u.Sys }

// measure runs cmd to completion and reports its usage. Output the command
// writes goes where cmd says; a failed command is an error that includes
// its stderr when cmd did not redirect it.
func measure(cmd *exec.Cmd) (usage, error) {
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return usage{}, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, lastLines(stderr.String(), 20))
	}
	return processUsage(cmd.ProcessState, wall), nil
}

// processUsage reads the usage of a process that has exited.
func processUsage(ps *os.ProcessState, wall time.Duration) usage {
	return usage{Wall: wall, User: ps.UserTime(), Sys: ps.SystemTime(), MaxRSS: peakRSS(ps)}
}

// lastLines keeps the end of a long error output.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// median is the middle value of xs (the mean of the two middle ones for an
// even count); xs is not changed.
func median[T int64 | time.Duration | float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianUsage is the median of each figure separately.
func medianUsage(us []usage) usage {
	pick := func(f func(usage) time.Duration) time.Duration {
		var xs []time.Duration
		for _, u := range us {
			xs = append(xs, f(u))
		}
		return median(xs)
	}
	var rss []int64
	for _, u := range us {
		rss = append(rss, u.MaxRSS)
	}
	return usage{
		Wall:   pick(func(u usage) time.Duration { return u.Wall }),
		User:   pick(func(u usage) time.Duration { return u.User }),
		Sys:    pick(func(u usage) time.Duration { return u.Sys }),
		MaxRSS: median(rss),
	}
}

// treeSize is what a build wrote: bytes and files, and of them the HTML
// pages.
type treeSize struct {
	Bytes        int64
	Files, Pages int
}

func measureTree(dir string) (treeSize, error) {
	var t treeSize
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		t.Bytes += info.Size()
		t.Files++
		if strings.HasSuffix(p, ".html") {
			t.Pages++
		}
		return nil
	})
	return t, err
}

// loadAverage is the first line of /proc/loadavg (1, 5 and 15 minutes),
// printed beside the figures: the machine is shared.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// ratio formats a/b for the tables.
func ratio[T int64 | time.Duration](a, b T) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

// seconds formats a duration for the tables.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// megabytes formats a size for the tables.
func megabytes(b int64) string {
	return fmt.Sprintf("%.1f MB", float64(b)/1e6)
}
