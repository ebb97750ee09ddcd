//! What the server under test offers, asked over the transport: its lists (read by
//! [`mrtr_probe::Listed`]), and for `--call-any` the first tool whose call asks for input.

use crate::call::transport::Transport;
use mrtr_probe::{Flow, Listed, Outcome};
use mrtr_sim::client::Client;
use mrtr_sim::protocol::Capabilities;
use serde_json::json;

/// The revision whose multi round-trip requests the probe tests.
const REVISION: &str = "2026-07-28";

/// What `server/discover` says about the server's revision: `None` when it speaks
/// 2026-07-28 (or says nothing either way), else why it seems not to, in words.
pub async fn revision(transport: &mut Transport, token: Option<&str>) -> Option<String> {
    let mut client = Client::new("", Capabilities::ALL).with_first_id(transport.unused_id());
    let reply = transport.exchange(&client.request("server/discover", json!({})), token).await;
    let body = reply.body.as_ref().ok()?;
    if let Some(versions) = body.pointer("/result/supportedVersions").and_then(|v| v.as_array()) {
        let named: Vec<String> =
            versions.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
        return (!named.iter().any(|v| v == REVISION)).then(|| format!("server/discover lists {}", named.join(", ")));
    }
    let said = match Outcome::of(&reply) {
        Outcome::Elsewhere { why, .. } => why,
        Outcome::Refused { code, message, .. } => format!("{code} {message}"),
        _ => return None,
    };
    let lower = said.to_ascii_lowercase();
    let legacy = ["session", "initialize", "method not found", "-32601", "protocol version", "unsupported"];
    legacy.iter().any(|w| lower.contains(w)).then(|| format!("it answers server/discover with {said}"))
}

/// Asks for `tools/list`, `prompts/list` and `resources/list`. Fails only when the server cannot
/// be reached at all (the transport's words) or answers nothing that is MCP.
pub async fn list(transport: &mut Transport, token: Option<&str>) -> Result<Listed, String> {
    let mut client = Client::new("", Capabilities::ALL).with_first_id(transport.unused_id());
    let mut replies = Vec::new();
    for method in ["tools/list", "prompts/list", "resources/list"] {
        let reply = transport.exchange(&client.request(method, json!({})), token).await;
        match (Outcome::of(&reply), method) {
            (Outcome::Nothing { why }, "tools/list") => {
                return Err(format!("the server cannot be reached, or is not MCP: {why}"))
            }
            (outcome @ Outcome::Elsewhere { routing: false, .. }, "tools/list") => {
                let why = outcome.words();
                let hint = match (token, outcome.is_unauthenticated()) {
                    (None, true) => " (it wants a bearer token: pass one with --token)",
                    (Some(_), true) => " (the token given with --token was refused)",
                    _ => "",
                };
                return Err(format!("the server refused tools/list: {why}{hint}"));
            }
            _ => {}
        }
        replies.push(reply.body.ok());
    }
    Ok(Listed::read(replies[0].as_ref(), replies[1].as_ref(), replies[2].as_ref()))
}

/// The first listed tool, not destructive, whose call asks for input: `--call-any`.
pub async fn first_flow_that_asks(
    transport: &mut Transport,
    listed: &Listed,
    token: Option<&str>,
) -> Result<Flow, String> {
    let mut client = Client::new("", Capabilities::ALL).with_first_id(transport.unused_id());
    let mut tried = Vec::new();
    for tool in listed.tools.iter().filter(|t| !t.destructive) {
        let flow = tool.call();
        let reply = transport.exchange(&client.request(&flow.method, flow.params.clone()), token).await;
        if matches!(Outcome::of(&reply), Outcome::Asked { .. }) {
            return Ok(flow);
        }
        tried.push(tool.name.clone());
    }
    let skipped: Vec<&str> = listed.tools.iter().filter(|t| t.destructive).map(|t| t.name.as_str()).collect();
    Err(format!(
        "no tool asked for input (tried: {}; skipped as destructive: {}): give the call that does with --call",
        if tried.is_empty() { "none".into() } else { tried.join(", ") },
        if skipped.is_empty() { "none".into() } else { skipped.join(", ") }
    ))
}
