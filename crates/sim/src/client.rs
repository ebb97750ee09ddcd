//! The honest client: every request carries the envelope; a retry uses a new id, the
//! answers under the same keys, and the ticket echoed byte for byte (none if none came).

use crate::jsonrpc;
use crate::protocol::{Capabilities, META_CAPABILITIES, META_CLIENT_INFO, META_VERSION, PROTOCOL_VERSION};
use serde_json::json;
use serde_json::{Map, Value};

/// The course's round limit: retries after the first request.
pub const DEFAULT_MAX_ROUNDS: u32 = 3;

/// An MCP 2026-07-28 client.
#[derive(Debug, Clone, PartialEq)]
pub struct Client {
    /// The bearer token it sends (who it authenticates as).
    pub bearer: String,
    /// What it declares it can do, on every request.
    pub capabilities: Capabilities,
    /// How many retries it makes before it gives up ("abandoned").
    pub max_rounds: u32,
    next_id: i64,
}

impl Client {
    /// A client for the person behind `bearer`, declaring `capabilities`.
    pub fn new(bearer: &str, capabilities: Capabilities) -> Self {
        Client { bearer: bearer.to_owned(), capabilities, max_rounds: DEFAULT_MAX_ROUNDS, next_id: 0 }
    }

    /// The `_meta` envelope.
    pub fn meta(&self) -> Value {
        json!({
            (META_VERSION): PROTOCOL_VERSION,
            (META_CLIENT_INFO): {"name": "mrtr-lab-client", "version": env!("CARGO_PKG_VERSION")},
            (META_CAPABILITIES): self.capabilities.to_value(),
        })
    }

    /// This client with its request ids counting up from `first` (0 by default): clients
    /// that share one connection each take their own, so none is sent twice on it.
    pub fn with_first_id(mut self, first: i64) -> Self {
        self.next_id = first;
        self
    }

    /// A fresh request id.
    pub fn next_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// A first request: the params, the envelope, a new id.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let mut params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        params.insert("_meta".into(), self.meta());
        jsonrpc::request(self.next_id().into(), method, Value::Object(params))
    }

    /// The retry of `first`: a new id, the same params, `inputResponses`, and the ticket
    /// exactly as received (left out when the server sent none).
    pub fn retry(&mut self, first: &Value, answers: Map<String, Value>, ticket: Option<&str>) -> Value {
        let method = first.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut params = first.get("params").and_then(Value::as_object).cloned().unwrap_or_default();
        for member in ["_meta", "inputResponses", "requestState"] {
            params.remove(member);
        }
        params.insert("inputResponses".into(), Value::Object(answers));
        if let Some(ticket) = ticket {
            params.insert("requestState".into(), ticket.into());
        }
        params.insert("_meta".into(), self.meta());
        jsonrpc::request(self.next_id().into(), &method, Value::Object(params))
    }
}
