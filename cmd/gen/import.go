package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/importer"
)

// importVerbs say what an import did, or would do with --dry-run, for each
// action.
var importVerbs = map[importer.Action][2]string{
	importer.Create:    {"created", "create"},
	importer.Overwrite: {"updated", "update"},
	importer.Unchanged: {"unchanged", "unchanged"},
	importer.Edited:    {"skipped", "skip"},
	importer.Conflict:  {"skipped", "skip"},
	importer.Leftover:  {"removed", "remove"},
}

// cmdImport writes an incident for each incident of a status page's
// export, and on a later run updates what it wrote, unless a person has
// edited it since.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	site := fs.String("source", ".", "site folder")
	lang := fs.String("lang", "en", "language the status page is written in (BCP 47 tag)")
	zone := fs.String("timezone", "UTC", "IANA time zone the incidents' times are written in")
	org := fs.String("organization", "", "whose status page it is (default: the name the export gives)")
	dryRun := fs.Bool("dry-run", false, "list what would be created, updated and skipped, and write nothing")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: gen import FORMAT FILE… [--organization NAME] [--timezone ZONE] [--lang en] [--source DIR] [--dry-run]")
		fmt.Fprintln(fs.Output(), "\nWrites content/<begin date>-<slug>/<lang>.md for each incident of a status page's export or feed. Formats:")
		for _, f := range importer.Formats {
			fmt.Fprintf(fs.Output(), "  %-13s %s\n", f.Name, f.Where)
		}
		fmt.Fprintln(fs.Output(), "Importing a newer export updates the files gen import wrote and leaves those a person has edited.")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, -1, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintf(stderr, "gen import: give a format (%s) and one or more export files, e.g. gen import statuspage incidents.json\n", strings.Join(importer.FormatNames(), ", "))
		return exitUsage
	}
	format, ok := importer.Lookup(fs.Arg(0))
	if !ok {
		fmt.Fprintf(stderr, "gen import: unknown format %q; use one of: %s\n", fs.Arg(0), strings.Join(importer.FormatNames(), ", "))
		return exitUsage
	}
	// An import's times are written for its zone: the machine's own
	// ("Local", or none) would differ from one machine to the next.
	loc, ok := parseZone(stderr, "import", *zone, *zone != "Local" && *zone != "")
	if !ok {
		return exitUsage
	}
	tag, ok := parseLang(stderr, "import", *lang)
	if !ok {
		return exitUsage
	}
	siteLang, ok := siteLanguage(stderr, "import", *site, tag)
	if !ok {
		return exitUsage
	}

	var errs, warnings diag.List
	var files []importer.File
	for _, name := range fs.Args()[1:] {
		incs, err := format.ReadFile(name, &warnings)
		errs.AddError(err)
		for _, inc := range incs {
			if f, ok := importer.Render(inc, importer.Options{Location: loc, Organization: *org, Lang: siteLang}, &errs); ok {
				files = append(files, f)
			}
		}
	}
	unlock, err := importer.Lock(*site, !*dryRun)
	if err != nil {
		fmt.Fprintln(stderr, "gen import:", err)
		return exitContent
	}
	changes, err := importer.Plan(*site, tag, files)
	if err != nil {
		unlock()
		fmt.Fprintln(stderr, "gen import:", err)
		return exitContent
	}
	if !*dryRun {
		errs.AddError(importer.Apply(*site, changes))
	}
	unlock()
	printChanges(stdout, changes, *dryRun)
	printShown(stderr, "warning: ", "warning", warnings.Errors())
	printShown(stderr, "", "error", errs.Errors())
	if errs.Len() > 0 {
		done := "were not written, the others were"
		if *dryRun {
			done = "would not be written, the others would"
		}
		fmt.Fprintf(stderr, "gen import: %s; the incidents they concern %s\n", count(errs.Len(), "error"), done)
		return exitContent
	}
	return exitOK
}

// printChanges lists each file and what happened to it, then the counts.
func printChanges(w io.Writer, changes []importer.Change, dryRun bool) {
	tense := 0
	if dryRun {
		tense = 1
	}
	counts := map[string]int{}
	for _, c := range changes {
		verb := importVerbs[c.Action][tense]
		counts[verb]++
		if c.Why != "" {
			fmt.Fprintf(w, "%-9s %s: %s\n", verb, c.Path, c.Why)
		} else {
			fmt.Fprintf(w, "%-9s %s\n", verb, c.Path)
		}
	}
	var parts []string
	for _, verb := range []string{"created", "create", "updated", "update", "unchanged", "skipped", "skip", "removed", "remove"} {
		if n := counts[verb]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, verb))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no incidents")
	}
	if dryRun {
		fmt.Fprintf(w, "dry run, nothing written: %s\n", strings.Join(parts, ", "))
		return
	}
	fmt.Fprintln(w, strings.Join(parts, ", "))
}
