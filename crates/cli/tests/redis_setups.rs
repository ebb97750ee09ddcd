//! Single use on the Redis setups people run, with real redis-server and redis-sentinel
//! processes: an eviction policy at start and at runtime under a cache flood, a full
//! `noeviction` Redis, a failover to a replica whose replication link stalled (detected, and
//! with `--record-sync`), a Sentinel failover, and a Redis Cluster's shard failover. In every
//! case no used ticket is accepted again, every claim is answered, and new flows complete
//! within 10 s of the fault.
//!
//! Tickets here are what the record sees of them: a nonce and when it was issued, on the real
//! clock (the record's watch reads it too). Needs Debian's redis-server (scripts/setup.sh
//! installs it); skipped without it unless MRTR_REQUIRE_REDIS is set, as the test command sets.

mod common;

use common::proxy::Proxy;
use common::redis_server::{free_cluster_port, free_port, Redis};
use mrtr::clock::now_ms;
use mrtr::record::{Record, RecordOptions, RecordSpec, RecordSync, RedisOptions};
use mrtr_ticket::{Refused, ReplayRecord};
use std::time::{Duration, Instant};

const SKEW: u64 = 1_000;
/// How long after a fault new flows must complete again.
const RECOVERY: Duration = Duration::from_secs(10);

fn open(address: &str, sync: Option<RecordSync>) -> Result<Record, String> {
    open_with(address, RedisOptions { ca: None, sync })
}

fn open_with(address: &str, redis: RedisOptions) -> Result<Record, String> {
    let options = RecordOptions { skew_ms: SKEW, redis };
    Record::open(&RecordSpec::Redis(address.to_owned()), now_ms(), &options)
}

