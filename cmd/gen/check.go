package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/postmortem-archive/gen/internal/check"
)

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	source := fs.String("source", ".", "site folder with content/ (and optional layouts/, i18n/)")
	format := fs.String("format", "text", "report format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: gen check [--source DIR] [--format text|json]")
		fmt.Fprintln(fs.Output(), "\nValidates everything a build would, writes nothing, and reports errors, incomplete postmortems and the translation matrix.")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, 0, stdout, stderr); !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "gen check: --format must be text or json, not %q\n", *format)
		return exitUsage
	}
	rep := check.Run(*source)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "gen check:", err)
			return exitContent
		}
	} else {
		printReport(stdout, rep)
	}
	if len(rep.Errors) > 0 {
		return exitContent
	}
	return exitOK
}

// printReport prints the report for a person: the first diag.MaxShown
// errors and warnings each, with how many more there are (the JSON
// report has them all), then the translation matrix and the counts.
func printReport(w io.Writer, rep *check.Report) {
	printShown(w, "", "error", rep.Errors)
	printShown(w, "warning: ", "warning", rep.Warnings)
	if len(rep.Matrix) > 0 {
		width := len("incident")
		for _, r := range rep.Matrix {
			width = max(width, len(r.ID))
		}
		fmt.Fprintf(w, "\n%-*s", width, "incident")
		for _, l := range rep.Languages {
			fmt.Fprintf(w, "  %-10s", l)
		}
		fmt.Fprintln(w)
		for _, r := range rep.Matrix {
			fmt.Fprintf(w, "%-*s", width, r.ID)
			for _, l := range rep.Languages {
				fmt.Fprintf(w, "  %-10s", r.Langs[l])
			}
			fmt.Fprintln(w)
			for _, n := range r.Notes {
				fmt.Fprintf(w, "%-*s  %s\n", width, "", n)
			}
		}
	}
	counts := map[string]int{}
	for _, r := range rep.Matrix {
		for _, s := range r.Langs {
			counts[s]++
		}
	}
	fmt.Fprintf(w, "\n%s in %s: %s, %s; %s, %d missing, %d out of date\n",
		count(rep.Incidents, "incident"), count(len(rep.Languages), "language"), count(len(rep.Errors), "error"),
		count(len(rep.Warnings), "warning"), count(counts[check.Translated]+counts[check.Outdated], "translation"),
		counts[check.Missing], counts[check.Outdated])
	if len(rep.Errors) == 0 && len(rep.Warnings) == 0 {
		fmt.Fprintln(w, "the archive is complete and clean")
	}
}
