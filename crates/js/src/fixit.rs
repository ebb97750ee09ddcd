//! Fix-It: the lab's simulated server with the learner's own verifier in place of the codec's
//! checks, and the probe's battery (`mrtr-probe`, the lab's moves) run against it.
//!
//! The server still mints with the codec. When a request carries a `requestState`, the
//! learner's `open(ticket, {principal, request, now, used})` decides: a refusal is answered
//! as the codec's are (`-32602 Invalid requestState: …`, without a check id: the learner's
//! code has none); an acceptance lets the server carry
//! on with whatever the ticket's payload says, as a server that trusts its verifier does (the
//! payload is read without any check and handed on in a fresh ticket the server opens).
//!
//! The verifier runs synchronously; the page calls [`fix_it`] in a Web Worker and stops the
//! worker when it takes too long, so an endless loop in the learner's code freezes nothing.

use crate::options;
use js_sys::{Function, Reflect, Set};
use mrtr_probe::{Battery, Flow, Grade, Reply, Setup, Targets, Tokens, Verdict};
use mrtr_sim::cluster::{principal_of, LAB_KEY};
use mrtr_sim::jsonrpc;
use mrtr_sim::ledger::Ledger;
use mrtr_sim::server::{Ctx, Server, ServerConfig, StateStore};
use mrtr_ticket::{inspect, Codec, Key, Mint, Mode, RequestDigest, SplitMix64, ROUND_ONLY_PARAMS};
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// The flow Fix-It attacks: two rounds (the seat, then the confirmation), so round 1's
/// ticket can be tried in round 2.
pub const FIX_IT_CALL: &str = r#"tools/call book_seat {"flight":"LX318"}"#;

/// Where the simulated clock starts, ms: 2026-01-01. A ticket's times are dates, and a reader
/// tells a date from other numbers by its size, as the probe reads any server's tickets.
const START_MS: u64 = 1_767_225_600_000;

/// What one attack did to the learner's verifier.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    attack: &'static str,
    title: &'static str,
    what: &'static str,
    result: Verdict,
    /// Whether this row counts toward passing: completed (honest) or refused.
    ok: bool,
}

/// The report of a run.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    /// True when the honest flow completed and every attack was refused.
    passed: bool,
    call: &'static str,
    results: Vec<Row>,
}

/// The learner's verifier, and the record of used tickets they keep in `used`.
struct Learner<'a> {
    open: &'a Function,
    used: Set,
}

impl Learner<'_> {
    /// Asks the learner's `open`: `Ok` to accept, `Err(reason)` to refuse.
    fn verdict(&self, ticket: &Value, principal: &str, request: &Value, now_ms: u64) -> Result<(), String> {
        let unbuilt = "the verifier's arguments could not be built";
        let context = options::to_js(&json!({"principal": principal, "request": request, "now": now_ms}))
            .map_err(|_| unbuilt.to_owned())?;
        Reflect::set(&context, &"used".into(), &self.used).map_err(|_| unbuilt.to_owned())?;
        let ticket = options::to_js(ticket).map_err(|_| unbuilt.to_owned())?;
        let said = self.open.call2(&JsValue::NULL, &ticket, &context).map_err(|thrown| {
            let message = Reflect::get(&thrown, &"message".into()).ok().and_then(|m| m.as_string());
            format!("your verifier threw: {}", message.unwrap_or_else(|| format!("{thrown:?}")))
        })?;
        if said.is_instance_of::<js_sys::Promise>() {
            return Err("open must answer at once, not with a Promise (the helpers are synchronous)".into());
        }
        let ok = said.as_bool().or_else(|| Reflect::get(&said, &"ok".into()).ok().and_then(|ok| ok.as_bool()));
        match ok {
            Some(true) => Ok(()),
            Some(false) => {
                let reason = Reflect::get(&said, &"reason".into()).ok().and_then(|r| r.as_string());
                Err(reason.unwrap_or_else(|| "refused".into()))
            }
            None => Err("open answered neither accept() nor refuse(reason)".into()),
        }
    }
}

/// The simulated server with the learner's verifier at the door.
struct Door<'a> {
    server: Server,
    learner: Learner<'a>,
    ledger: Ledger,
    rng: SplitMix64,
    store: StateStore,
    now_ms: u64,
}

