package corpus

// Language-independent facts (vendors, products, regions, zones) and the
// small aligned vocabularies whose entries exist in every supported
// language, so that titles, summaries, timelines and action items of a
// translation say the same thing as the original.

type product struct {
	name string
	slug string // used for incident ids; derived from name when empty
}

type vendor struct {
	name string
	// organization is the front matter's organization: "" for the vendor
	// that stands for several companies' services, so that some of the
	// archive names none, as such reports do.
	organization string
	weight       int
	products     []product
	regions      []string
}

var vendors = []vendor{
	{
		name: "Google Cloud", organization: "Google Cloud", weight: 45,
		products: []product{
			{"BigQuery", ""}, {"Cloud Pub/Sub", "pubsub"}, {"Cloud SQL", ""}, {"Cloud Storage", "gcs"},
			{"Compute Engine", "gce"}, {"Google Kubernetes Engine", "gke"}, {"App Engine", ""},
			{"Cloud Load Balancing", "cloud-lb"}, {"Cloud DNS", ""}, {"Cloud Spanner", "spanner"},
			{"Cloud Bigtable", "bigtable"}, {"Firestore", ""}, {"Cloud Functions", ""}, {"Cloud Run", ""},
			{"Cloud Logging", ""}, {"Cloud Monitoring", ""}, {"Identity and Access Management", "iam"},
			{"Cloud Build", ""}, {"Artifact Registry", ""}, {"Vertex AI", ""}, {"Cloud CDN", ""},
			{"Cloud Interconnect", ""}, {"Cloud VPN", ""}, {"Cloud Key Management Service", "cloud-kms"},
			{"Secret Manager", ""}, {"Dataflow", ""}, {"Dataproc", ""}, {"Memorystore for Redis", "memorystore"},
			{"Cloud Composer", ""}, {"Cloud Armor", ""},
		},
		regions: []string{
			"us-central1", "us-east1", "us-east4", "us-west1", "us-west2", "europe-west1", "europe-west2",
			"europe-west3", "europe-west4", "asia-east1", "asia-northeast1", "asia-southeast1",
			"australia-southeast1", "southamerica-east1", "us-multi-region", "eu-multi-region", "global",
		},
	},
	{
		name: "Amazon Web Services", organization: "Amazon Web Services", weight: 25,
		products: []product{
			{"Amazon S3", "s3"}, {"Amazon EC2", "ec2"}, {"Amazon DynamoDB", "dynamodb"}, {"AWS Lambda", "lambda"},
			{"Amazon RDS", "rds"}, {"Amazon CloudFront", "cloudfront"}, {"Amazon Route 53", "route53"},
			{"Elastic Load Balancing", "elb"}, {"Amazon SQS", "sqs"}, {"Amazon Kinesis", "kinesis"},
			{"Amazon EKS", "eks"}, {"Amazon ElastiCache", "elasticache"}, {"AWS IAM", "aws-iam"},
			{"Amazon CloudWatch", "cloudwatch"}, {"Amazon API Gateway", "api-gateway"},
		},
		regions: []string{
			"us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1",
			"ap-southeast-1", "ap-southeast-2", "sa-east-1", "global",
		},
	},
	{
		name: "Microsoft Azure", organization: "Microsoft Azure", weight: 15,
		products: []product{
			{"Azure Active Directory", "azure-ad"}, {"Azure Storage", ""}, {"Azure Virtual Machines", "azure-vms"},
			{"Azure SQL Database", "azure-sql"}, {"Azure Front Door", ""}, {"Azure DevOps", ""},
			{"Azure Cosmos DB", "cosmos-db"}, {"Azure Kubernetes Service", "aks"}, {"Azure Monitor", ""},
			{"Microsoft 365", "m365"},
		},
		regions: []string{
			"eastus", "eastus2", "westus2", "westeurope", "northeurope", "uksouth", "japaneast",
			"southeastasia", "australiaeast", "global",
		},
	},
	{
		name: "SaaS", weight: 15,
		products: []product{
			{"GitHub Actions", ""}, {"GitHub Pages", ""}, {"Cloudflare CDN", ""}, {"Cloudflare Workers", ""},
			{"Fastly CDN", ""}, {"Slack", ""}, {"Heroku Dynos", ""}, {"PagerDuty", ""}, {"Stripe API", ""},
			{"Twilio SMS", ""}, {"Okta", ""}, {"Auth0", ""},
		},
		regions: []string{"us", "eu", "apac", "global"},
	},
}

