package search

import (
	"fmt"
	"slices"
	"testing"
)

// Incidents of reports(), by a short name.
var reportIDs = map[string]string{
	"lb": "2021-03-02-lb-certificate-expiry", "mtls": "2022-06-14-mtls-certificates-rotation",
	"db": "2020-11-20-database-replication-lag", "config": "2019-08-05-config-push-throttling",
	"auth": "2023-01-09-authentication-outage", "storage": "2018-04-17-storage-latency",
	"deploy": "2024-02-28-deployment-rollback", "dns": "2021-09-30-dns-resolution-failure",
	"quota": "2022-10-03-quota-exhausted",
}

// judged is a small set of queries with the incidents that are about
// what they ask (a passing mention is not): plain words, prefixes typed
// on the way to a word, and words with a typo.
var judged = []struct {
	kind, query string
	relevant    []string
}{
	{"plain", "certificate", []string{"lb", "mtls"}},
	{"plain", "replication", []string{"db"}},
	{"plain", "authentication", []string{"auth"}},
	{"plain", "throttling", []string{"config"}},
	{"plain", "latency", []string{"storage"}},
	{"plain", "rollback", []string{"deploy", "config"}},
	{"plain", "quota", []string{"quota"}},
	{"plain", "憑證", []string{"lb"}},
	{"plain", "レプリケーション", []string{"db"}},
	{"prefix", "cert", []string{"lb", "mtls"}},
	{"prefix", "certi", []string{"lb", "mtls"}},
	{"prefix", "certific", []string{"lb", "mtls"}},
	{"prefix", "certifica", []string{"lb", "mtls"}},
	{"prefix", "replic", []string{"db"}},
	{"prefix", "authent", []string{"auth"}},
	{"prefix", "config", []string{"config"}},
	{"prefix", "throttl", []string{"config"}},
	{"prefix", "laten", []string{"storage"}},
	{"prefix", "deploy", []string{"deploy"}},
	{"prefix", "exhaus", []string{"quota", "auth"}},
	{"typo", "certifcate", []string{"lb", "mtls"}},
	{"typo", "replcation", []string{"db"}},
	{"typo", "authentcation", []string{"auth"}},
	{"typo", "latancy", []string{"storage"}},
	{"typo", "configuraton", []string{"config"}},
	{"typo", "throtling", []string{"config"}},
	{"typo", "deploymnet", []string{"deploy"}},
	{"typo", "exhuasted", []string{"quota", "auth"}},
}

// recall returns the mean recall of the first page (ten results) of each
// kind of judged query.
func recall(t *testing.T, ix Searcher) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, j := range judged {
		got := ids(search(t, ix, Request{Query: j.query, Lang: "en"}))
		found := 0
		for _, r := range j.relevant {
			if slices.Contains(got, reportIDs[r]) {
				found++
			}
		}
		sum[j.kind] += float64(found) / float64(len(j.relevant))
		n[j.kind]++
	}
	for k := range sum {
		sum[k] /= float64(n[k])
	}
	return sum
}

// TestRecall measures the recall of the judged queries, and keeps it
// from falling.
func TestRecall(t *testing.T) {
	t.Parallel()
	want := map[string]float64{"plain": 1, "prefix": 0, "typo": 0}
	for name, ix := range reportIndexes(t) {
		got := recall(t, ix)
		t.Logf("%s: recall plain %.2f, prefix %.2f, typo %.2f", name, got["plain"], got["prefix"], got["typo"])
		for k, w := range want {
			if got[k] < w {
				t.Errorf("%s: recall of %s queries %.2f, want at least %.2f", name, k, got[k], w)
			}
		}
	}
}

var _ = fmt.Sprint
