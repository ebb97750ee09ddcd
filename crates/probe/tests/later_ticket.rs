//! A server whose first round hands out no ticket and whose second does (answers-only
//! retries, then a state that carries the earlier answers, as tmcp's does): the attacks on
//! the ticket answer round 1 honestly and play their move on round 2's ticket, and every
//! verdict follows from what the server does: with a checked tag, nothing gets through;
//! without one, the edits do.

use mrtr_probe::{Attack, Battery, Flow, Grade, Lacks, Reply, Setup, Tokens, Verdict, Why};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// Each ticket's nonce, so that two flows never get the same bytes.
static NONCE: AtomicU64 = AtomicU64::new(0);

const KEY: &str = "a test key";

/// A toy MAC, good enough for a test: the server's own, so a change anywhere is refused.
fn mac(body: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in KEY.bytes().chain(body.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

fn question(key: &str) -> Value {
    json!({key: {"method": "elicitation/create", "params": {"mode": "form", "message": key,
        "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}}}})
}

fn answered(answers: &Value, key: &str) -> bool {
    answers.pointer(&format!("/{key}/content/confirm")) == Some(&json!(true))
}

/// Round 1 asks `one` with no ticket; its answers-only retry gets round 2, asking `two` with
/// a JSON ticket carrying round 1's answer (tagged when `sealed`); that retry completes.
fn server(sealed: bool, message: &Value) -> Value {
    let id = message["id"].clone();
    let params = &message["params"];
    let answers = params.get("inputResponses").cloned().unwrap_or(json!({}));
    let reply = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result});
    let refuse = || json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Invalid requestState"}});
    if message["method"] == "server/discover" {
        return reply(
            json!({"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}}),
        );
    }
    if message["method"] != "tools/call" || params["name"] != "deploy" {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}});
    }
    let ask_two = || {
        let nonce = NONCE.fetch_add(1, Ordering::Relaxed);
        let body = json!({"answers": {"one": answers["one"].clone()}, "n": nonce}).to_string();
        let ticket = if sealed { format!("{body}.{}", mac(&body)) } else { body };
        reply(json!({"resultType": "input_required", "inputRequests": question("two"), "requestState": ticket}))
    };
    match params.get("requestState") {
        None if answered(&answers, "one") => ask_two(),
        None => reply(json!({"resultType": "input_required", "inputRequests": question("one")})),
        Some(Value::String(ticket)) => {
            let body = match ticket.rsplit_once('.') {
                Some((body, tag)) if sealed && tag == mac(body) => body,
                _ if sealed => return refuse(),
                _ => ticket.as_str(),
            };
            let Ok(state) = serde_json::from_str::<Value>(body) else { return refuse() };
            if !answered(&state["answers"], "one") {
                return refuse();
            }
            if answered(&answers, "two") {
                reply(json!({"resultType": "complete", "content": [{"type": "text", "text": "deployed"}]}))
            } else {
                ask_two()
            }
        }
        Some(_) => refuse(),
    }
}

fn battery(sealed: bool) -> Vec<(String, Verdict)> {
    let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).expect("flow");
    let setup = Setup::new(flow, Tokens { first: Some("bob".into()), second: None });
    let chosen = |a: &Attack| ["tamper-byte", "edit-payload", "unasked-ticket", "splice-tag"].contains(&a.id());
    let report = Battery::new(setup, chosen).run(
        |send| Reply::http(200, Ok(server(sealed, &send.message))),
        || 1_767_225_600_000,
        Grade::Must,
        |_| false,
    );
    report.rows.iter().map(|row| (row.attack.id().to_owned(), row.verdict.clone())).collect()
}

#[test]
fn without_a_tag_the_edits_of_round_twos_ticket_get_through() {
    for (attack, verdict) in battery(false) {
        match attack.as_str() {
            "honest" => assert_eq!(verdict, Verdict::Completed),
            "splice-tag" => assert!(
                matches!(verdict, Verdict::NotTested { why: Why::Unfit { lacks: Lacks::Tag, .. } }),
                "{attack}: {verdict:?}"
            ),
            _ => assert!(matches!(verdict, Verdict::Finding { grade: Grade::Must, .. }), "{attack}: {verdict:?}"),
        }
    }
}

#[test]
fn with_a_checked_tag_every_edit_of_round_twos_ticket_is_refused() {
    for (attack, verdict) in battery(true) {
        match attack.as_str() {
            "honest" => assert_eq!(verdict, Verdict::Completed),
            _ => assert!(matches!(verdict, Verdict::Passed { .. }), "{attack}: {verdict:?}"),
        }
    }
}
