//! The stateless MCP 2026-07-28 server core. It does not know it is simulated: a handler
//! takes one request, the principal, the time and its collaborators, and returns the
//! response. The cluster (and, later, a real transport) wraps it.

mod multi_round;
mod store;

pub use store::StateStore;

use crate::jsonrpc::{self, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, UNSUPPORTED_VERSION};
use crate::ledger::Ledger;
use crate::protocol::{Envelope, META_SERVER_INFO, PROTOCOL_VERSION};
use crate::tools::{self, prompts, resources, ToolSet};
use mrtr_ticket::{Codec, Key, Mode, NonceSource, ReplayRecord, Report, RequestDigest};
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::Value;

/// The longest request line the server reads.
pub const MAX_LINE: usize = 4 << 20;
/// The server's name and version, in every result's `_meta`.
pub const SERVER_NAME: &str = "mrtr-lab-server";

/// Where a server keeps the work between rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateMode {
    /// In the ticket itself: any replica can finish. The stateless way.
    InTicket,
    /// In a store on the server; the ticket holds only its key. Stateful again.
    Store,
}

/// A request line as it arrived, read once: the server answers it and the trace describes it
/// from the same reading.
#[derive(Debug)]
pub struct Incoming<'a> {
    /// The bytes as sent.
    pub line: &'a str,
    /// What they parse to; `None` for a line over [`MAX_LINE`], which is not read at all.
    pub message: Option<Result<Value, serde_json::Error>>,
}

impl<'a> Incoming<'a> {
    /// Reads one line (unless it is too long to read).
    pub fn read(line: &'a str) -> Incoming<'a> {
        Incoming { line, message: (line.len() <= MAX_LINE).then(|| serde_json::from_str::<Value>(line)) }
    }
}

/// How a server is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    /// Signed, sealed, or (careless) unsigned tickets.
    pub mode: Mode,
    /// How long a ticket lives, ms.
    pub ttl_ms: u64,
    /// Where the work between rounds is kept.
    pub state: StateMode,
    /// Which tools and prompts it offers.
    #[serde(default)]
    pub tools: ToolSet,
    /// The binding its tickets leave out (test servers only: see [`Binding`]).
    #[cfg(feature = "careless")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unbound: Option<Binding>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            mode: Mode::Signed,
            ttl_ms: 120_000,
            state: StateMode::InTicket,
            tools: ToolSet::Lab,
            #[cfg(feature = "careless")]
            unbound: None,
        }
    }
}

/// One binding of a ticket to its context, which a careless server leaves out: the server
/// still signs, so every other check holds, and a probe must find exactly this one.
#[cfg(feature = "careless")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::EnumString, strum::Display)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Binding {
    /// Every ticket is minted for, and opened as, the same nobody: anyone may present it.
    Principal,
    /// The expiry is signed but never checked (the course's raw server).
    Expiry,
    /// Every ticket is minted for, and opened against, the same request: it fits any call.
    Request,
}

/// What a server needs besides the request: who is asking, when, and its collaborators.
pub struct Ctx<'a> {
    /// The principal authenticated for this request (from the bearer token).
    pub principal: &'a str,
    /// The server's clock, ms.
    pub now_ms: u64,
    /// Which replica this is, for the ledger.
    pub replica: &'a str,
    /// The record of used tickets, when the server keeps one.
    pub record: Option<&'a mut dyn ReplayRecord>,
    /// Where side effects go.
    pub ledger: &'a mut Ledger,
    /// Random bytes for ticket nonces.
    pub nonces: &'a mut dyn NonceSource,
    /// Saved work, for [`StateMode::Store`].
    pub store: &'a mut StateStore,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx").field("principal", &self.principal).field("now_ms", &self.now_ms).finish_non_exhaustive()
    }
}

/// The server's own check after the ticket's: did the answers it needs come with the retry?
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnswerCheck {
    /// True when nothing had to be asked again.
    pub passed: bool,
    /// What came, or what is missing.
    pub detail: String,
}

/// What handling one message produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Handled {
    /// The response; `None` for a notification.
    pub response: Option<Value>,
    /// The ticket checks, when a ticket came with the request.
    pub checks: Option<Report>,
    /// Whether the answers came with a valid ticket (only when one did).
    pub answers: Option<AnswerCheck>,
    /// Remarks for the trace: what the server did and why.
    pub notes: Vec<String>,
}

