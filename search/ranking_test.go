package search

import (
	"fmt"
	"strings"
	"testing"
)

// longReport is the body of a full postmortem: impact and root cause
// among several hundred words of detection, remediation and follow-up.
func longReport(impact, cause string) string {
	var b strings.Builder
	b.WriteString("Impact\n" + impact + "\nRoot cause\n" + cause + "\nDetection\n")
	for i := range 12 {
		fmt.Fprintf(&b, "Monitoring in zone %d showed elevated error ratios on the order processing tier; "+
			"on-call engineers followed the runbook, drained traffic from the affected hosts and compared "+
			"the configuration of the fleet against the last known good release before escalating. ", i)
	}
	b.WriteString("\nRemediation\nWe added alerts, extended the canary period and reviewed the runbooks with every team involved.")
	return b.String()
}

// rankingDocs: one incident about a missing database index, told in its
// root cause; another that mentions an index once, in
// passing, in one item of its timeline.
func rankingDocs() []Document {
	about := doc("2023-05-02-orders-missing-index", "en", "en",
		"Order lookups timed out for two hours",
		"Order history pages timed out for two hours after a schema migration.",
		longReport("Customers could not load their order history for two hours; checkout was not affected.",
			"A schema migration recreated the orders table without its index on customer id, so every lookup scanned the whole table."),
		"2023-05-02", []string{"Orders"}, nil, nil)
	about.Timeline = strings.Join([]string{"09:00 Migration starts.", "09:20 Lookup latency alert fires.", "10:10 Migration identified as the trigger.", "11:05 Recreated the missing structure; lookups recover."}, "\n")
	passing := doc("2023-07-19-cdn-purge-delay", "en", "en",
		"Stale pages served after a CDN purge was delayed",
		"Purges to the CDN were delayed for an hour, so edits to product pages did not appear.",
		longReport("Edits to product pages took up to an hour to appear for visitors.",
			"The purge queue consumer crashed on a malformed request and was not restarted."),
		"2023-07-19", []string{"CDN"}, nil, nil)
	passing.Timeline = strings.Join([]string{"14:00 Purge latency rises.", "14:12 Engineers rule out the search index.", "14:30 Consumer restarted.", "15:00 Queue drained."}, "\n")
	return []Document{about, passing}
}

// A match in the root cause outranks a passing mention in
// one timeline item.
func TestPassingMentionRanksLower(t *testing.T) {
	t.Parallel()
	docs := rankingDocs()
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, q := range []string{"index", "indexes", "indexed"} {
			resp := search(t, ix, Request{Query: q})
			if got := ids(resp); len(got) != 2 || got[0] != docs[0].ID {
				t.Errorf("%s: %q ranks %v (scores %v), want %s first", name, q, got, scores(resp), docs[0].ID)
			}
		}
	}
}

func scores(resp *Response) []float64 {
	var out []float64
	for _, r := range resp.Results {
		out = append(out, r.Score)
	}
	return out
}

