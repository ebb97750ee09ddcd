//! `mrtr serve` on stdio and `mrtr call` against it: the course's "run it raw", for real.

use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};

/// `mrtr serve --quiet` on stdio, its stdin and stdout piped to the test.
fn stdio_server() -> std::process::Child {
    mrtr()
        .args(["serve", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts")
}

fn mrtr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mrtr"))
}

#[test]
fn mrtr_call_runs_a_round_trip_against_a_stdio_server_it_starts() {
    let out =
        mrtr().args(["call", "--reply", "accept", "--", env!("CARGO_BIN_EXE_mrtr"), "serve"]).output().expect("runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // The client's transcript: every line with its direction.
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("C->S") || l.starts_with("S->C")).collect();
    assert_eq!(lines.len(), 6, "discover, the call, the retry, each answered:\n{stdout}");
    assert!(lines[3].contains("\"resultType\":\"input_required\""));
    assert!(lines[4].contains("\"inputResponses\":{\"confirm\":{\"action\":\"accept\""));
    assert!(stdout.contains("# deploy: complete"));
    // The server's log on stderr: the checks the ticket went through.
    assert!(stderr.contains("✓ Signature matches"), "{stderr}");
    assert!(stderr.contains("✓ Principal = the caller: minted for bob, presented by bob"), "{stderr}");
    assert!(stderr.contains("effect: deployed to staging (deploy)"), "{stderr}");
}

#[test]
fn mrtr_call_json_prints_json_lines_that_mrtr_lint_reads_as_one_clean_flow() {
    let out = mrtr()
        .args(["call", "--json", "--reply", "accept", "--", env!("CARGO_BIN_EXE_mrtr"), "serve"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert_eq!(lines[2]["from"], "client");
    assert_eq!(lines[3]["message"]["result"]["resultType"], "input_required");
    assert!(String::from_utf8_lossy(&out.stderr).contains("# deploy: complete"), "the notes go to stderr");
    let report = mrtr_lint::lint(&stdout, mrtr_lint::MAX_ROUNDS).expect("read");
    assert_eq!(report.transcript.format, mrtr_lint::Format::CallJson);
    assert_eq!(report.multi_round(), 1);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn a_stdio_server_answers_garbage_and_exits_when_stdin_closes() {
    let mut server = stdio_server();
    let mut stdin = server.stdin.take().expect("stdin");
    let huge = "x".repeat(5 << 20);
    let lines = [
        "hello",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/destroy\",\"params\":{}}",
        "",
        huge.as_str(),
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}",
        "[1,2]",
    ];
    for line in lines {
        writeln!(stdin, "{line}").expect("writes");
    }
    drop(stdin);
    let out = server.wait_with_output().expect("exits");
    assert!(out.status.success(), "a clean exit when stdin closes");
    let answers: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let codes: Vec<i64> = answers.iter().map(|a| a["error"]["code"].as_i64().unwrap_or(0)).collect();
    // No answer for the empty line or the notification.
    assert_eq!(codes, [-32700, -32601, -32600, -32600]);
}

/// Invalid UTF-8 gets -32700, as over HTTP; a panic answering one line gets -32603 with the
/// line's id; the next line is answered; SIGTERM between lines ends the server with 0.
#[test]
fn a_stdio_server_answers_bad_bytes_and_panics_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader};
    let mut server = stdio_server();
    let mut stdin = server.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(server.stdout.take().expect("stdout"));
    let mut answer = |bytes: &[u8]| -> serde_json::Value {
        stdin.write_all(bytes).expect("writes");
        stdin.flush().expect("flushes");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("reads");
        serde_json::from_str(&line).expect("JSON")
    };
    assert_eq!(answer(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\n")["error"]["code"], -32700);
    if cfg!(feature = "careless") {
        let panicked = answer(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"mrtr/test-panic\",\"params\":{}}\n");
        assert_eq!((panicked["id"].clone(), panicked["error"]["code"].clone()), (json!(7), json!(-32603)));
    }
    let unknown = answer(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/destroy\",\"params\":{}}\n");
    assert_eq!(unknown["error"]["code"], -32601, "still serving");
    let _ = Command::new("kill").args(["-TERM", &server.id().to_string()]).status();
    assert!(server.wait().expect("exits").success(), "SIGTERM: a clean exit");
}
