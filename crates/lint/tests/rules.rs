//! Each rule of mrtr-lint on a transcript written for it by hand, and a clean flow that breaks
//! none; what the truth is was worked out from the MRTR page for each.

use mrtr_lint::{lint, Grade, Report, MAX_ROUNDS};
use serde_json::json;

/// JSON-RPC lines: a request per `(id, params)` and its `result`, in order.
fn lines(exchanges: &[(serde_json::Value, serde_json::Value)]) -> String {
    exchanges.iter().map(|(request, response)| format!("{request}\n{response}\n")).collect()
}

fn call(id: u64, params: serde_json::Value) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn asks(id: u64, keys: &[&str], state: Option<&str>) -> serde_json::Value {
    let requests: serde_json::Map<String, serde_json::Value> =
        keys.iter().map(|k| (k.to_string(), json!({"method": "elicitation/create", "params": {}}))).collect();
    let mut result = json!({"resultType": "input_required", "inputRequests": requests});
    if let Some(state) = state {
        result["requestState"] = state.into();
    }
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn done(id: u64) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": []}})
}

fn deploy(extra: serde_json::Value) -> serde_json::Value {
    let mut params = json!({"name": "deploy", "arguments": {"env": "prod"}});
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    params
}

fn rules(report: &Report) -> Vec<&'static str> {
    report.findings.iter().map(|f| f.rule).collect()
}

fn linted(text: &str) -> Report {
    lint(text, MAX_ROUNDS).expect("a transcript this size is read")
}

#[test]
fn an_honest_two_round_flow_breaks_nothing() {
    let text = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], Some("opaque-1"))),
        (call(2, deploy(json!({"inputResponses": {"confirm": {}}, "requestState": "opaque-1"}))), done(2)),
    ]);
    let report = linted(&text);
    assert_eq!(rules(&report), Vec::<&str>::new());
    assert_eq!(report.grouped.operations.len(), 1);
    assert_eq!(report.grouped.operations[0].rounds.len(), 2);
    assert_eq!(report.exit_code(Grade::Note), 0);
}

#[test]
fn a_retry_with_the_same_id_a_changed_ticket_and_wrong_answers() {
    let text = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], Some("opaque-1"))),
        (call(1, deploy(json!({"inputResponses": {"other": {}}, "requestState": "opaque-2"}))), done(1)),
    ]);
    let report = linted(&text);
    assert_eq!(rules(&report), ["retry-same-id", "ticket-not-echoed", "answer-missing", "answer-not-asked"]);
    assert_eq!(report.findings[0].line, 3);
    assert_eq!(report.exit_code(Grade::Must), 1);
}

#[test]
fn a_retry_that_leaves_out_the_ticket_or_adds_one_never_handed_out() {
    let missing = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], Some("opaque-1"))),
        (call(2, deploy(json!({"inputResponses": {"confirm": {}}}))), done(2)),
    ]);
    assert_eq!(rules(&linted(&missing)), ["ticket-missing"]);
    let added = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], None)),
        (call(2, deploy(json!({"inputResponses": {"confirm": {}}, "requestState": "made-up"}))), done(2)),
    ]);
    assert_eq!(rules(&linted(&added)), ["ticket-not-issued"]);
}

#[test]
fn a_ticket_spent_on_another_request_and_a_ticket_sent_again() {
    let elsewhere = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], Some("opaque-1"))),
        (
            call(
                2,
                json!({"name": "rollback", "arguments": {}, "inputResponses": {"confirm": {}}, "requestState": "opaque-1"}),
            ),
            done(2),
        ),
    ]);
    let report = linted(&elsewhere);
    assert_eq!(rules(&report), ["ticket-elsewhere"]);
    assert!(report.findings[0].says.contains("is sent on tools/call rollback"), "{}", report.findings[0].says);
    let again = lines(&[
        (call(1, deploy(json!({}))), asks(1, &["confirm"], Some("opaque-1"))),
        (call(2, deploy(json!({"inputResponses": {"confirm": {}}, "requestState": "opaque-1"}))), done(2)),
        (call(3, deploy(json!({"inputResponses": {"confirm": {}}, "requestState": "opaque-1"}))), done(3)),
    ]);
    assert_eq!(rules(&linted(&again)), ["ticket-sent-again"]);
}