impl Door<'_> {
    /// Answers one request from `bearer`.
    fn handle(&mut self, message: &Value, bearer: Option<&str>) -> Value {
        // A token the lab does not know is refused, as a server that authenticates refuses it.
        let Some(principal) = bearer.and_then(principal_of) else {
            return jsonrpc::error(message["id"].clone(), -32001, "Unauthorized: unknown bearer token", None);
        };
        let mut message = message.clone();
        if let Some(ticket) = message.pointer("/params/requestState").cloned() {
            let method = message["method"].as_str().unwrap_or_default().to_owned();
            let mut params = message["params"].clone();
            if let Some(params) = params.as_object_mut() {
                for round_only in ROUND_ONLY_PARAMS {
                    params.remove(round_only);
                }
            }
            let request = json!({"method": method, "params": params});
            if let Err(reason) = self.learner.verdict(&ticket, principal, &request, self.now_ms) {
                return jsonrpc::error(
                    message["id"].clone(),
                    mrtr_ticket::INVALID_PARAMS,
                    &format!("Invalid requestState: {reason}. Start the request again without it."),
                    Some(json!({"reason": "invalid_request_state"})),
                );
            }
            // Accepted: the server believes the payload, whatever it says.
            let believed = inspect(ticket.as_str().unwrap_or_default()).payload;
            let data = believed.and_then(|claims| claims.get("data").cloned()).unwrap_or_else(|| json!({}));
            if let Ok(request) = RequestDigest::of(&method, &message["params"]) {
                let mint = Mint {
                    principal: principal.to_owned(),
                    request,
                    data,
                    now_ms: self.now_ms,
                    ttl_ms: self.server.config().ttl_ms,
                };
                if let Ok(trusted) = self.server.codec().mint(&mint, &mut self.rng) {
                    message["params"]["requestState"] = trusted.into();
                }
            }
        }
        let mut ctx = Ctx {
            principal,
            now_ms: self.now_ms,
            replica: "fix-it",
            record: None,
            ledger: &mut self.ledger,
            nonces: &mut self.rng,
            store: &mut self.store,
        };
        self.server.handle(&message, &mut ctx).response.unwrap_or(Value::Null)
    }
}

/// Runs the battery against the lab's server with `open` as its verifier; returns
/// `{passed, call, results: [{attack, title, what, result, ok}]}`.
#[wasm_bindgen(js_name = fixIt, unchecked_return_type = "FixItReport")]
pub fn fix_it(
    #[wasm_bindgen(unchecked_param_type = "(ticket: unknown, context: VerifierContext) => VerifierAnswer")]
    open: &Function,
) -> Result<JsValue, JsError> {
    let key = Key::new(LAB_KEY).map_err(|e| JsError::new(&e.to_string()))?;
    let flow = Flow::parse(FIX_IT_CALL).map_err(|e| JsError::new(&e))?;
    let tokens = Tokens { first: Some("bob-token".into()), second: Some("alice-token".into()) };
    let mut setup = Setup::new(flow, tokens);
    setup.wait_expiry = true;
    setup.now_ms = START_MS;
    // The lab's server has no other tool that takes a flight: deploy, which asks too, is the
    // other tool; the prompt is the other method.
    setup.targets = Targets {
        tool: Some(json!({"name": "deploy", "arguments": {"env": "staging"}})),
        method: Some(("prompts/get".into(), json!({"name": "release_notes", "arguments": {"version": "2.0"}}))),
        arguments: Some(json!({"flight": "LX999"})),
    };
    let mut door = Door {
        server: Server::new(key, ServerConfig::default()),
        learner: Learner { open, used: Set::new(&JsValue::UNDEFINED) },
        ledger: Ledger::default(),
        rng: SplitMix64::new(7),
        store: StateStore::default(),
        now_ms: START_MS,
    };
    // The battery as every driver runs it: the honest flow first, then each attack; each line
    // a second after the last, a ticket's lifetime later when it waits.
    let report = Battery::new(setup, |_| true).run(
        |send| {
            door.now_ms += 1_000 + send.wait_ms;
            Reply::from(Ok(door.handle(&send.message, send.bearer.as_deref())))
        },
        || START_MS,
        Grade::Note,
        |_| false,
    );
    let results: Vec<Row> = report
        .rows
        .into_iter()
        .map(|row| {
            let ok = matches!(row.verdict, Verdict::Completed | Verdict::Passed { .. });
            let by = row.attack.by;
            Row { attack: by.id(), title: by.title(), what: by.what(), result: row.verdict, ok }
        })
        .collect();
    let passed = results.iter().all(|row| row.ok);
    options::to_js(&Report { passed, call: FIX_IT_CALL, results })
}

/// The tag the lab's server signs `signed` (a ticket's text before its last dot) with:
/// base64url of HMAC-SHA256 under the lab's key. Fix-It's `lab.sign`.
#[wasm_bindgen(js_name = labSign)]
pub fn lab_sign(#[wasm_bindgen(unchecked_param_type = "string")] signed: JsValue) -> Result<String, JsError> {
    let signed = options::text(&signed, "signed")?;
    let key = Key::new(LAB_KEY).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(Codec::new(key, Mode::Signed).tag_of(&signed))
}