type zone struct {
	name   string
	weight int
}

var zones = []zone{
	{"America/Los_Angeles", 20}, {"UTC", 10}, {"America/New_York", 12}, {"Europe/London", 10},
	{"Asia/Taipei", 8}, {"Asia/Tokyo", 8}, {"Europe/Berlin", 5}, {"Australia/Sydney", 5},
	{"America/Chicago", 4}, {"Europe/Dublin", 3}, {"Asia/Singapore", 3}, {"Asia/Kolkata", 2},
	{"America/Sao_Paulo", 2}, {"Pacific/Auckland", 2},
}

// tri is one aligned vocabulary entry: English, Traditional Chinese, Japanese.
type tri struct{ en, zh, ja string }

// in is the entry in lang; zh-CN's is Traditional, as its lexicon's, and
// made Simplified with the whole file (simplify).
func (t tri) in(lang string) string {
	switch lang {
	case "zh-TW", "zh-CN":
		return t.zh
	case "ja":
		return t.ja
	}
	return t.en
}

type cause struct {
	slug string
	tri
}

var causes = []cause{
	{"config-change", tri{"a faulty configuration change", "錯誤的設定變更", "誤った設定変更"}},
	{"software-bug", tri{"a latent software bug", "潛在的軟體錯誤", "潜在的なソフトウェアの不具合"}},
	{"load-spike", tri{"an unexpected spike in traffic", "流量意外暴增", "予期しないトラフィックの急増"}},
	{"rollout-regression", tri{"a regression in a new release", "新版本推出造成的回歸問題", "新しいリリースに含まれていたリグレッション"}},
	{"capacity-exhaustion", tri{"exhausted serving capacity", "服務容量耗盡", "処理容量の枯渇"}},
	{"dependency-failure", tri{"the failure of an internal dependency", "內部相依服務故障", "内部の依存サービスの障害"}},
	{"certificate-expiry", tri{"an expired TLS certificate", "TLS 憑證過期", "TLS 証明書の期限切れ"}},
	{"dns-misconfiguration", tri{"a DNS misconfiguration", "DNS 設定錯誤", "DNS の設定ミス"}},
	{"bgp-route-leak", tri{"a BGP route leak", "BGP 路由洩漏", "BGP ルートリーク"}},
	{"network-partition", tri{"a network partition between zones", "可用區之間的網路分割", "ゾーン間のネットワーク分断"}},
	{"memory-leak", tri{"a memory leak", "記憶體洩漏", "メモリリーク"}},
	{"disk-full", tri{"full disks on storage nodes", "儲存節點磁碟空間耗盡", "ストレージノードのディスク容量の枯渇"}},
	{"quota-exhaustion", tri{"an exhausted internal quota", "內部配額耗盡", "内部クォータの枯渇"}},
	{"database-failover", tri{"a failed database failover", "資料庫容錯移轉失敗", "データベースのフェイルオーバーの失敗"}},
	{"cache-stampede", tri{"a cache stampede", "快取雪崩", "キャッシュスタンピード"}},
	{"retry-storm", tri{"a retry storm from clients", "用戶端的重試風暴", "クライアントからのリトライストーム"}},
	{"clock-skew", tri{"clock skew between servers", "伺服器之間的時鐘偏移", "サーバー間のクロックスキュー"}},
	{"race-condition", tri{"a race condition", "競爭條件", "競合状態"}},
	{"operator-error", tri{"an operator error during maintenance", "維護期間的人為操作失誤", "メンテナンス中のオペレーターの操作ミス"}},
	{"hardware-failure", tri{"a hardware failure", "硬體故障", "ハードウェア障害"}},
	{"power-loss", tri{"a loss of utility power", "市電供電中斷", "商用電源の喪失"}},
	{"cooling-failure", tri{"a cooling system failure", "冷卻系統故障", "冷却システムの故障"}},
	{"fiber-cut", tri{"a cut fiber link", "光纖線路中斷", "光ファイバー回線の切断"}},
	{"dos-protection", tri{"overly aggressive DoS protection", "過度嚴格的 DoS 防護", "過度に厳しい DoS 保護"}},
	{"ddos-attack", tri{"a distributed denial-of-service attack", "分散式阻斷服務攻擊", "分散型サービス拒否攻撃"}},
	{"leap-second", tri{"mishandling of a leap second", "閏秒處理錯誤", "うるう秒の処理ミス"}},
	{"schema-migration", tri{"a schema migration", "結構描述遷移", "スキーマ移行"}},
	{"expired-credentials", tri{"expired service account credentials", "服務帳戶認證資訊過期", "サービスアカウントの認証情報の期限切れ"}},
}

