package corpus

import (
	"strconv"
	"strings"
	"time"
)

// English word lists. Order is a popularity ranking: skewed draws favour the
// front of each list, which gives Zipf-like term frequencies.

var enNouns = strings.Fields(`
server request node cluster shard replica queue cache job task worker
service client connection region zone instance table index process
partition host deployment release change configuration certificate
lease lock session token key bucket object file disk volume
request response message event record entry log metric alert dashboard
pipeline stage batch schedule timer deadline timeout retry backoff
thread daemon agent sidecar proxy gateway endpoint listener socket
tenant namespace project account policy role permission credential
snapshot checkpoint manifest heartbeat quorum leader follower election
transaction commit migration schema column row segment block page
buffer pool allocator heap stack frame pointer handle descriptor
container pod image binary package library module plugin extension
flag toggle setting parameter variable template rollout canary build
artifact patch hotfix rollback upgrade version revision branch
router switch link circuit route prefix peer neighbor resolver
nameserver domain record hop path tunnel interface port packet frame
rack machine chassis blade controller firmware kernel driver
hypervisor datacenter building hall aisle cage cable fiber transceiver
probe monitor counter gauge histogram sample trace span dashboard
threshold budget quota limit ceiling headroom watermark backlog
alarm pager ticket escalation handoff shift rotation runbook playbook
procedure checklist drill exercise simulation test suite harness
fixture environment sandbox cutover failover switchover drain
customer user developer operator administrator engineer manager team
vendor partner contractor supplier carrier provider exchange facility
generator battery inverter transformer breaker feeder chiller pump
sensor thermostat fan compressor valve sprinkler panel bus
subscription topic consumer producer broker offset watermark cursor
tombstone compaction merge flush spill scan query plan statement
cursor iterator predicate filter join aggregate projection view
collector scraper exporter forwarder relay mirror replicator
scheduler dispatcher balancer autoscaler supervisor orchestrator
controller reconciler watcher informer admission webhook validator
hash digest checksum signature nonce cipher envelope keyring vault
authority issuer chain bundle keystore truststore principal group
invoice statement report export import archive backup restore
mailbox inbox notification email digest feed webhook callback
console portal dashboard form widget button menu wizard page
flow funnel checkout cart order payment refund ledger balance
stream channel pipe conduit fanout shuffle reducer mapper
epoch term generation sequence counter clock timestamp calendar
window interval period cycle phase burst spike surge storm wave
fault failure defect bug regression exception panic crash hang
deadlock livelock leak stall timeout overflow underflow corruption
mismatch drift skew jitter lag delay gap outage brownout blackout
incident postmortem review retrospective analysis hypothesis
symptom signal indicator anomaly outlier pattern trend baseline
spreadsheet document proposal design specification requirement
milestone deadline roadmap backlog estimate forecast projection
contract agreement obligation commitment guarantee credit
campus site location facility floor room closet cabinet enclosure
uplink downlink backbone spine leaf aggregation edge core
appliance firewall gateway concentrator terminator accelerator
registry catalog inventory directory repository mirror cache
compiler linker interpreter runtime sandbox emulator debugger
profiler tracer sampler analyzer linter formatter scanner
migration backfill reindex rebuild rehash resync rebalance
heartbeat keepalive handshake renegotiation reconnect redirect
header cookie payload body trailer chunk fragment datagram
bitmap bloom sketch trie tree graph vertex heap ring list
shard map lookup mapping assignment placement allocation
reservation claim lease grant ticket voucher coupon token
exporter importer converter encoder decoder parser serializer
thermal humidity airflow vibration voltage current frequency
outlet circuit busway breaker switchgear transfer fuel tank
truck technician contractor courier inspector auditor regulator
rule policy guardrail invariant assertion precondition contract
operation call invocation command instruction directive mandate
dependency dependant consumer caller callee upstream downstream
`)

var enMass = strings.Fields(`
traffic data metadata capacity throughput bandwidth latency telemetry
hardware software firmware storage memory power cooling load contention
congestion churn replication backpressure saturation fragmentation
overhead parallelism concurrency consistency durability availability
observability visibility redundancy isolation tenancy ownership
`)