fn fresh_nonce(label: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!("{label}-{}-{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
}

/// One request's claim of the ticket `(nonce, iat)`.
fn claim(record: &Record, nonce: &str, iat: u64) -> Result<(), Refused> {
    record.for_request().expect("a record").check_and_insert(nonce, iat, iat + 600_000, now_ms())
}

/// `n` flows minted now and redeemed: each claim must succeed.
fn redeem(record: &Record, label: &str, n: usize) -> Vec<(String, u64)> {
    (0..n)
        .map(|_| {
            let (nonce, iat) = (fresh_nonce(label), now_ms());
            assert_eq!(claim(record, &nonce, iat), Ok(()), "{nonce}");
            (nonce, iat)
        })
        .collect()
}

/// The used tickets a new request redeemed again: must be none.
fn accepted_again(record: &Record, used: &[(String, u64)]) -> Vec<String> {
    used.iter().filter(|(nonce, iat)| claim(record, nonce, *iat).is_ok()).map(|(nonce, _)| nonce.clone()).collect()
}

/// Waits until `batch` flows minted at once all complete; says how long that took from `since`.
fn flows_complete_again(record: &Record, since: Instant, batch: usize) -> Duration {
    loop {
        let minted = now_ms();
        let outcomes: Vec<Result<(), Refused>> =
            (0..batch).map(|_| claim(record, &fresh_nonce("fresh"), minted)).collect();
        if outcomes.iter().all(Result::is_ok) {
            return since.elapsed();
        }
        assert!(since.elapsed() < RECOVERY, "new flows still refused {RECOVERY:?} after the fault: {outcomes:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn unavailable(outcome: &Result<(), Refused>, words: &str) -> bool {
    matches!(outcome, Err(Refused::Unavailable(why)) if why.contains(words))
}

#[test]
fn a_redis_that_may_evict_fails_the_start_with_the_fix() {
    for policy in ["volatile-lru", "allkeys-lru", "volatile-ttl"] {
        let Some(redis) = Redis::start_with(&["--maxmemory", "64mb", "--maxmemory-policy", policy]) else { return };
        let why = open(&redis.url, None).expect_err("an evicting Redis");
        assert!(why.contains(&format!("maxmemory-policy is {policy}")), "{why}");
        assert!(why.contains("Set maxmemory-policy to noeviction"), "{why}");
    }
    // Without maxmemory nothing is evicted, whatever the policy says.
    let Some(redis) = Redis::start_with(&["--maxmemory-policy", "allkeys-lru"]) else { return };
    assert!(open(&redis.url, None).is_ok());
}

/// A cache flood from another application: 40,000 keys of 512 bytes, with an expiry.
fn flood(redis: &Redis, label: &str) {
    let mut connection = redis::Client::open(redis.url.as_str()).and_then(|c| c.get_connection()).expect("Redis");
    let value = "x".repeat(512);
    for chunk in 0..40 {
        let mut pipe = redis::pipe();
        for i in 0..1_000 {
            pipe.cmd("SET").arg(format!("cache:{label}:{chunk}:{i}")).arg(&value).arg("EX").arg(3_600).ignore();
        }
        // A full noeviction Redis refuses the flood's writes: that is the point of the test.
        let _ = pipe.query::<()>(&mut connection);
    }
}

#[test]
fn evictions_under_a_cache_flood_accept_no_used_ticket_again() {
    for policy in ["volatile-lru", "allkeys-lru"] {
        let Some(redis) = Redis::start() else { return };
        let record = open(&redis.url, None).expect("a noeviction Redis");
        let used = redeem(&record, policy, 50);
        // The policy is changed at runtime and the cache floods Redis past its maxmemory.
        let used_memory: u64 = redis.info("memory", "used_memory").parse().expect("used_memory");
        redis.query::<()>(&["CONFIG", "SET", "maxmemory-policy", policy]).expect("CONFIG SET");
        redis.query::<()>(&["CONFIG", "SET", "maxmemory", &(used_memory + 4_000_000).to_string()]).expect("set");
        flood(&redis, policy);
        let evicted: u64 = redis.info("stats", "evicted_keys").parse().expect("evicted_keys");
        assert!(evicted > 0, "{policy}: the flood evicted keys");
        // While Redis may evict, every claim is refused, honest or not, saying why.
        let during = claim(&record, &fresh_nonce("during"), now_ms());
        assert!(unavailable(&during, &format!("maxmemory-policy {policy}")), "{during:?}");
        assert_eq!(accepted_again(&record, &used), Vec::<String>::new(), "{policy}, during the flood");
        // The operator puts noeviction back: the record knows it forgot, and refuses them all.
        redis.query::<()>(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]).expect("CONFIG SET");
        let fixed = Instant::now();
        assert_eq!(accepted_again(&record, &used), Vec::<String>::new(), "{policy}, after the flood");
        let took = flows_complete_again(&record, fixed, 10);
        println!("eviction, {policy}: {evicted} keys evicted; new flows complete {took:?} after the fix");
    }
}

#[test]
fn a_full_noeviction_redis_refuses_claims_and_recovers_when_memory_frees() {
    let Some(redis) = Redis::start() else { return };
    let record = open(&redis.url, None).expect("Redis");
    let used = redeem(&record, "full", 20);
    let used_memory: u64 = redis.info("memory", "used_memory").parse().expect("used_memory");
    redis.query::<()>(&["CONFIG", "SET", "maxmemory", &(used_memory + 2_000_000).to_string()]).expect("set");
    flood(&redis, "full");
    // Full: what it holds is over its maxmemory (a flood stops just short of it).
    let held: u64 = redis.info("memory", "used_memory").parse().expect("used_memory");
    redis.query::<()>(&["CONFIG", "SET", "maxmemory", &(held - 500_000).to_string()]).expect("set");
    let full = claim(&record, &fresh_nonce("full"), now_ms());
    assert!(unavailable(&full, "OOM"), "a full Redis refuses the claim: {full:?}");
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    // The cache's keys are deleted: memory frees, claims go through, nothing was forgotten.
    let mut connection = redis::Client::open(redis.url.as_str()).and_then(|c| c.get_connection()).expect("Redis");
    let keys: Vec<String> = redis::cmd("KEYS").arg("cache:*").query(&mut connection).expect("KEYS");
    for chunk in keys.chunks(1_000) {
        let _: () = redis::cmd("UNLINK").arg(chunk).query(&mut connection).expect("UNLINK");
    }
    let freed = Instant::now();
    flows_complete_again(&record, freed, 10);
    for (nonce, iat) in &used {
        assert!(matches!(claim(&record, nonce, *iat), Err(Refused::AlreadyUsed(_))), "{nonce} remembered");
    }
}

/// A primary, its replica fed through a relay that can stall, and the one address the
/// replicas of mrtr serve reach "the primary" by, which moves on failover.
struct Failover {
    primary: Redis,
    replica: Redis,
    link: Proxy,
    endpoint: Proxy,
}

impl Failover {
    fn start() -> Option<Failover> {
        let primary = Redis::start_with(&["--repl-diskless-sync-delay", "0"])?;
        let link = Proxy::start(primary.port());
        let replica = Redis::start_with(&["--replicaof", "127.0.0.1", &link.port.to_string()])?;
        let endpoint = Proxy::start(primary.port());
        let up = Instant::now();
        while replica.info("replication", "master_link_status") != "up" {
            assert!(up.elapsed() < Duration::from_secs(10), "the replica did not sync");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Failover { primary, replica, link, endpoint })
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.endpoint.port)
    }

    /// The primary dies, the replica is promoted, the address moves to it.
    fn fail_over(&mut self) -> Instant {
        self.primary.stop();
        self.replica.query::<()>(&["REPLICAOF", "NO", "ONE"]).expect("promoted");
        self.endpoint.point_to(self.replica.port());
        Instant::now()
    }
}

#[test]
fn a_failover_to_a_replica_that_lagged_accepts_no_used_ticket_again() {
    let Some(mut setup) = Failover::start() else { return };
    let record = open(&setup.url(), None).expect("the primary");
    let mut used = redeem(&record, "replicated", 20);
    // The replication link stalls: the next 20 claims never reach the replica.
    setup.link.hold(true);
    used.extend(redeem(&record, "lagged", 20));
    let failed = setup.fail_over();
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    let took = flows_complete_again(&record, failed, 10);
    println!("failover, detected: new flows complete {took:?} after the failover");
}

#[test]
fn record_sync_refuses_what_the_replica_lacks_and_loses_nothing() {
    let Some(mut setup) = Failover::start() else { return };
    let sync = RecordSync { replicas: 1, wait_ms: 300 };
    let record = open(&setup.url(), Some(sync)).expect("a primary with its replica");
    let mut used = redeem(&record, "synced", 20);
    // The link stalls: a claim the replica does not acknowledge is taken back and refused.
    setup.link.hold(true);
    let stalled: Vec<(String, u64)> = (0..5).map(|_| (fresh_nonce("stalled"), now_ms())).collect();
    for (nonce, iat) in &stalled {
        let outcome = claim(&record, nonce, *iat);
        assert!(unavailable(&outcome, "acknowledged"), "{outcome:?}");
    }
    // The link is back: those tickets were not spent, and their flows complete.
    setup.link.hold(false);
    let back = Instant::now();
    loop {
        let outcome = claim(&record, &stalled[0].0, stalled[0].1);
        if outcome.is_ok() {
            break;
        }
        assert!(back.elapsed() < RECOVERY, "{outcome:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    for (nonce, iat) in &stalled[1..] {
        assert_eq!(claim(&record, nonce, *iat), Ok(()), "{nonce} was taken back, not spent");
    }
    used.extend(stalled);
    used.extend(redeem(&record, "synced-again", 10));
    let failed = setup.fail_over();
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    // The promoted replica has no replica of its own until the operator attaches one: until
    // then every claim is refused (fail closed), and after it new flows complete.
    let outcome = claim(&record, &fresh_nonce("alone"), now_ms() + SKEW + 10);
    assert!(unavailable(&outcome, "acknowledged"), "{outcome:?}");
    let _attached = Redis::start_with(&["--replicaof", "127.0.0.1", &setup.replica.port().to_string()]);
    flows_complete_again(&record, failed, 10);
    // Without --record-sync a stalled replica is not waited for.
    assert!(open(&setup.url(), Some(RecordSync { replicas: 2, wait_ms: 100 })).is_err(), "too few replicas");
}

/// A Sentinel watching `primary` (quorum 2 of 3), quick to act.
fn sentinel(primary: u16) -> Option<Redis> {
    let port = free_port();
    let conf = std::env::temp_dir().join(format!("mrtr-sentinel-{}-{port}.conf", std::process::id()));
    let text = format!(
        "sentinel monitor main 127.0.0.1 {primary} 2\nsentinel down-after-milliseconds main 1000\n\
         sentinel failover-timeout main 4000\nsentinel parallel-syncs main 1\n"
    );
    std::fs::write(&conf, text).expect("a Sentinel configuration");
    Redis::start_on_with(port, &[&conf.to_string_lossy(), "--sentinel"])
}

#[test]
fn a_sentinel_failover_accepts_no_used_ticket_again() {
    let Some(mut primary) = Redis::start_with(&["--repl-diskless-sync-delay", "0"]) else { return };
    let replica = Redis::start_with(&["--replicaof", "127.0.0.1", &primary.port().to_string()]).expect("a replica");
    let sentinels: Vec<Redis> = (0..3).map(|_| sentinel(primary.port()).expect("a Sentinel")).collect();
    // The Sentinels know the replica before the primary fails.
    let known = Instant::now();
    while sentinels
        .iter()
        .any(|s| s.query::<Vec<redis::Value>>(&["SENTINEL", "REPLICAS", "main"]).map_or(true, |r| r.is_empty()))
    {
        assert!(known.elapsed() < Duration::from_secs(15), "the Sentinels did not find the replica");
        std::thread::sleep(Duration::from_millis(100));
    }
    let hosts: Vec<String> = sentinels.iter().map(|s| format!("127.0.0.1:{}", s.port())).collect();
    let address = format!("redis+sentinel://{}/main", hosts.join(","));
    let record = open(&address, None).expect("the primary the Sentinels name");
    let used = redeem(&record, "sentinel", 30);
    primary.stop();
    let failed = Instant::now();
    let took = flows_complete_again(&record, failed, 10);
    assert_eq!(replica.info("replication", "role"), "master", "the Sentinels promoted the replica");
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    println!("Sentinel: new flows complete {took:?} after the primary died");
}

#[test]
fn a_cluster_shard_failover_accepts_no_used_ticket_again() {
    let cluster = ["--cluster-enabled", "yes", "--cluster-node-timeout", "1000", "--repl-diskless-sync-delay", "0"];
    let Some(first) = Redis::start_on_with(free_cluster_port(), &cluster) else { return };
    let mut nodes = vec![first];
    nodes.extend((0..5).map(|_| Redis::start_on_with(free_cluster_port(), &cluster).expect("a cluster node")));
    let addresses: Vec<String> = nodes.iter().map(|n| format!("127.0.0.1:{}", n.port())).collect();
    let created = std::process::Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addresses)
        .args(["--cluster-replicas", "1", "--cluster-yes"])
        .output()
        .expect("redis-cli");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stdout));
    let formed = Instant::now();
    while nodes
        .iter()
        .any(|n| n.query::<String>(&["CLUSTER", "INFO"]).map_or(true, |i| !i.contains("cluster_state:ok")))
    {
        assert!(formed.elapsed() < Duration::from_secs(20), "the cluster did not form");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Every replica has its primary's data before a primary fails (else it may not take over).
    while nodes
        .iter()
        .any(|n| n.info("replication", "role") == "slave" && n.info("replication", "master_link_status") != "up")
    {
        assert!(formed.elapsed() < Duration::from_secs(20), "the replicas did not sync");
        std::thread::sleep(Duration::from_millis(100));
    }
    let address = format!("redis+cluster://{}", addresses[..3].join(","));
    let record = open(&address, None).expect("the cluster");
    let used = redeem(&record, "cluster", 96);
    // The first primary (created first: it holds slots) dies; its replica takes over.
    let primaries: Vec<usize> =
        (0..nodes.len()).filter(|&i| nodes[i].info("replication", "role") == "master").collect();
    let victim = primaries[0];
    nodes[victim].stop();
    let failed = Instant::now();
    let took = flows_complete_again(&record, failed, 32);
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    println!("cluster: new flows complete {took:?} after a shard's primary died");
}

