//! `mrtr probe` against `mrtr serve`: the safe server refuses every attack; a careless one is
//! caught by exactly the attacks its carelessness lets through; nothing is called unasked; the
//! exit codes and report formats are as documented.

mod common;

use common::Served;
use serde_json::Value;
use std::process::Command;

type Rows = Vec<(String, String, Option<String>)>;

const CALL: &str = r#"tools/call deploy {"env":"staging"}"#;
/// A flow whose arguments another tool of the lab's server takes too (`submit_expense`).
#[cfg(feature = "careless")]
const CHARGE: &str = r#"tools/call charge_good {"amount":250}"#;

/// Runs `mrtr probe` with `args`: the exit code, stdout and stderr.
fn mrtr_probe(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr")).arg("probe").args(args).output().expect("runs");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

/// Probes the servers at `urls` (replicas taking turns) with bob's and alice's tokens: the exit
/// code and the JSON report's verdicts by attack.
fn probe_urls(urls: &[&str], probe_args: &[&str]) -> (i32, Rows) {
    let mut args: Vec<&str> = urls.to_vec();
    args.extend(["--token", "bob-token", "--second-token", "alice-token", "--format", "json"]);
    if !probe_args.contains(&"--call") {
        args.extend(["--call", CALL]);
    }
    args.extend(probe_args);
    let (code, stdout, stderr) = mrtr_probe(&args);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("a JSON report ({e}): {stderr}"));
    assert_eq!(report["schema"], "mrtr-probe-report/1");
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
    (code, rows)
}

/// Probes a server started with `serve_args`.
fn probe_with(serve_args: &[&str], probe_args: &[&str]) -> (i32, Rows) {
    let served = Served::start(serve_args);
    probe_urls(&[&served.url], probe_args)
}

fn got_through(rows: &Rows) -> Vec<(&str, &str)> {
    rows.iter()
        .filter(|(_, verdict, _)| verdict == "finding")
        .map(|(attack, _, grade)| (attack.as_str(), grade.as_deref().unwrap_or_default()))
        .collect()
}

fn with_verdict<'a>(rows: &'a Rows, verdict: &str) -> Vec<&'a str> {
    rows.iter().filter(|r| r.1 == verdict).map(|r| r.0.as_str()).collect()
}

#[test]
fn the_safe_server_refuses_every_attack() {
    let (code, rows) = probe_with(&[], &[]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None));
    assert_eq!(got_through(&rows), []);
    // deploy's arguments fit no other tool; its flow has one round; nobody asked to wait.
    assert_eq!(with_verdict(&rows, "not-tested"), ["too-late", "other-tool", "first-ticket", "skip-round"]);
    assert_eq!(with_verdict(&rows, "inconclusive"), Vec::<&str>::new());
    for attack in ["tamper-tag", "drop-tag", "splice-tag", "not-a-string", "huge", "empty", "other-method", "race"] {
        assert!(with_verdict(&rows, "passed").contains(&attack), "{attack} refused: {rows:?}");
    }
}

#[test]
fn waiting_out_the_lifetime_tests_the_expiry() {
    let (code, rows) = probe_with(&["--ttl", "1s"], &["--wait-expiry", "--only", "too-late"]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows, [("honest".into(), "completed".into(), None), ("too-late".into(), "passed".into(), None)]);
}

#[test]
fn a_flow_of_two_rounds_tests_round_1s_ticket_in_round_2() {
    let call = ["--call", r#"tools/call book_seat {"flight":"LX318"}"#];
    let (code, rows) = probe_with(&[], &call);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None), "the honest retry plays both rounds");
    assert!(rows.contains(&("first-ticket".into(), "passed".into(), None)), "{rows:?}");
    assert_eq!(got_through(&rows), []);
    // Without a record, round 1's retry sent again takes the server on to round 2 again; round
    // 1's spent ticket with round 2's answers is still refused, for the ticket says its round.
    let (_, careless) = probe_with(&["--record", "off"], &call);
    assert_eq!(got_through(&careless), [("send-twice", "note"), ("race", "note")]);
    assert!(careless.contains(&("first-ticket".into(), "passed".into(), None)), "{careless:?}");
}

