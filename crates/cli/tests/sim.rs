//! `mrtr sim`: raw lines for every scenario, clear errors with exit code 2.

use std::process::Command;

fn runner(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mrtr")).arg("sim").args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn every_scenario_prints_its_raw_lines() {
    let (code, listing, _) = runner(&["--list"]);
    assert_eq!(code, 0);
    for scenario in mrtr_sim::scenarios::SCENARIOS {
        assert!(listing.contains(scenario.id));
        let (code, out, err) = runner(&[scenario.id]);
        assert_eq!(code, 0, "{}: {err}", scenario.id);
        assert!(out.contains("C->S"), "{}", scenario.id);
        assert!(out.lines().any(|l| l.contains("S->C") && l.contains("{\"jsonrpc\":\"2.0\"")), "{}", scenario.id);
    }
}

#[test]
fn a_move_changes_what_is_sent_and_json_prints_the_trace() {
    let (code, out, _) = runner(&["deploy", "--move", "tamper-byte"]);
    assert_eq!(code, 0);
    assert!(out.contains("Invalid requestState: bad signature. Start the request again without it."));
    let (code, out, _) = runner(&["voucher", "--record", "off", "--json"]);
    assert_eq!(code, 0);
    let run = serde_json::from_str::<serde_json::Value>(&out).expect("--json prints JSON");
    assert_eq!(run["figures"]["redeemed"], 2);
}

#[test]
fn a_request_written_by_hand_is_sent_after_the_moves() {
    let (code, out, _) =
        runner(&["deploy", "--move", "honest", "--send", r#"{"jsonrpc":"2.0","id":7,"method":"tools/destroy"}"#]);
    assert_eq!(code, 0);
    assert!(out.contains(r#"C->S balancer   {"jsonrpc":"2.0","id":7,"method":"tools/destroy"}"#), "{out}");
    assert!(out.lines().any(|l| l.starts_with("  your-attempt") && l.ends_with("-32601")), "{out}");
}

#[test]
fn bad_arguments_get_a_clear_message_and_exit_code_2() {
    for (args, says) in [
        (vec!["nope"], "unknown scenario 'nope'"),
        (vec!["deploy", "--move", "fly"], "unknown move 'fly'"),
        (vec!["deploy", "--record"], "a value is required for '--record <RECORD>'"),
        (vec!["deploy", "--record", "sideways"], "invalid value 'sideways' for '--record <RECORD>'"),
        (vec!["deploy", "--route", "c"], "round-robin, random, a or b, not 'c'"),
        (vec!["deploy", "--amount", "-1"], "a non-negative number"),
        (vec!["deploy", "--seed", "x"], "invalid value 'x' for '--seed <SEED>'"),
        (vec!["expense", "--move", "honest"], "plays no moves"),
        (vec!["expense", "--send", "{}"], "plays no moves"),
        (vec!["deploy", "--send"], "a value is required for '--send <REQUEST>'"),
        (vec![], "the following required arguments were not provided"),
        (vec!["deploy", "--frobnicate"], "unexpected argument '--frobnicate'"),
    ] {
        let (code, _, err) = runner(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.contains("try '--help'"), "{args:?}");
    }
}
