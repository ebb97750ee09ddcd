//! `mrtr probe` against `mrtr serve`: the safe server refuses every attack; a careless one is
//! caught by exactly the attacks its carelessness lets through.

mod common;

use common::Served;
use serde_json::Value;
use std::process::Command;

type Rows = Vec<(String, String, Option<String>)>;

/// Probes a server started with `serve_args`: the exit code and the JSON report's verdicts by
/// attack.
fn probe(serve_args: &[&str]) -> (i32, Rows) {
    probe_with(serve_args, &[])
}

/// [`probe`] with more arguments for the probe.
fn probe_with(serve_args: &[&str], probe_args: &[&str]) -> (i32, Rows) {
    let served = Served::start(serve_args);
    probe_urls(&[&served.url], probe_args)
}

/// Probes the servers at `urls` (replicas taking turns).
fn probe_urls(urls: &[&str], probe_args: &[&str]) -> (i32, Rows) {
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .arg("probe")
        .args(urls)
        .args(["--token", "bob-token", "--second-token", "alice-token", "--json"])
        .args(probe_args)
        .output()
        .expect("runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let rows = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|row| {
            let result = &row["result"];
            (
                row["attack"].as_str().unwrap_or_default().to_owned(),
                result["verdict"].as_str().unwrap_or_default().to_owned(),
                result["grade"].as_str().map(str::to_owned),
            )
        })
        .collect();
    (out.status.code().unwrap_or(-1), rows)
}

fn got_through(rows: &Rows) -> Vec<(&str, &str)> {
    rows.iter()
        .filter(|(_, verdict, _)| verdict == "finding")
        .map(|(attack, _, grade)| (attack.as_str(), grade.as_deref().unwrap_or_default()))
        .collect()
}

#[test]
fn the_safe_server_refuses_every_attack() {
    let (code, rows) = probe(&[]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None));
    assert_eq!(got_through(&rows), []);
    let untested: Vec<&str> = rows.iter().filter(|r| r.1 == "not-tested").map(|r| r.0.as_str()).collect();
    assert_eq!(untested, ["too-late", "first-ticket"], "not tested is reported as such, never as passed");
    let junk: Vec<&str> = rows.iter().filter(|r| r.1 == "passed").map(|r| r.0.as_str()).collect();
    for attack in
        ["tamper-tag", "drop-tag", "splice-tag", "not-a-string", "huge", "empty", "other-tool", "other-method"]
    {
        assert!(junk.contains(&attack), "{attack} refused: {rows:?}");
    }
}

#[test]
fn waiting_out_the_lifetime_tests_the_expiry() {
    let (code, rows) = probe_with(&["--ttl", "1s"], &["--wait-expiry"]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(got_through(&rows), []);
    assert!(rows.contains(&("too-late".into(), "passed".into(), None)), "{rows:?}");
}

#[test]
fn a_flow_of_two_rounds_tests_round_1s_ticket_in_round_2() {
    let call = ["--call", r#"tools/call book_seat {"flight":"LX318"}"#];
    let (code, rows) = probe_with(&[], &call);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None), "the honest retry plays both rounds");
    assert!(rows.contains(&("first-ticket".into(), "passed".into(), None)), "{rows:?}");
    assert_eq!(got_through(&rows), []);
    // Without a record, round 1's ticket takes the server back a step, and the replayed
    // round-1 retry takes it on to round 2 again: both tickets were taken twice.
    let (_, careless) = probe_with(&["--record", "off"], &call);
    assert_eq!(got_through(&careless), [("send-twice", "note"), ("first-ticket", "note")]);
}

/// Each test server leaves one binding out and keeps every other check: the probe must find
/// that binding, by its own attacks, and nothing else.
#[test]
fn a_server_that_drops_one_binding_is_caught_by_its_attack_and_no_other() {
    let cases: [(&str, &[(&str, &str)]); 3] = [
        ("principal", &[("other-principal", "should")]),
        ("expiry", &[("too-late", "should")]),
        ("request", &[("other-arguments", "should"), ("other-tool", "should"), ("other-method", "should")]),
    ];
    for (binding, expected) in cases {
        let (code, rows) =
            probe_with(&["--ttl", "1s", "--unsafe-drop-binding", binding], &["--wait-expiry", "--call", CALL]);
        assert_eq!(got_through(&rows), expected, "without the {binding} binding");
        assert_eq!(code, 0, "a SHOULD finding does not fail the run");
    }
}