// aboutDocs: an incident about throttling (in its title and summary,
// with a long report that never says the word again), one that mentions
// it once in one timeline item, one whose timeline says it many times
// and nothing else does, and one whose short body says it many times.
func aboutDocs() []Document {
	timeline := func(items ...string) string { return strings.Join(items, "\n") }
	about := doc("2024-04-02-api-throttling", "en", "en",
		"API requests throttled for an hour",
		"A quota change throttled API requests from most customers for an hour.",
		longReport("Most customers saw errors from the public API for an hour.", "A quota change was rolled out to every region at once."),
		"2024-04-02", []string{"API"}, nil, nil)
	about.Timeline = timeline("10:00 Quota change rolled out.", "10:05 Error alerts fire.", "11:00 Change reverted.")
	once := doc("2024-05-14-storage-latency", "en", "en",
		"Storage latency in one zone",
		"Reads from block storage were slow in one zone for two hours.",
		longReport("Virtual machines in one zone saw slow disk reads.", "A failing switch dropped packets between storage nodes."),
		"2024-05-14", []string{"Block storage"}, nil, nil)
	once.Timeline = timeline("08:00 Latency rises.", "08:20 Engineers rule out throttled clients.", "09:10 Switch drained.", "10:00 Latency recovers.")
	many := doc("2024-06-20-batch-delays", "en", "en",
		"Batch jobs delayed",
		"Batch jobs started late for three hours.",
		longReport("Nightly batch jobs finished hours late.", "The scheduler lost its lease and restarted in a loop."),
		"2024-06-20", []string{"Batch"}, nil, nil)
	many.Timeline = timeline("01:00 Queue throttled.", "01:30 Queue still throttled.", "02:00 Throttled workers restarted.",
		"02:30 Queue throttled again.", "03:00 Throttled queue drained.", "04:00 Jobs recover.")
	// A short report that says the word in every paragraph, but not in
	// its title or summary.
	body := doc("2024-07-03-queue-backlog", "en", "en",
		"Queue backlog in the EU",
		"Messages in the EU queue were delivered late for two hours.",
		"Impact\nConsumers were throttled and messages were delivered late; throttled consumers retried.\n"+
			"Root cause\nA limit change throttled every consumer, and throttled consumers backed off for minutes.\n"+
			"Remediation\nThrottled consumers now back off for seconds; we alert when consumers are throttled.",
		"2024-07-03", []string{"Queue"}, nil, nil)
	body.Timeline = timeline("09:00 Backlog grows.", "11:00 Backlog drained.")
	return []Document{about, once, many, body}
}

// An incident with the word in its title and summary outranks one that
// mentions it once in its timeline, one whose timeline says it many times
// and nothing else does, and one whose body repeats it (BM25: a word's
// weight saturates as it repeats).
func TestAboutRanksAboveMentions(t *testing.T) {
	t.Parallel()
	docs := aboutDocs()
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, q := range []string{"throttled", "throttling", "throttle"} {
			resp := search(t, ix, Request{Query: q})
			if got := ids(resp); len(got) != 4 || got[0] != docs[0].ID {
				t.Errorf("%s: %q ranks %v (scores %v), want %s first", name, q, got, scores(resp), docs[0].ID)
			}
		}
	}
}

// The sections of a report weigh apart: a word in the impact or the root
// cause outranks the same word once in the rest of the report
// (remediation, follow-up), and body: searches every part of the report.
// The incident with the word in the rest has the smallest id, first
// among equals, so that it is last only by weight.
func TestSectionWeights(t *testing.T) {
	t.Parallel()
	filler := "The on-call team followed the runbook and drained traffic from the affected hosts."
	report := func(id, impact, rootCause, rest string) Document {
		d := doc(id, "en", "en", "Checkout errors", "Checkout failed for some customers.", rest, id[:10], []string{"Checkout"}, nil, nil)
		d.Impact, d.RootCause = impact, rootCause
		return d
	}
	inImpact := report("2024-01-02-impact", "Customers saw stale carts. "+filler, filler, "We added alerts. "+filler)
	inCause := report("2024-01-03-cause", filler, "A cache served stale carts. "+filler, "We added alerts. "+filler)
	inRest := report("2024-01-01-rest", filler, filler, "We now alert on stale carts. "+filler)
	docs := []Document{inRest, inImpact, inCause}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		resp := search(t, ix, Request{Query: "stale"})
		if got := ids(resp); len(got) != 3 || got[2] != inRest.ID {
			t.Errorf("%s: stale ranks %v (scores %v), want %s last", name, got, scores(resp), inRest.ID)
		}
		for _, r := range resp.Results {
			if len(r.Fragments) == 0 || !strings.Contains(strings.Join(r.Fragments, " "), "<mark>stale</mark>") {
				t.Errorf("%s: %s has fragments %q, want stale marked", name, r.ID, r.Fragments)
			}
		}
		for q, want := range map[string]int{"body:stale": 3, "body:cache": 1, "body:customers": 1, "body:runbook": 3} {
			if got := search(t, ix, Request{Query: q}).Total; got != want {
				t.Errorf("%s: %s finds %d, want %d", name, q, got, want)
			}
		}
	}
}

