package search

import (
	"context"
	"fmt"
	"github.com/postmortem-archive/gen/search/schema"
	"testing"
	"time"
)

var siteLangs = []string{"en", "zh-TW", "ja"}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func doc(id, lang, orig, title, summary, body string, begin string, products, regions, causes []string) Document {
	return Document{
		ID: id, Lang: lang, OriginalLang: orig,
		Title: title, Summary: summary, Body: body,
		Timeline: "",
		Products: products, Regions: regions, Causes: causes,
		Begin:    day(begin),
		Duration: 90 * time.Minute,
		URL:      fmt.Sprintf("/%s/incidents/%s/", lang, id),
	}
}

const (
	idGmail    = "2019-06-02-gmail-quota"
	idBigQuery = "2017-03-13-bigquery-streaming-inserts"
	idPubSub   = "2020-08-19-pubsub-europe-west2"
	idCloudSQL = "2018-07-17-cloud-sql-connections"
	idLB       = "2021-11-16-load-balancer-config"
	idDB       = "2022-02-01-database-replication"
	idTokyo    = "2023-05-10-tokyo-network"
)

// fixtures are small hand-written incidents in English, Traditional Chinese
// and Japanese.
func fixtures() []Document {
	docs := []Document{
		// Original in zh-TW, translated to English.
		doc(idGmail, "zh-TW", "zh-TW",
			"Gmail 服務中斷：配額系統資源耗盡",
			"配額系統資源耗盡，導致 Gmail 使用者無法收發郵件。",
			"2019 年 6 月 2 日，配額伺服器的記憶體資源耗盡。Gmail 與 Google Drive 的請求被拒絕。工程師重新啟動服務後恢復。",
			"2019-06-02", []string{"Gmail", "Google Drive"}, []string{"global"}, []string{"Resource exhaustion"}),
		doc(idGmail, "en", "zh-TW",
			"Gmail outage: quota system ran out of resources",
			"The quota system exhausted its memory, so Gmail users could not send or receive mail.",
			"On 2 June 2019 the quota servers ran out of memory. Requests to Gmail and Google Drive were rejected until engineers restarted the service.",
			"2019-06-02", []string{"Gmail", "Google Drive"}, []string{"global"}, []string{"Resource exhaustion"}),

		// English only; contains "overload" but never "overloaded".
		doc(idBigQuery, "en", "en",
			"BigQuery streaming inserts failed",
			"A sudden overload of the metadata service made streaming inserts fail.",
			"Streaming inserts into BigQuery returned errors for 5 hours because of an overload in the metadata tier. Queries were not affected.",
			"2017-03-13", []string{"BigQuery"}, []string{"us-central1"}, []string{"Capacity"}),

		// English original with a Japanese translation.
		doc(idPubSub, "en", "en",
			"Cloud Pub/Sub message delivery delays in europe-west2",
			"Publishers in europe-west2 saw delays after a software bug in Cloud Pub/Sub.",
			"A rollout of Cloud Pub/Sub introduced a software bug. Message delivery in europe-west2 was delayed by up to 20 minutes.",
			"2020-08-19", []string{"Cloud Pub/Sub"}, []string{"europe-west2"}, []string{"Software bug"}),
		doc(idPubSub, "ja", "en",
			"europe-west2 における Cloud Pub/Sub のメッセージ配信遅延",
			"ソフトウェアの不具合により、Cloud Pub/Sub のメッセージ配信が遅延しました。",
			"Cloud Pub/Sub のロールアウトで不具合が発生し、europe-west2 でメッセージ配信が最大 20 分遅延しました。",
			"2020-08-19", []string{"Cloud Pub/Sub"}, []string{"europe-west2"}, []string{"Software bug"}),

		// zh-TW only: 資源 and 耗盡 occur, but far apart.
		doc(idCloudSQL, "zh-TW", "zh-TW",
			"Cloud SQL 連線失敗",
			"資源配置的變更本身沒有問題。",
			"工程師在上午調整了資源配置，系統運作正常。數小時後，因為設定錯誤，Cloud SQL 的連線池逐漸耗盡，新的連線被拒絕。資料庫本身沒有受到影響。",
			"2018-07-17", []string{"Cloud SQL"}, []string{"asia-east1"}, []string{"Configuration change"}),

		// English; its text contains markup that must come out escaped.
		doc(idLB, "en", "en",
			"Load balancer returned errors after a configuration change",
			"A configuration change to the load balancer injected <script>alert('x')</script> into error pages & broke routing.",
			"The load balancer configuration change was rolled back after 40 minutes.",
			"2021-11-16", []string{"Cloud Load Balancing"}, []string{"global"}, []string{"Configuration change"}),

		// zh-TW original with English translation: 3- and 4-character words.
		doc(idDB, "zh-TW", "zh-TW",
			"資料庫複寫延遲",
			"負載平衡設定錯誤，使資料庫複寫延遲。",
			"雲端資料庫的複寫延遲了兩小時。負載平衡器把流量送往錯誤的區域。",
			"2022-02-01", []string{"Cloud SQL"}, []string{"asia-east1"}, []string{"Configuration change"}),
		doc(idDB, "en", "zh-TW",
			"Database replication lag",
			"A load balancing misconfiguration delayed database replication.",
			"Replication of the cloud database lagged by two hours. The load balancer sent traffic to the wrong region.",
			"2022-02-01", []string{"Cloud SQL"}, []string{"asia-east1"}, []string{"Configuration change"}),

		// Japanese only.
		doc(idTokyo, "ja", "ja",
			"東京リージョンのネットワーク障害",
			"asia-northeast1 でネットワーク障害が発生し、接続が失敗しました。",
			"ルーターの設定変更によりネットワーク障害が発生しました。復旧まで 1 時間かかりました。",
			"2023-05-10", []string{"Compute Engine"}, []string{"asia-northeast1"}, []string{"Configuration change"}),
	}
	docs[2].Timeline = "09:12 UTC: on-call engineer escalated.\n09:40 UTC: metadata tier scaled out.\n14:05 UTC: streaming inserts recovered."
	// Filler for pagination: 25 similar English incidents.
	for i := 1; i <= 25; i++ {
		docs = append(docs, doc(fmt.Sprintf("2016-01-%02d-storage-latency", i), "en", "en",
			fmt.Sprintf("Cloud Storage latency %d", i),
			"Elevated storage latency for a subset of buckets.",
			fmt.Sprintf("Requests saw elevated storage latency for %d minutes.", 10+i),
			fmt.Sprintf("2016-01-%02d", i), []string{"Cloud Storage"}, []string{"us-east1"}, []string{"Capacity"}))
	}
	return docs
}

