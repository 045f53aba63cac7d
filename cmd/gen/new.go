package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/content"
	"github.com/postmortem-archive/gen/internal/importer"
	"github.com/postmortem-archive/gen/internal/locale"
	"github.com/postmortem-archive/gen/internal/source"
	"github.com/postmortem-archive/gen/internal/timefmt"

	"github.com/postmortem-archive/gen/i18n"
)

// cmdNew writes a new incident's original with every field and section a
// postmortem needs, ready to fill in.
func cmdNew(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	source := fs.String("source", ".", "site folder")
	lang := fs.String("lang", "en", "language of the original (BCP 47 tag)")
	zone := fs.String("timezone", "UTC", "IANA time zone the incident's times are written in")
	begin := fs.String("begin", "", "local begin time, YYYY-MM-DD HH:MM (default: now)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: gen new [--lang en] [--timezone Zone] [--begin 'YYYY-MM-DD HH:MM'] SLUG")
		fmt.Fprintln(fs.Output(), "\nCreates content/<begin date>-SLUG/<lang>.md with the facts and sections to fill in.")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 || !content.IsSlug(fs.Arg(0)) {
		fmt.Fprintln(stderr, "gen new: give one slug of lowercase letters, digits and hyphens, e.g. gen new bigquery-streaming-inserts")
		return exitUsage
	}
	loc, ok := parseZone(stderr, "new", *zone, true)
	if !ok {
		return exitUsage
	}
	tag, ok := parseLang(stderr, "new", *lang)
	if !ok {
		return exitUsage
	}
	siteLang, ok := siteLanguage(stderr, "new", *source, tag)
	if !ok {
		return exitUsage
	}
	heading := func(key, id string) string { return importer.Heading(siteLang, key, id) }
	when := time.Now().In(loc).Format(timefmt.Wall)
	if *begin != "" {
		if _, err := time.Parse(timefmt.Wall, *begin); err != nil {
			fmt.Fprintln(stderr, "gen new: --begin must be YYYY-MM-DD HH:MM")
			return exitUsage
		}
		when = *begin
	}
	// The build reads begin with content.ParseTime: what it would refuse
	// (a time the clocks skip or show twice, a year it cannot write) is
	// refused here, in its words.
	at, err := content.ParseTime(when, loc)
	if err != nil {
		fmt.Fprintf(stderr, "gen new: --begin: %v\n", err)
		return exitUsage
	}
	id := content.ID(at.In(loc), fs.Arg(0))
	dir := filepath.Join(*source, "content", id)
	file := filepath.Join(dir, tag+".md")
	if _, err := os.Stat(dir); err == nil {
		fmt.Fprintf(stderr, "gen new: %s already exists\n", dir)
		return exitUsage
	}
	text := strings.Join([]string{
		"---",
		"title: " + strings.ReplaceAll(fs.Arg(0), "-", " "),
		`summary: "One or two sentences: what failed, for whom, for how long."`,
		"timezone: " + loc.String(),
		"begin: " + when,
		"end: " + when + "        # leave out if not stated; ongoing: true if it had not ended",
		"organization: Organization",
		"products: [Product]",
		"regions: [region]",
		"causes: [cause]",
		"severity: major          # minor | major | critical; leave out if the report does not say",
		"draft: true",
		"---",
		"",
		heading("section_impact", "impact"),
		"",
		heading("section_root_cause", "root-cause"),
		"",
		heading("section_remediation", "remediation"),
		"",
		heading("section_timeline", "timeline"),
		"- " + when + " — What happened first.",
		"",
	}, "\n")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "gen new:", err)
		return exitContent
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		fmt.Fprintln(stderr, "gen new:", err)
		return exitContent
	}
	fmt.Fprintf(stdout, "created %s (a draft: build with --drafts, or set draft: false)\n", file)
	return exitOK
}

// parseZone loads the IANA zone a command's --timezone names; allowed
// false refuses it whatever it is. A mistake is told on stderr.
func parseZone(stderr io.Writer, cmd, zone string, allowed bool) (*time.Location, bool) {
	loc, err := time.LoadLocation(zone)
	if err != nil || !allowed {
		fmt.Fprintf(stderr, "gen %s: unknown time zone %q; use an IANA name such as America/Los_Angeles\n", cmd, zone)
		return nil, false
	}
	return loc, true
}

// siteLanguage is the language tag of the site in dir, with its strings
// (a language without a file, a site language's); a tag the site cannot
// have is told on stderr, with what to do.
func siteLanguage(stderr io.Writer, cmd, dir, tag string) (*locale.Lang, bool) {
	bundle, _, err := source.Languages(dir)
	if bundle == nil {
		fmt.Fprintf(stderr, "gen %s: reading the site's languages: %v\n", cmd, err)
		return nil, false
	}
	if l := bundle.Get(tag); l != nil {
		return l, true
	}
	// A language a site language stands in for, as the build takes it.
	if bundle.AddNearest([]string{tag}) == nil {
		return bundle.Get(tag), true
	}
	fmt.Fprintf(stderr, "gen %s: the site has no language %s (it has %s); add i18n/%s.yaml first or use --lang with one of them\n",
		cmd, tag, strings.Join(bundle.Tags(), ", "), tag)
	return nil, false
}

// parseLang reads a command's --lang as a BCP 47 tag, in its canonical
// form; a mistake is told on stderr.
func parseLang(stderr io.Writer, cmd, lang string) (string, bool) {
	tag, err := i18n.Canonical(lang)
	if err != nil {
		fmt.Fprintf(stderr, "gen %s: %q is not a language tag\n", cmd, lang)
		return "", false
	}
	return tag, true
}