// formsDocs: a short report about the word in its title (an expired
// certificate, 憑證過期; thermal shutdown), and a long one that never
// says it in its title but whose report has many different forms of it:
// 憑 after thirty different characters (the bigrams of 憑), and words
// that begin with therm.
func formsDocs() []Document {
	about := doc("2024-12-19-api-certificate", "zh-TW", "zh-TW",
		"API 憑證過期，主控台無法連線",
		"公開 API 端點的 TLS 憑證過期，主控台與命令列工具無法連線。",
		"值班工程師手動部署新憑證後恢復連線。",
		"2024-12-19", []string{"API"}, nil, nil)
	var body strings.Builder
	for _, c := range "的使了在與後對為由是當新有週個於仍再將從向把被讓給及或而但並且" {
		body.WriteString("工程師發現" + string(c) + "憑證管理服務的佇列變長。")
	}
	long := doc("2024-10-20-queue-stale-reads", "zh-TW", "zh-TW",
		"佇列讀取到過時資料",
		"佇列服務讀取到過時資料兩小時。",
		body.String(),
		"2024-10-20", []string{"Queue"}, nil, nil)
	thermal := doc("2024-07-22-thermal-shutdown", "en", "en",
		"Thermal shutdown of servers in one hall",
		"Servers shut down when the hall overheated.",
		longReport("Virtual machines in one hall stopped.", "Two chillers failed on a hot day."),
		"2024-07-22", []string{"Compute"}, nil, nil)
	forms := doc("2024-02-26-sensor-readings", "en", "en",
		"Stale sensor readings in the monitoring pipeline",
		"Dashboards showed stale readings for an hour.",
		longReport("Dashboards lagged by an hour.", "The thermometer, thermostat, thermocouple, thermistor, thermograph, "+
			"thermopile and thermoscope feeds were batched behind a slow consumer."),
		"2024-02-26", []string{"Monitoring"}, nil, nil)
	return []Document{about, long, thermal, forms}
}

// The forms of one word typed (a CJK character's bigrams, the words a
// prefix begins) count as one word: a report that has many different
// forms once each does not outrank one about the word.
func TestFormsCountOnce(t *testing.T) {
	t.Parallel()
	docs := formsDocs()
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for q, want := range map[string]string{"憑": docs[0].ID, "therm": docs[2].ID} {
			resp := search(t, ix, Request{Query: q})
			if got := ids(resp); len(got) != 2 || got[0] != want {
				t.Errorf("%s: %q ranks %v (scores %v), want %s first", name, q, got, scores(resp), want)
			}
		}
	}
}

// A single CJK character weighs as rare as the character, whichever of
// its bigrams a report has: a report whose title says 決 once, in a rare
// bigram (解決, "resolved"), does not outrank one whose title says it
// twice in the bigram nearly every report of the index has (決済,
// payment); weighed by its own rarity, the rare bigram counted 60 times
// the common one.
func TestCharacterWeighsAsOneWord(t *testing.T) {
	t.Parallel()
	var docs []Document
	docs = append(docs, doc("2023-12-29-payment-timeouts", "ja", "ja",
		"決済の遅延、決済のエラー", "年末に一部の処理がタイムアウトしました。",
		"処理が遅れ、加盟店の画面でエラーが出ました。", "2023-12-29", []string{"API"}, nil, nil))
	docs = append(docs, doc("2023-04-19-config-push", "ja", "ja",
		"設定の障害を手動で解決", "ロードバランサーの設定の配信が失敗しました。",
		"設定を戻して障害が終わりました。", "2023-04-19", []string{"LB"}, nil, nil))
	for i := range 5 {
		docs = append(docs, doc(fmt.Sprintf("2022-0%d-01-batch", i+1), "ja", "ja",
			"決済の精算バッチの遅延", "夜間の精算バッチが遅れました。",
			"入金が遅れました。", fmt.Sprintf("2022-0%d-01", i+1), []string{"Batch"}, nil, nil))
	}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		resp := search(t, ix, Request{Query: "決", Lang: "ja"})
		if got := ids(resp); len(got) != len(docs) || got[0] != docs[0].ID {
			t.Errorf("%s: 決 ranks %v (scores %v), want %s first", name, got, scores(resp), docs[0].ID)
		}
	}
}

