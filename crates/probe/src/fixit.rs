//! Fix-It: the lab's simulated server with a learner's own verifier in place of the codec's
//! checks, and the battery run against it. One driver for every place a verifier runs: the
//! page (the learner's JavaScript in a Web Worker, `mrtr-js`) and the class server (the same
//! JavaScript in a sandboxed engine, `mrtr-class`), each giving its [`Verifier`].
//!
//! The server still mints with the codec. When a request carries a `requestState`, the
//! verifier's `open(ticket, {principal, request, now, used})` decides: a refusal is answered as
//! the codec's are (`-32602 Invalid requestState: …`, without a check id: the learner's code
//! has none); an acceptance lets the server carry on with whatever the ticket's payload says,
//! as a server that trusts its verifier does (the payload is read without any check and handed
//! on in a fresh ticket the server opens).
//!
//! ```
//! use mrtr_probe::fixit::{run, Verifier};
//! use serde_json::Value;
//! /// Accepts every ticket: the honest flow completes, and every forgery gets through.
//! struct Trusting;
//! impl Verifier for Trusting {
//!     fn open(&mut self, _: &Value, _: &str, _: &Value, _: u64) -> Result<(), String> {
//!         Ok(())
//!     }
//! }
//! let report = run(&mut Trusting);
//! assert!(!report.passed);
//! assert!(report.results.iter().any(|row| row.attack == "honest" && row.ok));
//! assert!(report.results.iter().any(|row| row.attack == "edit-payload" && !row.ok));
//! ```

use crate::{Battery, Flow, Grade, Reply, Setup, Targets, Tokens, Verdict};
use mrtr_sim::cluster::{principal_of, LAB_KEY};
use mrtr_sim::jsonrpc;
use mrtr_sim::ledger::Ledger;
use mrtr_sim::server::{Ctx, Server, ServerConfig, StateStore};
use mrtr_ticket::{inspect, Key, Mint, RequestDigest, SplitMix64, ROUND_ONLY_PARAMS};
use serde::Serialize;
use serde_json::{json, Value};

/// The flow Fix-It attacks: two rounds (the seat, then the confirmation), so round 1's
/// ticket can be tried in round 2.
pub const FIX_IT_CALL: &str = r#"tools/call book_seat {"flight":"LX318"}"#;

/// Where the simulated clock starts, ms: 2026-01-01. A ticket's times are dates, and a reader
/// tells a date from other numbers by its size, as the probe reads any server's tickets.
const START_MS: u64 = 1_767_225_600_000;

/// A learner's verifier: `Ok` to accept the ticket, `Err(reason)` to refuse it.
pub trait Verifier {
    /// Opens `ticket` (the `requestState` as sent) for `principal`, for `request` (`{method,
    /// params}` without the round's own parameters), at `now_ms`.
    fn open(&mut self, ticket: &Value, principal: &str, request: &Value, now_ms: u64) -> Result<(), String>;
}

/// What one attack did to the learner's verifier.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixItRow {
    /// The attack's id (`honest` for the honest flow).
    pub attack: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it sends.
    pub what: &'static str,
    /// What the server did.
    pub result: Verdict,
    /// Whether this row counts toward passing: completed (honest) or refused.
    pub ok: bool,
}

/// A run's report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixItReport {
    /// True when the honest flow completed and every attack was refused.
    pub passed: bool,
    /// The call attacked.
    pub call: &'static str,
    /// One row per attack.
    pub results: Vec<FixItRow>,
}

impl FixItReport {
    /// The attacks that got through (and `honest`, when the honest flow did not complete).
    pub fn failed(&self) -> Vec<&'static str> {
        self.results.iter().filter(|row| !row.ok).map(|row| row.attack).collect()
    }
}

/// The simulated server with the learner's verifier at the door.
struct Door<'a> {
    server: Server,
    verifier: &'a mut dyn Verifier,
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
            if let Err(reason) = self.verifier.open(&ticket, principal, &request, self.now_ms) {
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

/// Runs the battery against the lab's server with `verifier` at its door.
pub fn run(verifier: &mut dyn Verifier) -> FixItReport {
    let key = Key::new(LAB_KEY).unwrap_or_else(|_| unreachable!("the lab's key is a key"));
    let flow = Flow::parse(FIX_IT_CALL).unwrap_or_else(|_| unreachable!("Fix-It's call is a call"));
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
        verifier,
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
    let results: Vec<FixItRow> = report
        .rows
        .into_iter()
        .map(|row| {
            let ok = matches!(row.verdict, Verdict::Completed | Verdict::Passed { .. });
            let by = row.attack.by;
            FixItRow { attack: by.id(), title: by.title(), what: by.what(), result: row.verdict, ok }
        })
        .collect();
    let passed = results.iter().all(|row| row.ok);
    FixItReport { passed, call: FIX_IT_CALL, results }
}
