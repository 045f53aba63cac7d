// Command gen builds a multilingual archive of incident postmortems into a
// static site and serves it.
//
//	gen build   [--source DIR] [--dest DIR] [--base-url URL] [--drafts]
//	gen serve   [--source DIR] [--bind ADDR] [--port N] [--drafts]
//	gen serve   --dir public [--bind ADDR] [--port N]
//	gen check   [--source DIR] [--format text|json]
//	gen new     [--lang en] [--timezone Zone] [--begin 'YYYY-MM-DD HH:MM'] SLUG
//	gen import  FORMAT FILE… [--organization NAME] [--timezone ZONE] [--lang en] [--source DIR] [--dry-run]
//	gen version
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/postmortem-archive/gen/internal/build"
	"github.com/postmortem-archive/gen/internal/diag"
	"github.com/postmortem-archive/gen/internal/memory"
)

// version is set at link time (-ldflags "-X main.version=…").
var version = "dev"

// Soft memory limits. A build keeps what its pages show of every
// incident (44 MB live once 10,000 incidents in two languages are linked,
// 440 MB at 100,000) and makes short-lived garbage: it lets the heap grow
// to three times what is live (buildGCPercent), fewer collections for
// more memory, up to 1.75 GiB (1.9 GB, reached at 100,000 incidents).
// The authoring server keeps a site in memory (its search index is on
// disk) and makes garbage on every rebuild: with its index in memory it
// grew to 5.6 GB at 10,000 without a limit.
const (
	buildMemoryLimit = 1792 << 20
	buildGCPercent   = 200
	serveMemoryLimit = 2 << 30
)