impl Handled {
    fn reply(response: Value) -> Self {
        Handled { response: Some(response), ..Handled::default() }
    }
}

/// A stateless MCP server replica: a key and a configuration, nothing else.
#[derive(Debug, Clone)]
pub struct Server {
    codec: Codec,
    config: ServerConfig,
}

impl Server {
    /// A server with this key and configuration.
    pub fn new(key: Key, config: ServerConfig) -> Self {
        Server { codec: Codec::new(key, config.mode), config }
    }

    /// The principal its tickets bind: the one authenticated, or nobody for a server that
    /// leaves it out.
    fn bound_principal<'p>(&self, principal: &'p str) -> &'p str {
        #[cfg(feature = "careless")]
        if self.config.unbound == Some(Binding::Principal) {
            return "";
        }
        principal
    }

    /// The request its tickets bind: this one's digest, or one digest for every request.
    fn bound_request(&self, method: &str, params: &Value) -> Result<RequestDigest, mrtr_ticket::ParamsNotAnObject> {
        #[cfg(feature = "careless")]
        if self.config.unbound == Some(Binding::Request) {
            return RequestDigest::of("any", &json!({}));
        }
        RequestDigest::of(method, params)
    }

    /// The clock its tickets' expiry is checked against: now, or the epoch for a server that
    /// never checks it.
    fn checked_now(&self, now_ms: u64) -> u64 {
        #[cfg(feature = "careless")]
        if self.config.unbound == Some(Binding::Expiry) {
            return 0;
        }
        now_ms
    }

    /// The codec it mints and opens tickets with.
    pub fn codec(&self) -> &Codec {
        &self.codec
    }

    /// Its configuration.
    pub fn config(&self) -> ServerConfig {
        self.config
    }

    /// Handles one line of JSON-RPC text. Never panics: anything wrong gets a JSON-RPC error.
    pub fn handle_line(&self, line: &str, ctx: &mut Ctx<'_>) -> Handled {
        self.handle_incoming(&Incoming::read(line), ctx)
    }

    /// Handles one request line that was read already (see [`Incoming`]).
    pub fn handle_incoming(&self, incoming: &Incoming<'_>, ctx: &mut Ctx<'_>) -> Handled {
        match &incoming.message {
            None => {
                let message = format!("Request too large: {} bytes, at most {MAX_LINE}", incoming.line.len());
                Handled::reply(jsonrpc::error(Value::Null, INVALID_REQUEST, &message, None))
            }
            Some(Ok(message)) => self.handle(message, ctx),
            Some(Err(e)) => {
                Handled::reply(jsonrpc::error(Value::Null, PARSE_ERROR, &format!("Parse error: {e}"), None))
            }
        }
    }

    /// Handles one parsed JSON-RPC message.
    pub fn handle(&self, message: &Value, ctx: &mut Ctx<'_>) -> Handled {
        let id = message.get("id").filter(|id| id.is_string() || id.is_i64() || id.is_u64()).cloned();
        let invalid =
            |why: &str| Handled::reply(jsonrpc::error(id.clone().unwrap_or(Value::Null), INVALID_REQUEST, why, None));
        let Some(object) = message.as_object() else {
            return invalid("Invalid Request: a JSON-RPC message is an object");
        };
        if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return invalid("Invalid Request: \"jsonrpc\" must be \"2.0\"");
        }
        let Some(method) = object.get("method").and_then(Value::as_str) else {
            if object.contains_key("result") || object.contains_key("error") {
                return Handled {
                    notes: vec!["a response arrived, but this server sends no requests: ignored".into()],
                    ..Handled::default()
                };
            }
            return invalid("Invalid Request: \"method\" must be a string");
        };
        let Some(id) = id else {
            if object.contains_key("id") {
                return invalid("Invalid Request: \"id\" must be a string or an integer");
            }
            return Handled { notes: vec![format!("notification {method}: no response")], ..Handled::default() };
        };
        let empty = json!({});
        let params = object.get("params").unwrap_or(&empty);
        if !params.is_object() {
            return Handled::reply(jsonrpc::error(
                id,
                INVALID_PARAMS,
                "Invalid params: \"params\" must be an object",
                None,
            ));
        }
        if method == "initialize" {
            // The handshake of 2025-11-25 and earlier is a method this revision does not have
            // (-32601, 404 on HTTP, as the transports page and the conformance suite want),
            // and a modern-only server names the versions it speaks in that error (the
            // versioning page): the one diagnostic a legacy client can show.
            let requested = params.get("protocolVersion").and_then(Value::as_str).unwrap_or("");
            let message = format!(
                "Method not found: initialize is the handshake of 2025-11-25 and earlier; this server speaks only {PROTOCOL_VERSION}"
            );
            let data = json!({"supported": [PROTOCOL_VERSION], "requested": requested});
            return Handled::reply(jsonrpc::error(id, METHOD_NOT_FOUND, &message, Some(data)));
        }
        if !matches!(
            method,
            "server/discover"
                | "tools/list"
                | "tools/call"
                | "prompts/list"
                | "prompts/get"
                | "resources/list"
                | "resources/read"
        ) {
            return Handled::reply(jsonrpc::error(id, METHOD_NOT_FOUND, &format!("Method not found: {method}"), None));
        }
        let envelope = Envelope::from_params(params);
        match envelope.version.as_deref() {
            Some(PROTOCOL_VERSION) => {}
            requested => {
                let message = match requested {
                    None => "Unsupported protocol version: the request did not name one in _meta".to_owned(),
                    Some(v) => format!("Unsupported protocol version: {v}"),
                };
                let data = json!({"supported": [PROTOCOL_VERSION], "requested": requested.unwrap_or("")});
                return Handled::reply(jsonrpc::error(id, UNSUPPORTED_VERSION, &message, Some(data)));
            }
        }
        if crate::protocol::target_member(method).is_none()
            && (params.get("inputResponses").is_some() || params.get("requestState").is_some())
        {
            let message = format!(
                "Invalid params: {method} cannot take part in a multi round-trip request; only tools/call, prompts/get and resources/read can return input_required"
            );
            return Handled::reply(jsonrpc::error(id, INVALID_PARAMS, &message, None));
        }
        match method {
            "server/discover" => Handled::reply(jsonrpc::result(id, self.complete(json!({
                "supportedVersions": [PROTOCOL_VERSION],
                "capabilities": {"tools": {"listChanged": false}, "prompts": {"listChanged": false}, "resources": {"listChanged": false}},
                "instructions": "A teaching server for multi round-trip requests. Its tickets are signed with a lab key, not a secret.",
                "ttlMs": 0,
                "cacheScope": "public",
            })))),
            "tools/list" => {
                let tools: Vec<Value> = self.config.tools.tools().iter().map(tools::Tool::to_value).collect();
                Handled::reply(jsonrpc::result(id, self.complete(json!({"tools": tools, "ttlMs": 0, "cacheScope": "public"}))))
            }
            "prompts/list" => {
                let prompts: Vec<Value> = self.config.tools.prompts().iter().map(prompts::Prompt::to_value).collect();
                Handled::reply(jsonrpc::result(id, self.complete(json!({"prompts": prompts, "ttlMs": 0, "cacheScope": "public"}))))
            }
            "resources/list" => Handled::reply(jsonrpc::result(
                id,
                self.complete(json!({"resources": resources::list(), "ttlMs": 0, "cacheScope": "public"})),
            )),
            _ => self.multi_round(id, method, params, &envelope, ctx),
        }
    }
}

