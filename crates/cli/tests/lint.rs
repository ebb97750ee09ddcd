//! `mrtr lint` on transcripts recorded from real traffic (tests/lint/): mrtr serve's two logs
//! and mrtr call's two outputs of one honest flow, the official TypeScript SDK's own HTTP
//! transcript (an honest flow and one whose client changed a ticket), and the HAR file of the
//! lab page's probe panel attacking mrtr serve. What each shows was read off by hand.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/lint").join(name)
}

/// `mrtr lint --json FILE`: the report and the exit code.
fn lint(name: &str) -> (Value, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .args(["lint", "--json"])
        .arg(fixture(name))
        .output()
        .expect("mrtr runs");
    let report = serde_json::from_slice(&out.stdout).expect("a JSON report");
    (report, out.status.code().unwrap_or(-1))
}

fn rules(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["rule"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The operations that asked, as `method target: rounds`.
fn asked(report: &Value) -> Vec<String> {
    report["grouped"]["operations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|op| op["rounds"].as_array().is_some_and(|r| r.len() > 1))
        .map(|op| {
            format!(
                "{} {}: {}",
                op["method"].as_str().unwrap_or_default(),
                op["target"].as_str().unwrap_or_default(),
                op["rounds"].as_array().map_or(0, Vec::len)
            )
        })
        .collect()
}

#[test]
fn an_honest_flow_in_each_of_mrtr_s_own_forms_breaks_nothing() {
    for (name, format, flow) in [
        ("serve-log.txt", "arrows", "tools/call book_seat: 3"),
        ("serve-log.jsonl", "serve-log-json", "tools/call book_seat: 3"),
        ("call.txt", "arrows", "tools/call book_seat: 3"),
        ("call.jsonl", "call-json", "tools/call deploy: 2"),
    ] {
        let (report, code) = lint(name);
        assert_eq!(report["transcript"]["format"], format, "{name}");
        assert_eq!(asked(&report), [flow], "{name}");
        assert_eq!(rules(&report), Vec::<String>::new(), "{name}");
        assert_eq!(code, 0, "{name}");
        // The lab's tickets read, with their expiry.
        let tickets = report["grouped"]["tickets"].as_array().cloned().unwrap_or_default();
        assert!(!tickets.is_empty() && tickets.iter().all(|t| t["expires_at_ms"].is_u64()), "{name}: {tickets:?}");
    }
}

#[test]
fn the_typescript_sdk_transcript_shows_its_tampered_retry() {
    let (report, code) = lint("typescript-sdk-http.txt");
    assert_eq!(report["transcript"]["format"], "http-transcript");
    assert_eq!(asked(&report), ["tools/call deploy: 2", "tools/call deploy: 2"]);
    // By hand: the second flow's retry changed one character of the payload ("eyJwIjp7IAV…").
    assert_eq!(rules(&report), ["ticket-not-echoed"]);
    assert_eq!(report["findings"][0]["line"], 60);
    assert_eq!(code, 1);
    // The SDK codec's tickets: readable, exp in seconds by its magnitude.
    let t1 = &report["grouped"]["tickets"][0];
    assert!(t1["shape"].as_str().is_some_and(|s| s.contains("readable") && s.contains("(JSON).tag")), "{t1}");
    assert_eq!(t1["expires_at_ms"], 1_796_048_023_000u64);
}

#[test]
fn the_lab_probe_panels_har_shows_each_attack_as_the_client_s_fault() {
    let (report, code) = lint("lab-probe.har");
    assert_eq!(report["transcript"]["format"], "har");
    let found = rules(&report);
    let count = |rule: &str| found.iter().filter(|r| *r == rule).count();
    // Thirteen forged or mangled tickets (tamper, edit, drop, splice, re-sign, made up, re-encode,
    // hello, huge, empty, and the non-string states' string ones) are not the ones handed out.
    assert_eq!(count("ticket-not-echoed"), 13, "{found:?}");
    for rule in ["ticket-elsewhere", "retry-same-id", "ticket-sent-again", "ticket-missing", "retry-other-principal"] {
        assert!(count(rule) >= 1, "{rule}: {found:?}");
    }
    assert_eq!(count("ticket-elsewhere"), 2, "another request's arguments, another method");
    // The server (mrtr serve) did nothing the page forbids, and the race's sixteen retries of
    // one ticket are replays, not rounds it asked for.
    assert!(report["findings"].as_array().into_iter().flatten().all(|f| f["side"] == "client"), "{found:?}");
    assert_eq!(code, 1);
}

#[test]
fn an_unreadable_file_is_exit_2_and_fail_on_raises_the_bar() {
    let out =
        Command::new(env!("CARGO_BIN_EXE_mrtr")).args(["lint", "/nonexistent/transcript"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let note = Command::new(env!("CARGO_BIN_EXE_mrtr"))
        .args(["lint", "--fail-on", "note"])
        .arg(fixture("call.txt"))
        .output()
        .expect("runs");
    assert_eq!(note.status.code(), Some(0), "nothing at all in an honest flow");
    let text = String::from_utf8_lossy(&note.stdout);
    assert!(text.starts_with("a C->S / S->C transcript"), "{text}");
    assert!(
        text.contains("round 2  line 6  id 2, answers seat, ticket T1 → input_required: asks for pay, hands out T2"),
        "{text}"
    );
}