// Verbs: "base" or "base/past/participle" for irregular ones.
var enVerbs = strings.Fields(`
process handle serve route reject drop retry restart update deploy
replicate cache index flush block throttle evict drain rebalance
migrate reload refresh validate verify compress allocate release
acquire renew expire rotate revoke invalidate schedule dispatch
enqueue dequeue publish consume forward proxy redirect resolve
monitor sample trace export import archive restore snapshot
checkpoint compact merge partition split/split/split shard mirror
overwrite/overwrote/overwritten write/wrote/written read/read/read
send/sent/sent build/built/built rebuild/rebuilt/rebuilt run/ran/run
hold/held/held take/took/taken break/broke/broken find/found/found
keep/kept/kept lose/lost/lost shed/shed/shed spin/spun/spun
feed/fed/fed lead/led/led bring/brought/brought catch/caught/caught
leave/left/left withdraw/withdrew/withdrawn undo/undid/undone
amplify annotate apply audit authenticate authorize balance batch
boot bound buffer cancel cap clamp classify coalesce collect commit
configure connect corrupt decode decommission decrypt degrade delay
delete deprecate detect disable discard distribute duplicate elect
emit enable encode encrypt escalate exceed execute exhaust fail fetch
filter flap halt hash ignore ingest initialize inject inspect install
isolate launch leak limit load lock log mount multiplex negotiate
normalize notify observe overload parse patch pause persist ping poll
populate preempt prefetch probe promote propagate provision prune
purge queue reboot recompute reconcile recover redeploy register
reinstate repair replay report request reroute reserve reset resume
revert sanitize saturate scale scrub seal serialize signal spawn stall
start stop store stream submit suspend synchronize terminate track
transfer translate trigger truncate tune unblock unlock upgrade upload
warm watch wrap absorb accumulate acknowledge activate adjust
aggregate alert analyze append approve assign backfill benchmark
bypass calibrate capture chunk clone compile compute consolidate
convert coordinate correlate debounce deduplicate defer demote
deserialize diagnose disconnect downgrade emulate enforce enroll
estimate evaluate expand extract failover fragment freeze generate
graph heal hydrate identify interrupt invoke journal label lease
linger materialize measure mitigate mutate nudge offload orchestrate
pace paginate pin plan prioritize profile quarantine rate-limit
reassign rebind recycle reformat regenerate reissue reject relocate
remap rename reorder repartition replicate reproduce reschedule
resend reshard resize restrict retire sample segment sequence settle
shadow shift simulate skip snapshot stage stitch strip subscribe
supersede swap tag tally tear test thrash time unpin unregister
unwind vacuum vet wedge widen
`)

var enDouble = map[string]bool{
	"drop": true, "stop": true, "ship": true, "plan": true, "cap": true, "map": true,
	"flag": true, "log": true, "commit": true, "submit": true, "scan": true, "pin": true,
	"trim": true, "swap": true, "tag": true, "strip": true, "wrap": true, "clip": true,
	"skip": true, "grab": true, "jam": true, "plug": true, "snap": true, "step": true,
	"tap": true, "trip": true, "remap": true, "unpin": true, "flap": true, "stall": false,
}