#[test]
fn a_server_that_asks_where_it_may_not_asks_for_nothing_or_hands_out_a_number() {
    let list = format!(
        "{}\n{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        asks(1, &["confirm"], Some("opaque-1"))
    );
    assert_eq!(rules(&linted(&list)), ["asks-on-wrong-method"]);
    let nothing = lines(&[(call(1, deploy(json!({}))), asks(1, &[], None))]);
    assert_eq!(rules(&linted(&nothing)), ["asks-for-nothing"]);
    let mut number = asks(1, &["confirm"], None);
    number["result"]["requestState"] = json!(42);
    let odd = lines(&[(call(1, deploy(json!({}))), number)]);
    assert_eq!(rules(&linted(&odd)), ["state-not-string"]);
}

#[test]
fn a_readable_ticket_without_expiry_and_one_ticket_for_two_principals() {
    // A JWT-style ticket anyone can read: {"sub":"bob"}, no exp.
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMzItYnl0ZXMtbG9uZyE";
    let report = linted(&lines(&[(call(1, deploy(json!({}))), asks(1, &["confirm"], Some(jwt)))]));
    assert_eq!(rules(&report), ["ticket-without-expiry"]);
    assert_eq!(report.grouped.tickets[0].claims.as_ref().map(|c| c["sub"].clone()), Some(json!("bob")));
    // mrtr serve's JSON log names the principal: the same opaque ticket for bob and for alice.
    let log = |principal: &str, id: u64| {
        json!({"message": "exchange", "principal": principal,
               "request": call(id, deploy(json!({}))).to_string(),
               "response": asks(id, &["confirm"], Some("same-bytes")).to_string()})
        .to_string()
    };
    let report = linted(&format!("{}\n{}\n", log("bob", 1), log("alice", 2)));
    assert_eq!(rules(&report), ["ticket-for-two-principals"]);
    assert!(report.findings[0].says.contains("handed to bob; this one to alice"), "{}", report.findings[0].says);
}

#[test]
fn a_retry_from_another_principal_and_too_many_rounds() {
    let log = |principal: &str, id: u64, params: serde_json::Value, response: serde_json::Value| {
        json!({"message": "exchange", "principal": principal, "request": call(id, params).to_string(),
               "response": response.to_string()})
        .to_string()
    };
    let mut text = log("bob", 1, deploy(json!({})), asks(1, &["confirm"], Some("t1")));
    text.push('\n');
    text += &log("alice", 2, deploy(json!({"inputResponses": {"confirm": {}}, "requestState": "t1"})), done(2));
    assert_eq!(rules(&linted(&text)), ["retry-other-principal"]);
    // Seven rounds, each asking again with a new ticket.
    let mut exchanges = vec![(call(1, deploy(json!({}))), asks(1, &["confirm"], Some("t1")))];
    for n in 2..=7u64 {
        let sent = json!({"inputResponses": {"confirm": {}}, "requestState": format!("t{}", n - 1)});
        exchanges.push((call(n, deploy(sent)), asks(n, &["confirm"], Some(&format!("t{n}")))));
    }
    let report = linted(&lines(&exchanges));
    assert_eq!(rules(&report), ["many-rounds"]);
    assert_eq!(report.grouped.operations[0].rounds.len(), 7);
}

#[test]
fn garbage_a_megabyte_line_and_wrong_json_are_skipped_not_fatal() {
    let text = format!(
        "hello\n{{not json\n[1,2,3]\n{}\n{}\n{}\n",
        "x".repeat(1 << 20),
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 9, "result": {}})
    );
    let report = linted(&text);
    assert!(report.grouped.operations.is_empty());
    assert!(report.transcript.skipped_count >= 4, "{:?}", report.transcript.skipped);
    assert_eq!(report.grouped.orphans.len(), 1, "a response to no request is kept aside");
    assert!(lint(&"x".repeat(mrtr_lint::read::MAX_LEN + 1), MAX_ROUNDS).is_err());
    assert!(report.text().contains("skipped"));
}
