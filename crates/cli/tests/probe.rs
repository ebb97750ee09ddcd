//! `mrtr probe` against `mrtr serve`: the safe server refuses every attack; a careless one is
//! caught by exactly the attacks its carelessness lets through.

mod common;

use common::Served;
use serde_json::Value;
use std::process::Command;

/// Probes a server started with `serve_args`: the exit code and the JSON report's verdicts by
/// attack.
fn probe(serve_args: &[&str]) -> (i32, Vec<(String, String, Option<String>)>) {
    let served = Served::start(serve_args);
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .args(["probe", &served.url, "--token", "bob-token", "--second-token", "alice-token", "--json"])
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

fn got_through(rows: &[(String, String, Option<String>)]) -> Vec<(&str, &str)> {
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
    assert_eq!(untested, ["too-late"], "not tested is reported as such, never as passed");
}

#[test]
fn a_server_that_signs_nothing_is_caught_by_the_tampering_attacks_and_fails() {
    let (code, rows) = probe(&["--signing", "off"]);
    assert_eq!(code, 1, "a MUST finding fails the run");
    assert_eq!(got_through(&rows), [("edit-payload", "must"), ("resign", "must"), ("re-encode", "note")]);
}

#[test]
fn a_server_without_a_record_is_caught_by_the_replay() {
    let (code, rows) = probe(&["--record", "off"]);
    assert_eq!(code, 0, "a note does not fail the run");
    assert_eq!(got_through(&rows), [("send-twice", "note")]);
}