type failMode struct {
	slug string
	tri
}

var failModes = []failMode{
	{"errors", tri{"elevated error rates", "錯誤率升高", "エラー率の上昇"}},
	{"latency", tri{"increased latency", "延遲增加", "レイテンシの増加"}},
	{"partial-outage", tri{"a partial outage", "部分服務中斷", "部分的な停止"}},
	{"outage", tri{"a full outage", "全面服務中斷", "全面的な停止"}},
	{"timeouts", tri{"request timeouts", "請求逾時", "リクエストのタイムアウト"}},
	{"degradation", tri{"degraded performance", "效能降低", "パフォーマンスの低下"}},
	{"stale-reads", tri{"stale reads", "讀取到過時資料", "古いデータの読み取り"}},
	{"processing-delays", tri{"delayed data processing", "資料處理延遲", "データ処理の遅延"}},
	{"deployment-failures", tri{"failed deployments", "部署失敗", "デプロイの失敗"}},
	{"auth-failures", tri{"authentication failures", "驗證失敗", "認証の失敗"}},
	{"connectivity-loss", tri{"loss of connectivity", "連線中斷", "接続の喪失"}},
	{"packet-loss", tri{"packet loss", "封包遺失", "パケットロス"}},
	{"dropped-messages", tri{"dropped messages", "訊息遺失", "メッセージの欠落"}},
	{"duplicate-deliveries", tri{"duplicate message deliveries", "訊息重複傳送", "メッセージの重複配信"}},
	{"instance-creation-failures", tri{"failed instance creation", "執行個體建立失敗", "インスタンス作成の失敗"}},
	{"console-unavailable", tri{"console unavailability", "主控台無法使用", "コンソールの利用不可"}},
	{"notification-delays", tri{"delayed notifications", "通知延遲", "通知の遅延"}},
	{"backup-failures", tri{"failed backups", "備份失敗", "バックアップの失敗"}},
	{"replication-lag", tri{"replication delays", "複寫延遲", "レプリケーションの遅延"}},
	{"5xx-errors", tri{"intermittent 5xx errors", "間歇性 5xx 錯誤", "断続的な 5xx エラー"}},
	{"api-unavailable", tri{"API unavailability", "API 無法使用", "API の利用不可"}},
	{"slow-queries", tri{"slow queries", "查詢緩慢", "クエリの低速化"}},
	{"scheduling-delays", tri{"job scheduling delays", "工作排程延遲", "ジョブスケジューリングの遅延"}},
	{"ingestion-delays", tri{"data ingestion delays", "資料擷取延遲", "データ取り込みの遅延"}},
	{"login-failures", tri{"login failures", "登入失敗", "ログインの失敗"}},
	{"webhook-failures", tri{"failed webhook deliveries", "Webhook 傳送失敗", "Webhook 配信の失敗"}},
	{"dns-failures", tri{"DNS resolution failures", "DNS 解析失敗", "DNS 名前解決の失敗"}},
	{"tls-errors", tri{"TLS handshake errors", "TLS 交握錯誤", "TLS ハンドシェイクエラー"}},
	{"write-failures", tri{"storage write failures", "儲存寫入失敗", "ストレージ書き込みの失敗"}},
	{"quota-errors", tri{"spurious quota errors", "誤報的配額錯誤", "誤ったクォータエラー"}},
}

