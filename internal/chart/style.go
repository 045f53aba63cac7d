package chart

import "strings"

// Stylesheet returns the CSS for every chart this package draws, as one
// static text: the charts themselves carry no <style> element and no style
// attributes, so that a page served with a strict Content-Security-Policy
// (style-src 'self') can show them. The site writes it to a file and links
// it from every page that may hold a chart.
//
// Rules are scoped by class: svg.chart for what all charts share (the
// --c-* colour properties, typography, axes, grid and ticks, the narrow
// viewport, print, forced-colors and dark variants), svg.chart-incident,
// svg.chart-heatmap, svg.chart-grid and svg.chart-durations for each kind. Inside a chart, colours are only ever
// taken from the --c-* properties, which default to the page's --fg,
// --muted, --line, --bg, --accent, --minor, --major and --critical, with
// built-in fallbacks.
//
// The text is the same on every call.
func Stylesheet() string { return stylesheet }

var stylesheet = buildStylesheet()

func buildStylesheet() string {
	const (
		all = "svg.chart"
		inc = "svg.chart-incident"
		dur = "svg.chart-durations"
	)
	var b strings.Builder
	rule := func(sel, decl string) { b.WriteString(sel + "{" + decl + "}\n") }
	media := func(query string, rules ...string) {
		b.WriteString("@media " + query + "{\n")
		for i := 0; i+1 < len(rules); i += 2 {
			b.WriteString("  " + rules[i] + "{" + rules[i+1] + "}\n")
		}
		b.WriteString("}\n")
	}

	b.WriteString("/* Charts drawn by gen's internal/chart (see chart.Stylesheet). */\n")

	// Shared: colour scheme and typography.
	rule(all, "--c-fg:var(--fg,#1d1f21);--c-muted:var(--muted,#5c6166);--c-line:var(--line,#d0d0ca);--c-bg:var(--bg,#fbfbf9);"+
		"--c-accent:var(--accent,#0b5cad);--c-minor:var(--minor,#3b6e3b);--c-major:var(--major,#9a5b00);--c-critical:var(--critical,#b3261e);"+
		"--c-band:.16;color:var(--c-fg);"+
		`font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK TC","Noto Sans CJK JP","PingFang TC","Hiragino Sans","Microsoft JhengHei","Yu Gothic",sans-serif;`+
		"font-size:"+num(fontText)+"px")
	media("(prefers-color-scheme:dark)",
		all, "--c-fg:var(--fg,#e6e6e3);--c-muted:var(--muted,#a3a8ad);--c-line:var(--line,#3a3e44);--c-bg:var(--bg,#16181b);"+
			"--c-accent:var(--accent,#7db4f0);--c-minor:var(--minor,#8fc98f);--c-major:var(--major,#f0b35c);--c-critical:var(--critical,#ff8a80);--c-band:.26")
	media("print",
		all, "--c-fg:#000;--c-muted:#000;--c-line:#999;--c-bg:#fff;--c-accent:#000;--c-minor:#aaa;--c-major:#555;--c-critical:#000;--c-band:.13")
	media("(forced-colors:active)",
		all, "--c-fg:CanvasText;--c-muted:CanvasText;--c-line:GrayText;--c-bg:Canvas;--c-accent:LinkText;--c-minor:CanvasText;--c-major:CanvasText;--c-critical:CanvasText")
	rule(all+" text", "fill:currentColor")
	rule(all+" .muted", "fill:var(--c-muted)")
	rule(all+" .h", "font-size:"+num(fontHead)+"px;font-weight:600")
	rule(all+" .cnt", "font-size:"+num(fontCount)+"px;fill:var(--c-muted)")
	rule(all+" .grid", "stroke:var(--c-line);stroke-width:1;vector-effect:non-scaling-stroke")
	rule(all+" .axis", "stroke:currentColor;stroke-width:1.5;vector-effect:non-scaling-stroke")
	rule(all+" .tk", "stroke:currentColor;stroke-width:1;vector-effect:non-scaling-stroke")
	rule(all+" .frame", "fill:none;stroke:var(--c-line);vector-effect:non-scaling-stroke")
	// On a phone a picture drawn 720 wide is scaled to about half: its
	// text grows back. One drawn for a phone (chart-phone) is not scaled.
	// One whose text is fixed (chart-fixed: the month and year pictures)
	// is not enlarged: the page keeps it large enough.
	scaled := all + ":not(.chart-phone):not(.chart-fixed)"
	media(narrowQuery,
		scaled, "font-size:"+num(fontTextNarrow)+"px",
		scaled+" .h", "font-size:"+num(fontHeadNarrow)+"px",
		scaled+" .cnt", "font-size:"+num(fontCountNarrw)+"px",
		all+" .nh", "display:none")
	// A picture drawn twice (chart.IncidentResponsive) shows the one for
	// the viewport's width.
	rule(all+".chart-phone", "display:none")
	media(narrowQuery, all+".chart-wide", "display:none", all+".chart-phone", "display:block")

	incidentRules(inc, rule, media)
	timelineRules(rule)

	// Durations histogram.
	rule(dur+" .bar", "fill:var(--c-accent)")

	// Heat maps and grids: a shade per level of count, severity strips.
	sel := func(suffix string) string {
		return "svg.chart-heatmap " + suffix + ",svg.chart-grid " + suffix
	}
	rule(sel(".heat"), "fill:var(--c-accent);stroke:var(--c-line);stroke-width:1;vector-effect:non-scaling-stroke")
	rule(sel(".heat-0"), "fill:var(--c-bg)")
	for k, op := range []string{".14", ".3", ".48", ".7", ".95"} {
		rule(sel(".heat-"+string(rune('1'+k))), "fill-opacity:"+op)
	}
	rule(sel(".n"), "font-size:"+num(fontCount)+"px;font-weight:600")
	rule(sel(".n.on-dark"), "fill:var(--c-bg)")
	rule(sel(".severity-critical"), "fill:var(--c-critical)")
	rule(sel(".severity-major"), "fill:var(--c-major)")
	rule(sel(".severity-minor"), "fill:var(--c-minor)")
	rule(sel(".severity-none"), "fill:var(--c-muted)")
	rule(sel(".cell:hover .heat"), "stroke:var(--c-fg);stroke-width:2")
	rule(sel(".total"), "font-weight:600")
	media(narrowQuery, sel(".n"), "font-size:"+num(fontCountNarrw)+"px")
	return b.String()
}