/// A certificate authority and a server certificate for 127.0.0.1, made by openssl for the run.
fn certificates(dir: &std::path::Path) -> Option<()> {
    let run = |args: &[&str]| {
        std::process::Command::new("openssl").args(args).current_dir(dir).output().is_ok_and(|o| o.status.success())
    };
    std::fs::write(dir.join("ext.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n").ok()?;
    let made = run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=mrtr test CA",
    ]) && run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]) && run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
    ]);
    made.then_some(())
}

#[test]
fn a_tls_redis_with_an_acl_user_keeps_single_use_and_says_what_is_wrong() {
    let dir = std::env::temp_dir().join(format!("mrtr-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    certificates(&dir).expect("openssl made the certificates (scripts/setup.sh installs it)");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let tls_port = free_port().to_string();
    let Some(redis) = Redis::start_with(&[
        "--tls-port",
        &tls_port,
        "--tls-cert-file",
        &file("server.pem"),
        "--tls-key-file",
        &file("server.key"),
        "--tls-ca-cert-file",
        &file("ca.pem"),
        "--tls-auth-clients",
        "no",
    ]) else {
        return;
    };
    let user = [
        "ACL",
        "SETUSER",
        "mrtr",
        "on",
        ">s3cret",
        "~mrtr:*",
        "+@connection",
        "+eval",
        "+get",
        "+set",
        "+del",
        "+info",
        "+time",
        "+client",
    ];
    redis.query::<()>(&user).expect("an ACL user");
    redis
        .query::<()>(&[
            "ACL",
            "SETUSER",
            "narrow",
            "on",
            ">n",
            "~mrtr:*",
            "+@connection",
            "+eval",
            "+get",
            "+set",
            "+client",
        ])
        .expect("a user");
    let ca = std::fs::read(dir.join("ca.pem")).expect("the CA");
    let open_tls = |address: &str, ca: Option<Vec<u8>>| open_with(address, RedisOptions { ca, sync: None });
    let address = format!("rediss://mrtr:s3cret@127.0.0.1:{tls_port}");
    let record = open_tls(&address, Some(ca.clone())).expect("TLS with the CA, as the ACL user");
    let used = redeem(&record, "tls", 10);
    assert_eq!(accepted_again(&record, &used), Vec::<String>::new());
    let wrong =
        open_tls(&format!("rediss://mrtr:guess@127.0.0.1:{tls_port}"), Some(ca.clone())).expect_err("a wrong password");
    assert!(wrong.contains("rediss://mrtr:***@") && !wrong.contains("guess"), "{wrong}");
    let untrusted = open_tls(&address, None).expect_err("a certificate nobody trusts");
    assert!(untrusted.contains("certificate"), "{untrusted}");
    let narrow = open_tls(&format!("rediss://narrow:n@127.0.0.1:{tls_port}"), Some(ca)).expect_err("no INFO");
    assert!(narrow.contains("needs ~mrtr:* +eval +get +set +del +info +time"), "{narrow}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// After Redis restarts empty, a ticket minted after it is refused only for the clock-skew
/// margin plus the moment the record's watch takes to notice, and the refusal says when the
/// record restarted.
#[test]
fn after_a_restart_fresh_tickets_are_refused_only_for_the_skew_and_a_look() {
    let Some(mut redis) = Redis::start() else { return };
    let record = open(&redis.url, None).expect("Redis");
    redeem(&record, "before", 5);
    let port = redis.port();
    redis.stop();
    let _again = Redis::start_on(port).expect("Redis again, empty");
    let back = now_ms();
    let window = loop {
        let minted = now_ms();
        match claim(&record, &fresh_nonce("after"), minted) {
            Ok(()) => break minted - back,
            Err(Refused::Forgotten { since_ms }) => assert!(since_ms >= back, "{since_ms} < {back}"),
            Err(Refused::Unavailable(_)) => {}
            Err(other) => panic!("{other:?}"),
        }
        assert!(now_ms() - back < 10_000, "fresh tickets still refused");
        std::thread::sleep(Duration::from_millis(20));
    };
    println!("restart: tickets minted {window} ms after Redis came back are accepted (skew {SKEW} ms)");
    let look = mrtr::record::WATCH_EVERY.as_millis() as u64;
    assert!(window <= SKEW + look + 300, "refused for {window} ms");
}