var components = []tri{
	{"load balancer", "負載平衡器", "ロードバランサー"},
	{"control plane", "控制平面", "コントロールプレーン"},
	{"data plane", "資料平面", "データプレーン"},
	{"metadata service", "中繼資料服務", "メタデータサービス"},
	{"quota service", "配額服務", "クォータサービス"},
	{"authentication service", "驗證服務", "認証サービス"},
	{"storage backend", "儲存後端", "ストレージバックエンド"},
	{"replication pipeline", "複寫管線", "レプリケーションパイプライン"},
	{"configuration push system", "設定推送系統", "設定配信システム"},
	{"DNS resolver fleet", "DNS 解析器機群", "DNS リゾルバー群"},
	{"edge proxy fleet", "邊緣代理伺服器機群", "エッジプロキシ群"},
	{"certificate manager", "憑證管理器", "証明書マネージャー"},
	{"job scheduler", "工作排程器", "ジョブスケジューラー"},
	{"message queue", "訊息佇列", "メッセージキュー"},
	{"index builder", "索引建置器", "インデックスビルダー"},
	{"cache tier", "快取層", "キャッシュ層"},
	{"billing pipeline", "計費管線", "課金パイプライン"},
	{"API gateway", "API 閘道", "API ゲートウェイ"},
	{"rate limiter", "速率限制器", "レートリミッター"},
	{"service mesh", "服務網格", "サービスメッシュ"},
	{"lock service", "鎖定服務", "ロックサービス"},
	{"leader election system", "領導者選舉系統", "リーダー選出システム"},
	{"monitoring pipeline", "監控管線", "監視パイプライン"},
	{"deployment system", "部署系統", "デプロイシステム"},
	{"object store", "物件儲存區", "オブジェクトストア"},
	{"block storage layer", "區塊儲存層", "ブロックストレージ層"},
	{"network fabric", "網路交換結構", "ネットワークファブリック"},
	{"backbone routers", "骨幹路由器", "バックボーンルーター"},
	{"autoscaler", "自動擴展器", "オートスケーラー"},
	{"session store", "工作階段儲存區", "セッションストア"},
	{"identity provider", "身分識別提供者", "ID プロバイダー"},
	{"key management service", "金鑰管理服務", "鍵管理サービス"},
	{"frontend servers", "前端伺服器", "フロントエンドサーバー"},
	{"primary database", "主要資料庫", "プライマリデータベース"},
	{"read replicas", "唯讀副本", "リードレプリカ"},
	{"ingestion pipeline", "擷取管線", "取り込みパイプライン"},
	{"stream processor", "串流處理器", "ストリームプロセッサー"},
	{"container registry", "容器登錄庫", "コンテナレジストリ"},
	{"build workers", "建置工作節點", "ビルドワーカー"},
	{"hypervisor fleet", "虛擬化主機機群", "ハイパーバイザー群"},
	{"power distribution units", "配電單元", "配電ユニット"},
	{"cooling plant", "冷卻設備", "冷却設備"},
	{"feature flag service", "功能旗標服務", "フィーチャーフラグサービス"},
	{"health checkers", "健康檢查器", "ヘルスチェッカー"},
	{"service discovery system", "服務探索系統", "サービスディスカバリー"},
	{"consensus cluster", "共識叢集", "合意クラスター"},
	{"logging agents", "記錄代理程式", "ログエージェント"},
	{"webhook dispatcher", "Webhook 分派器", "Webhook ディスパッチャー"},
	{"notification service", "通知服務", "通知サービス"},
	{"search index", "搜尋索引", "検索インデックス"},
}

var metrics = []tri{
	{"error rate", "錯誤率", "エラー率"},
	{"p99 latency", "p99 延遲", "p99 レイテンシ"},
	{"median latency", "中位數延遲", "レイテンシの中央値"},
	{"queue depth", "佇列深度", "キューの深さ"},
	{"CPU utilization", "CPU 使用率", "CPU 使用率"},
	{"memory usage", "記憶體用量", "メモリ使用量"},
	{"replication lag", "複寫延遲", "レプリケーション遅延"},
	{"cache hit ratio", "快取命中率", "キャッシュヒット率"},
	{"request rate", "請求速率", "リクエストレート"},
	{"connection count", "連線數", "接続数"},
	{"disk utilization", "磁碟使用率", "ディスク使用率"},
	{"packet loss rate", "封包遺失率", "パケットロス率"},
	{"availability", "可用性", "可用性"},
	{"timeout rate", "逾時比率", "タイムアウト率"},
	{"retry rate", "重試率", "リトライ率"},
}