var enAdjectives = strings.Fields(`
affected stale large slow new old primary secondary internal external
regional global local partial full intermittent transient persistent
unexpected sudden gradual elevated degraded delayed duplicate empty
expired faulty healthy unhealthy idle busy hidden implicit explicit
inconsistent incorrect invalid malformed missing orphaned outdated
overloaded pending periodic redundant shared single slow small sparse
static dynamic strict subtle sustained temporary upstream downstream
unrelated unusual urgent valid verbose volatile widespread aggressive
anomalous asymmetric asynchronous synchronous automated manual bounded
unbounded brittle cascading centralized distributed critical minor
cumulative dedicated default dependent deterministic emergency encrypted
ephemeral erroneous excessive fragile heavy immutable mutable incremental
independent isolated latent legacy lightweight limited misconfigured
moderate nested noisy nominal obsolete ongoing parallel serial peak
planned unplanned private public proactive reactive rare recent regular
reliable remote repeated residual resilient routine safe scheduled
significant silent simultaneous standard steady subsequent tight uniform
vulnerable weekly daily hourly nightly monthly quarterly zonal abrupt
accidental adjacent adequate ambiguous ancillary arbitrary auxiliary
benign bursty canonical chronic coarse colocated compressed concurrent
conservative consistent corrupted costly customer-facing dormant dual
early late effective efficient elaborate exclusive expensive
experimental exponential extensive fine-grained fixed frequent fresh
identical immediate inactive inbound outbound indirect ineffective
inefficient initial insufficient invisible irregular lagging linear
lossy low-level high-level marginal mandatory multiple mutual nearby
negligible numerous obscure optional overlapping permanent physical
plausible poor premature previous prolonged random rapid recursive
relevant robust rolling scarce severe similar stable stateful stateless
strong surprising suspicious systemic thorough underlying uncommon
undetected unintended unprecedented unresponsive virtual visible weak
undocumented unmonitored unowned untested unverified unthrottled
oversized undersized overdue premature misrouted mislabeled misaligned
`)

var enAdverbs = strings.Fields(`
quickly briefly gradually eventually immediately automatically manually
partially completely repeatedly silently suddenly temporarily
unexpectedly intermittently consistently continuously correctly
incorrectly inadvertently accidentally deliberately directly easily
effectively entirely explicitly fully independently initially largely
mostly nearly normally occasionally periodically permanently
previously primarily promptly rapidly rarely safely selectively
significantly simultaneously slowly steadily subsequently substantially
successfully typically unintentionally usually visibly abruptly
aggressively briskly cautiously conservatively haphazardly noticeably
prematurely progressively reliably sporadically unevenly
`)

var enCustomers = phrases(`
customers
enterprise customers
developers
end users
API clients
mobile users
tenants
partners
internal teams
small-business customers
free-tier users
resellers
game studios
retail merchants
`)

var enWorkloads = phrases(`
batch jobs
streaming pipelines
scheduled exports
CI builds
nightly backups
checkout flows
payment authorizations
data imports
report generation jobs
webhook deliveries
model training jobs
video transcoding jobs
database migrations
log ingestion pipelines
analytics dashboards
search indexing jobs
email campaigns
mobile push notifications
`)

var enMonitors = phrases(`
automated alerting
synthetic probes
black-box monitoring
the service dashboards
customer reports
internal canaries
the SLO burn-rate alerts
the network telemetry
the error-budget reports
the latency heat maps
the on-call dashboards
the capacity forecasts
`)

var enErrors = phrases(`
HTTP 503 errors
HTTP 500 responses
DEADLINE_EXCEEDED errors
connection resets
UNAVAILABLE errors
HTTP 429 responses
TLS handshake failures
permission denied errors
empty responses
timeouts after 30 seconds
HTTP 502 responses
INTERNAL errors
RESOURCE_EXHAUSTED errors
truncated responses
`)

var enContexts = phrases(`
during a planned maintenance window
shortly after a routine deployment
at the daily traffic peak
while a capacity rebalance was in progress
in the middle of a database migration
under sustained holiday load
after a kernel upgrade on part of the fleet
while the secondary site was drained for maintenance
soon after an unrelated incident had been mitigated
during the weekly certificate rotation
as the nightly batch window opened
while a new zone was being brought online
during a scheduled failover drill
in the hours after a large customer migration
shortly before a regional public holiday
while engineers were rolling out a security patch
during an end-of-quarter reporting rush
while a storm was affecting the local power grid
a few minutes after a marketing campaign launched
during a routine firmware update
`)

type verbForms struct{ base, past, pp, ing, s string }

