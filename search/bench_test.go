package search

// Benchmarks over a generated archive. Size with
//
//	go test -run '^$' -bench . ./search -search.incidents=10000
//
// or SEARCH_BENCH_INCIDENTS=10000; the default (200) runs in seconds;
// -search.kind=phrase runs only the queries of one kind.
// Incidents are 70% English and 30% Traditional Chinese originals; half of
// them also have a translation into the other language.
//
// -search.docs=file.gob benchmarks a []Document saved with encoding/gob
// instead (the documents of a real or generated site, as
// internal/build.Documents makes them); -search.dir=dir makes
// BenchmarkQuery use (and first build) the index in dir, so that repeated
// runs skip the build. BenchmarkIndexBuild reports the index size per
// document and against the text (index/text), the allocations, and the
// peak growth of the heap during the build: of its objects, live or not
// yet collected (peak-heap-MB, which includes the garbage the collector
// lets accumulate in proportion to everything live, the benchmark's own
// documents included) and of the live heap (peak-live-MB, what the build
// holds).

import (
	"bufio"
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"github.com/postmortem-archive/gen/search/build"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	benchIncidents = flag.Int("search.incidents", envInt("SEARCH_BENCH_INCIDENTS", 200),
		"number of generated incidents for the search benchmarks")
	benchDocs = flag.String("search.docs", "",
		"gob file of []Document to benchmark with instead of the generated archive")
	benchKind = flag.String("search.kind", "", "BenchmarkQuery: only the queries of this kind")
	benchDir  = flag.String("search.dir", "",
		"BenchmarkQuery: index directory to use, built there first if it does not exist")
)

