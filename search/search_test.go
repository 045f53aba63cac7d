package search

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	blevequery "github.com/blevesearch/bleve/v2/search/query"

	"github.com/postmortem-archive/gen/search/build"
	"github.com/postmortem-archive/gen/search/query"
	"github.com/postmortem-archive/gen/search/schema"
)

// Both kinds of index must answer the same; most tests run on both.
func eachIndex(t *testing.T, f func(t *testing.T, ix Searcher)) {
	t.Run("disk", func(t *testing.T) { f(t, buildDisk(t)) })
	t.Run("memory", func(t *testing.T) { f(t, buildEditable(t)) })
}

func TestCrossLanguage(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		// Gmail: the original is zh-TW, an English translation exists. Both
		// documents match; one result, in the reader's language.
		for _, tc := range []struct{ reader, wantLang string }{
			{"en", "en"},
			{"zh-TW", "zh-TW"},
			{"zh-tw", "zh-TW"}, // tags are canonicalised
			{"ja", "zh-TW"},    // no Japanese version: the original
			{"", "zh-TW"},
		} {
			resp := search(t, ix, Request{Query: "Gmail", Lang: tc.reader})
			if resp.Total != 1 || len(resp.Results) != 1 {
				t.Fatalf("Gmail (%s): total %d, results %v; want the one incident", tc.reader, resp.Total, ids(resp))
			}
			r := resp.Results[0]
			if r.ID != idGmail || r.Lang != tc.wantLang {
				t.Errorf("Gmail (%s): got %s in %s, want %s in %s", tc.reader, r.ID, r.Lang, idGmail, tc.wantLang)
			}
			if want := "/" + tc.wantLang + "/incidents/" + idGmail + "/"; r.URL != want {
				t.Errorf("Gmail (%s): url %s, want %s", tc.reader, r.URL, want)
			}
			if len(r.Fragments) == 0 || !strings.Contains(r.Fragments[0], "<mark>Gmail</mark>") {
				t.Errorf("Gmail (%s): fragments %q", tc.reader, r.Fragments)
			}
			if r.FragmentsLang != "" {
				t.Errorf("Gmail (%s): fragments from %s, want the shown document's", tc.reader, r.FragmentsLang)
			}
			if facet(resp, FacetLang, "en") != 1 || facet(resp, FacetLang, "zh-TW") != 1 {
				t.Errorf("Gmail: lang facet %v, want en:1 zh-TW:1", resp.Facets[FacetLang])
			}
		}

		// A Chinese query matches only the zh-TW original; an English
		// reader still gets the English version, with Chinese fragments.
		resp := search(t, ix, Request{Query: `"資源耗盡"`, Lang: "en"})
		if !slices.Equal(ids(resp), []string{idGmail}) {
			t.Fatalf("資源耗盡 (en): %v", ids(resp))
		}
		r := resp.Results[0]
		if r.Lang != "en" || r.Title != "Gmail outage: quota system ran out of resources" {
			t.Errorf("資源耗盡 (en): shown in %s: %q", r.Lang, r.Title)
		}
		if r.FragmentsLang != "zh-TW" || len(r.Fragments) == 0 || !strings.Contains(r.Fragments[0], "<mark>資源耗盡</mark>") {
			t.Errorf("資源耗盡 (en): fragments (%s) %q", r.FragmentsLang, r.Fragments)
		}

		// An English word finds the English translation of a zh-TW
		// original; a zh-TW reader sees the original.
		resp = search(t, ix, Request{Query: "replication", Lang: "zh-TW"})
		if !slices.Equal(ids(resp), []string{idDB}) || resp.Results[0].Lang != "zh-TW" {
			t.Errorf("replication (zh-TW): %+v", resp.Results)
		}

		// Japanese.
		resp = search(t, ix, Request{Query: "障害", Lang: "en"})
		if !slices.Equal(ids(resp), []string{idTokyo}) || resp.Results[0].Lang != "ja" {
			t.Errorf("障害: %+v", resp.Results)
		}
		resp = search(t, ix, Request{Query: "配信", Lang: "ja"})
		if !slices.Equal(ids(resp), []string{idPubSub}) || resp.Results[0].Lang != "ja" {
			t.Errorf("配信 (ja): %+v", resp.Results)
		}
		// A reader of another region of a language a translation is in
		// gets it, as the pages show it, not the English original.
		resp = search(t, ix, Request{Query: "配信", Lang: "ja-JP"})
		if !slices.Equal(ids(resp), []string{idPubSub}) || resp.Results[0].Lang != "ja" {
			t.Errorf("配信 (ja-JP): %+v", resp.Results)
		}
	})
}