func enVerbForms(spec string) verbForms {
	parts := strings.Split(spec, "/")
	b := parts[0]
	v := verbForms{base: b, s: enPlural(b), ing: enIng(b)}
	if len(parts) == 3 {
		v.past, v.pp = parts[1], parts[2]
		return v
	}
	switch {
	case enDouble[b]:
		v.past = b + b[len(b)-1:] + "ed"
	case strings.HasSuffix(b, "e"):
		v.past = b + "d"
	case strings.HasSuffix(b, "y") && !isVowel(b[len(b)-2]):
		v.past = b[:len(b)-1] + "ied"
	default:
		v.past = b + "ed"
	}
	v.pp = v.past
	return v
}

func enIng(b string) string {
	switch {
	case enDouble[b]:
		return b + b[len(b)-1:] + "ing"
	case strings.HasSuffix(b, "ee") || strings.HasSuffix(b, "ye"):
		return b + "ing"
	case strings.HasSuffix(b, "ie"):
		return b[:len(b)-2] + "ying"
	case strings.HasSuffix(b, "e") && len(b) > 2:
		return b[:len(b)-1] + "ing"
	}
	return b + "ing"
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

var enIrregularPlurals = map[string]string{
	"leaf": "leaves", "analysis": "analyses", "hypothesis": "hypotheses", "chassis": "chassis",
}

func enPlural(n string) string {
	if p, ok := enIrregularPlurals[n]; ok {
		return p
	}
	switch {
	case strings.HasSuffix(n, "s") || strings.HasSuffix(n, "x") || strings.HasSuffix(n, "z") ||
		strings.HasSuffix(n, "ch") || strings.HasSuffix(n, "sh"):
		return n + "es"
	case strings.HasSuffix(n, "y") && len(n) > 1 && !isVowel(n[len(n)-2]):
		return n[:len(n)-1] + "ies"
	}
	return n + "s"
}

func enArticle(word string) string {
	w := strings.ToLower(word)
	switch {
	case strings.HasPrefix(w, "uni") || strings.HasPrefix(w, "use") || strings.HasPrefix(w, "usu") ||
		strings.HasPrefix(w, "eu") || strings.HasPrefix(w, "one"):
		return "a"
	case strings.HasPrefix(w, "hour") || strings.HasPrefix(w, "honest"):
		return "an"
	case w != "" && isVowel(w[0]):
		return "an"
	}
	return "a"
}

var enMonths = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

func buildEN() *lexicon {
	verbs := make([]verbForms, len(enVerbs))
	for i, s := range enVerbs {
		verbs[i] = enVerbForms(s)
	}
	plurals := make([]string, len(enNouns))
	for i, n := range enNouns {
		plurals[i] = enPlural(n)
	}
	verb := func(f func(v verbForms) string) slotFn {
		return func(w *renderer) { w.str(f(verbs[skew(w.r, len(verbs))])) }
	}
	m := commonSlots().with(slotMap{
		"N":  listSlot(enNouns),
		"Ns": listSlot(plurals),
		"A":  listSlot(enAdjectives),
		"aA": func(w *renderer) {
			a := enAdjectives[skew(w.r, len(enAdjectives))]
			w.str(enArticle(a) + " " + a)
		},
		"aN": func(w *renderer) {
			n := enNouns[skew(w.r, len(enNouns))]
			w.str(enArticle(n) + " " + n)
		},
		"V":    verb(func(v verbForms) string { return v.past }),
		"Vb":   verb(func(v verbForms) string { return v.base }),
		"Vs":   verb(func(v verbForms) string { return v.s }),
		"Ving": verb(func(v verbForms) string { return v.ing }),
		"Vpp":  verb(func(v verbForms) string { return v.pp }),
		"Adv":  listSlot(enAdverbs),
		"MASS": listSlot(enMass),
		"CUST": listSlot(enCustomers),
		"WL":   listSlot(enWorkloads),
		"MON":  listSlot(enMonitors),
		"ERR":  listSlot(enErrors),
		"CTX":  listSlot(enContexts),
	})
	subTemplates(m, map[string][]string{
		"NP": {
			"the {A} {N}", "{aA} {N}", "the {N} {N}", "{A} {Ns}", "the {Ns} of the {C}",
			"every {N} in the {N}", "{Ns} on the {A} {N}", "the {N} for each {N}",
			"the {MASS} {N}", "{Ns} from the {C}", "the {A} {MASS}",
		},
	})
	p := func(src ...string) []tmpl { return parseAll(src, m) }

	lx := &lexicon{
		tag:      "en",
		headings: [4]string{"Impact", "Root cause", "Remediation", "Timeline"},
		sep:      " ",
		count:    countWords,
		lo:       840, hi: 1150,
		short: [2]int{150, 400},
		long:  [2]int{2500, 5000},
		table: [2][]string{
			{"Region", "Peak error rate", "Impact window", "Failed requests"},
			{"Product", "Symptom", "Peak error rate", "p99 latency"},
		},
		total: "Total",
		join: func(l []string) string {
			switch len(l) {
			case 1:
				return l[0]
			case 2:
				return l[0] + " and " + l[1]
			}
			return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
		},
		date: func(t time.Time) string {
			return enMonths[t.Month()-1] + " " + strconv.Itoa(t.Day()) + ", " + strconv.Itoa(t.Year())
		},
		dur: func(d time.Duration) string {
			mins := int(d / time.Minute)
			h, mm := mins/60, mins%60
			switch {
			case h == 0:
				return plural(mm, "minute")
			case mm == 0:
				return plural(h, "hour")
			}
			return plural(h, "hour") + " and " + plural(mm, "minute")
		},
		mins: func(n int) string { return plural(n, "minute") },
		secs: func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + " seconds" },
	}

	lx.titles = p(
		"{FM} for {P1} in {R1}",
		"{P1}: {FM} after {CAUSE0}",
		"{FM} for {P1} and {P2} in {R1}",
		"{FM} in {P1} caused by {CAUSE0}",
		"{FM} for {P1} across {Rs}",
	)
	lx.summaries = p(
		"From {BEGIN} to {END} ({TZ}) on {DATE}, {P1} in {Rs} had {FM} because of {CAUSE0}. About {AFF}% of requests were affected.",
		"For {DUR}, {Ps} saw {FM} in {Rs}. The trigger was {CAUSE0}, and engineers {ACT0} to restore service.",
		"{CAUSE0} caused {FM} for {Ps} in {Rs} for {DUR}; roughly {AFF}% of requests failed or were delayed.",
	)
	lx.events[evStart] = p(
		"Onset of {bFM} for {bP} in {bR}.",
		"The {bM} of {bP} in {bR} rises sharply.",
		"First errors from the {bC} appear in {bR}.",
		"The {bC} starts to fail after {bCAUSE}.",
	)
	lx.events[evDetect] = p(
		"Automated monitoring alerts on the {bM} of {bP}.",
		"The on-call engineer for the {bC} is paged.",
		"Customer reports of {bFM} in {bR} reach support.",
	)
	lx.events[evDeclare] = p(
		"An incident is declared and the {bTeam} takes command.",
		"Incident severity is raised and the {bTeam} is engaged.",
	)
	lx.events[evStatus] = p(
		"First status page update is posted for {bP}.",
		"Status page update: engineers are investigating {bFM} in {bR}.",
		"Status page update: mitigation for {bP} is in progress.",
	)
	lx.events[evInvestigate] = p(
		"Engineers identify the {bC} as the source of the errors.",
		"A recent change to the {bC} is identified as the likely trigger.",
		"Engineers correlate the rise in {bM} with {bCAUSE}.",
	)
	lx.events[evEscalate] = p(
		"The {bTeam} joins the response.",
		"The incident is escalated to the {bTeam} responsible for the {bC}.",
	)
	lx.events[evMitStart] = p(
		"Engineers begin to {bACTb}.",
		"A fix for the {bC} is prepared and starts rolling out in {bR}.",
	)
	lx.events[evPartial] = p(
		"The error rate in {bR} falls to {bPct}%.",
		"The {bM} of {bP} improves as traffic moves away from the {bC}; {bPct}% of requests still fail.",
		"{bPct}% of {bP} requests are still failing, down from the peak.",
	)
	lx.events[evMitigated] = p(
		"Engineers {bACT}, ending the customer impact.",
		"Error rates for {bP} in {bR} return to normal.",
		"The {bC} is healthy again; customer impact ends.",
	)
	lx.events[evPost] = p(
		"Final status page update: the incident is resolved.",
		"The backlog of delayed {bP} work is fully processed.",
		"The incident is declared resolved for all customers.",
		"Monitoring confirms that the {bM} has been stable for an hour.",
	)
	lx.items = p(
		"Add automated validation of {bC} configuration before it is pushed to production.",
		"Roll out changes to the {bC} one zone at a time, halting automatically when the {bM} regresses.",
		"Increase the capacity reserved for the {bC} in {bR}.",
		"Add a per-client rate limit in front of the {bC}.",
		"Alert on the {bM} of the {bC} with a lower threshold.",
		"Make {bP} degrade gracefully when the {bC} is unavailable.",
		"Add regression tests that cover {bCAUSE}.",
		"Reduce the time needed to fail over the {bC} to under five minutes.",
		"Update the runbook for {bP} with the steps used during this incident.",
		"Audit every certificate and credential used by the {bC} for upcoming expiry.",
		"Add exponential backoff with jitter to all clients of the {bC}.",
		"Separate the {bC} that serves {bP} from the one that serves internal traffic.",
		"Publish a status page update for {bP} within 15 minutes of detection.",
		"Run a disaster recovery exercise in {bR} that simulates {bCAUSE}.",
		"Cap the size of the {bC} backlog and shed load once the cap is reached.",
		"Show the {bM} of each region on a single dashboard for the {bTeam}.",
		"Remove the {bC} from the critical serving path of {bP}.",
		"Extend canary analysis to include the {bM} of {bP}.",
	)
	lx.bullet = p("**{bP}**: {bFM} for about {bPct}% of requests in {bR}.")
	lx.footnote = p(
		"The {bC} in {bR} had been scheduled for replacement since {DATE2}.",
		"A similar failure mode of the {bC} was described in an internal review on {DATE2}.",
		"This behaviour of the {bC} is documented, but it was not covered by the monitoring in {bR}.",
	)
	lx.itemsIntro = p(
		"We are taking the following actions to prevent a recurrence and to shorten the time to mitigation:",
		"The following action items have been identified:",
		"To prevent similar incidents, we are completing these changes:",
	)
	lx.closing = p(
		"We apologize for the impact this incident had on customers of {P1}.",
		"We understand how important {P1} is to our customers and apologize for the disruption.",
		"Progress on these items is reviewed weekly until all of them are complete.",
	)
	lx.impactOpen = p(
		"From {BEGIN} to {END} local time on {DATE}, {CUST} using {P1} in {Rs} experienced {FM}.",
		"On {DATE}, {P1} had {FM} in {Rs} for {DUR}, starting at {BEGIN} local time.",
		"For {DUR} beginning at {BEGIN} on {DATE}, {CUST} of {Ps} saw {FM}.",
	)
	lx.impact = p(
		"During the incident, {pct}% of {P} requests in {R} failed with {ERR}.",
		"The {M} for {P} rose from a baseline of {msLow} to {msHigh} at the peak.",
		"Approximately {pct}% of {CUST} in {R} were affected, although {A} {Ns} continued to {Vb} {Adv}.",
		"{WL} that depended on {P} were delayed by up to {mins}.",
		"{CUST} who attempted to {Vb} {NP} saw {fm} until the {C} recovered.",
		"No data was lost, but {WL} submitted during the incident had to be retried manually.",
		"Existing {Ns} were not affected; only new {Ns} that needed the {C} were impacted.",
		"The impact was {Adv} limited to {R}, where the {A} {C} handles {A} traffic for {P}.",
		"Some {CUST} also observed {fm} in {P} because it shares the {C} with other services.",
		"Internal tools that {Vb} {NP} were {Adv} degraded, which slowed the response.",
		"The {MON} showed the {M} at {pct}% above normal for most of the incident.",
		"Users of the {P} console could not {Vb} {NP} and received {ERR} instead.",
		"In total, {big} requests failed and another {big} completed with latency above {msHigh}.",
		"{CUST} with {A} {Ns} saw the most severe impact, because every {N} had to {Vb} the {C} before serving traffic.",
		"Retries from clients {Adv} amplified the load on the {C}, which extended the impact by roughly {mins}.",
		"Services in other regions were unaffected, although cross-region calls into {R} were delayed for about {mins}.",
		"Because {P} {Vs} {NP} in the background, {A} {Ns} produced during the window became visible only after recovery.",
		"Billing and {MASS} for the affected period were not impacted.",
		"Mobile and web clients {Adv} fell back to cached {Ns}, so many users did not notice the disruption.",
		"The error budget for {P} in {R} was exhausted for the month.",
		"Support received {n} cases from {CUST} reporting {fm}.",
		"{CTX}, {P} began returning {ERR} to a growing share of {CUST}.",
		"Requests that reached {aA} {N} succeeded, while those routed through the {C} {Adv} failed.",
		"The {M} stayed within its objective for {CUST} outside {R}.",
		"Some {WL} were {Vpp} twice after recovery, which produced duplicate {Ns} for a small number of {CUST}.",
		"Dashboards for {P} showed {A} {Ns} for up to {mins}, which confused several {CUST}.",
		"At the peak, {pct}% of {Ns} handled by the {C} in {R} were affected.",
		"{CUST} relying on {A} {Ns} saw {fm} for longer, because their {Ns} are {Vpp} less often.",
		"About {pctf}% of stored {Ns} needed to be {Vpp} again once the {C} was healthy.",
		"The incident also delayed {WL} for {CUST} in {R} by {mins} on average.",
		"Write operations were affected more than reads, since every write has to {Vb} {NP} first.",
		"Customers of {P} who had enabled {A} {Ns} were shielded from most of the errors.",
	)
	lx.root = p(
		"The incident was caused by {CAUSE} in the {C} that serves {P1}.",
		"At {BEGIN}, {CAUSE} caused the {C} to {Vb} {NP}, and requests began to queue.",
		"The {C} {Adv} {V} {NP} while {Ving} {NP}, which left the {N} in {aA} state.",
		"A change intended to {Vb} {NP} was rolled out to {R}; it contained a defect that {V} {NP} under {A} load.",
		"This change had passed {A} testing in staging, but the staging {C} does not {Vb} {NP} the way production does.",
		"When the {M} exceeded its threshold, the {C} began to {Vb} {Ns} instead of {Ving} them.",
		"The {A} {N} was designed to {Vb} {NP}, but {aA} {N} {V} the {N} before it could {Vb} the {N}.",
		"As a result, every {N} in {R} {V} its {Ns} at the same time, producing a surge of {Ns} against the {C}.",
		"The {C} is normally protected by a rate limiter, but the limit was configured per {N} rather than per {N}.",
		"{CAUSE} meant that the {C} could no longer {Vb} {NP} within its deadline of {ms}.",
		"Engineers later found that the {N} used by the {C} had been {A} since {DATE2}, a latent condition that only mattered once {NP} {V} {NP}.",
		"The failure was amplified by {A} retries: clients {Adv} {V} failed calls, multiplying the load on the {C} by a factor of {x}.",
		"Health checks continued to report the {C} as healthy because they only {Vb} {NP} and not the {N} path.",
		"The automated rollback did not trigger because the {M} stayed just below the {pct}% threshold that the rollout system watches.",
		"A contributing factor was that the {C} and the {C2} shared the same {N}, so the failure of one {Adv} {V} the other.",
		"The {TEAM} initially suspected the {C2}, which delayed the correct diagnosis by about {mins}.",
		"Log volume from the {C} grew by a factor of {x}, which filled the local {N} and slowed {Ving} further.",
		"Internally, {P1} stores {NP} in the {C}; each request needs a fresh {N} from it, so any stall becomes visible to users within seconds.",
		"The {N} format changed in a recent release, and older {Ns} {Adv} {V} the new {Ns} as {A}.",
		"Because the change was applied to all zones in {R} at once, there was no healthy capacity left to absorb the {A} traffic.",
		"Monitoring did detect the anomaly, but the alert was routed to {aA} queue and was not acknowledged for {mins}.",
		"The underlying defect had existed since the {C} was introduced; {CAUSE} was the first event to exercise it at this scale.",
		"Once the {N} pool was exhausted, new {Ns} were rejected with {ERR}, while existing {Ns} continued to {Vb} {Adv}.",
		"The {C} {V} {aA} {N} that it had cached from the {C2}, and did not {Vb} it until the cache entry expired.",
		"In {R}, the problem was compounded by {CAUSE}, which reduced the available capacity by {pct}%.",
		"Engineers {V} the {N} and {V} that {NP} had exceeded the {N} limit.",
		"The {A} {N} in the {C} stopped responding because {NP} {V} {NP} while {Ving} {NP}.",
		"{CTX}, the {C} {V} {NP}, and the {M} climbed within {mins}.",
		"Each {N} in the {C} keeps {aA} {N} in memory; when {CAUSE} occurred, these {Ns} were {Adv} {Vpp}.",
		"The {TEAM} had {Vpp} the {N} two weeks earlier, but the new {N} was never {Vpp} against {A} {Ns}.",
		"Because {Ns} are {Vpp} {Adv}, the {C2} kept sending work to {Ns} that could not {Vb} it.",
		"Under normal conditions the {C} {Vs} about {big} {Ns} per second; during the incident it {V} fewer than {n}.",
		"The {M} of the {C} is sensitive to {MASS}, and {CAUSE} increased it well beyond the tested range.",
		"Our review found that {A} {Ns} had {Adv} {Vpp} the {N} for months without visible effect.",
		"The first {N} to fail was in {R}; the {C} then {V} its {Ns} to the remaining {Ns}, which were already near their limit.",
		"A {N} check that should have {Vpp} the change was {Adv} disabled during an earlier migration.",
		"The {C2} depends on the {C} for {MASS}, so when the {C} {V} {NP}, the {C2} {Adv} {V} as well.",
		"Traces show that {pct}% of the failed requests spent most of their time {Ving} {NP} in the {C}.",
	)
	lx.remedOpen = p(
		"To mitigate the impact, the {TEAM} {ACT0}, and the {M} returned to normal within {mins}.",
		"The {TEAM} {ACT0} at {END}, which ended the customer impact.",
		"Mitigation began once engineers decided to {ACT0b}; the {M} recovered over the next {mins}.",
	)
	lx.remed = p(
		"Full recovery required {Ving} {NP} in {R}, which took an additional {mins}.",
		"Several of these items are already complete; the remaining ones are tracked in our {A} {N} process.",
		"We will also {Vb} {NP} so that {A} {Ns} cannot overload the {C} again.",
		"The {TEAM} has {Vpp} the runbook for the {C} to include {Ving} {NP}.",
		"Changes to the {C} will now be rolled out zone by zone, with an automated check of the {M} between stages.",
		"We are adding alerts on the {M} of the {C} so that a similar {N} is detected within {mins}.",
		"Engineers also {V} {NP} to remove the {A} {N} that had accumulated during the incident.",
		"After mitigation, the {TEAM} {V} {NP} and confirmed that no {Ns} had been {Vpp}.",
		"We have already {Vpp} the {N} that allowed the change to reach every zone at once.",
		"Longer term, the {C} will {Vb} {NP} independently of the {C2}.",
		"The {TEAM} is reviewing every {N} that depends on the {C} in {R}.",
		"Until these changes are complete, changes to the {C} require approval from the {TEAM}.",
		"We will {Vb} {NP} before the next peak season.",
		"A follow-up review will check whether {A} {Ns} elsewhere {Vb} the same {N}.",
		"{CUST} who were affected can contact support for help with {Ving} {NP}.",
	)
	return lx
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
