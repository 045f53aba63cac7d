package locale_test

import (
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/postmortem-archive/gen/i18n"
	"github.com/postmortem-archive/gen/internal/locale"
)

func bundled(t *testing.T) *locale.Bundle {
	t.Helper()
	b, err := locale.Load(i18n.Files, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBundledLanguages(t *testing.T) {
	b := bundled(t)
	if got := strings.Join(b.Tags(), ","); got != "en,ja,zh-CN,zh-TW" {
		t.Fatalf("languages = %s", got)
	}
	cases := []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 incident"}, {"en", 4, "4 incidents"}, {"en", 0, "0 incidents"}, {"en", 1000, "1,000 incidents"},
		{"zh-TW", 1, "1 起事故"}, {"zh-TW", 4, "4 起事故"},
		{"zh-CN", 1, "1 起故障"}, {"zh-CN", 1000, "1,000 起故障"},
		{"ja", 1, "1 件のインシデント"}, {"ja", 4, "4 件のインシデント"},
	}
	for _, c := range cases {
		got, err := b.Get(c.lang).N("incidents_count", c.n)
		if err != nil || got != c.want {
			t.Errorf("%s N(%d) = %q, %v; want %q", c.lang, c.n, got, err, c.want)
		}
	}
}

// A language with more plural forms than the bundled ones proves the forms
// come from CLDR's rules, not from "1 or not 1".
func TestCLDRPluralForms(t *testing.T) {
	files := fstest.MapFS{"ru.yaml": {Data: []byte(`name: Русский
date: "{day}.{mon2}.{year}"
time: "{local} {zone} · {utc} UTC"
months: [января, февраля, марта, апреля, мая, июня, июля, августа, сентября, октября, ноября, декабря]
duration: {hours: "{n} ч", minutes: "{n} мин"}
strings:
  incidents_count: {one: "{n} инцидент", few: "{n} инцидента", many: "{n} инцидентов", other: "{n} инцидента"}
`)}}
	b, err := locale.Load(files, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	ru := b.Get("ru")
	for n, want := range map[int]string{1: "1 инцидент", 2: "2 инцидента", 5: "5 инцидентов", 21: "21 инцидент", 22: "22 инцидента", 11: "11 инцидентов"} {
		if got, _ := ru.N("incidents_count", n); got != want {
			t.Errorf("ru N(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDatesDurationsAndTimes(t *testing.T) {
	b := bundled(t)
	la, _ := time.LoadLocation("America/Los_Angeles")
	begin := time.Date(2017, 3, 13, 17, 22, 0, 0, time.UTC)
	cases := []struct{ lang, got, want string }{
		{"en", b.Get("en").Date(begin.In(la)), "March 13, 2017"},
		{"zh-TW", b.Get("zh-TW").Date(begin.In(la)), "2017年3月13日"},
		{"ja", b.Get("ja").Date(begin.In(la)), "2017年3月13日"},
		{"en", b.Get("en").Duration(2*time.Hour + 4*time.Minute), "2 h 4 min"},
		{"zh-TW", b.Get("zh-TW").Duration(2*time.Hour + 4*time.Minute), "2 小時 4 分鐘"},
		{"zh-CN", b.Get("zh-CN").Date(begin.In(la)), "2017年3月13日"},
		{"zh-CN", b.Get("zh-CN").Duration(26*time.Hour + 4*time.Minute), "1 天 2 小时 4 分钟"},
		{"ja", b.Get("ja").Duration(30 * time.Minute), "30 分"},
		{"en", b.Get("en").Duration(26*time.Hour + 30*time.Second), "1 day 2 h 1 min"},
		{"en", b.Get("en").Time(begin, la), "10:22 PDT · 17:22 UTC"},
		// The zone's abbreviation is the one in force on that date.
		{"en", b.Get("en").Time(time.Date(2017, 1, 13, 18, 22, 0, 0, time.UTC), la), "10:22 PST · 18:22 UTC"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, c.got, c.want)
		}
	}
}

func TestMatchAcceptLanguage(t *testing.T) {
	b := bundled(t)
	for header, want := range map[string]string{
		"zh-TW,zh;q=0.9,en;q=0.8": "zh-TW",
		"zh-Hant-HK":              "zh-TW",
		// Simplified for the Mainland, Singapore and the script alone;
		// Traditional for Taiwan, Hong Kong and Macau, which have no
		// language of their own here.
		"zh-CN":                   "zh-CN",
		"zh-CN,zh;q=0.9,en;q=0.8": "zh-CN",
		"zh-SG":                   "zh-CN",
		"zh-Hans":                 "zh-CN",
		"zh":                      "zh-CN",
		"zh-TW":                   "zh-TW",
		"zh-Hant":                 "zh-TW",
		"zh-HK":                   "zh-TW",
		"zh-MO":                   "zh-TW",
		"en-US,zh-HK;q=0.5":       "en",
		"ja-JP":                   "ja",
		"fr-FR,en;q=0.5":          "en",
		"de":                      "en",
		"":                        "en",
	} {
		if got := b.Match(header).Tag; got != want {
			t.Errorf("Match(%q) = %s, want %s", header, got, want)
		}
	}
}

// A language without a file speaks through the nearest that has one,
// under its own tag and name, and its readers are sent to it.
func TestAddNearest(t *testing.T) {
	b := bundled(t)
	if err := b.AddNearest([]string{"zh-HK", "zh-SG"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Tags(), " "); got != "en ja zh-CN zh-HK zh-SG zh-TW" {
		t.Errorf("tags %s", got)
	}
	if got := strings.Join(b.StandIns(), " "); got != "zh-HK zh-SG" {
		t.Errorf("stand-ins %s", got)
	}
	hk, tw := b.Get("zh-HK"), b.Get("zh-TW")
	if hk.From != "zh-TW" || b.Get("zh-SG").From != "zh-CN" || tw.From != "" {
		t.Errorf("zh-HK from %q, zh-SG from %q, zh-TW from %q", hk.From, b.Get("zh-SG").From, tw.From)
	}
	search, _ := hk.T("nav_search")
	if want, _ := tw.T("nav_search"); search != want || search != "搜尋" {
		t.Errorf("zh-HK's search = %q, want zh-TW's 搜尋", search)
	}
	if hk.Name != "中文 (中國香港特別行政區)" || hk.Name == tw.Name {
		t.Errorf("zh-HK's name %q, want its own in CLDR", hk.Name)
	}
	for header, want := range map[string]string{"zh-HK": "zh-HK", "zh-MO": "zh-HK", "zh-TW": "zh-TW", "zh-SG": "zh-SG", "zh-CN": "zh-CN"} {
		if got := b.Match(header).Tag; got != want {
			t.Errorf("Match(%q) = %s, want %s", header, got, want)
		}
	}
	if err := b.AddNearest([]string{"fr"}); err == nil || !strings.Contains(err.Error(), "use one of: en, ja, zh-CN, zh-TW") {
		t.Errorf("AddNearest(fr) = %v, want an error naming the languages with files", err)
	}
}

func TestCollationOrdersTermsForTheLanguage(t *testing.T) {
	b := bundled(t)
	words := []string{"zebra", "Äpfel", "apple", "Banana"}
	locale.Sort(b.Get("en"), words, func(s string) string { return s })
	// Byte order would give Banana,apple,zebra,Äpfel.
	if got := strings.Join(words, ","); got != "Äpfel,apple,Banana,zebra" {
		t.Errorf("en order = %s", got)
	}
}

// Pages made on request sort terms from several goroutines at once; a
// collator shared without a lock is a data race (go test -race).
func TestSortFromManyGoroutines(t *testing.T) {
	en := bundled(t).Get("en")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				words := []string{"zebra", "Äpfel", "apple", "Banana"}
				locale.Sort(en, words, func(s string) string { return s })
				if got := strings.Join(words, ","); got != "Äpfel,apple,Banana,zebra" {
					t.Errorf("en order = %s", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestMissingStringIsAnError(t *testing.T) {
	files := fstest.MapFS{
		"en.yaml": {Data: []byte("name: English\ndate: x\ntime: x\nmonths: [a,b,c,d,e,f,g,h,i,j,k,l]\nstrings: {a: A, b: B}\n")},
		"fr.yaml": {Data: []byte("name: Français\ndate: x\ntime: x\nmonths: [a,b,c,d,e,f,g,h,i,j,k,l]\nstrings: {a: A}\n")},
		"de.yaml": {Data: []byte("name: Deutsch\ndate: x\nbogus: 1\n")},
	}
	_, err := locale.Load(files, "i18n")
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"i18n/fr.yaml:1:1: missing strings that other languages have: b", "i18n/de.yaml:3:", "bogus"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestFillFromDefaults(t *testing.T) {
	site, err := locale.Load(fstest.MapFS{
		"en.yaml": {Data: []byte("name: English\ndate: x\ntime: x\nmonths: [a,b,c,d,e,f,g,h,i,j,k,l]\nstrings: {site_title: My archive}\n")},
		"fr.yaml": {Data: []byte("name: Français\ndate: x\ntime: x\nmonths: [a,b,c,d,e,f,g,h,i,j,k,l]\nstrings: {site_title: Mes incidents}\n")},
	}, "i18n")
	if err != nil {
		t.Fatal(err)
	}
	site.FillFrom(bundled(t))
	if got, _ := site.Get("en").T("site_title"); got != "My archive" {
		t.Errorf("the site's own string was replaced: %q", got)
	}
	if got, err := site.Get("en").N("incidents_count", 2); err != nil || got != "2 incidents" {
		t.Errorf("en: a string the site lacks: %q, %v", got, err)
	}
	// French is not built in: it falls back to the default language.
	if got, err := site.Get("fr").T("nav_timeline"); err != nil || got != "Timeline" {
		t.Errorf("fr: %q, %v", got, err)
	}
}

func TestTimesAreUnambiguous(t *testing.T) {
	b := bundled(t)
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	for _, c := range []struct {
		lang string
		at   time.Time
		loc  *time.Location
		want string
	}{
		// Across midnight the UTC part says which day it is.
		{"en", time.Date(2020, 8, 20, 3, 55, 0, 0, time.UTC), zone("America/Los_Angeles"), "20:55 PDT · 2020-08-20 03:55 UTC"},
		{"ja", time.Date(2020, 8, 20, 3, 55, 0, 0, time.UTC), zone("America/Los_Angeles"), "20:55 PDT · 2020-08-20 03:55 UTC"},
		{"zh-TW", time.Date(2020, 8, 19, 20, 5, 0, 0, time.UTC), zone("Asia/Taipei"), "04:05 CST, UTC+8 · 2020-08-19 20:05 UTC"},
		// The same day: no date.
		{"en", time.Date(2020, 8, 19, 17, 55, 0, 0, time.UTC), zone("America/Los_Angeles"), "10:55 PDT · 17:55 UTC"},
		// CST is China's and America's: the offset tells them apart.
		{"en", time.Date(2021, 1, 5, 18, 0, 0, 0, time.UTC), zone("America/Chicago"), "12:00 CST, UTC−6 · 18:00 UTC"},
		{"en", time.Date(2021, 1, 5, 2, 0, 0, 0, time.UTC), zone("Asia/Shanghai"), "10:00 CST, UTC+8 · 02:00 UTC"},
		{"en", time.Date(2021, 1, 5, 2, 0, 0, 0, time.UTC), zone("Asia/Kolkata"), "07:30 IST, UTC+5:30 · 02:00 UTC"},
		// A zone the database gives no abbreviation is named by its offset.
		{"en", time.Date(2021, 1, 5, 2, 0, 0, 0, time.UTC), zone("America/Sao_Paulo"), "23:00 UTC−3 · 2021-01-05 02:00 UTC"},
		// In UTC the time is shown once; London in winter is not UTC.
		{"en", time.Date(2021, 1, 5, 16, 36, 0, 0, time.UTC), time.UTC, "16:36 UTC"},
		{"ja", time.Date(2021, 1, 5, 16, 36, 0, 0, time.UTC), zone("Etc/UTC"), "16:36 UTC"},
		{"en", time.Date(2021, 1, 5, 16, 36, 0, 0, time.UTC), zone("Europe/London"), "16:36 GMT · 16:36 UTC"},
	} {
		if got := b.Get(c.lang).Time(c.at, c.loc); got != c.want {
			t.Errorf("%s %s in %s: %q, want %q", c.lang, c.at.Format(time.RFC3339), c.loc, got, c.want)
		}
	}
}

// TestDateTime: a list gives an incident's beginning as its date and
// time in its own zone, named: the local date, not UTC's.
func TestDateTime(t *testing.T) {
	b := bundled(t)
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2020, 8, 20, 3, 55, 0, 0, time.UTC)
	for _, c := range []struct {
		lang string
		loc  *time.Location
		want string
	}{
		{"en", la, "August 19, 2020, 20:55 PDT"},
		{"ja", la, "2020年8月19日 20:55 PDT"},
		{"zh-TW", la, "2020年8月19日 20:55 PDT"},
		{"en", time.UTC, "August 20, 2020, 03:55 UTC"},
	} {
		if got := b.Get(c.lang).DateTime(at, c.loc); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.lang, c.loc, got, c.want)
		}
	}
}

func TestLanguageNamesInTheReadersLanguage(t *testing.T) {
	b := bundled(t)
	for _, c := range []struct{ reader, tag, want string }{
		{"en", "ja", "Japanese"}, {"ja", "ja", "日本語"}, {"zh-TW", "en", "英文"}, {"en", "zh-TW", "Chinese (Taiwan)"}, {"zh-CN", "en", "英语"}, {"zh-CN", "zh-TW", "中文 (台湾)"}, {"en", "zh-CN", "Chinese (China)"}, {"en", "!!", "!!"},
	} {
		if got := b.Get(c.reader).LanguageName(c.tag); got != c.want {
			t.Errorf("%s name of %s: %q, want %q", c.reader, c.tag, got, c.want)
		}
	}
}
