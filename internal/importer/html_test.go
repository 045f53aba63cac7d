package importer

import (
	"strings"
	"testing"
)

// TestHTMLToMarkdown: paragraphs, lists, emphasis, code and links are
// kept; what runs code is dropped; what Markdown cannot say stays text.
func TestHTMLToMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<p>Errors from <strong>PutObject</strong> in <code>us-east-1</code>.</p><p>We are <em>monitoring</em>.</p>`,
			"Errors from **PutObject** in `us-east-1`.\n\nWe are *monitoring*."},
		{`<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>`, "- one\n- two\n\n1. first"},
		{`<p>Read <a href="https://status.example.com/x">the report</a>.</p>`, "Read [the report](https://status.example.com/x)."},
		{`<pre><code>retry &lt; 3</code></pre>`, "```\nretry < 3\n```"},
		{`<p>Fixed.</p><script>alert(1)</script><style>p{color:red}</style>`, "Fixed."},
		{`<p onclick="alert(1)" onmouseover="x()">Fixed.</p>`, "Fixed."},
		{`<p><a href="javascript:alert(1)">click</a> <a href=" JaVa&#09;Script:alert(1)">here</a></p>`, "click here"},
		{`<p><a href="vbscript:x">a</a><a href="data:text/html,x">b</a></p>`, "ab"},
		{`<p><img src="/graph.png" alt="error rate graph" onerror="alert(1)"></p>`, "error rate graph"},
		{`<iframe src="https://evil.example/"></iframe><p>Text <span>kept</span> <marquee>too</marquee></p>`, "Text kept too"},
		{`<noscript>Enable JavaScript</noscript><svg><text>chart</text></svg><form><button>Subscribe</button></form><object>plugin</object><p>Fixed.</p>`, "Fixed."},
		{`<table><tr><th>Region</th><th>Errors</th></tr><tr><td>eu</td><td>12%</td></tr></table>`,
			"| Region | Errors |\n|--------|--------|\n| eu     | 12%    |"},
	} {
		if got := htmlToMarkdown(c.in); got != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestHTMLTooDeep: HTML nested deeper than the parser goes keeps its text,
// less its scripts.
func TestHTMLTooDeep(t *testing.T) {
	s := strings.Repeat("<div>", 1000) + "Queues drained.<script>alert(1)</script><b>Fixed</b>" + strings.Repeat("</div>", 1000)
	if got := htmlToMarkdown(s); got != "Queues drained. Fixed" {
		t.Errorf("got %q", got)
	}
}
