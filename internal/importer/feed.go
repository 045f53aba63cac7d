package importer

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mmcdole/gofeed/rss"
	"golang.org/x/net/html/charset"

	"github.com/postmortem-archive/gen/internal/diag"
)

// MaxFeedSize bounds what gen reads of one feed: a provider's feed is a
// few hundred kilobytes, its whole history a few megabytes. The items of
// a larger feed up to the bound are imported, and the rest is an error.
const MaxFeedSize = 16 << 20

// feed is an RSS feed as gofeed reads it, with the place of each item and
// of the item's fields in the file, which gofeed does not keep.
type feed struct {
	*rss.Feed
	root  *node      // the root element
	items []feedItem // as many as Feed.Items, in the same order
}

// feedItem is the place of one <item> and of its first child element of
// each name (pubDate, guid…).
type feedItem struct {
	*rss.Item
	node   *node
	fields map[string]*node
}

// at is the place of the item's field name, or of the item when the
// field is absent.
func (it feedItem) at(name string) *node {
	if n := it.fields[name]; n != nil {
		return n
	}
	return &node{path: it.node.path + "." + name, offset: it.node.offset}
}

// readFeedFile reads at most MaxFeedSize bytes of a feed; more says that
// the file goes on.
func readFeedFile(file string) (data []byte, more bool, err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, MaxFeedSize+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) > MaxFeedSize {
		return data[:MaxFeedSize], true, nil
	}
	return data, false, nil
}

// parseFeed checks that data is well-formed XML, finds where its items
// are, and reads it with gofeed. A feed cut at the size bound (more) is
// read up to its last whole item. Problems are placed in errs; nil means
// nothing can be read.
func parseFeed(src *source, data []byte, more bool, format Format, errs *diag.List) *feed {
	f := &feed{}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Entity = xml.HTMLEntity // feeds of HTML pages write &nbsp; and the like
	dec.CharsetReader = charset.NewReaderLabel
	var stack []string
	itemAt, itemDepth := -1, 0
	var cur *feedItem
	for {
		at := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			msg := err.Error()
			if errors.As(err, &se) {
				msg = se.Msg
			}
			if more && strings.Contains(msg, "EOF") { // where gen stopped reading
				if itemAt >= 0 {
					f.items = f.items[:len(f.items)-1]
					return f.cut(src, data, stack[:itemDepth-1], itemAt, format, errs)
				}
				return f.cut(src, data, stack, at, format, errs)
			}
			where := int(dec.InputOffset())
			if strings.Contains(msg, "closed by") || strings.HasPrefix(msg, "unexpected end element") {
				where = skipToTag(data, at) // the end tag that does not match
			}
			line, col := src.at(where)
			if len(stack) > 0 && strings.Contains(msg, "EOF") {
				msg += "; was the download cut short?"
			}
			errs.Add(src.file, line, col, "not XML: %s; gen import %s reads the RSS from %s", msg, format.Name, format.Where)
			return nil
		}
		switch t := tok.(type) {
		case xml.CharData:
			if f.root == nil && len(bytes.TrimSpace(bytes.TrimPrefix(t, []byte("\ufeff")))) > 0 {
				return notXML(src, data, at, format, errs)
			}
		case xml.StartElement:
			at = skipToTag(data, at)
			name := t.Name.Local
			if len(stack) == 0 {
				f.root = &node{path: name, offset: at}
			}
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, name)
			switch {
			case name == "item" && cur == nil && (parent == "channel" || len(stack) == 2):
				f.items = append(f.items, feedItem{node: &node{path: fmt.Sprintf("item[%d]", len(f.items)), offset: at}, fields: map[string]*node{}})
				cur, itemAt, itemDepth = &f.items[len(f.items)-1], at, len(stack)
			case cur != nil && len(stack) == itemDepth+1 && cur.fields[name] == nil:
				cur.fields[name] = &node{path: cur.node.path + "." + name, offset: at}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if cur != nil && len(stack) < itemDepth {
				cur, itemAt = nil, -1
			}
		}
	}
	if more {
		return f.cut(src, data, stack, len(data), format, errs)
	}
	return f.read(src, data, format, errs)
}

// notXML reports a file that starts with text instead of an element.
func notXML(src *source, data []byte, at int, format Format, errs *diag.List) *feed {
	i := at + len(data[at:]) - len(bytes.TrimLeft(data[at:], " \t\r\n\ufeff"))
	hint := ""
	if i < len(data) && (data[i] == '{' || data[i] == '[') {
		hint = "; it looks like a JSON export: gen import statuspage or google-cloud"
	}
	line, col := src.at(i)
	errs.Add(src.file, line, col, "not XML: the file begins with text, not an element; gen import %s reads the RSS from %s%s", format.Name, format.Where, hint)
	return nil
}

// skipToTag moves from the offset before a token to its "<".
func skipToTag(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '<'); j >= 0 {
		return i + j
	}
	return i
}

// cut reads a feed that goes on past MaxFeedSize up to at, the item open
// at the bound or the end of the last whole token, closing the elements
// open there.
func (f *feed) cut(src *source, data []byte, open []string, at int, format Format, errs *diag.List) *feed {
	line, col := src.at(at)
	errs.Add(src.file, line, col, "the feed goes on past %d MiB, where gen stops reading; the items from here on are not imported (split the feed, or import a newer, shorter one)", MaxFeedSize>>20)
	var b bytes.Buffer
	b.Write(data[:at])
	for i := len(open) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "</%s>", open[i])
	}
	return f.read(src, b.Bytes(), format, errs)
}

// read hands the checked XML to gofeed and pairs its items with their
// places.
func (f *feed) read(src *source, data []byte, format Format, errs *diag.List) *feed {
	if f.root == nil {
		errs.Add(src.file, 1, 1, "no XML element; gen import %s reads the RSS from %s", format.Name, format.Where)
		return nil
	}
	if f.root.path != "rss" && f.root.path != "RDF" {
		hint := ""
		if f.root.path == "feed" {
			hint = " (an Atom feed)"
		}
		src.fail(errs, &node{offset: f.root.offset}, "gen import %s reads RSS, whose root element is <rss>, but this is <%s>%s; the feed is at %s", format.Name, f.root.path, hint, format.Where)
		return nil
	}
	var p rss.Parser
	parsed, err := p.Parse(bytes.NewReader(data))
	if err != nil {
		src.fail(errs, &node{offset: f.root.offset}, "not RSS: %v; gen import %s reads the RSS from %s", err, format.Name, format.Where)
		return nil
	}
	f.Feed = parsed
	if len(parsed.Items) != len(f.items) {
		// gofeed found items the scan did not (or the reverse): each is
		// then placed at the root, which is still the right file.
		f.items = nil
	}
	for i, it := range parsed.Items {
		if f.items == nil || i >= len(f.items) {
			f.items = append(f.items, feedItem{node: &node{path: fmt.Sprintf("item[%d]", i), offset: f.root.offset}})
		}
		f.items[i].Item = it
	}
	f.items = f.items[:len(parsed.Items)]
	return f
}
