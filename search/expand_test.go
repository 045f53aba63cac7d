package search

import (
	"slices"
	"strings"
	"testing"
)

// As a reader types a word, from its third letter on, the results never
// fall to nothing after there were some, and no prefix finds fewer
// incidents than the whole word.
func TestPrefixAsYouType(t *testing.T) {
	t.Parallel()
	words := []string{"certificate", "certificates", "certification", "replication", "authentication",
		"configuration", "throttling", "latency", "deployment", "exhausted", "rollback", "firmware"}
	for name, ix := range reportIndexes(t) {
		for _, w := range words {
			whole := search(t, ix, Request{Query: w, PerPage: MaxPerPage})
			if whole.Total == 0 {
				t.Errorf("%s: %q finds nothing", name, w)
				continue
			}
			prev := 0
			var counts []int
			for k := 3; k <= len(w); k++ {
				resp := search(t, ix, Request{Query: w[:k], PerPage: MaxPerPage})
				counts = append(counts, resp.Total)
				if resp.Total < whole.Total {
					t.Errorf("%s: %q finds %d incidents, fewer than %q (%d)", name, w[:k], resp.Total, w, whole.Total)
				}
				if resp.Total == 0 && prev > 0 {
					t.Errorf("%s: %q finds nothing after %q found %d", name, w[:k], w[:k-1], prev)
				}
				if resp.DidYouMean != "" {
					t.Errorf("%s: %q: did you mean %q", name, w[:k], resp.DidYouMean)
				}
				for _, id := range ids(whole) {
					if !slices.Contains(ids(resp), id) {
						t.Errorf("%s: %q lacks %s, which %q finds", name, w[:k], id, w)
					}
				}
				prev = resp.Total
			}
			t.Logf("%s: %s: %v (whole word %d)", name, w, counts, whole.Total)
		}
	}
}

// Only the last word is a prefix; the others are words.
func TestPrefixOnlyLastWord(t *testing.T) {
	t.Parallel()
	for name, ix := range reportIndexes(t) {
		if resp := search(t, ix, Request{Query: "expired certi"}); !slices.Equal(ids(resp), []string{reportIDs["lb"]}) {
			t.Errorf("%s: expired certi: %v", name, ids(resp))
		}
		if resp := search(t, ix, Request{Query: "certi expired"}); resp.Total != 0 && resp.DidYouMean == "" {
			t.Errorf("%s: certi expired: %v, want certi as a word", name, ids(resp))
		}
		// A completion is highlighted (certificate or certificates: the
		// two incidents that say them score alike).
		resp := search(t, ix, Request{Query: "certifica", Lang: "en"})
		if len(resp.Results) == 0 || !strings.Contains(strings.Join(resp.Results[0].Fragments, " "), "<mark>certificate") {
			t.Errorf("%s: certifica: fragments %+v", name, resp.Results)
		}
		// A quoted word is not completed.
		if resp := search(t, ix, Request{Query: `"certifica"`}); resp.Total != 0 {
			t.Errorf("%s: \"certifica\": %v", name, ids(resp))
		}
	}
}

// A word that finds nothing finds the words one letter away (two from
// eight letters), and the response suggests the corrected query.
func TestTypos(t *testing.T) {
	t.Parallel()
	for name, ix := range reportIndexes(t) {
		for _, tc := range []struct {
			q, want string
			found   []string
		}{
			{"certifcate", "certificate", []string{"lb", "mtls"}},
			{"replcation lag", "replication lag", []string{"db"}},
			{"latancy europe", "latency europe", []string{"storage"}},
			{"authentcation -mobile", "authentication -mobile", []string{"mtls"}},
			{"exhuasted", "exhausted", []string{"quota", "auth"}},
		} {
			resp := search(t, ix, Request{Query: tc.q})
			if resp.DidYouMean != tc.want {
				t.Errorf("%s: %q: did you mean %q, want %q", name, tc.q, resp.DidYouMean, tc.want)
			}
			for _, f := range tc.found {
				if !slices.Contains(ids(resp), reportIDs[f]) {
					t.Errorf("%s: %q: %v lacks %s", name, tc.q, ids(resp), f)
				}
			}
		}
		// Words that find something, short words and words nothing is
		// near are not corrected.
		for _, q := range []string{"certificate", "rollback", "dns", "xyzzyplugh", "lag"} {
			if resp := search(t, ix, Request{Query: q}); resp.DidYouMean != "" {
				t.Errorf("%s: %q: did you mean %q", name, q, resp.DidYouMean)
			}
		}
	}
}