fn server_meta() -> Value {
    json!({META_SERVER_INFO: {"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::LAB_KEY;
    use mrtr_ticket::SplitMix64;

    fn answer(line: &str) -> Value {
        let server = Server::new(Key::new(LAB_KEY).expect("32 bytes"), ServerConfig::default());
        let (mut ledger, mut nonces, mut store) = (Ledger::default(), SplitMix64::new(1), StateStore::default());
        let mut ctx = Ctx {
            principal: "bob",
            now_ms: 0,
            replica: "A",
            record: None,
            ledger: &mut ledger,
            nonces: &mut nonces,
            store: &mut store,
        };
        server.handle_line(line, &mut ctx).response.expect("a response")
    }

    #[test]
    fn a_legacy_initialize_hears_which_versions_this_server_speaks() {
        let reply =
            answer(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#);
        assert_eq!(reply["error"]["code"], METHOD_NOT_FOUND);
        assert_eq!(reply["error"]["data"], json!({"supported": ["2026-07-28"], "requested": "2025-11-25"}));
    }

    #[test]
    fn a_parse_error_has_no_id_as_the_schema_and_the_transports_say() {
        let reply = answer("{");
        assert_eq!(reply["error"]["code"], PARSE_ERROR);
        assert!(reply.get("id").is_none());
    }
}
