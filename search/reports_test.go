package search

import (
	"strings"
	"testing"
)

// reports are incidents written like real postmortems: a title, a
// summary, a body with impact, root cause and remediation, and a
// timeline. The prefix, typo and ranking tests and the recall
// measurement search them.
func reports() []Document {
	type report struct {
		id, lang, title, summary, impact, cause, fix string
		timeline                                     []string
		products                                     []string
	}
	rs := []report{
		{"2021-03-02-lb-certificate-expiry", "en",
			"Expired TLS certificate on the global load balancers",
			"HTTPS requests failed for 47 minutes after the certificate of the shared frontend expired.",
			"Between 09:12 and 09:59 UTC, 38% of HTTPS requests to customer applications behind the global load balancers failed the TLS handshake. Clients that pinned the intermediate certificate were unaffected.",
			"The certificate of the shared frontend was issued by a legacy pipeline whose renewal job had been disabled during a migration. The expiry alert was routed to a retired on-call rotation, so nobody saw it.",
			"We renewed the certificate, moved every frontend to the automated issuer, and added an expiry check that pages the current rotation thirty days ahead.",
			[]string{"09:12 Error rates rise on the global load balancers.", "09:25 Engineers identify the expired certificate.", "09:51 A renewed certificate is deployed.", "09:59 Error rates return to normal."},
			[]string{"Cloud Load Balancing"}},
		{"2022-06-14-mtls-certificates-rotation", "en",
			"Service-to-service calls rejected after a certificate rotation",
			"Internal calls between services failed when rotated certificates were not yet trusted by every sidecar.",
			"For 25 minutes, 12% of internal RPCs failed with authentication errors; user-facing latency rose in three regions.",
			"The certification authority bundle was rotated before all sidecars had reloaded it. Sidecars that still trusted only the old root rejected the new certificates as unverified.",
			"Rotations now wait until every sidecar reports the new bundle. The rollout tool verifies trust before issuing certificates from a new root.",
			[]string{"14:02 Certificate rotation starts.", "14:06 Authentication failures between services.", "14:20 Rotation paused.", "14:27 Sidecars reloaded; failures stop."},
			[]string{"Service Mesh"}},
		{"2020-11-20-database-replication-lag", "en",
			"Replication lag made reads return stale data",
			"Read replicas of the primary database fell up to forty minutes behind during a bulk import.",
			"Applications reading from replicas served stale data for about two hours. No data was lost.",
			"A bulk import issued one very large transaction. Replicas apply transactions in a single thread, so replication lag grew until the transaction completed.",
			"Bulk imports are split into small batches, and the replication lag alert now fires at five minutes instead of thirty.",
			[]string{"02:10 Bulk import begins.", "02:30 Replication lag alert fires.", "04:05 Replicas catch up."},
			[]string{"Cloud SQL"}},
		{"2019-08-05-config-push-throttling", "en",
			"A configuration push throttled API traffic worldwide",
			"A faulty configuration change set the global rate limit too low, throttling most API calls.",
			"For 32 minutes, 70% of API requests were throttled with 429 errors across all regions.",
			"A configuration change meant for a test environment was pushed to production. The rate limiter read the test limit and throttled legitimate traffic.",
			"Configuration pushes are now validated against production limits and rolled out region by region with automatic rollback.",
			[]string{"16:40 Configuration change pushed.", "16:42 Throttling errors surge.", "17:05 Rollback of the configuration.", "17:12 Traffic recovers."},
			[]string{"API Gateway"}},
		{"2023-01-09-authentication-outage", "en",
			"Users could not sign in: the authentication service overloaded",
			"Sign-in requests failed for an hour when the authentication service ran out of database connections.",
			"About half of sign-in attempts failed between 08:00 and 09:02 UTC. Existing sessions kept working.",
			"A retry storm from mobile clients overloaded the authentication service, which exhausted its pool of database connections.",
			"Clients now back off exponentially; the authentication service sheds load before its connection pool is exhausted.",
			[]string{"08:00 Sign-in failures begin.", "08:20 Connection pool exhausted.", "08:45 Load shedding enabled.", "09:02 Sign-in recovers."},
			[]string{"Identity"}},
		{"2018-04-17-storage-latency", "en",
			"Elevated latency for object storage in europe-west2",
			"Object storage requests in europe-west2 saw high latency after a disk firmware update.",
			"Median latency of reads rose from 40 ms to 900 ms for three hours; some uploads timed out.",
			"A firmware update slowed a batch of disks; the storage layer kept sending reads to them.",
			"The firmware was rolled back, and the storage layer now avoids disks whose latency degrades.",
			[]string{"10:00 Firmware update starts.", "10:30 Latency alerts fire.", "12:50 Firmware rolled back.", "13:05 Latency back to normal."},
			[]string{"Cloud Storage"}},
		{"2024-02-28-deployment-rollback", "en",
			"A bad deployment broke checkout for an hour",
			"A deployment of the payments frontend introduced a bug that broke checkout.",
			"Checkout failed for 60% of customers for an hour.",
			"A dependency upgrade changed how currency amounts were rounded, and the deployment skipped the canary stage.",
			"The deployment was rolled back; canaries can no longer be skipped.",
			[]string{"11:00 Deployment begins.", "11:10 Checkout errors reported.", "11:55 Rollback completed."},
			[]string{"Payments"}},
		// A passing mention: one timeline item names a certificate.
		{"2021-09-30-dns-resolution-failure", "en",
			"DNS resolution failures for internal hostnames",
			"Internal hostnames failed to resolve after a zone transfer was truncated.",
			"For 40 minutes, services could not resolve internal names and retried until their queues filled.",
			"A zone transfer was cut short by a network timeout, and the secondary servers served the truncated zone.",
			"Secondaries now refuse incomplete zones, and zone transfers are retried with checks.",
			[]string{"07:00 Resolution failures begin.", "07:12 Engineers rule out the certificate on the resolvers.", "07:40 Full zone restored."},
			[]string{"Cloud DNS"}},
		{"2022-10-03-quota-exhausted", "en",
			"Quota exhausted for the metrics pipeline",
			"The metrics pipeline exhausted its write quota and dropped samples.",
			"Dashboards showed gaps for 90 minutes; alerts based on those metrics did not fire.",
			"A new service emitted metrics with unbounded labels, exhausting the shared quota.",
			"Label cardinality is now capped per service, and quota use is alerted on at 80%.",
			[]string{"15:00 Samples dropped.", "15:40 Offending service identified.", "16:30 Quota recovered."},
			[]string{"Monitoring"}},
		{"2021-03-02-lb-certificate-expiry", "zh-TW",
			"全球負載平衡器的 TLS 憑證過期",
			"共用前端的憑證過期後，HTTPS 請求失敗了 47 分鐘。",
			"09:12 至 09:59 UTC 之間，38% 的 HTTPS 請求在 TLS 交握時失敗。",
			"共用前端的憑證由舊流程簽發，其更新工作在遷移期間被停用。",
			"我們更新了憑證，並改用自動簽發。",
			[]string{"09:12 全球負載平衡器錯誤率上升。", "09:51 部署更新後的憑證。"},
			[]string{"Cloud Load Balancing"}},
		{"2020-11-20-database-replication-lag", "ja",
			"レプリケーション遅延で古いデータが返された",
			"一括インポート中にリードレプリカが最大40分遅延しました。",
			"レプリカから読み取るアプリケーションが約2時間古いデータを返しました。",
			"一括インポートが巨大なトランザクションを発行しました。",
			"一括インポートを小さなバッチに分割しました。",
			[]string{"02:10 一括インポート開始。", "04:05 レプリカが追いつく。"},
			[]string{"Cloud SQL"}},
	}
	var docs []Document
	for _, r := range rs {
		body := strings.Join([]string{"Impact", r.impact, "Root cause", r.cause, "Remediation", r.fix}, "\n")
		d := doc(r.id, r.lang, "en", r.title, r.summary, body, r.id[:10], r.products, nil, nil)
		d.Timeline = strings.Join(r.timeline, "\n")
		docs = append(docs, d)
	}
	return docs
}

// reportIndexes builds the reports into a disk index and a memory index.
func reportIndexes(t *testing.T) map[string]Searcher {
	t.Helper()
	docs := reports()
	mem := editableOf(t, docs)
	return map[string]Searcher{"disk": mustOpen(t, buildDir(t, docs)), "memory": mem}
}