// buildDisk builds the fixtures with Create, closes and reopens read-only.
func buildDisk(t testing.TB) *Index {
	t.Helper()
	return diskIndex(t, fixtures())
}

// diskIndex writes docs with Create into a temporary folder and opens the
// result read-only, as a server of a built site does.
func diskIndex(t testing.TB, docs []Document) *Index {
	t.Helper()
	return openBuilt(t, buildDir(t, docs))
}

// openBuilt opens the index in dir read-only; it is closed when the test
// ends.
func openBuilt(t testing.TB, dir string) *Index {
	t.Helper()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// buildEditable is the fixtures added to an Editable.
func buildEditable(t testing.TB) *Editable {
	t.Helper()
	return editableOf(t, fixtures())
}

// editableOf is docs added, as the authoring server adds an edit, to
// an index built empty and opened with opts as an Editable; it is closed
// when the test ends.
func editableOf(t testing.TB, docs []Document, opts ...Option) *Editable {
	t.Helper()
	ix, err := OpenEditable(buildDir(t, nil), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.AddBatch(docs); err != nil {
		t.Fatal(err)
	}
	return ix
}

func search(t testing.TB, ix Searcher, r Request) *Response {
	t.Helper()
	resp, err := ix.Search(context.Background(), r)
	if err != nil {
		t.Fatalf("Search(%+v): %v", r, err)
	}
	return resp
}

func ids(resp *Response) []string {
	var out []string
	for _, r := range resp.Results {
		out = append(out, r.ID)
	}
	return out
}

func facet(resp *Response, name, term string) int {
	for _, fc := range resp.Facets[name] {
		if fc.Term == term {
			return fc.Count
		}
	}
	return 0
}

// Count returns the number of incidents and of documents (incident ×
// language) in the index.
func (e *engine) Count() (incidents, documents int) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, in := range e.meta.incidents {
		documents += len(in.docs)
	}
	return len(e.meta.incidents), documents
}

// Add indexes a document, replacing the one with the same id and language.
func (ix *Editable) Add(d Document) error { return ix.AddBatch([]Document{d}) }

// AddBatch indexes documents, replacing those with the same id and
// language.
func (ix *Editable) AddBatch(docs []Document) error { return ix.Replace(nil, docs) }

// Delete removes the incident id in language lang, or in every language
// when lang is "".
func (ix *Editable) Delete(id, lang string) error {
	if lang == "" {
		return ix.Replace(map[string]bool{id: true}, nil)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.norms.clear()
	defer ix.meta.reindex()
	idx := ix.subs[lang]
	if in := ix.meta.incidents[id]; idx == nil || in == nil || in.doc(lang) == nil {
		return nil
	}
	return ix.indexMem(idx, lang, nil, []string{id})
}

// Document is the tests' short name of what an index is made of.
type Document = schema.Document

// engineOf is what an Index or an Editable searches.
func engineOf(s Searcher) *engine {
	switch s := s.(type) {
	case *Index:
		return s.engine
	case *Editable:
		return s.engine
	}
	panic(fmt.Sprintf("a %T is no index", s))
}
