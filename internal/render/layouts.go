package render

import (
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/postmortem-archive/gen/internal/timefmt"
)

// pageKinds are the page templates; each is parsed together with base.html
// and every partial, and defines the "main" block of the base.
var pageKinds = []string{"home", "list", "incident", "terms", "term", "timeline", "search", "404"}

var funcs = template.FuncMap{
	// datetime is the machine-readable UTC form for <time datetime>.
	"datetime": datetime,
	"utc":      utc,
	// safe marks search fragments as HTML: the search package escapes
	// everything in them but its own <mark> tags.
	"safe": func(s string) template.HTML { return template.HTML(s) }, // #nosec G203
	// facetNames lists the search facets in display order.
	"facetNames": func() []string {
		return []string{"organization", "product", "region", "cause", "severity", "year", "duration", "lang"}
	},
	// dict passes several values to a partial: dict "Page" . "Years" .Years.
	"dict": func(pairs ...any) (map[string]any, error) {
		if len(pairs)%2 != 0 {
			return nil, fmt.Errorf("dict needs pairs of name and value")
		}
		m := make(map[string]any, len(pairs)/2)
		for i := 0; i < len(pairs); i += 2 {
			name, ok := pairs[i].(string)
			if !ok {
				return nil, fmt.Errorf("dict: name %v is not text", pairs[i])
			}
			m[name] = pairs[i+1]
		}
		return m, nil
	},
}

// Layouts are a theme's parsed templates and its static files.
type Layouts struct {
	sets  map[string]*template.Template // by page kind
	files fs.FS
}

// ParseLayouts parses each page kind's template set from files, an FS in
// which the site's own files already shadow the defaults. Parsing is done
// once and the result shared by every render that uses the same files.
func ParseLayouts(files fs.FS) (*Layouts, error) {
	sets, err := parseSets(files)
	if err != nil {
		return nil, err
	}
	return &Layouts{sets: sets, files: files}, nil
}

func parseSets(layouts fs.FS) (map[string]*template.Template, error) {
	partials, err := fs.Glob(layouts, "partials/*.html")
	if err != nil {
		return nil, err
	}
	base := template.New("layouts").Funcs(funcs)
	for _, name := range append([]string{"base.html"}, partials...) {
		if err := parseFile(base, layouts, name); err != nil {
			return nil, err
		}
	}
	out := map[string]*template.Template{}
	for _, kind := range pageKinds {
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		if err := parseFile(t, layouts, kind+".html"); err != nil {
			return nil, err
		}
		out[kind] = t
	}
	return out, nil
}

func parseFile(t *template.Template, layouts fs.FS, name string) error {
	src, err := fs.ReadFile(layouts, name)
	if err != nil {
		return fmt.Errorf("layouts/%s: %w", name, err)
	}
	if _, err := t.New(path.Base(name)).Parse(string(src)); err != nil {
		// html/template says "template: incident.html:12: …"; name the file
		// as the author knows it.
		prefix := "layouts/"
		if dir := path.Dir(name); dir != "." {
			prefix += dir + "/"
		}
		return fmt.Errorf("%s%s", prefix, strings.TrimPrefix(err.Error(), "template: "))
	}
	return nil
}

// datetime is the layouts' datetime function: the machine-readable UTC
// form for <time datetime>.
func datetime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// utc is the layouts' utc function: a time as readers see it in UTC.
func utc(t time.Time) string { return timefmt.UTC(t) }