#[test]
fn a_record_per_replica_behind_two_replicas_is_caught_by_the_replay() {
    let key = std::env::temp_dir().join(format!("mrtr-probe-{}.key", std::process::id()));
    std::fs::write(&key, [7u8; 32]).expect("a key file");
    let key = key.to_str().expect("a path");
    let (a, b) = (Served::start(&["--key-file", key]), Served::start(&["--key-file", key, "--replica", "B"]));
    let (code, rows) = probe_urls(&[&a.url, &b.url], &["--call", CALL]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(got_through(&rows), [("send-twice", "note")], "each replica remembers only its own");
}

const CALL: &str = r#"tools/call deploy {"env":"staging"}"#;

#[test]
fn the_json_report_shows_what_each_attack_sent_and_what_came_back() {
    let served = Served::start(&[]);
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .args(["probe", &served.url, "--token", "bob-token", "--second-token", "alice-token", "--json"])
        .output()
        .expect("runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let row = |id: &str| report["results"].as_array().and_then(|r| r.iter().find(|r| r["attack"] == id)).cloned();
    let alice = row("other-principal").expect("the principal attack");
    let exchanges = alice["exchanges"].as_array().expect("exchanges");
    assert_eq!(exchanges.len(), 2, "the call that asks, then the retry: {exchanges:?}");
    assert_eq!(exchanges[0]["reply"]["result"]["resultType"], "input_required");
    assert_eq!(exchanges[1]["reply"]["error"]["code"], -32602);
    assert_eq!(exchanges[1]["sent"]["params"]["requestState"], exchanges[0]["reply"]["result"]["requestState"]);
    let huge = row("huge").expect("the 1 MB attack");
    let shown = huge["exchanges"][1]["sent"]["params"]["requestState"].as_str().expect("a string");
    assert!(shown.ends_with("(1000000 bytes)"), "a 1 MB ticket is shown cut short: {}", shown.len());
}

#[test]
fn a_server_that_signs_nothing_is_caught_by_the_tampering_attacks_and_fails() {
    let (code, rows) = probe(&["--signing", "off"]);
    assert_eq!(code, 1, "a MUST finding fails the run");
    assert_eq!(got_through(&rows), [("edit-payload", "must"), ("resign", "must"), ("re-encode", "note")]);
    // Its tickets have an empty tag: the attacks on the tag change nothing, and say so.
    let untested: Vec<&str> = rows.iter().filter(|r| r.1 == "not-tested").map(|r| r.0.as_str()).collect();
    assert_eq!(untested, ["tamper-tag", "drop-tag", "splice-tag", "too-late", "first-ticket"]);
}

#[test]
fn a_server_without_a_record_is_caught_by_the_replay() {
    let (code, rows) = probe(&["--record", "off"]);
    assert_eq!(code, 0, "a note does not fail the run");
    assert_eq!(got_through(&rows), [("send-twice", "note")]);
}

#[test]
fn a_stdio_server_is_probed_through_the_process_it_starts() {
    let mrtr = env!("CARGO_BIN_EXE_mrtr");
    let (code, rows) = probe_urls(&[], &["--call", CALL, "--", mrtr, "serve", "--signing", "off", "--quiet"]);
    assert_eq!(code, 1, "the careless server's MUST findings fail the run: {rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None));
    assert_eq!(got_through(&rows), [("edit-payload", "must"), ("resign", "must"), ("re-encode", "note")]);
    let principal = rows.iter().find(|r| r.0 == "other-principal").expect("a row");
    assert_eq!(principal.1, "not-tested", "over stdio the server decides who speaks");
}
