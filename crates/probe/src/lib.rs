//! # mrtr-probe: attacks on any MCP server's `requestState`
//!
//! The malicious client of the lab (`mrtr_sim::moves`), turned on a real server whose tickets
//! may be of any shape ([`Ticket`]). The crate sends nothing: each attack is a sans-IO state
//! machine ([`Attack::start`], then [`Run::next`] with each [`Reply`]) that says what to send
//! and what the replies say about the server, graded by the words of the MRTR page.
//!
//! Verdicts are by difference. The honest flow runs first; if it does not complete, nothing
//! else can be concluded ([`Verdict::after_honest`]). An attack that spends a ticket on another
//! target first shows, on a fresh flow, that the target works; only a refusal of the ticket
//! itself counts as refused ([`Outcome`]): authentication, routing, rate limits and server
//! failures never do.
//!
//! ```
//! use mrtr_probe::{Attack, Flow, Reply, Setup, Tokens, Verdict};
//! use serde_json::{json, Value};
//!
//! let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).unwrap();
//! let setup = Setup::new(flow, Tokens { first: Some("bob-token".into()), second: None });
//! // A server that asks once, then accepts whatever comes back.
//! let careless = |send: &mrtr_probe::Send| -> Reply {
//!     let id = send.message["id"].clone();
//!     Reply::http(200, Ok(if send.message["params"].get("requestState").is_none() {
//!         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
//!             "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
//!                 "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
//!             "requestState": "v1.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"}})
//!     } else {
//!         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": []}})
//!     }))
//! };
//! let tamper = Attack::named("tamper-byte").unwrap();
//! assert!(tamper.run(&setup, careless).breaks_a_must());
//! assert_eq!(Attack::named("honest").unwrap().run(&setup, careless), Verdict::Completed);
//! ```

mod battery;
mod engine;
pub mod fixit;
#[doc(hidden)]
pub mod hostile;
mod reply;
mod run;
mod setup;
mod summary;
mod targets;
mod verdict;
mod why;

pub use battery::{Attack, Tactic, BATTERY};
pub use engine::{Battery, Conclusion, Report, Row};
pub use mrtr_wire::{decode_base64, spec, Grade, Outcome, Reply, Shape, Ticket};
pub use run::{Exchange, Run, Send, Step, MADE_UP_TOKEN, MAX_ROUNDS, MAX_WAIT_MS};
pub use setup::{Flow, Setup, Targets, Tokens, DEFAULT_RACE};
pub use summary::{exit, Summary};
pub use targets::{arguments_for, other_arguments, Listed, Tool};
pub use verdict::Verdict;
pub use why::{Lacks, TokenHint, Why};