// queueBacklogReports are two reports of a queue backlog that say it alike
// in their title and summary; the long one's other sections are about
// other things, and it has the smaller id.
func queueBacklogReports() (short, long Document) {
	short = doc("2024-03-02-queue-backlog", "en", "en",
		"Queue backlog in the EU", "Messages in the EU queue were delivered late for two hours.",
		"Consumers fell behind after a deploy; we rolled it back.", "2024-03-02", []string{"Queue"}, nil, nil)
	long = doc("2024-03-01-queue-backlog", "en", "en",
		"Queue backlog in the EU", "Messages in the EU queue were delivered late for two hours.",
		longReport("Consumers fell behind after a deploy.", "A deploy slowed every consumer down."), "2024-03-01", []string{"Queue"}, nil, nil)
	return short, long
}

// Of two reports that say the word alike in their title and summary, the
// short one ranks first (lengthNorm): the long one's other sections are
// about other things. The long one has the smaller id, first among
// equals, so that it is second only by length.
func TestShortReportFirstAmongEquals(t *testing.T) {
	t.Parallel()
	short, long := queueBacklogReports()
	docs := []Document{long, short}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		resp := search(t, ix, Request{Query: "backlog"})
		if got := ids(resp); len(got) != 2 || got[0] != short.ID {
			t.Errorf("%s: backlog ranks %v (scores %v), want %s first", name, got, scores(resp), short.ID)
		}
	}
}

// An incident not written in the reader's language counts half
// (otherLanguageWeight): a Japanese reader gets the Japanese report
// first, a Chinese reader the Chinese one that says the word more.
func TestReadersLanguageFirst(t *testing.T) {
	t.Parallel()
	ja := doc("2024-05-01-redis-ja", "ja", "ja", "Redis の障害", "Redis のノードが停止しました。",
		"ノードを入れ替えました。", "2024-05-01", []string{"Cache"}, nil, nil)
	zh := doc("2024-05-02-redis-zh", "zh-TW", "zh-TW", "Redis 叢集故障，Redis 節點停止", "Redis 叢集的 Redis 節點停止。",
		"Redis 節點重新啟動後恢復，Redis 叢集正常。", "2024-05-02", []string{"Cache"}, nil, nil)
	docs := []Document{ja, zh}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for lang, want := range map[string]string{"ja": ja.ID, "zh-TW": zh.ID, "": zh.ID} {
			resp := search(t, ix, Request{Query: "redis", Lang: lang})
			if got := ids(resp); len(got) != 2 || got[0] != want {
				t.Errorf("%s: a reader of %q gets %v (scores %v), want %s first", name, lang, got, scores(resp), want)
			}
		}
	}
}

// An updatable index weighs the length of documents added after a search:
// the factors it keeps are made again after each change.
func TestLengthAfterChanges(t *testing.T) {
	t.Parallel()
	short, long := queueBacklogReports()
	ix := editableOf(t, []Document{long})
	if got := ids(search(t, ix, Request{Query: "backlog"})); len(got) != 1 {
		t.Fatalf("backlog finds %v, want the long report", got)
	}
	if err := ix.AddBatch([]Document{short}); err != nil {
		t.Fatal(err)
	}
	resp := search(t, ix, Request{Query: "backlog"})
	if got := ids(resp); len(got) != 2 || got[0] != short.ID {
		t.Errorf("after adding %s, backlog ranks %v (scores %v), want it first", short.ID, got, scores(resp))
	}
}

