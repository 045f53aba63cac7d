package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hkID is the bundled incident given a Hong Kong text in these tests.
const hkID = "2024-08-12-europe-west2-connectivity"

// addHongKongText gives the bundled archive's 2024 incident a zh-HK.md:
// its Traditional translation retitled in Hong Kong's words (數據中心,
// 網絡), which no other text of the archive has.
func addHongKongText(t *testing.T, site string) {
	t.Helper()
	dir := filepath.Join(site, "content", hkID)
	data, err := os.ReadFile(filepath.Join(dir, "zh-TW.md"))
	if err != nil {
		t.Fatal(err)
	}
	title := []byte("title: 倫敦網路節點停電，europe-west2 連線中斷")
	if !bytes.Contains(data, title) {
		t.Fatalf("%s/zh-TW.md has no line %q to retitle", hkID, title)
	}
	data = bytes.Replace(data, title, []byte("title: 倫敦數據中心停電，europe-west2 網絡中斷"), 1)
	if err := os.WriteFile(filepath.Join(dir, "zh-HK.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHongKongTextThroughZhTW: a zh-HK text on a site with no
// i18n/zh-HK.yaml is published under its own language, with zh-TW's
// interface and a note saying so; / sends Hong Kong's readers there, and
// search treats its text as Chinese.
func TestHongKongTextThroughZhTW(t *testing.T) {
	site := copySite(t)
	addHongKongText(t, site)
	note := `content/` + hkID + `/zh-HK.md:1:1: language "zh-HK" has no i18n file: its pages show the interface of zh-TW`

	code, out, errs := runGen("check", "--source", site)
	if code != exitOK || !strings.Contains(out, "warning: "+note) {
		t.Errorf("check: exit %d, want 0 and the warning %q:\n%s%s", code, note, out, errs)
	}
	dest := filepath.Join(t.TempDir(), "public")
	code, out, errs = runGen("build", "--source", site, "--dest", dest)
	if code != exitOK || !strings.Contains(out, "in 5 languages") || !strings.Contains(errs, note) {
		t.Fatalf("build: exit %d, want 0, 5 languages and the note %q:\n%s%s", code, note, out, errs)
	}

	base := startServe(t, func(ctx context.Context, ln net.Listener, out io.Writer) int {
		return serveBuilt(ctx, ln, dest, out, t.Logf)
	})
	for accept, want := range map[string]string{"zh-HK": "/zh-HK/", "zh-HK,zh;q=0.9,en;q=0.5": "/zh-HK/", "zh-MO": "/zh-HK/", "zh-TW": "/zh-TW/", "zh-CN": "/zh-CN/"} {
		if res, _ := fetch(t, base+"/", "Accept-Language", accept); res.StatusCode != http.StatusFound || res.Header.Get("Location") != want {
			t.Errorf("/ with %s: %d → %q, want %s", accept, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
	// Its own text, in zh-TW's interface (搜尋, not 搜索), no notice.
	res, body := fetch(t, base+"/zh-HK/incidents/"+hkID+"/")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `<html lang="zh-HK"`) || !strings.Contains(body, "倫敦數據中心停電") ||
		!strings.Contains(body, "搜尋") || strings.Contains(body, `class="notice"`) {
		t.Errorf("zh-HK page of its text: %d, lang zh-HK %v, its title %v, zh-TW's 搜尋 %v, notice %v", res.StatusCode,
			strings.Contains(body, `<html lang="zh-HK"`), strings.Contains(body, "倫敦數據中心停電"), strings.Contains(body, "搜尋"), strings.Contains(body, `class="notice"`))
	}
	// Another incident: the Traditional translation, said to be one.
	res, body = fetch(t, base+"/zh-HK/incidents/2017-03-13-bigquery-streaming-inserts/")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `<article class="incident" lang="zh-TW"`) || !strings.Contains(body, "譯文顯示") {
		t.Errorf("zh-HK page of an incident translated into zh-TW only: %d; want the zh-TW text and a notice naming it", res.StatusCode)
	}
	// Every language's page offers the Hong Kong one.
	if _, body := fetch(t, base+"/en/incidents/"+hkID+"/"); !strings.Contains(body, `hreflang="zh-HK"`) {
		t.Error("the English page has no alternate in zh-HK")
	}
	// Searched as Chinese: Simplified words find the Traditional text.
	q := url.Values{"q": {"数据中心"}, "lang": {"zh-HK"}, "language": {"zh-HK"}}
	if res, body := fetch(t, base+"/api/search?"+q.Encode()); res.StatusCode != http.StatusOK || !strings.Contains(body, `"url":"/zh-HK/incidents/`+hkID+`/"`) {
		t.Errorf("search for 数据中心 in zh-HK: %d %s", res.StatusCode, body)
	}
	if res, body := fetch(t, base+"/zh-HK/search/?q=%E7%BD%91%E7%BB%9C%E4%B8%AD%E6%96%AD"); res.StatusCode != http.StatusOK ||
		!strings.Contains(body, `<a href="/zh-HK/incidents/`+hkID+`/" lang="zh-HK">倫敦數據中心停電`) {
		t.Errorf("zh-HK search page for 网络中断: %d, want the Hong Kong text found", res.StatusCode)
	}
}

// TestNewHongKongIncident: gen new starts a zh-HK original with zh-TW's
// headings, and it builds.
func TestNewHongKongIncident(t *testing.T) {
	site := copySite(t)
	code, out, errs := runGen("new", "--source", site, "--timezone", "Asia/Hong_Kong", "--begin", "2025-01-02 00:30", "--lang", "zh-HK", "mtr-signal-fault")
	if code != exitOK || !strings.Contains(out, filepath.Join("2025-01-02-mtr-signal-fault", "zh-HK.md")) {
		t.Fatalf("new: %d %q %q", code, out, errs)
	}
	written, err := os.ReadFile(filepath.Join(site, "content", "2025-01-02-mtr-signal-fault", "zh-HK.md"))
	if err != nil || !strings.Contains(string(written), "## 時間軸 {#timeline}") {
		t.Fatalf("the zh-HK original (%v) has not zh-TW's headings:\n%s", err, written)
	}
	if code, out, errs := runGen("build", "--source", site, "--drafts"); code != exitOK || !strings.Contains(out, "built 5 incidents in 5 languages") {
		t.Errorf("build with the zh-HK draft: %d %q %q", code, out, errs)
	}
}
