package importer

import (
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
)

// htmlStart matches text that opens with an HTML tag, comment or doctype.
var htmlStart = regexp.MustCompile(`(?i)^<(?:[a-z][a-z0-9-]*|!--|!doctype)[\s>/]`)

// isHTML reports whether an update's text is HTML markup rather than
// text: it starts with a tag and ends with one. Text that only mentions a
// tag is kept, escaped.
func isHTML(s string) bool {
	t := strings.TrimSpace(s)
	return htmlStart.MatchString(t) && strings.HasSuffix(t, ">")
}

// cleanText normalises line ends and drops control characters other than
// tabs and line feeds, which no reader wants and some break YAML.
func cleanText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') {
			return -1
		}
		return r
	}, s)
}

// oneLine joins text onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(cleanText(s)), " ") }

func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

var (
	atxHeading  = regexp.MustCompile(`^#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextLine  = regexp.MustCompile(`^(?:=+|-+)[ \t]*$`)
	emptyItem   = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])$`)
	fenceOpen   = regexp.MustCompile("^(?:`{3,}|~{3,})")
	blockOpener = regexp.MustCompile("^(?:[-*+>|]|\\d{1,9}[.)]|`{3}|~{3}|    )")
)

// markdownLines makes an update's text safe to place in an incident's
// Markdown: headings become bold lines (a heading would add a section, and
// one spelt "Timeline" would take the timeline's id), a line that would
// turn the one above it into a heading is escaped, raw HTML is escaped
// outside code, and a code fence left open is closed so that it cannot
// swallow what follows.
func markdownLines(s string) []string {
	var out []string
	fence := ""       // the open fence's marker, "" outside a fenced block
	blank := true     // the previous line was blank
	indented := false // inside an indented code block
	for _, line := range strings.Split(strings.TrimSpace(cleanText(s)), "\n") {
		line = strings.TrimRight(line, " \t")
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case fence != "":
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
		case trimmed == "":
		case indent >= 4 && (blank || indented):
			indented = true
		case fenceOpen.MatchString(trimmed):
			fence = fenceOpen.FindString(trimmed)
		case atxHeading.MatchString(trimmed):
			// A paragraph of its own, as the heading was.
			if !blank {
				out = append(out, "")
			}
			line = ""
			if words := atxHeading.FindStringSubmatch(trimmed)[1]; words != "" {
				out = append(out, "**"+escapeHTML(words)+"**")
			}
			trimmed = ""
		case setextLine.MatchString(trimmed) && !blank:
			line = strings.Repeat(" ", indent) + `\` + trimmed
		case emptyItem.MatchString(trimmed):
			// An empty list item ends the list around it in goldmark,
			// which would cut the timeline in two.
			line = strings.Repeat(" ", indent) + trimmed[:len(trimmed)-1] + `\` + trimmed[len(trimmed)-1:]
		default:
			line = escapeHTML(line)
		}
		if trimmed != "" && indent < 4 {
			indented = false
		}
		blank = trimmed == ""
		if line == "" && fence == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue // one blank line separates blocks as well as several
		}
		out = append(out, line)
	}
	if fence != "" {
		out = append(out, fence)
	}
	return out
}

// escapeHTML escapes every "<" outside code spans, so that no tag, comment
// or autolink in an update reaches the page as markup.
func escapeHTML(line string) string {
	if !strings.Contains(line, "<") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '`' {
			n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
			run := line[i : i+n]
			if end := closingRun(line[i+n:], n); end >= 0 {
				b.WriteString(line[i : i+n+end+n])
				i += n + end + n
				continue
			}
			b.WriteString(run)
			i += n
			continue
		}
		if line[i] == '<' {
			b.WriteByte('\\')
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// closingRun finds a run of exactly n backticks in s, which closes a code
// span opened by n of them.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// timelineItem writes one update as a timeline item: the time, the status
// word, then the text, whose further lines and paragraphs are indented
// into the item. Text that opens with a block (a list, a quote, code)
// starts on its own line so that it stays that block.
func timelineItem(when string, u Update) []string {
	head := "- " + when + " —"
	if status := escapeHTML(oneLine(u.Status)); status != "" {
		head += " " + status
	}
	lines := markdownLines(u.Text)
	if len(lines) == 1 && lines[0] == "" {
		return []string{head}
	}
	out := []string{head}
	// The first line joins the item's own paragraph, unless it opens a
	// block or the next line would make that paragraph a table's header.
	if blockOpener.MatchString(lines[0]) || len(lines) > 1 && isTableDelimiter(lines[1]) {
		out = append(out, "")
	} else {
		if u.Status != "" {
			out[0] += ":"
		}
		out[0] += " " + lines[0]
		lines = lines[1:]
	}
	for _, l := range lines {
		if l != "" {
			l = "  " + l
		}
		out = append(out, l)
	}
	return out
}

// summarize makes the one- or two-sentence summary gen needs from the text
// of an update: its first paragraph of prose, up to the first sentence
// when that is long enough to say something, within maxSummary characters.
func summarize(text string) string {
	const maxSummary = 300
	for _, para := range strings.Split(cleanText(text), "\n\n") {
		p := strings.TrimSpace(para)
		if p == "" || fenceOpen.MatchString(p) || atxHeading.MatchString(p) {
			continue
		}
		p = strings.TrimLeft(p, "> ")
		p = oneLine(strings.NewReplacer("**", "", "__", "", "`", "").Replace(p))
		if p == "" {
			continue
		}
		if i := strings.Index(p, ". "); i >= 40 {
			p = p[:i+1]
		}
		if r := []rune(p); len(r) > maxSummary {
			cut := string(r[:maxSummary])
			if i := strings.LastIndex(cut, " "); i > maxSummary/2 {
				cut = cut[:i]
			}
			p = strings.TrimRight(cut, " ,;:") + "…"
		}
		return p
	}
	return ""
}

// isTableDelimiter reports whether a line could be the second line of a
// GFM table (|---|:--:|), which turns the line above it into a header.
func isTableDelimiter(line string) bool {
	return strings.Trim(line, " |:-") == "" && strings.Contains(line, "-") && strings.Contains(line, "|")
}