// softMemoryLimit sets the process's soft memory limit, unless GOMEMLIMIT
// says otherwise.
func softMemoryLimit(limit int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

// gcPercent sets how far the heap grows past what is live before a
// collection, unless GOGC says otherwise.
func gcPercent(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}

// Exit codes.
const (
	exitOK      = 0
	exitContent = 1 // the site has errors, or the build could not be written
	exitUsage   = 2
)

const usage = `gen builds a multilingual archive of incident postmortems into a static site.

Usage:
  gen build    build content/, layouts/ and i18n/ into public/
  gen serve    build, then serve the site on http://127.0.0.1:1313
  gen check    validate everything and report errors and missing translations
  gen new      start a new incident from a template
  gen import   start incidents from a status page's export (Statuspage, Google Cloud)
  gen version  print the version
  gen help [command]

Run "gen <command> -h" for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "build":
		return cmdBuild(rest, stdout, stderr)
	case "serve":
		return cmdServe(rest, stdout, stderr)
	case "check":
		return cmdCheck(rest, stdout, stderr)
	case "new":
		return cmdNew(rest, stdout, stderr)
	case "import":
		return cmdImport(rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "gen", version)
		return exitOK
	case "help", "-h", "--help":
		if len(rest) > 0 {
			return run([]string{rest[0], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "gen: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
}

// buildFlags are the flags build and serve share.
type buildFlags struct {
	source, dest string
	drafts       bool
}

func (b *buildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.source, "source", ".", "site folder with content/ (and optional layouts/, i18n/)")
	fs.StringVar(&b.dest, "dest", "public", "output folder, replaced as a whole on success")
	fs.BoolVar(&b.drafts, "drafts", false, "include incidents marked draft: true")
}

// options are the build's; gen's builds own the process, so their memory
// policy may set its collector.
func (b *buildFlags) options(baseURL string) build.Options {
	dest := b.dest
	if !filepath.IsAbs(dest) {
		dest = filepath.Join(b.source, dest)
	}
	return build.Options{Source: b.source, Dest: dest, BaseURL: baseURL, Drafts: b.drafts, Generator: "gen " + version, Memory: memory.Policy{Tune: true}}
}

// parse parses flags and at most positional arguments; ok=false means
// the command is done with code.
func parse(fs *flag.FlagSet, args []string, positional int, stdout, stderr io.Writer) (code int, ok bool) {
	// The flag package prints the usage itself when it sees -h; keep what
	// it prints and decide where it goes, so that help is printed once,
	// on stdout, and a mistake's message on stderr.
	var said bytes.Buffer
	fs.SetOutput(&said)
	err := parseAnywhere(fs, args)
	fs.SetOutput(stderr)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitOK, false
	}
	if err != nil {
		stderr.Write(said.Bytes())
		return exitUsage, false
	}
	if positional >= 0 && fs.NArg() > positional {
		fmt.Fprintf(stderr, "gen %s: unexpected argument %q\n", fs.Name(), fs.Arg(positional))
		return exitUsage, false
	}
	return 0, true
}

// parseAnywhere parses flags written before, between or after the other
// arguments (gen import statuspage a.json --dry-run), as people type
// them; after "--" everything is an argument. fs.Args() then holds the
// other arguments in order.
func parseAnywhere(fs *flag.FlagSet, args []string) error {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if parsed := args[:len(args)-len(left)]; len(parsed) > 0 && parsed[len(parsed)-1] == "--" {
			rest = append(rest, left...)
			break
		}
		rest, args = append(rest, left[0]), left[1:]
	}
	return fs.Parse(append([]string{"--"}, rest...))
}

func cmdBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	var bf buildFlags
	bf.register(fs)
	baseURL := fs.String("base-url", "http://127.0.0.1:1313/", "absolute URL the site will be served from")
	cold := fs.Bool("cold", false, "render every page, instead of carrying the unchanged ones over from the previous build")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: gen build [--source DIR] [--dest DIR] [--base-url URL] [--drafts] [--cold]")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, 0, stdout, stderr); !ok {
		return code
	}
	opts := bf.options(*baseURL)
	opts.Cold = *cold
	return buildOnce(opts, stdout, stderr)
}

func buildOnce(opts build.Options, stdout, stderr io.Writer) int {
	softMemoryLimit(buildMemoryLimit)
	gcPercent(buildGCPercent)
	res, err := build.Run(opts)
	if err != nil {
		report(stderr, err)
		return exitContent
	}
	carried := ""
	if res.Carried > 0 {
		carried = fmt.Sprintf(", %s carried over, %s parsed", count(res.Carried, "file"), count(res.Parsed, "content file"))
	}
	fmt.Fprintf(stdout, "built %s in %s: %s, %.1f MB in %s (%s%s)\n",
		count(res.Incidents, "incident"), count(res.Languages, "language"), count(res.Pages, "page"),
		float64(res.Bytes)/1e6, opts.Dest, res.Took.Round(1e6), carried)
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, w)
	}
	return exitOK
}

// report prints the problems, one per line (the first diag.MaxShown of
// them), and a count.
func report(w io.Writer, err error) {
	var list *diag.List
	if errors.As(err, &list) {
		printShown(w, "", "error", list.Errors())
		fmt.Fprintf(w, "build failed: %s; the previous output is unchanged\n", count(list.Len(), "error"))
		return
	}
	fmt.Fprintf(w, "build failed: %v\n", err)
}

// count writes n with an English noun, singular for one: "1 error",
// "2 errors". The command line speaks English; pages use the i18n plurals.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printShown prints the first diag.MaxShown problems, one per line after
// prefix, then how many more there are: a person reads the first ones,
// and `gen check --format json` lists them all for tools. noun is what
// a problem is called, singular.
func printShown[T any](w io.Writer, prefix, noun string, all []T) {
	shown, more := diag.Shown(all)
	for _, e := range shown {
		fmt.Fprintf(w, "%s%v\n", prefix, e)
	}
	if more != "" {
		if len(all)-len(shown) != 1 {
			noun += "s"
		}
		fmt.Fprintf(w, "%s %s (gen check --format json lists them all)\n", more, noun)
	}
}
