//! The probe sends what the lab's table of moves says each move sends (`Move::sends`): the
//! ticket or none, answers or none, whose token, how many times. One move id, one attack.

use mrtr_probe::{Flow, Reply, Send, Setup, Tactic, Tokens, BATTERY};
use mrtr_sim::moves::{Target, Ticket};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// Each flow's ticket holds a count of its own, so that no two flows get the same one.
static FLOWS: AtomicU64 = AtomicU64::new(0);

fn ticket() -> String {
    let n = FLOWS.fetch_add(1, Ordering::Relaxed);
    let claims = json!({"sub": "bob", "env": "staging", "n": n});
    let tag = format!("signature{n:08}signature");
    format!(
        "v1.{}.{}",
        mrtr_ticket::base64url_encode(claims.to_string().as_bytes()),
        mrtr_ticket::base64url_encode(tag.as_bytes())
    )
}

/// Knows bob and alice; asks round 1 with a ticket, refuses every retry: each attack sends
/// all its lines.
fn strict(send: &Send) -> Reply {
    let id = send.message["id"].clone();
    if !matches!(send.bearer.as_deref(), Some("bob" | "alice")) {
        return Reply::http(401, Ok(json!({"error": "invalid_token"})));
    }
    let params = &send.message["params"];
    let body = if params.get("requestState").is_none() && params.get("inputResponses").is_none() {
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
            "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
                "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
            "requestState": ticket()}})
    } else {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Invalid requestState"}})
    };
    Reply::http(200, Ok(body))
}

#[test]
fn every_lab_move_of_the_battery_sends_what_the_table_says() {
    let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).expect("flow");
    let mut setup = Setup::new(flow, Tokens { first: Some("bob".into()), second: Some("alice".into()) });
    setup.ttl_ms = Some(1_000);
    setup.wait_expiry = true;
    let mut checked = 0;
    for attack in BATTERY {
        let Tactic::Lab(by) = attack.by else { continue };
        let sends = by.sends();
        if sends.target != Target::Same || by.id() == "honest" || by.id() == "first-ticket" {
            continue;
        }
        let (mut run, mut step) = attack.start(&setup);
        let mut lines: Vec<Send> = Vec::new();
        let mut issued = Vec::new();
        while let mrtr_probe::Step::Send(send) = step {
            lines.push(send.clone());
            let reply = strict(&send);
            issued.extend(reply.body.as_ref().ok().and_then(|b| b.pointer("/result/requestState")).cloned());
            step = run.next(reply);
        }
        // The ticket of the flow the attack plays on: the last one issued before its own lines.
        let ticket = issued.last().cloned().unwrap_or_default();
        // The attack's own lines are its retries: controls and first calls carry no answers.
        let own: Vec<&Send> = lines.iter().filter(|s| s.message.pointer("/params/inputResponses").is_some()).collect();
        assert!(!own.is_empty(), "{}: sent nothing of its own", by.id());
        checked += 1;
        let last = own.last().expect("a line");
        let state = last.message.pointer("/params/requestState");
        match sends.ticket {
            Ticket::Absent => assert_eq!(state, None, "{}", by.id()),
            Ticket::Same => assert_eq!(state, Some(&ticket), "{}", by.id()),
            Ticket::Text(text) => assert_eq!(state, Some(&Value::from(text)), "{}", by.id()),
            Ticket::Huge => assert_eq!(state.and_then(Value::as_str).map(str::len), Some(1_000_000)),
            Ticket::Edited(_) => {
                let state = state.and_then(Value::as_str).unwrap_or_default();
                assert!(!state.is_empty() && Some(state) != ticket.as_str(), "{}: {state}", by.id())
            }
            Ticket::Earlier | Ticket::NotAString => {}
        }
        assert!(last.message.pointer("/params/inputResponses/ok").is_some(), "{}: the answers", by.id());
        let token = if sends.other_principal { "alice" } else { "bob" };
        assert_eq!(last.bearer.as_deref(), Some(token), "{}", by.id());
        assert_eq!(last.wait_ms > 0, sends.late, "{}", by.id());
        if sends.twice {
            let before = own[own.len() - 2];
            assert_eq!(before.message["params"], last.message["params"], "{}: the same retry twice", by.id());
            assert_ne!(before.message["id"], last.message["id"], "{}: under a new id", by.id());
        }
    }
    assert!(checked >= 15, "{checked} moves checked");
}