// passingMention is what the reports of TestTitleAboveShortBodyMention
// say, in one language.
type passingMention struct {
	lang, query                         string
	blogTitle, blogSummary, blogBody    string // a blog outage; its body names the word once
	hostTitle, hostSummary, hostSection string // a failed disk on a host of virtual machines
	otherTitle, otherSummary            string // neither
}

// docs returns a short report of a blog outage whose body names the word
// once, in passing; a report of a failed disk on a host of virtual
// machines, which says the word in its title and summary and whose body
// is its section repeated sections times; and forty short reports about
// neither, so that the word is rare and the host's report many times the
// average length.
func (p passingMention) docs(sections int) []Document {
	docs := []Document{
		doc("2024-02-01-blog-outage", p.lang, p.lang, p.blogTitle, p.blogSummary, p.blogBody, "2024-02-01", []string{"Blog"}, nil, nil),
		doc("2024-03-01-vm-host-disk", p.lang, p.lang, p.hostTitle, p.hostSummary, strings.Repeat(p.hostSection, sections), "2024-03-01", []string{"Compute"}, nil, nil),
	}
	for i := range 40 {
		day := fmt.Sprintf("2023-%02d-%02d", i/28+1, i%28+1)
		docs = append(docs, doc(day+"-queue-delay", p.lang, p.lang, p.otherTitle, p.otherSummary, p.hostSection, day, []string{"Queue"}, nil, nil))
	}
	return docs
}

// A word in an incident's title and summary outranks the same word said
// once in the body of a short report, in every language and however long
// the incident's report: the length factor (lengthFactor) is bounded, so
// that it cannot undo the fields' weights; unbounded, a report some thirty
// times the average length fell below a short report's single mention.
func TestTitleAboveShortBodyMention(t *testing.T) {
	t.Parallel()
	cases := []passingMention{
		{"zh-CN", "虚拟机",
			"博客无法访问", "官方博客无法访问约一小时。", "博客所在的虚拟机重启后恢复。",
			"虚拟机宿主机硬盘故障", "一台宿主机的硬盘故障，其上的虚拟机停止运行三小时。",
			"工程师更换了故障硬盘，并从备份恢复了存储阵列上的数据，随后逐一检查了受影响的服务与监控告警。",
			"消息队列延迟", "消息队列的消费者落后两小时。"},
		{"ja", "仮想マシン",
			"ブログの閲覧障害", "公式ブログが約一時間閲覧できませんでした。", "ブログの仮想マシンを再起動して復旧しました。",
			"仮想マシンのホストでディスク障害", "ホストのディスクが故障し、その上の仮想マシンが三時間停止しました。",
			"担当者は故障したディスクを交換し、ストレージのデータをバックアップから戻したうえで、影響を受けたサービスと監視の警告を一つずつ確認しました。",
			"メッセージキューの遅延", "メッセージキューの処理が二時間遅れました。"},
		{"en", "vm",
			"Blog unavailable", "The company blog could not be reached for an hour.", "The blog came back after its VM was restarted.",
			"VM host disk failure", "A disk failed on one host and every VM on it stopped for three hours.",
			"Engineers replaced the failed disk, restored the array's data from backups and checked each affected service and alert in turn. ",
			"Queue delays", "Queue consumers fell two hours behind."},
	}
	for _, c := range cases {
		for _, sections := range []int{150, 600} {
			docs := c.docs(sections)
			for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
				resp := search(t, ix, Request{Query: c.query, Lang: c.lang})
				if got := ids(resp); len(got) != 2 || got[0] != docs[1].ID {
					t.Errorf("%s, %d sections, %s: %q ranks %v (scores %v), want %s first", c.lang, sections, name, c.query, got, scores(resp), docs[1].ID)
				}
			}
		}
	}
}