// The vocabulary of an in-memory index follows its documents: a word
// completes and corrects while a document has it, and no longer after.
func TestMemoryVocabularyFollowsDocuments(t *testing.T) {
	t.Parallel()
	ix := editableOf(t, reports()[:1]) // the certificate expiry, in English
	if resp := search(t, ix, Request{Query: "certifica"}); resp.Total != 1 {
		t.Fatalf("certifica: %v", ids(resp))
	}
	if resp := search(t, ix, Request{Query: "certifcate"}); resp.DidYouMean != "certificate" {
		t.Fatalf("certifcate: did you mean %q", resp.DidYouMean)
	}
	// Replaced by a version without the word, then deleted.
	d := reports()[0]
	d.Title, d.Summary, d.Body, d.Timeline = "Expired credentials", "Requests failed.", "Impact\nRequests failed.", ""
	if err := ix.Add(d); err != nil {
		t.Fatal(err)
	}
	if resp := search(t, ix, Request{Query: "certifica"}); resp.Total != 0 {
		t.Errorf("certifica after the word was removed: %v", ids(resp))
	}
	if resp := search(t, ix, Request{Query: "credentia"}); resp.Total != 1 {
		t.Errorf("credentia: %v", ids(resp))
	}
	if err := ix.Delete(d.ID, ""); err != nil {
		t.Fatal(err)
	}
	if resp := search(t, ix, Request{Query: "credentails"}); resp.DidYouMean != "" || resp.Total != 0 {
		t.Errorf("credentails after delete: did you mean %q, %v", resp.DidYouMean, ids(resp))
	}
}

// A typo is corrected whatever the language of the incidents that have
// the word: here only a Traditional Chinese and a Japanese report say
// them, among Chinese and Japanese words.
func TestTyposInEveryLanguage(t *testing.T) {
	t.Parallel()
	docs := []Document{
		doc("2022-06-09-tw-cluster", "zh-TW", "zh-TW", "Kubernetes 叢集憑證過期", "Kubernetes 控制平面的憑證過期，節點無法連線。", "工程師更新憑證後恢復。", "2022-06-09", nil, nil, nil),
		doc("2022-03-30-ja-search", "ja", "ja", "Elasticsearch クラスタの障害", "Elasticsearch のノードが停止し、検索できなくなりました。", "ノードを再起動しました。", "2022-03-30", nil, nil, nil),
		doc("2021-01-01-en-other", "en", "en", "Disk full", "A disk filled up.", "We cleaned it.", "2021-01-01", nil, nil, nil),
	}
	for name, ix := range map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "editable": editableOf(t, docs)} {
		for _, tc := range []struct{ q, lang, want, found string }{
			{"kuberentes", "zh-TW", "kubernetes", docs[0].ID},
			{"kubernets 憑證", "zh-TW", "kubernetes 憑證", docs[0].ID},
			{"elasticsaerch", "ja", "elasticsearch", docs[1].ID},
			{"elastisearch", "en", "elasticsearch", docs[1].ID},
		} {
			resp := search(t, ix, Request{Query: tc.q, Lang: tc.lang})
			if !strings.EqualFold(resp.DidYouMean, tc.want) || !slices.Equal(ids(resp), []string{tc.found}) {
				t.Errorf("%s: %q (%s): did you mean %q, found %v; want %q and %s", name, tc.q, tc.lang, resp.DidYouMean, ids(resp), tc.want, tc.found)
			}
		}
	}
}