func TestStemming(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, q := range []string{"overloaded", "overload", "overloads", "Overloading", "streaming insert"} {
			resp := search(t, ix, Request{Query: q, Lang: "en"})
			if !slices.Equal(ids(resp), []string{idBigQuery}) {
				t.Errorf("%q: %v, want [%s]", q, ids(resp), idBigQuery)
				continue
			}
			if fr := resp.Results[0].Fragments; len(fr) == 0 || !strings.Contains(fr[0], "<mark>") {
				t.Errorf("%q: fragments %q", q, fr)
			}
		}
		// Stop words do not have to match.
		resp := search(t, ix, Request{Query: "the overload of the metadata", Lang: "en"})
		if !slices.Equal(ids(resp), []string{idBigQuery}) {
			t.Errorf("with stop words: %v", ids(resp))
		}
		// A phrase with a stop word in it keeps its positions.
		resp = search(t, ix, Request{Query: `"overload of the metadata"`, Lang: "en"})
		if !slices.Equal(ids(resp), []string{idBigQuery}) {
			t.Errorf("phrase with stop words: %v", ids(resp))
		}
		resp = search(t, ix, Request{Query: `"metadata overload"`, Lang: "en"})
		if resp.Total != 0 {
			t.Errorf("phrase in the wrong order: %v", ids(resp))
		}
	})
}

func TestChineseWords(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, tc := range []struct {
			q    string
			want []string
		}{
			// 4 characters, adjacent in the Gmail incident; in the Cloud SQL
			// incident 資源 and 耗盡 both occur, far apart: quoted, no
			// match; typed as a compound, its parts match there too
			// (below the whole, see the end).
			{`"資源耗盡"`, []string{idGmail}},
			{"資源耗盡", []string{idCloudSQL, idGmail}},
			// The same words separately: both incidents.
			{"資源 耗盡", []string{idCloudSQL, idGmail}},
			// 2 characters.
			{"配額", []string{idGmail}},
			{"雲端", []string{idDB}},
			// 3 characters: both incidents contain 資料庫.
			{"資料庫", []string{idCloudSQL, idDB}},
			// 4 characters.
			{"負載平衡", []string{idDB}},
			{"連線失敗", []string{idCloudSQL}},
			// Chinese with Latin in one word, and a quoted Chinese phrase.
			// (a space between Latin and Chinese does not change positions)
			{"Gmail服務中斷", []string{idGmail}},
			{`"服務中斷"`, []string{idGmail}},
			// Full-width Latin letters are folded in the CJK index.
			{"ＧＭＡＩＬ", []string{idGmail}},
			// Adjacent characters that never occur together: no report
			// writes the compound whole, so its parts (耗盡, 盡資, 資源)
			// find what they find.
			{"耗盡資源", []string{idCloudSQL, idGmail}},
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: "zh-TW"})
			got := ids(resp)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
			}
			if resp.Total != len(tc.want) {
				t.Errorf("%q: total %d, want %d", tc.q, resp.Total, len(tc.want))
			}
		}
		if got := ids(search(t, ix, Request{Query: "資源耗盡", Lang: "zh-TW"})); !slices.Equal(got, []string{idGmail, idCloudSQL}) {
			t.Errorf("資源耗盡 ranks %v, want the whole before its parts", got)
		}
		// The Gmail zh-TW title is "Gmail 服務中斷：…", with a space.
		resp := search(t, ix, Request{Query: "Gmail 服務中斷", Lang: "zh-TW"})
		if !slices.Equal(ids(resp), []string{idGmail}) {
			t.Errorf("Gmail 服務中斷: %v", ids(resp))
		}
	})
}

