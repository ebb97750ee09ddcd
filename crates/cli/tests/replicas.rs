//! Two real replicas sharing a Redis record of used tickets: A mints, B finishes; of 500
//! concurrent retries of one ticket across both exactly one is accepted; with Redis down a
//! ticket is refused and nothing is spent.
//!
//! Needs Debian's redis-server (scripts/setup.sh installs it). Without it the test says so and
//! passes, unless MRTR_REQUIRE_REDIS is set, as the test command sets it.

mod common;

use common::redis_server::Redis;
use common::{post, request, Served};
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;

fn deploy() -> Value {
    json!({"name": "deploy", "arguments": {"env": "staging"}})
}

/// The retry of a first call's answer, for bob.
fn retry(first: &Value) -> Value {
    let mut params = deploy();
    params["inputResponses"] = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    params["requestState"] = first["result"]["requestState"].clone();
    params
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_share_one_record_in_redis() {
    let Some(mut redis) = Redis::start() else { return };
    let key = common::key_file("replicas");
    let a = Served::start(&["--replica", "A", "--key-file", &key, "--record", &redis.url]);
    let b = Served::start(&["--replica", "B", "--key-file", &key, "--record", &redis.url]);
    let client = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().expect("a client");

    // mrtr call takes turns, as the lab's balancer does: A mints, B finishes.
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .args(["call", "--url", &a.url, "--url", &b.url, "--token", "bob-token", "deploy", r#"{"env":"staging"}"#])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let retry_line =
        stdout.lines().find(|l| l.contains("\"requestState\":\"v1.") && l.starts_with("C->S")).expect("a retry");
    assert!(retry_line.starts_with(&format!("C->S {}", b.url)) || retry_line.starts_with(&format!("C->S {}", a.url)));
    assert!(stdout.contains("# deploy: complete"), "{stdout}");

    // One ticket from A, 500 concurrent retries spread over A and B: exactly one accepted.
    let (_, first) = post(&client, &a.url, &request(1, "tools/call", deploy()), Some("bob-token")).await;
    let params = retry(&first);
    let mut tasks = Vec::new();
    for i in 0..500u64 {
        let (client, url, message) = (
            client.clone(),
            if i % 2 == 0 { a.url.clone() } else { b.url.clone() },
            request(100 + i, "tools/call", params.clone()),
        );
        tasks.push(tokio::spawn(async move { post(&client, &url, &message, Some("bob-token")).await.1 }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.expect("a retry"));
    }
    let accepted = answers.iter().filter(|a| a["result"]["resultType"] == "complete").count();
    let used = answers.iter().filter(|a| a["error"]["data"]["check"] == "single-use").count();
    assert_eq!((accepted, used), (1, 499));

    // Redis down: the retry is refused, and nothing is spent.
    let (_, first) = post(&client, &b.url, &request(2, "tools/call", deploy()), Some("bob-token")).await;
    redis.stop();
    let (status, refused) = post(&client, &a.url, &request(3, "tools/call", retry(&first)), Some("bob-token")).await;
    assert_eq!((status, refused["error"]["code"].clone()), (200, json!(-32603)), "{refused}");
    assert_eq!(refused["error"]["data"]["reason"], "replay_record_unavailable");
    // Back up, empty, as a Redis that lost its memory: a ticket issued before cannot be
    // proven unused, so it is refused for good, and says to start again; a new flow completes.
    let port = redis.url.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port");
    let _redis = Redis::start_on(port).expect("Redis again");
    // The record stays shut until its background ping is answered (every 200 ms).
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, forgotten) = post(&client, &a.url, &request(4, "tools/call", retry(&first)), Some("bob-token")).await;
    assert_eq!(forgotten["error"]["code"], -32602, "{forgotten}");
    assert_eq!(forgotten["error"]["data"]["check"], "single-use");
    let message = forgotten["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(" before the record of used tickets restarted (with the clock-skew margin)"), "{message}");
    assert!(message.ends_with("Start the request again without it."), "{message}");
    // A flow started after the record began again: the clock-skew margin (1 s) passed first.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (_, fresh) = post(&client, &b.url, &request(5, "tools/call", deploy()), Some("bob-token")).await;
    let (_, done) = post(&client, &a.url, &request(6, "tools/call", retry(&fresh)), Some("bob-token")).await;
    assert_eq!(done["result"]["content"][0]["text"], "deployed to staging", "{done}");
    let _ = std::fs::remove_file(&key);
}

/// The tickets used before Redis restarted empty are refused after it, every one; a claim
/// sent again after its answer was lost recognises itself.
#[test]
fn single_use_survives_a_redis_that_restarts_empty() {
    use mrtr::record::{Record, RecordOptions, RecordSpec};
    use mrtr_ticket::{Refused, ReplayRecord};
    let Some(mut redis) = Redis::start() else { return };
    let spec = RecordSpec::Redis(redis.url.clone());
    let skew = 1_000;
    let options = RecordOptions { skew_ms: skew, ..RecordOptions::default() };
    let start = mrtr::clock::now_ms();
    let exp = start + 600_000;
    let record = Record::open(&spec, start, &options).expect("Redis answers");
    let issued = start + 10;
    for n in 0..200 {
        // A claim runs on the real clock: Redis refuses one it runs long after the request.
        let at = mrtr::clock::now_ms();
        let mut claim = record.for_request().expect("a record");
        assert_eq!(claim.check_and_insert(&format!("n{n}"), issued, exp, at), Ok(()));
        // Its answer lost, the same claim is sent again: it finds itself.
        assert_eq!(claim.check_and_insert(&format!("n{n}"), issued, exp, at + 1), Ok(()));
        let mut replay = record.for_request().expect("a record");
        assert_eq!(replay.check_and_insert(&format!("n{n}"), issued, exp, at + 2), Err(Refused::AlreadyUsed(at)));
    }
    let port = redis.port();
    redis.stop();
    let restarted = mrtr::clock::now_ms();
    let _redis = Redis::start_on(port).expect("Redis again, empty");
    std::thread::sleep(Duration::from_millis(600)); // the record's watch notices the restart
    let later = mrtr::clock::now_ms();
    let replayed: Vec<Result<(), Refused>> = (0..200)
        .map(|n| record.for_request().expect("a record").check_and_insert(&format!("n{n}"), issued, exp, later))
        .collect();
    let began_again = |r: &Result<(), Refused>| matches!(r, Err(Refused::Forgotten { since_ms }) if (restarted + skew..=later + skew).contains(since_ms));
    assert!(replayed.iter().all(began_again), "{replayed:?}");
    // A ticket issued after the record began again (and its skew) is claimed once.
    let fresh_at = later + skew;
    let mut fresh = record.for_request().expect("a record");
    assert_eq!(fresh.check_and_insert("new", fresh_at, exp, fresh_at + 1), Ok(()));
    let mut again = record.for_request().expect("a record");
    assert_eq!(again.check_and_insert("new", fresh_at, exp, fresh_at + 2), Err(Refused::AlreadyUsed(fresh_at + 1)));
}