/// Each test server leaves one binding out and keeps every other check: the probe must find
/// that binding, by its own attacks, and nothing else (a `careless` build: the test command's).
#[cfg(feature = "careless")]
#[test]
fn a_server_that_drops_one_binding_is_caught_by_its_attack_and_no_other() {
    let cases: [(&str, &[(&str, &str)]); 3] = [
        ("principal", &[("other-principal", "should")]),
        ("expiry", &[("too-late", "should")]),
        ("request", &[("other-arguments", "should"), ("other-tool", "should"), ("other-method", "should")]),
    ];
    for (binding, expected) in cases {
        let (code, rows) =
            probe_with(&["--ttl", "1s", "--unsafe-drop-binding", binding], &["--wait-expiry", "--call", CHARGE]);
        assert_eq!(got_through(&rows), expected, "without the {binding} binding");
        assert_eq!(code, 0, "a SHOULD finding does not fail the run");
    }
}

#[cfg(feature = "careless")]
#[test]
fn fail_on_should_and_a_baseline_decide_what_fails_the_run() {
    let served = Served::start(&["--unsafe-drop-binding", "principal"]);
    let base = ["--token", "bob-token", "--second-token", "alice-token", "--call", CALL];
    let args = |more: &[&'static str]| -> Vec<String> {
        [&[served.url.as_str()], &base[..], more].concat().into_iter().map(str::to_owned).collect()
    };
    let mrtr_probe = |args: Vec<String>| mrtr_probe(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (code, ..) = mrtr_probe(args(&["--only", "other-principal", "--fail-on", "should"]));
    assert_eq!(code, 1, "a SHOULD finding fails the run at --fail-on should");
    let (_, report, _) = mrtr_probe(args(&["--only", "other-principal", "--format", "json"]));
    let baseline = std::env::temp_dir().join(format!("mrtr-baseline-{}.json", std::process::id()));
    std::fs::write(&baseline, report).expect("written");
    let mut known = args(&["--only", "other-principal", "--fail-on", "should", "--baseline"]);
    known.push(baseline.to_str().expect("a path").to_owned());
    let (code, text, _) = mrtr_probe(known);
    assert_eq!(code, 0, "a finding the baseline has does not fail it: {text}");
    assert!(text.contains("1 already in the baseline"), "{text}");
}

#[test]
fn a_record_per_replica_behind_two_replicas_is_caught_by_the_replay() {
    let key = std::env::temp_dir().join(format!("mrtr-probe-{}.key", std::process::id()));
    std::fs::write(&key, [7u8; 32]).expect("a key file");
    let key = key.to_str().expect("a path");
    let (a, b) = (Served::start(&["--key-file", key]), Served::start(&["--key-file", key, "--replica", "B"]));
    let (code, rows) = probe_urls(&[&a.url, &b.url], &[]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(got_through(&rows), [("send-twice", "note"), ("race", "note")], "each replica remembers only its own");
}

#[test]
fn replicas_with_keys_of_their_own_are_told_apart_from_a_broken_flow() {
    let (a, b) = (Served::start(&[]), Served::start(&["--replica", "B"]));
    let (code, rows) = probe_urls(&[&a.url, &b.url], &[]);
    assert_eq!(code, 2, "nothing can be concluded: {rows:?}");
    let (_, stdout, _) = mrtr_probe(&[&a.url, &b.url, "--token", "bob-token", "--call", CALL, "--only", "hello"]);
    assert!(stdout.contains("the replicas do not share a key or a record"), "{stdout}");
}

#[test]
fn the_json_report_shows_every_exchange_in_full() {
    let (_, rows) = probe_with(&[], &[]);
    assert!(!rows.is_empty());
    let served = Served::start(&[]);
    let (_, stdout, _) = mrtr_probe(&[
        &served.url,
        "--token",
        "bob-token",
        "--second-token",
        "alice-token",
        "--call",
        CALL,
        "--format",
        "json",
        "--only",
        "other-principal,huge",
    ]);
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    let row = |id: &str| report["results"].as_array().and_then(|r| r.iter().find(|r| r["attack"] == id)).cloned();
    let alice = row("other-principal").expect("the principal attack");
    let exchanges = alice["exchanges"].as_array().expect("exchanges");
    // The made-up token's control, alice's own flow, bob's flow, and alice's retry of bob's ticket.
    assert_eq!(exchanges.len(), 4, "{exchanges:?}");
    assert_eq!(exchanges[0]["bearer"], "made-up");
    assert_eq!(exchanges[1]["bearer"], "second");
    assert!(!stdout.contains("alice-token") && !stdout.contains("bob-token"), "no token in the report");
    assert_eq!(exchanges[3]["reply"]["error"]["code"], -32602);
    assert_eq!(exchanges[3]["status"], 200);
    assert_eq!(exchanges[3]["sent"]["params"]["requestState"], exchanges[2]["reply"]["result"]["requestState"]);
    let huge = row("huge").expect("the 1 MB attack");
    // The first call, the retry with no ticket (what the server does without one), then 1 MB.
    assert!(huge["exchanges"][1]["sent"]["params"].get("requestState").is_none());
    let sent = huge["exchanges"][2]["sent"]["params"]["requestState"].as_str().expect("a string");
    assert_eq!(sent.len(), 1_000_000, "in full");
    assert_eq!(report["summary"]["counts"]["honestCompleted"], true);
    let shape = report["ticketShape"].as_str().unwrap_or_default();
    assert!(shape.starts_with("v1.base64") && shape.ends_with("(JSON).tag"), "{shape}");
}

#[test]
fn a_server_that_signs_nothing_is_caught_by_the_tampering_attacks_and_fails() {
    let (code, rows) = probe_with(&["--signing", "off"], &[]);
    assert_eq!(code, 1, "a MUST finding fails the run");
    assert_eq!(
        got_through(&rows),
        [("tamper-byte", "must"), ("edit-payload", "must"), ("resign", "must"), ("re-encode", "note")]
    );
    // Its tickets have an empty tag: the attacks on the tag change nothing, and say so.
    let untested = with_verdict(&rows, "not-tested");
    assert_eq!(
        untested,
        ["tamper-tag", "drop-tag", "splice-tag", "too-late", "other-tool", "first-ticket", "skip-round"]
    );
}

#[test]
fn a_server_without_a_record_is_caught_by_the_replay_and_the_race() {
    let (code, rows) = probe_with(&["--record", "off"], &[]);
    assert_eq!(code, 0, "a note does not fail the run");
    assert_eq!(got_through(&rows), [("send-twice", "note"), ("race", "note")]);
}

#[test]
fn a_stdio_server_is_probed_through_the_process_it_starts() {
    let mrtr = env!("CARGO_BIN_EXE_mrtr");
    let (code, rows) = probe_urls(&[], &["--call", CALL, "--", mrtr, "serve", "--signing", "off", "--quiet"]);
    assert_eq!(code, 1, "the careless server's MUST findings fail the run: {rows:?}");
    assert_eq!(rows[0], ("honest".into(), "completed".into(), None));
    assert_eq!(
        got_through(&rows),
        [("tamper-byte", "must"), ("edit-payload", "must"), ("resign", "must"), ("re-encode", "note")]
    );
    let principal = rows.iter().find(|r| r.0 == "other-principal").expect("a row");
    assert_eq!(principal.1, "not-tested", "over stdio the server decides who speaks");
}

#[test]
fn over_one_stdio_connection_no_request_id_is_sent_twice() {
    let mrtr = env!("CARGO_BIN_EXE_mrtr");
    let (code, stdout, stderr) =
        mrtr_probe(&["--call", CALL, "--format", "json", "--", mrtr, "serve", "--ttl", "1s", "--quiet"]);
    assert_eq!(code, 0, "the safe server passes: {stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    let ids: Vec<i64> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .flat_map(|row| row["exchanges"].as_array().cloned().unwrap_or_default())
        .map(|exchange| exchange["sent"]["id"].as_i64().expect("an integer id"))
        .collect();
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(ids.len() > 40, "every attack's exchanges are in the report: {}", ids.len());
    assert_eq!(distinct.len(), ids.len(), "a late answer could be taken for another request's: {ids:?}");
}

#[test]
fn without_a_call_nothing_is_called_and_the_tools_are_listed() {
    let served = Served::start(&[]);
    let (code, _, stderr) = mrtr_probe(&[&served.url]);
    assert_eq!(code, 3);
    assert!(stderr.contains("the server refused tools/list: HTTP 401 (not authenticated)"), "{stderr}");
    let (code, stdout, stderr) = mrtr_probe(&[&served.url, "--token", "bob-token"]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(stderr.contains("none was called") && stderr.contains("tools/call deploy") && stderr.contains("--call"));
    // --call-any finds the first tool that asks.
    let (code, stdout, _) = mrtr_probe(&[&served.url, "--call-any", "--token", "bob-token", "--only", "hello"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("tools/call — ") || stdout.contains("\"name\":\"deploy\""), "{stdout}");
}

#[test]
fn usage_errors_and_unreachable_servers_exit_3_and_a_broken_flow_exits_2() {
    let (code, _, stderr) = mrtr_probe(&["http://127.0.0.1:9/mcp", "--call", CALL]);
    assert_eq!(code, 3);
    assert!(stderr.contains("cannot be reached") && stderr.contains("127.0.0.1:9"), "{stderr}");
    let (code, ..) = mrtr_probe(&["--call", CALL]);
    assert_eq!(code, 3, "no server");
    let (code, ..) = mrtr_probe(&["http://127.0.0.1:9/mcp", "--only", "nonsense"]);
    assert_eq!(code, 3, "an unknown attack");
    let (code, ..) = mrtr_probe(&["http://127.0.0.1:9/mcp", "--race", "1"]);
    assert_eq!(code, 3, "a bad value");
    let served = Served::start(&[]);
    let (code, stdout, _) = mrtr_probe(&[&served.url, "--token", "bob-token", "--call", "tools/call no_such_tool {}"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("summary: inconclusive: the honest flow did not complete"), "{stdout}");
}

#[test]
fn sarif_and_junit_reports_name_each_finding() {
    let served = Served::start(&["--signing", "off"]);
    let args = |format: &str| -> Vec<String> {
        [served.url.as_str(), "--token", "bob-token", "--call", CALL, "--format", format].map(str::to_owned).to_vec()
    };
    let (code, sarif, _) = mrtr_probe(&args("sarif").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1);
    let sarif: Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let ids: Vec<&str> = results.iter().filter_map(|r| r["ruleId"].as_str()).collect();
    assert_eq!(ids, ["mrtr-probe/tamper-byte", "mrtr-probe/edit-payload", "mrtr-probe/resign", "mrtr-probe/re-encode"]);
    assert_eq!(results[0]["level"], "error");
    let print = results[0]["partialFingerprints"]["mrtrProbeFinding/v1"].as_str().unwrap_or_default();
    assert_eq!(print.len(), 16, "a stable fingerprint per finding");
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], true);
    // A run that concluded nothing is a failed invocation, with why: never a clean scan.
    let only_wait: Vec<String> = args("sarif").into_iter().chain(["--only".into(), "too-late".into()]).collect();
    let (code, nothing, _) = mrtr_probe(&only_wait.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 2);
    let nothing: Value = serde_json::from_str(&nothing).expect("SARIF is JSON");
    let invocation = &nothing["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let why = invocation["toolExecutionNotifications"][0]["message"]["text"].as_str().unwrap_or_default();
    assert!(why.starts_with("inconclusive: "), "{why}");
    assert_eq!(results[3]["level"], "note");
    let (_, junit, _) = mrtr_probe(&args("junit").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(junit.starts_with("<?xml") && junit.contains("failures=\"4\""), "{junit}");
    assert_eq!(junit.matches("<testcase ").count(), mrtr_probe::BATTERY.len());
}