func TestPunctuatedNames(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"Pub/Sub", []string{idPubSub}},
			{"pub/sub", []string{idPubSub}},
			{"europe-west2", []string{idPubSub}},
			{"Cloud SQL", []string{idCloudSQL, idDB}}, // both words, anywhere (idDB: "cloud database", product Cloud SQL)
			{`"Cloud SQL"`, []string{idCloudSQL, idDB}},
			{"product:\"Cloud SQL\"", []string{idCloudSQL, idDB}},
			{"product:cloud-sql", []string{idCloudSQL, idDB}}, // words of a product name
			{"product:SQL", []string{idCloudSQL, idDB}},
			{"product:Pub/Sub", []string{idPubSub}},
			{"region:europe-west2", []string{idPubSub}},
			{"region:EUROPE-WEST2", []string{idPubSub}},
			{"region:europe", []string{idPubSub}},
			{"cause:\"software bug\"", []string{idPubSub}},
			{"title:streaming", []string{idBigQuery}},
			{"title:replication", []string{idDB}},
			{"body:metadata tier", []string{idBigQuery}},
			{"summary:\"metadata service\"", []string{idBigQuery}},
			{"Title:\"streaming inserts\"", []string{idBigQuery}},
			{"escalated", []string{idBigQuery}},
			{"timeline:\"tier scaled out\"", []string{idBigQuery}},
			{"body:escalated", []string{idBigQuery}}, // the timeline is part of the report
			{"body:sudden", nil},                     // the summary is not
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: "en"})
			got := ids(resp)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
			}
		}
	})
}

func TestFacetsAndFilters(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		// Everything: 32 incidents.
		all := search(t, ix, Request{Lang: "en"})
		if all.Total != 32 {
			t.Fatalf("empty query: total %d, want 32", all.Total)
		}
		for _, tc := range []struct {
			facet, term string
			want        int
		}{
			{FacetProduct, "Cloud Storage", 25},
			{FacetProduct, "Cloud SQL", 2},
			{FacetProduct, "Gmail", 1},
			{FacetRegion, "asia-east1", 2},
			{FacetRegion, "global", 2},
			{FacetCause, "Configuration change", 4},
			{FacetCause, "Capacity", 26},
			{FacetYear, "2016", 25},
			{FacetYear, "2019", 1},
			{FacetLang, "en", 30},
			{FacetLang, "zh-TW", 3},
			{FacetLang, "ja", 2},
		} {
			if got := facet(all, tc.facet, tc.term); got != tc.want {
				t.Errorf("facet %s %q = %d, want %d", tc.facet, tc.term, got, tc.want)
			}
		}
		for _, name := range []string{FacetProduct, FacetRegion, FacetCause, FacetLang} { // years: TestBrowseFacetOrder
			fc := all.Facets[name]
			if len(fc) == 0 {
				t.Errorf("facet %s missing", name)
			}
			if !slices.IsSortedFunc(fc, func(a, b FacetCount) int { return b.Count - a.Count }) {
				t.Errorf("facet %s not sorted by count: %v", name, fc)
			}
		}
		// Browsing lists newest first.
		if all.Results[0].ID != idTokyo || all.Results[1].ID != idDB {
			t.Errorf("empty query order: %v", ids(all)[:2])
		}

		for _, tc := range []struct {
			r    Request
			want []string
		}{
			{Request{Product: "Cloud SQL"}, []string{idCloudSQL, idDB}},
			{Request{Product: "cloud sql"}, []string{idCloudSQL, idDB}},
			{Request{Product: "SQL"}, nil}, // filters are exact
			{Request{Region: "europe-west2"}, []string{idPubSub}},
			{Request{Cause: "Configuration change", Year: 2022}, []string{idDB}},
			{Request{Year: 2017}, []string{idBigQuery}},
			{Request{Query: "balancer", Cause: "Configuration change"}, []string{idLB, idDB}},
			{Request{Query: "balancer", Cause: "Configuration change", Year: 2021}, []string{idLB}},
			// Plain words also match product, region and cause names.
			{Request{Query: "configuration"}, []string{idCloudSQL, idLB, idDB, idTokyo}},
			{Request{Query: "year:2019"}, []string{idGmail}},
			{Request{Query: "-year:2016 -lang:zh-TW -lang:en"}, []string{idPubSub, idTokyo}},
			{Request{Query: "lang:ja"}, []string{idPubSub, idTokyo}},
			{Request{Query: "lang:ja lang:zh-TW 配信"}, []string{idPubSub}},
			{Request{Query: "-storage -configuration -Gmail -overload"}, []string{idPubSub}},
			{Request{Query: "-storage -balancer -Gmail -overload"}, []string{idCloudSQL, idPubSub, idTokyo}},
			// Exclusion is per incident: the Japanese version of the Pub/Sub
			// incident does not say "publishers", the English one does.
			{Request{Query: "配信"}, []string{idPubSub}},
			{Request{Query: "配信 -publishers"}, nil},
			{Request{Query: "-\"message delivery\" lang:ja"}, []string{idTokyo}},
			{Request{Query: "storage -latency"}, nil},
			{Request{Query: "zzzz -Gmail"}, nil},
			{Request{Query: "load balancer", Product: "Cloud SQL"}, []string{idDB}},
			{Request{Query: "product:\"Cloud SQL\" -lang:zh-TW"}, []string{idDB}},
		} {
			resp := search(t, ix, tc.r)
			got := ids(resp)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%+v: %v, want %v", tc.r, got, tc.want)
			}
			if resp.Total != len(tc.want) {
				t.Errorf("%+v: total %d", tc.r, resp.Total)
			}
		}

		// Facets count incidents, not documents: the Gmail incident has
		// two matching documents but counts once.
		resp := search(t, ix, Request{Query: "Gmail OR Drive", Lang: "en"})
		_ = resp // "OR" is an ordinary word (an English stop word)
		resp = search(t, ix, Request{Query: "quota", Lang: "en"})
		if facet(resp, FacetProduct, "Gmail") != 1 || facet(resp, FacetYear, "2019") != 1 || resp.Total != 1 {
			t.Errorf("quota facets: %v total %d", resp.Facets, resp.Total)
		}
		// lang: decides the language shown when the reader's is excluded.
		resp = search(t, ix, Request{Query: "lang:zh-TW Gmail", Lang: "en"})
		if len(resp.Results) != 1 || resp.Results[0].Lang != "zh-TW" {
			t.Errorf("lang:zh-TW Gmail: %+v", resp.Results)
		}
	})
}