// incidentRules are an incident picture's rules (inc selects it): the
// impact band, the markers, midnights and the incidents at the same time.
func incidentRules(inc string, rule func(sel, decl string), media func(query string, rules ...string)) {
	rule(inc+" .band", "fill:var(--c-accent);fill-opacity:var(--c-band)")
	rule(inc+" .band-edge", "stroke:var(--c-accent);stroke-width:1.5;stroke-dasharray:4 3;vector-effect:non-scaling-stroke")
	rule(inc+" .band-edge.open", "stroke-dasharray:1 4")
	rule(inc+" .instant", "stroke:var(--c-accent);stroke-width:3;vector-effect:non-scaling-stroke")
	rule(inc+" .band.open", "fill-opacity:calc(var(--c-band) / 2)")
	rule(inc+" .stem", "stroke:var(--c-muted);stroke-width:1;vector-effect:non-scaling-stroke")
	rule(inc+" .dot", "fill:var(--c-accent);stroke:var(--c-bg);stroke-width:2")
	rule(inc+" .hit", "fill:transparent")
	rule(inc+" .marker:hover .dot,"+inc+" .marker:focus .dot", "fill:var(--c-fg)")
	rule(inc+" .num", "font-size:11px;font-weight:700;fill:var(--c-bg);pointer-events:none")
	rule(inc+" .midnight line", "stroke:var(--c-fg);stroke-width:1;stroke-dasharray:2 3;vector-effect:non-scaling-stroke")
	rule(inc+" .midnight-label", "font-size:"+num(dayFont)+"px;fill:var(--c-muted)")
	rule(inc+" .crowded", "display:none")
	rule(inc+" .overlap", "fill:var(--c-muted);fill-opacity:.22;stroke:var(--c-muted);stroke-width:1;vector-effect:non-scaling-stroke")
	rule(inc+" .overlap.open", "stroke-dasharray:1 3")
	rule(inc+" .overlap-label", "font-size:"+num(overlapFont)+"px")
	rule(inc+" .overlap-more .overlap-label", "fill:var(--c-accent);text-decoration:underline")
	rule(inc+" .overlap-lane:hover .overlap,"+inc+" .overlap-lane:focus .overlap", "fill-opacity:.4;stroke:var(--c-fg)")
	rule(inc+" .overlap-lane:hover .overlap-label", "text-decoration:underline")
	// On a phone the picture is drawn at about half size: the dots and
	// their tap targets grow back to at least 24 CSS px.
	media(narrowQuery, inc+":not(.chart-phone) .dot", "r:14px", inc+":not(.chart-phone) .hit", "r:24px",
		inc+":not(.chart-phone) .num", "font-size:16px", inc+":not(.chart-phone) .midnight-label", "font-size:"+num(dayFontNarrow)+"px")
	rule(inc+".chart-phone .num", "font-size:12px")
}

// timelineRules are the month and year pictures' rules: severity
// colours, an open incident's bar fading out from its severity's.
func timelineRules(rule func(sel, decl string)) {
	for _, kind := range []string{"svg.chart-month", "svg.chart-year"} {
		for _, sev := range []string{"critical", "major", "minor"} {
			rule(kind+" .severity-"+sev, "fill:var(--c-"+sev+")")
			rule(kind+" .stop-"+sev, "stop-color:var(--c-"+sev+")")
		}
		rule(kind+" .severity-none", "fill:var(--c-muted)")
		rule(kind+" .stop-none", "stop-color:var(--c-muted)")
	}
	rule("svg.chart-month path.grid", "fill:none")
	rule("svg.chart-month .bar-link:hover .bar", "stroke:var(--c-fg);stroke-width:1.5;vector-effect:non-scaling-stroke")
	rule("svg.chart-year", "font-size:"+num(yrFont)+"px")
	rule("svg.chart-year .n", "font-weight:600")
	rule("svg.chart-year .hit", "fill:transparent")
	rule("svg.chart-year .col:hover .hit", "fill:var(--c-line)")
}
