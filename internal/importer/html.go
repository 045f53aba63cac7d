package importer

import (
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// droppedElements are removed with everything inside them before an
// export's HTML is converted: they run code, style the page, embed
// another document or take input, and none of them is text a reader
// wants. (The converter drops <script> and <style> itself, but keeps the
// text of the others.)
var droppedElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Frame: true, atom.Frameset: true, atom.Object: true,
	atom.Embed: true, atom.Applet: true, atom.Svg: true, atom.Math: true,
	atom.Link: true, atom.Meta: true, atom.Base: true, atom.Title: true,
	atom.Form: true, atom.Button: true, atom.Input: true, atom.Select: true, atom.Textarea: true,
}

// markdownConverter writes CommonMark with GitHub's tables and
// strikethrough, which gen's Markdown reads; it keeps no state between
// conversions.
var markdownConverter = converter.NewConverter(converter.WithPlugins(
	base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin(),
))

// htmlToMarkdown converts HTML from an export (an update, a postmortem, a
// Post Incident Review) to Markdown: paragraphs, lists, emphasis, code and
// links are kept; what runs code is dropped first; what Markdown cannot
// say is kept as its text. The result still goes through markdownLines,
// which escapes any markup left.
func htmlToMarkdown(s string) string { return toMarkdown(parseHTML(s)) }

// parseHTML reads HTML as the content of a <body>, sanitized. HTML the
// parser refuses (nested deeper than it goes) becomes its text.
func parseHTML(s string) *html.Node {
	body := &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"}
	nodes, err := html.ParseFragment(strings.NewReader(s), body)
	if err != nil {
		nodes = []*html.Node{{Type: html.TextNode, Data: tokensText(s)}}
	}
	for _, n := range nodes {
		body.AppendChild(n)
	}
	sanitize(body)
	return body
}

// tokensText is the text of HTML, less that of the elements sanitize
// drops, read token by token, without a tree.
func tokensText(s string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // how deep inside dropped elements
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); droppedElements[a] && !voidElement[a] {
				skip++
			} else if skip == 0 && !strings.ContainsRune(" \n", lastRune(&b)) {
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); droppedElements[atom.Lookup(name)] && skip > 0 {
				skip--
			}
		}
	}
}

// voidElement are the dropped elements that have no end tag.
var voidElement = map[atom.Atom]bool{atom.Link: true, atom.Meta: true, atom.Base: true, atom.Embed: true, atom.Input: true}

func lastRune(b *strings.Builder) rune {
	s := b.String()
	if s == "" {
		return ' '
	}
	return rune(s[len(s)-1])
}

// toMarkdown converts a sanitized element's content.
func toMarkdown(body *html.Node) string {
	md, err := markdownConverter.ConvertNode(body)
	if err != nil {
		return plainText(body)
	}
	// The converter separates two adjacent lists with an HTML comment,
	// which gen would show as text; the lists merge instead.
	return strings.ReplaceAll(string(md), "\n\n<!--THE END-->\n\n", "\n\n")
}

// wrap moves nodes into a new <body>, for converting a part of a document.
func wrap(nodes []*html.Node) *html.Node {
	body := &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"}
	for _, n := range nodes {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
		body.AppendChild(n)
	}
	return body
}

// sanitize removes from n's subtree the elements that run code, embed
// documents or take input, whose text is no part of what was said;
// turns images into their alt text (an export's image is on the status
// page's server, often by a relative address); and unwraps links whose
// target is not a web, mail or relative address (javascript:, vbscript:,
// data:), keeping their text. Attributes need no care: the Markdown
// written has none, and markdownLines escapes any markup left.
func sanitize(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type != html.ElementNode:
		case droppedElements[c.DataAtom]:
			n.RemoveChild(c)
		case c.DataAtom == atom.Img:
			n.InsertBefore(&html.Node{Type: html.TextNode, Data: attr(c, "alt")}, c)
			n.RemoveChild(c)
		case c.DataAtom == atom.A && !safeURL(attr(c, "href")):
			sanitize(c)
			for g := c.FirstChild; g != nil; g = c.FirstChild {
				c.RemoveChild(g)
				n.InsertBefore(g, c)
			}
			n.RemoveChild(c)
		default:
			sanitize(c)
		}
		c = next
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// safeURL reports whether a link target is a web or mail address, or a
// relative one. Browsers ignore white space and control characters
// inside a scheme ("java\tscript:"), so they are ignored here too.
func safeURL(v string) bool {
	v = strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, strings.ToLower(v))
	i := strings.IndexAny(v, ":/?#")
	if i < 0 || v[i] != ':' {
		return true // no scheme: relative
	}
	switch v[:i] {
	case "http", "https", "mailto":
		return true
	}
	return false
}

// plainText is the text of n's subtree, for HTML the converter gives up on.
func plainText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(plainText(c))
		if c.Type == html.ElementNode && c.DataAtom != atom.A && c.DataAtom != atom.B && c.DataAtom != atom.Em && c.DataAtom != atom.Strong && c.DataAtom != atom.Code {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}