func TestPagination(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		var seen []string
		for page := 1; page <= 3; page++ {
			resp := search(t, ix, Request{Query: "storage latency", Lang: "en", Page: page, PerPage: 10})
			if resp.Total != 25 {
				t.Fatalf("page %d: total %d, want 25", page, resp.Total)
			}
			want := 10
			if page == 3 {
				want = 5
			}
			if len(resp.Results) != want {
				t.Fatalf("page %d: %d results, want %d", page, len(resp.Results), want)
			}
			for i, r := range resp.Results {
				if slices.Contains(seen, r.ID) {
					t.Errorf("page %d: %s repeated", page, r.ID)
				}
				seen = append(seen, r.ID)
				if i > 0 && r.Score > resp.Results[i-1].Score {
					t.Errorf("page %d not in score order", page)
				}
			}
		}
		// Pages put together equal one big page.
		big := search(t, ix, Request{Query: "storage latency", Lang: "en", PerPage: 30})
		if !slices.Equal(ids(big), seen) {
			t.Errorf("pages %v != one page %v", seen, ids(big))
		}
		// Past the last page: no results, same total.
		resp := search(t, ix, Request{Query: "storage latency", Lang: "en", Page: 4})
		if resp.Total != 25 || len(resp.Results) != 0 {
			t.Errorf("page 4: total %d, %d results", resp.Total, len(resp.Results))
		}
		// Defaults and caps.
		resp = search(t, ix, Request{Query: "storage", Page: -3, PerPage: 0})
		if len(resp.Results) != DefaultPerPage {
			t.Errorf("default page size: %d", len(resp.Results))
		}
		resp = search(t, ix, Request{PerPage: 1000})
		if len(resp.Results) != min(MaxPerPage, 32) {
			t.Errorf("capped page size: %d", len(resp.Results))
		}
		// Beyond the window.
		_, err := ix.Search(context.Background(), Request{Query: "storage", Page: MaxWindow/10 + 1, PerPage: 10})
		if !errors.Is(err, ErrBadQuery) {
			t.Errorf("page beyond window: %v", err)
		}
		if _, err := ix.Search(context.Background(), Request{Query: "storage", Page: MaxWindow / 10, PerPage: 10}); err != nil {
			t.Errorf("last page of window: %v", err)
		}
	})
}

