//! # mrtr-probe: the lab's attacks on any MCP server's `requestState`
//!
//! The malicious client of the lab (`mrtr_sim::moves`), turned on a real server: the same moves,
//! built by the same code, from a real flow's first answer. The crate sends nothing. For each
//! attack it says what to send ([`Attack::begin`], then [`Attack::attempts`] once the first
//! answer is in) and what the replies say about the server ([`Attack::judge`]), graded by the
//! words of the MRTR page. Each attack starts a flow of its own, so one cannot spoil the next.
//!
//! Each attack is a state machine ([`Attack::start`], then [`Run::next`] with each reply): the
//! caller sends, waits, or advances a simulated clock as it likes. [`Attack::run`] drives one
//! with a blocking `send`:
//!
//! ```
//! use mrtr_probe::{Flow, Setup, Tokens, Verdict, BATTERY};
//! use serde_json::{json, Value};
//!
//! let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).unwrap();
//! let setup = Setup { flow, tokens: Tokens { first: Some("bob-token".into()), second: None }, wait_expiry: None, other_tool: None };
//! // A server that asks once, then accepts whatever comes back.
//! let careless = |send: &mrtr_probe::Send| -> Result<Value, String> {
//!     let id = send.message["id"].clone();
//!     Ok(if send.message["params"].get("requestState").is_none() {
//!         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
//!             "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
//!                 "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
//!             "requestState": "v1.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"}})
//!     } else {
//!         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": []}})
//!     })
//! };
//! let tamper = BATTERY.iter().find(|a| a.by.id() == "tamper-byte").unwrap();
//! assert!(tamper.run(&setup, careless).breaks_a_must());
//! assert_eq!(BATTERY[0].run(&setup, careless), Verdict::Completed);
//! ```

mod battery;
mod reply;
mod run;
mod setup;
mod verdict;

pub use battery::{spec, Attack, Grade, BATTERY};
pub use run::{Exchange, Run, Send, Step, MAX_ROUNDS, MAX_WAIT_MS};
pub use setup::{Flow, Setup, Tokens};
pub use verdict::Verdict;