// action: English base and past forms, Chinese and Japanese verb phrases
// (Japanese without the する ending, so templates can conjugate).
type action struct{ enBase, enPast, zh, ja string }

var actions = []action{
	{"roll back the configuration change", "rolled back the configuration change", "回復設定變更", "設定変更をロールバック"},
	{"drain traffic from the affected zone", "drained traffic from the affected zone", "將流量從受影響的可用區移出", "影響を受けたゾーンからトラフィックを退避"},
	{"restart the affected tasks", "restarted the affected tasks", "重新啟動受影響的工作", "影響を受けたタスクを再起動"},
	{"add serving capacity", "added serving capacity", "增加服務容量", "処理容量を追加"},
	{"fail over to the secondary site", "failed over to the secondary site", "容錯移轉至次要站點", "セカンダリサイトへフェイルオーバー"},
	{"disable the new feature flag", "disabled the new feature flag", "停用新的功能旗標", "新しいフィーチャーフラグを無効化"},
	{"block the abusive traffic source", "blocked the abusive traffic source", "封鎖異常流量來源", "異常なトラフィックの送信元をブロック"},
	{"renew the expired certificate", "renewed the expired certificate", "更新過期的憑證", "期限切れの証明書を更新"},
	{"raise the internal quota limits", "raised the internal quota limits", "提高內部配額上限", "内部クォータの上限を引き上げ"},
	{"reroute traffic around the damaged link", "rerouted traffic around the damaged link", "將流量改道避開受損鏈路", "損傷したリンクを迂回するようトラフィックを再ルーティング"},
	{"pause the rollout", "paused the rollout", "暫停推出作業", "ロールアウトを一時停止"},
	{"clear the corrupted cache entries", "cleared the corrupted cache entries", "清除損毀的快取項目", "破損したキャッシュエントリを削除"},
	{"throttle background jobs", "throttled background jobs", "節流背景工作", "バックグラウンドジョブを抑制"},
	{"replace the faulty hardware", "replaced the faulty hardware", "更換故障硬體", "故障したハードウェアを交換"},
	{"restore the data from a snapshot", "restored the data from a snapshot", "從快照還原資料", "スナップショットからデータを復元"},
	{"rebuild the index", "rebuilt the index", "重建索引", "インデックスを再構築"},
	{"revert the schema migration", "reverted the schema migration", "還原結構描述遷移", "スキーマ移行を差し戻し"},
	{"rotate the service account credentials", "rotated the service account credentials", "輪替服務帳戶認證資訊", "サービスアカウントの認証情報をローテーション"},
}

var teams = []tri{
	{"storage SRE team", "儲存 SRE 團隊", "ストレージ SRE チーム"},
	{"networking team", "網路團隊", "ネットワークチーム"},
	{"database team", "資料庫團隊", "データベースチーム"},
	{"traffic team", "流量管理團隊", "トラフィック管理チーム"},
	{"security team", "資安團隊", "セキュリティチーム"},
	{"platform team", "平台團隊", "プラットフォームチーム"},
	{"incident commander", "事件指揮官", "インシデントコマンダー"},
	{"support team", "客服團隊", "サポートチーム"},
	{"release engineering team", "發布工程團隊", "リリースエンジニアリングチーム"},
	{"datacenter operations team", "資料中心營運團隊", "データセンター運用チーム"},
	{"identity team", "身分識別團隊", "ID 基盤チーム"},
	{"on-call engineer", "值班工程師", "オンコールエンジニア"},
}

var severities = []string{"minor", "major", "critical"}

// CauseName returns how the reports of language lang name the cause
// slug, as their titles and summaries say it ("a memory leak", "記憶體洩漏"),
// and false for a cause the generator does not know.
func CauseName(slug, lang string) (string, bool) {
	for _, c := range causes {
		if c.slug == slug && lang == "zh-CN" {
			return simplify(c.in(lang)), true
		}
		if c.slug == slug {
			return c.in(lang), true
		}
	}
	return "", false
}

// CauseSlugs lists the causes the generator draws from.
func CauseSlugs() []string {
	out := make([]string, len(causes))
	for i, c := range causes {
		out[i] = c.slug
	}
	return out
}