// benchArchive returns the documents of the benchmarks.
func benchArchive(tb testing.TB) []Document {
	if *benchDocs == "" {
		return genArchive(*benchIncidents)
	}
	f, err := os.Open(*benchDocs)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var docs []Document
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&docs); err != nil {
		tb.Fatal(err)
	}
	return docs
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var (
	genProducts = []string{"Cloud Pub/Sub", "Cloud SQL", "BigQuery", "Gmail", "Google Drive", "Compute Engine",
		"Cloud Storage", "Cloud Load Balancing", "Kubernetes Engine", "Cloud DNS", "Cloud Spanner", "Cloud Functions",
		"App Engine", "Cloud Run", "Memorystore", "Cloud Logging", "Cloud Monitoring", "Identity and Access Management",
		"Cloud Networking", "Cloud Bigtable", "Dataflow", "Dataproc", "Cloud Build", "Artifact Registry",
		"Cloud Armor", "Cloud CDN", "Cloud Interconnect", "Vertex AI", "Firestore", "Cloud Tasks"}
	genRegions = []string{"us-central1", "us-east1", "us-east-1", "us-west1", "us-west2", "europe-west1", "europe-west2",
		"europe-west3", "europe-west4", "europe-north1", "asia-east1", "asia-east2", "asia-northeast1",
		"asia-northeast2", "asia-south1", "asia-southeast1", "australia-southeast1", "southamerica-east1",
		"northamerica-northeast1", "global"}
	genCauses = []string{"Configuration change", "Software bug", "Capacity", "Resource exhaustion", "Network failure",
		"Power failure", "Dependency failure", "Certificate expiry", "Operator error", "Hardware failure"}

	enSubjects = []string{"the control plane", "a metadata server", "the quota system", "an internal load balancer",
		"the replication pipeline", "a storage backend", "the authentication service", "a routing table",
		"the scheduler", "the monitoring pipeline", "a front-end server", "the configuration service",
		"a database primary", "the message queue", "a network switch", "the deployment system"}
	enVerbs = []string{"was overloaded", "exhausted its memory", "returned errors", "stopped responding",
		"dropped connections", "rejected requests", "became unavailable", "restarted repeatedly",
		"served stale data", "leaked file descriptors", "throttled traffic", "timed out",
		"failed over", "lost quorum", "overloads under peak traffic", "retried aggressively"}
	enObjects = []string{"for several regions", "after a rollout", "during peak traffic", "for a subset of customers",
		"until engineers intervened", "while the change was rolled back", "for about two hours",
		"because of a misconfiguration", "after a certificate expired", "during a maintenance window",
		"when a dependency failed", "despite automatic mitigation"}
	enExtra = []string{"Engineers", "The on-call team", "Automation", "The incident commander", "Site reliability engineers"}
	enActs  = []string{"rolled back the release", "added capacity", "drained the affected zone", "restarted the servers",
		"disabled the feature flag", "rerouted traffic", "increased the quota", "fixed the configuration",
		"replaced the faulty hardware", "paused the deployment"}

	zhSubjects = []string{"控制平面", "中繼資料伺服器", "配額系統", "內部負載平衡器", "複寫管線", "儲存後端", "驗證服務",
		"路由表", "排程器", "監控管線", "前端伺服器", "設定服務", "主要資料庫", "訊息佇列", "網路交換器", "部署系統"}
	zhVerbs = []string{"資源耗盡", "回傳錯誤", "停止回應", "中斷連線", "拒絕請求", "無法使用", "反覆重新啟動", "提供過期資料",
		"記憶體不足", "流量遭到限制", "逾時", "進行容錯移轉", "失去仲裁", "過載"}
	zhObjects = []string{"影響多個區域", "在推出新版本之後", "在尖峰流量期間", "影響部分客戶", "直到工程師介入",
		"在變更回復期間", "持續約兩小時", "由於設定錯誤", "在憑證過期之後", "在維護期間", "在相依服務失敗時"}
	zhActs = []string{"回復了版本", "增加了容量", "排除了受影響的區域", "重新啟動了伺服器", "停用了功能旗標",
		"重新導向流量", "提高了配額", "修正了設定", "更換了故障硬體", "暫停了部署"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func pickN[T comparable](r *rand.Rand, xs []T, n int) []T {
	var out []T
	for len(out) < n {
		if x := pick(r, xs); !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func enSentence(r *rand.Rand, product string) string {
	if r.IntN(3) == 0 {
		return fmt.Sprintf("%s %s.", pick(r, enExtra), pick(r, enActs))
	}
	s := fmt.Sprintf("In %s, %s %s %s.", product, pick(r, enSubjects), pick(r, enVerbs), pick(r, enObjects))
	return strings.ToUpper(s[:1]) + s[1:]
}

func zhSentence(r *rand.Rand, product string) string {
	if r.IntN(3) == 0 {
		return "工程師" + pick(r, zhActs) + "。"
	}
	return product + " 的" + pick(r, zhSubjects) + pick(r, zhObjects) + pick(r, zhVerbs) + "。"
}

// genArchive generates n incidents deterministically (same n, same
// documents), as Documents in one or two languages each.
func genArchive(n int) []Document {
	r := rand.New(rand.NewPCG(2017, uint64(n)))
	start := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC)
	var docs []Document
	for i := range n {
		products := pickN(r, genProducts, 1+r.IntN(3))
		regions := pickN(r, genRegions, 1+r.IntN(2))
		causes := []string{pick(r, genCauses)}
		begin := start.Add(time.Duration(r.IntN(12*365*24)) * time.Hour)
		id := fmt.Sprintf("%s-incident-%05d", begin.Format(time.DateOnly), i)
		orig := "en"
		if r.IntN(10) < 3 {
			orig = "zh-TW"
		}
		langs := []string{orig}
		if r.IntN(2) == 0 {
			langs = append(langs, map[string]string{"en": "zh-TW", "zh-TW": "en"}[orig])
		}
		sentences := 20 + r.IntN(30)
		for _, lang := range langs {
			sent, title := enSentence, fmt.Sprintf("%s incident in %s: %s %s", products[0], regions[0], pick(r, enSubjects), pick(r, enVerbs))
			if lang == "zh-TW" {
				sent, title = zhSentence, fmt.Sprintf("%s 於 %s 發生事故：%s%s", products[0], regions[0], pick(r, zhSubjects), pick(r, zhVerbs))
			}
			var body, timeline strings.Builder
			for s := range sentences {
				body.WriteString(sent(r, pick(r, products)))
				if s%5 == 4 {
					body.WriteString("\n\n")
				} else {
					body.WriteString(" ")
				}
			}
			// Reports list the regions affected; Chinese ones with
			// full-width commas (us-east1，europe-west2), as translators
			// write them.
			if lang == "zh-TW" {
				fmt.Fprintf(&body, "\n\n受影響的區域：%s。", strings.Join(regions, "，"))
			} else {
				fmt.Fprintf(&body, "\n\nRegions affected: %s.", strings.Join(regions, ", "))
			}
			for s := range 4 + r.IntN(5) {
				fmt.Fprintf(&timeline, "%02d:%02d UTC %s\n", (begin.Hour()+s)%24, r.IntN(60), sent(r, products[0]))
			}
			docs = append(docs, Document{
				ID: id, Lang: lang, OriginalLang: orig,
				Title:    title,
				Summary:  sent(r, products[0]) + " " + sent(r, products[0]),
				Body:     body.String(),
				Timeline: timeline.String(),
				Products: products, Regions: regions, Causes: causes,
				Begin:    begin,
				Duration: time.Duration(5+r.IntN(600)) * time.Minute,
				URL:      "/" + lang + "/incidents/" + id + "/",
			})
		}
	}
	return docs
}

func buildArchive(tb testing.TB, dir string, docs []Document) {
	w, err := build.Create(dir, []string{"en", "zh-TW"})
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range docs {
		if err := w.Add(d); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// heapPeak samples the heap every millisecond until stop is called, which
// returns the highest growth over the level at the start of the bytes of
// heap objects (live and not yet swept: what the process holds) and of the
// live heap (as of the last garbage collection: what the code needs).
func heapPeak() (stop func() (objects, live uint64)) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() (uint64, uint64) {
		metrics.Read(sample)
		return sample[0].Value.Uint64(), sample[1].Value.Uint64()
	}
	runtime.GC()
	base0, base1 := read()
	var peak0, peak1 uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			a, b := read()
			peak0, peak1 = max(peak0, a), max(peak1, b)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return max(peak0, base0) - base0, max(peak1, base1) - base1
	}
}

// textBytes is the size of the text the index is built from (what a
// reader could download instead of the index).
func textBytes(docs []Document) int {
	n := 0
	for _, d := range docs {
		n += len(d.Title) + len(d.Summary) + len(d.Impact) + len(d.RootCause) + len(d.Body) + len(d.Timeline)
		for _, v := range [][]string{d.Products, d.Regions, d.Causes} {
			for _, s := range v {
				n += len(s)
			}
		}
	}
	return n
}

func BenchmarkIndexBuild(b *testing.B) {
	docs := benchArchive(b)
	bytes := textBytes(docs)
	root := b.TempDir()
	var size int64
	var peak, live, alloc uint64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		dir := filepath.Join(root, strconv.Itoa(i))
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		stop := heapPeak()
		buildArchive(b, dir, docs)
		p, l := stop()
		peak, live = max(peak, p), max(live, l)
		runtime.ReadMemStats(&ms1)
		alloc += ms1.TotalAlloc - ms0.TotalAlloc
		b.StopTimer()
		size = dirSize(dir)
		os.RemoveAll(dir)
		b.StartTimer()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(len(docs))/sec, "docs/s")
	b.ReportMetric(float64(size)/float64(len(docs)), "index-bytes/doc")
	b.ReportMetric(float64(bytes)/float64(len(docs)), "text-bytes/doc")
	b.ReportMetric(float64(size)/float64(bytes), "index/text")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
	b.ReportMetric(float64(alloc)/float64(b.N)/(1<<20), "alloc-MB/op")
}

// BenchmarkEdit replaces one document at a time in a built index opened
// WithUpdates, the way the authoring server follows edits.
func BenchmarkEdit(b *testing.B) {
	docs := benchArchive(b)
	ix, err := OpenEditable(buildDir(b, docs))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	i := 0
	for b.Loop() {
		id := docs[i%len(docs)].ID
		edited := documentsOf(docs, id)
		for j := range edited {
			edited[j].Body += " Edited."
		}
		if err := ix.Replace(map[string]bool{id: true}, edited); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// benchQueries are the kinds of query readers type, each with a name
// BenchmarkQuery reports its latency under.
var benchQueries = []struct {
	kind string
	req  Request
}{
	{"word", Request{Query: "overloaded", Lang: "en"}},
	{"words", Request{Query: "quota exhausted memory", Lang: "en"}},
	{"phrase", Request{Query: `"rolled back the release"`, Lang: "en"}},
	{"cjk-word", Request{Query: "資源耗盡", Lang: "zh-TW"}},
	{"cjk-word", Request{Query: "配額", Lang: "zh-TW"}},
	{"cjk-exclude", Request{Query: "負載平衡器 -逾時", Lang: "zh-TW"}},
	{"cjk-char", Request{Query: "耗", Lang: "zh-TW"}},
	{"simplified", Request{Query: "负载均衡器", Lang: "zh-TW"}},
	{"names", Request{Query: "Pub/Sub europe-west2", Lang: "en"}},
	{"name", Request{Query: "Pub/Sub", Lang: "en"}},
	{"name", Request{Query: "europe-west2", Lang: "en"}},
	{"name", Request{Query: "us-east-1", Lang: "en"}},
	{"name-prefix", Request{Query: "europe-w", Lang: "en"}},
	{"name-prefix", Request{Query: "Pub/S", Lang: "en"}},
	{"facet", Request{Query: "product:\"Cloud SQL\" timed out", Lang: "en"}},
	{"year-page", Request{Query: "timed out", Lang: "en", Year: 2015, Page: 2}},
	{"browse", Request{Query: "", Lang: "en", Region: "asia-east1"}},
	{"browse-sort", Request{Query: "", Lang: "en", Sort: SortDuration, Cause: "Capacity"}},
	{"page", Request{Query: "server", Lang: "en", Page: 5}},
	{"prefix", Request{Query: "overl", Lang: "en"}},
	{"prefix", Request{Query: "rollout conf", Lang: "en"}},
	{"typo", Request{Query: "overlaoded", Lang: "en"}},
	{"typo", Request{Query: "certificat expird", Lang: "en"}},
	{"filter", Request{Query: "the control plane", Lang: "zh-TW", Cause: "Software bug"}},
}

func BenchmarkQuery(b *testing.B) {
	dir := *benchDir
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "search")
	}
	if _, err := os.Stat(dir); err != nil {
		buildArchive(b, dir, benchArchive(b))
	}
	ix, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	var took, cpu []time.Duration
	byKind := map[string][]time.Duration{}
	i := 0
	gc := gcStats()
	for b.Loop() {
		q := benchQueries[i%len(benchQueries)]
		i++
		if *benchKind != "" && q.kind != *benchKind {
			continue
		}
		c0, t0 := cpuTime(b), time.Now()
		if _, err := ix.Search(ctx, q.req); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t0)
		took = append(took, d)
		c := cpuTime(b) - c0
		cpu = append(cpu, c)
		byKind[q.kind] = append(byKind[q.kind], c)
	}
	b.ReportMetric(quantileMS(took, 0.50), "p50-ms")
	b.ReportMetric(quantileMS(took, 0.95), "p95-ms")
	b.ReportMetric(quantileMS(took, 0.99), "p99-ms")
	// The process's CPU time during a query (all its threads, the
	// collector's too): what it costs, whatever else shares the machine.
	b.ReportMetric(quantileMS(cpu, 0.50), "cpu-p50-ms")
	b.ReportMetric(quantileMS(cpu, 0.99), "cpu-p99-ms")
	for kind, ds := range byKind {
		b.ReportMetric(quantileMS(ds, 0.50), kind+"-cpu-p50-ms")
		b.ReportMetric(quantileMS(ds, 0.99), kind+"-cpu-p99-ms")
	}
	_, n := ix.Count()
	b.ReportMetric(float64(n), "docs")
	gc.report(b, len(took))
}

// gcSample reads the collector's work so far: a cycle during a query
// is charged to it, and makes the p99.
type gcSample []metrics.Sample

func gcStats() gcSample {
	s := gcSample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return s
}

// report reports the cycles per thousand queries since s, their CPU
// each, and the heap a cycle scanned last.
func (s gcSample) report(b *testing.B, queries int) {
	now := gcStats()
	cycles := float64(now[0].Value.Uint64() - s[0].Value.Uint64())
	b.ReportMetric(cycles*1000/float64(max(queries, 1)), "gc/1000q")
	if cycles > 0 {
		b.ReportMetric((now[1].Value.Float64()-s[1].Value.Float64())*1000/cycles, "gc-cpu-ms/gc")
	}
	b.ReportMetric(float64(now[2].Value.Uint64())/(1<<20), "gc-scan-MB")
}

// quantileMS returns the q quantile of ds in milliseconds.
func quantileMS(ds []time.Duration, q float64) float64 {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000
}