func TestFragmentEscaping(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, q := range []string{"balancer injected", "script", "alert", "product:\"Cloud Load Balancing\""} {
			resp := search(t, ix, Request{Query: q, Lang: "en"})
			if len(resp.Results) != 1 || resp.Results[0].ID != idLB {
				t.Fatalf("%q: %v", q, ids(resp))
			}
			frags := resp.Results[0].Fragments
			if len(frags) == 0 {
				t.Fatalf("%q: no fragments", q)
			}
			joined := strings.Join(frags, "\n")
			bare := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(joined)
			if !strings.Contains(bare, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") {
				t.Errorf("%q: markup not escaped: %q", q, joined)
			}
			if strings.ContainsAny(bare, "<>") || strings.Contains(bare, "& ") {
				t.Errorf("%q: unescaped text in %q", q, joined)
			}
			if strings.HasPrefix(q, "product:") == strings.Contains(joined, "<mark>") {
				t.Errorf("%q: marks in %q", q, joined)
			}
		}
		// A match in the title only: the start of the summary, unmarked.
		resp := search(t, ix, Request{Query: "title:returned", Lang: "en"})
		if len(resp.Results) != 1 || len(resp.Results[0].Fragments) != 1 ||
			!strings.HasPrefix(resp.Results[0].Fragments[0], "A configuration change to the load balancer injected &lt;script&gt;") {
			t.Errorf("title:returned: %+v", resp.Results)
		}
		// A match in the timeline is highlighted there, in its event's
		// line.
		resp = search(t, ix, Request{Query: "escalated", Lang: "en"})
		if len(resp.Results) != 1 || !slices.Equal(resp.Results[0].Fragments, []string{"09:12 UTC: on-call engineer <mark>escalated</mark>."}) {
			t.Errorf("escalated: %+v", resp.Results)
		}
		// The title is plain text; escaping it is the template's job.
		resp = search(t, ix, Request{Query: "alert", Lang: "en"})
		if !strings.Contains(resp.Results[0].Fragments[0], "&lt;script&gt;<mark>alert</mark>(&#39;x&#39;)&lt;/script&gt;") {
			t.Errorf("alert: %q", resp.Results[0].Fragments)
		}
	})
}

func TestJunkQueries(t *testing.T) {
	t.Parallel()
	ix := buildDisk(t)
	junk := []string{
		`title:(`, `"`, `/`, `*`, `-`, `::`, `:`, `""`, `"""`, `-"`, `- -`, `+`, `title:`, `title:"`,
		`lang:`, `year:`, `year:abc`, `year:99999`, `lang:!!`, `lang:zz-ZZ-xxxxxxxxxxxx`, `product:`, `product:"`,
		`a:b:c`, `http://example.com/a?b=c&d`, `(((`, `)))`, `[]{}`, `\`, `\\"`, `*:*`, `foo*`, `fo?`, `~2`,
		`Gmail~`, `AND OR NOT`, `title:(a OR b)`, `^`, `%00`, "\x00", "\x00\x01\x02", "\xff\xfe\xfd",
		"\u200b", "\u202e", "\uFFFD", "𝕏𝕐ℤ", "🙂🙂🙂", "\u0301\u0301", "資", "“", "「資源", "‐−–—",
		strings.Repeat("a", 5000), strings.Repeat("資", 5000), strings.Repeat("a ", 2500),
		strings.Repeat("\"", 5000), strings.Repeat("-", 5000), strings.Repeat("title:", 800),
		strings.Repeat("資源", 100), strings.Repeat("x ", 30), strings.Repeat("資源", 40),
		strings.Repeat("/", 511), "Gmail " + strings.Repeat(" ", 600),
	}
	for _, q := range junk {
		for _, lang := range []string{"en", "zh-TW", "", "!!"} {
			resp, err := func() (resp *Response, err error) {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("query %.40q panicked: %v", q, p)
					}
				}()
				return ix.Search(context.Background(), Request{Query: q, Lang: lang})
			}()
			switch {
			case err == nil:
				if resp == nil || resp.Results == nil || resp.Facets == nil {
					t.Errorf("%.40q: incomplete response %+v", q, resp)
				}
			case errors.Is(err, ErrBadQuery):
				if len(err.Error()) > 300 {
					t.Errorf("%.40q: error message too long: %d bytes", q, len(err.Error()))
				}
			default:
				t.Errorf("%.40q: error %v is not ErrBadQuery", q, err)
			}
		}
	}
	// Some definite answers.
	for _, q := range []string{`title:(`, `"`, `/`, `*`, `-`, `::`, strings.Repeat("a", 5000), `year:abc`, strings.Repeat("x ", 30)} {
		if _, err := ix.Search(context.Background(), Request{Query: q}); !errors.Is(err, ErrBadQuery) {
			t.Errorf("%.40q: %v, want ErrBadQuery", q, err)
		}
	}
	for _, q := range []string{"foo*", "Gmail~", "http://example.com/a?b=c&d", "*Gmail*"} {
		if _, err := ix.Search(context.Background(), Request{Query: q}); err != nil {
			t.Errorf("%q: %v, want a plain search", q, err)
		}
	}
	if resp := search(t, ix, Request{Query: "*Gmail*"}); resp.Total != 1 {
		t.Errorf("*Gmail*: total %d", resp.Total)
	}
	// Bad filters.
	if _, err := ix.Search(context.Background(), Request{Year: -1}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("year -1: %v", err)
	}
}

