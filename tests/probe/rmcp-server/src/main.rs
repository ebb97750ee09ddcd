//! An rmcp 3.11 MRTR server for `mrtr probe`'s tests: two tools that ask before acting,
//! `deploy` and `rollback` (`{env}`), their state sealed with rmcp's `RequestStateCodec`
//! (feature `request-state`) over rmcp's Streamable HTTP server.
//!
//! ```text
//! rmcp-probe-server PORT example   # as rmcp's own example seals: no associated data, no TTL
//! rmcp-probe-server PORT bound     # associated data (method, tool, arguments), a 2 s TTL
//! rmcp-probe-server PORT bench     # bound, a 120 s TTL, and a used-ticket set: the peer
//!                                  # scripts/bench-server.sh measures mrtr serve against
//! ```
//!
//! Prints `listening on URL` and serves until killed.

use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

const KEY: &[u8] = b"an rmcp probe fixture key, 32 bytes or more";

fn codec() -> &'static RequestStateCodec {
    static CODEC: OnceLock<RequestStateCodec> = OnceLock::new();
    CODEC.get_or_init(|| RequestStateCodec::new_unchecked(KEY))
}

#[derive(Clone)]
struct Server {
    bound: bool,
    ttl: Duration,
    /// The nonces of tickets already redeemed (the bench setup's single use).
    used: Option<Arc<Mutex<HashSet<u64>>>>,
}

/// A nonce for each ticket: without one, two flows of the same call in the same millisecond
/// would get the same bytes, and single use would refuse the second.
fn nonce() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn confirm_request(message: String) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: serde_json::from_value(json!({
            "type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]
        }))
        .unwrap_or_else(|e| panic!("a schema: {e}")),
    }))
}

fn tool(name: &'static str, description: &'static str) -> Tool {
    let schema = json!({"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]});
    let Value::Object(schema) = schema else { unreachable!() };
    Tool::new(name, description, Arc::new(schema))
}

impl Server {
    /// What the state is bound to in the `bound` setup: the method, the tool, the arguments.
    fn context(request: &CallToolRequestParams) -> Vec<u8> {
        format!("tools/call|{}|{}", request.name, json!(request.arguments)).into_bytes()
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.protocol_version = ProtocolVersion::V_2026_07_28;
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            tool("deploy", "Deploys after the person confirms."),
            tool("rollback", "Rolls back after the person confirms."),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let env =
            request.arguments.as_ref().and_then(|a| a.get("env")).and_then(Value::as_str).unwrap_or("").to_owned();
        let verb = if request.name == "deploy" { "Deploy" } else { "Roll back" };
        let context = Self::context(&request);
        let confirmed = request
            .input_responses
            .as_ref()
            .and_then(|r| r.get("confirm"))
            .is_some_and(|answer| answer.pointer("/content/confirm") == Some(&json!(true)));
        match (&request.request_state, confirmed) {
            (Some(sealed), true) => {
                // The echoed state is untrusted: verify it before use, as rmcp's example does.
                let opened: Result<Value, _> =
                    if self.bound { codec().open_json_with(sealed, &context) } else { codec().open_json(sealed) };
                let state = opened.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                if let Some(used) = &self.used {
                    let nonce = state.get("nonce").and_then(Value::as_u64).unwrap_or_default();
                    if !used.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(nonce) {
                        return Err(ErrorData::invalid_params("request state already used", None));
                    }
                }
                Ok(CallToolResult::success(vec![ContentBlock::text(format!("{verb} {env}: done"))]).into())
            }
            _ => {
                let mut state = json!({"tool": request.name, "env": env});
                if self.used.is_some() {
                    state["nonce"] = nonce().into();
                }
                let sealed = if self.bound {
                    let options = SealOptions::new().associated_data(&context).ttl(self.ttl);
                    codec().seal_json_with(&state, &options)
                } else {
                    codec().seal_json(&state)
                }
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let mut requests = InputRequests::new();
                requests.insert("confirm".into(), confirm_request(format!("{verb} {env}?")));
                Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
            }
        }
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (port, setup) = match args.as_slice() {
        [_, port, setup, ..] => (port.parse::<u16>().unwrap_or(0), setup.clone()),
        [_, port] => (port.parse::<u16>().unwrap_or(0), String::new()),
        _ => (0, String::new()),
    };
    let bound = setup == "bound" || setup == "bench";
    let ttl = Duration::from_secs(if setup == "bench" { 120 } else { 2 });
    let used = (setup == "bench").then(|| Arc::new(Mutex::new(HashSet::new())));
    let service = StreamableHttpService::new(
        move || Ok(Server { bound, ttl, used: used.clone() }),
        Arc::new(NeverSessionManager::default()),
        StreamableHttpServerConfig::default().with_json_response(true),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await
}