func TestDeterminism(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, r := range []Request{
			{Query: "overloaded", Lang: "en"},
			{Query: "資源耗盡", Lang: "zh-TW"},
			{Query: "Gmail", Lang: "en"},
			{Query: "configuration change", Lang: "ja"},
			{Query: "storage latency", Lang: "en", Page: 2},
			{Query: "", Lang: "en"},
		} {
			var first string
			for i := range 40 {
				resp := search(t, ix, r)
				resp.TookMS = 0
				b, err := json.Marshal(resp)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = string(b)
					if resp.Total == 0 {
						t.Errorf("%q: no results", r.Query)
					}
				} else if string(b) != first {
					t.Fatalf("%q: answer %d differs:\n%s\n%s", r.Query, i, b, first)
				}
			}
		}
	})
	// A disk and a memory index built from the same documents agree.
	disk, mem := buildDisk(t), buildEditable(t)
	for _, q := range []string{"overloaded", "資源耗盡", "Gmail", "storage", ""} {
		a, b := search(t, disk, Request{Query: q, Lang: "en"}), search(t, mem, Request{Query: q, Lang: "en"})
		a.TookMS, b.TookMS = 0, 0
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%q: disk and memory differ:\n%s\n%s", q, ja, jb)
		}
	}
}

func TestBuildReopen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out", "search")
	w, err := build.Create(dir, []string{"en", "zh-tw", "ja"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fixtures() {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Add(fixtures()[0]); err == nil {
		t.Error("adding a document twice: no error")
	}
	if err := w.Add(Document{ID: "x", Lang: "not a tag"}); err == nil {
		t.Error("bad language: no error")
	}
	if err := w.Add(Document{Lang: "en"}); err == nil {
		t.Error("no id: no error")
	}
	// Not finished: Open refuses.
	if _, err := Open(dir); err == nil {
		t.Error("Open before Close: no error")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(fixtures()[0]); err == nil {
		t.Error("Add after Close: no error")
	}
	if _, err := build.Create(dir, []string{"en"}); err == nil {
		t.Error("Create over an existing directory: no error")
	}

	// Two read-only opens at once, as two server processes would.
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	start := time.Now()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second read-only open took %v", d)
	}
	if mj, err := schema.ReadMeta(dir); err != nil || !slices.Equal(mj.SiteLangs, []string{"en", "zh-TW", "ja"}) {
		t.Errorf("site languages: %v (%v)", mj, err)
	}
	if inc, docs := b.Count(); inc != 32 || docs != 35 {
		t.Errorf("Count: %d incidents, %d documents", inc, docs)
	}
	for _, ix := range []*Index{a, b} {
		resp := search(t, ix, Request{Query: "Gmail", Lang: "en"})
		if !slices.Equal(ids(resp), []string{idGmail}) || resp.Results[0].Lang != "en" || len(resp.Results[0].Fragments) == 0 {
			t.Errorf("reopened: %+v", resp.Results)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Search(context.Background(), Request{Query: "Gmail"}); err == nil {
		t.Error("Search after Close: no error")
	}
	// Concurrent searches on a shared index.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := []string{"Gmail", "資源耗盡", "storage", "overloaded"}[i%4]
			for range 10 {
				if _, err := a.Search(context.Background(), Request{Query: q, Lang: "en"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()

	// The built index is readable by others and has no leftovers.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"en", "ja", "meta.json", "zh-TW"}) {
		t.Errorf("index directory: %v", names)
	}
	info, err := os.Stat(filepath.Join(dir, "en"))
	if err != nil || info.Mode().Perm()&0o055 != 0o055 {
		t.Errorf("en directory mode: %v %v", info.Mode(), err)
	}
}

func TestEditableUpdates(t *testing.T) {
	t.Parallel()
	ix := editableOf(t, nil)
	if resp := search(t, ix, Request{Query: "Gmail"}); resp.Total != 0 {
		t.Fatalf("empty index: %d", resp.Total)
	}
	if err := ix.AddBatch(fixtures()); err != nil {
		t.Fatal(err)
	}
	if inc, docs := ix.Count(); inc != 32 || docs != 35 {
		t.Errorf("Count: %d, %d", inc, docs)
	}

	// Replace the English Gmail document.
	en := fixtures()[1]
	en.Title = "Gmail outage caused by a quota bug"
	en.Body = "A frobnicator failed."
	if err := ix.Add(en); err != nil {
		t.Fatal(err)
	}
	resp := search(t, ix, Request{Query: "frobnicator", Lang: "en"})
	if len(resp.Results) != 1 || resp.Results[0].Title != en.Title {
		t.Errorf("after update: %+v", resp.Results)
	}
	if resp := search(t, ix, Request{Query: "engineers restarted", Lang: "en"}); resp.Total != 0 {
		t.Errorf("old text still found: %v", ids(resp))
	}

	// Delete the English version: the incident is still found, in Chinese.
	if err := ix.Delete(idGmail, "en"); err != nil {
		t.Fatal(err)
	}
	resp = search(t, ix, Request{Query: "Gmail", Lang: "en"})
	if len(resp.Results) != 1 || resp.Results[0].Lang != "zh-TW" {
		t.Errorf("after deleting en: %+v", resp.Results)
	}
	if resp := search(t, ix, Request{Query: "frobnicator"}); resp.Total != 0 {
		t.Errorf("deleted document still found")
	}
	// Delete all languages.
	if err := ix.Delete(idGmail, ""); err != nil {
		t.Fatal(err)
	}
	if resp := search(t, ix, Request{Query: "Gmail"}); resp.Total != 0 {
		t.Errorf("deleted incident still found: %v", ids(resp))
	}
	if err := ix.Delete("no-such-incident", "en"); err != nil {
		t.Errorf("deleting nothing: %v", err)
	}
	// A language the index did not start with.
	fr := Document{ID: "2024-01-01-panne", Lang: "fr", OriginalLang: "fr", Title: "Panne du réseau",
		Summary: "Le réseau était indisponible.", Begin: day("2024-01-01"), URL: "/fr/incidents/2024-01-01-panne/"}
	if err := ix.Add(fr); err != nil {
		t.Fatal(err)
	}
	resp = search(t, ix, Request{Query: "réseau", Lang: "en"})
	if len(resp.Results) != 1 || resp.Results[0].Lang != "fr" || resp.Results[0].Date != "2024-01-01" {
		t.Errorf("fr: %+v", resp.Results)
	}
	if inc, docs := ix.Count(); inc != 32 || docs != 34 {
		t.Errorf("Count: %d, %d", inc, docs)
	}

	// Updates while searching.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 20 {
			d := fixtures()[2]
			d.Body = strings.Repeat("overload ", i+1)
			if err := ix.Add(d); err != nil {
				t.Error(err)
			}
		}
	}()
	for range 20 {
		if _, err := ix.Search(context.Background(), Request{Query: "overload"}); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
}

func TestContext(t *testing.T) {
	t.Parallel()
	ix := buildDisk(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Search(ctx, Request{Query: "storage"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := ix.Search(ctx, Request{Query: "storage"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}

func TestResponseJSON(t *testing.T) {
	t.Parallel()
	ix := buildDisk(t)
	resp := search(t, ix, Request{Query: "Gmail", Lang: "en"})
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"query", "total", "took_ms", "results", "facets"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	r := m["results"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "lang", "title", "url", "date", "products", "fragments", "score"} {
		if _, ok := r[k]; !ok {
			t.Errorf("result has no %q: %v", k, r)
		}
	}
	f := m["facets"].(map[string]any)
	for _, k := range []string{"product", "region", "cause", "year", "lang"} {
		if _, ok := f[k].([]any); !ok {
			t.Errorf("facet %q missing or null: %v", k, f)
		}
	}
	// No results: empty arrays, not null.
	resp = search(t, ix, Request{Query: "zzzzzz"})
	b, _ = json.Marshal(resp)
	if strings.Contains(string(b), "null") {
		t.Errorf("null in %s", b)
	}
}

func TestEmptyIndex(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "search")
	w, err := build.Create(dir, []string{"en"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, q := range []string{"", "Gmail", "-Gmail", "lang:en"} {
		resp := search(t, ix, Request{Query: q})
		if resp.Total != 0 || len(resp.Results) != 0 || len(resp.Facets) != 8 {
			t.Errorf("%q on an empty index: %+v", q, resp)
		}
	}
	if _, err := build.Create(filepath.Join(t.TempDir(), "x"), []string{"en", "!!"}); err == nil {
		t.Error("Create with a bad language: no error")
	}
}

// collectAll drives bleve's searcher itself; it must find exactly what
// bleve's own search finds, with the same scores.
func TestCollectAllMatchesBleve(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, s Searcher) {
		ix := engineOf(s)
		for _, q := range []string{"overloaded", "資源耗盡", "Gmail", "storage latency", `"overload of the metadata"`,
			"product:SQL -lang:ja", "-storage", "configuration change", ""} {
			p, err := query.Parse(q)
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range sortedKeys(ix.subs) {
				idx := ix.subs[lang]
				b, err := newLangBuilder(lang, idx.Mapping())
				if err != nil {
					t.Fatal(err)
				}
				queries, err := b.build(p, filters{}, nil, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if queries.match == nil {
					continue
				}
				ctx := scoringContext(context.Background(), ix.bm25[lang])
				got, err := collectAll(ctx, idx, queries.match, true)
				if err != nil {
					t.Fatal(err)
				}
				res, err := idx.SearchInContext(ctx, bleve.NewSearchRequestOptions(queries.match, 1000, 0, false))
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]float64{}
				for _, h := range res.Hits {
					want[h.ID] = h.Score
				}
				if len(got) != len(want) || int(res.Total) != len(want) {
					t.Errorf("%q (%s): %d hits, bleve %d", q, lang, len(got), len(want))
				}
				for id, s := range want {
					if g, ok := got[id]; !ok || math.Abs(g-s) > 1e-12 {
						t.Errorf("%q (%s): %s score %v, bleve %v", q, lang, id, g, s)
					}
				}
			}
		}
	})
}

// collectAll returns the id and score of every document matching q (up to
// MaxHitsPerLanguage), phrases in long fields unchecked. Search does the
// same by incident number (langSearch.hits).
func collectAll(ctx context.Context, idx bleve.Index, q blevequery.Query, score bool) (map[string]float64, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	opts := blevesearch.SearcherOptions{}
	if !score {
		opts.Score = "none"
	}
	s, err := q.Searcher(ctx, r, idx.Mapping(), opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &blevesearch.SearchContext{
		DocumentMatchPool: blevesearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0),
		IndexReader:       r,
	}
	hits := map[string]float64{}
	for n := 0; n < MaxHitsPerLanguage; n++ {
		dm, err := s.Next(sctx)
		if err != nil {
			return nil, err
		}
		if dm == nil {
			break
		}
		id, err := r.ExternalID(dm.IndexInternalID)
		if err != nil {
			return nil, err
		}
		hits[id] = dm.Score
		sctx.DocumentMatchPool.Put(dm)
	}
	return hits, nil
}

// A single Chinese or Japanese character finds the words that hold it,
// at their start, middle or end, and only the character is marked.
func TestSingleCJKCharacter(t *testing.T) {
	t.Parallel()
	eachIndex(t, func(t *testing.T, ix Searcher) {
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"耗", []string{idCloudSQL, idGmail}}, // 耗盡: first of a bigram
			{"盡", []string{idCloudSQL, idGmail}}, // 耗盡: last of a run
			{"額", []string{idGmail}},             // 配額
			{"障", []string{idTokyo}},             // only in Japanese text: 障害
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: "zh-TW", PerPage: MaxPerPage})
			got := ids(resp)
			slices.Sort(got)
			for _, id := range tc.want {
				if !slices.Contains(got, id) {
					t.Errorf("%q: %v lacks %s", tc.q, got, id)
				}
			}
		}
		resp := search(t, ix, Request{Query: "額", Lang: "zh-TW"})
		if len(resp.Results) == 0 || !strings.Contains(strings.Join(resp.Results[0].Fragments, " "), "配<mark>額</mark>") {
			t.Errorf("額: fragments %+v", resp.Results)
		}
	})
}
