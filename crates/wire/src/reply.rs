//! Reading a server's reply: its transport status and body, and what it amounts to.
//!
//! A reply is hostile input: nothing here indexes into it.

use serde::Serialize;
use serde_json::Value;

/// What came back for one line: the HTTP status where there is one (`None` over stdio or in
/// process), and the JSON-RPC message, or why none came.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The HTTP status.
    pub status: Option<u16>,
    /// The JSON-RPC response, or why there is none.
    pub body: Result<Value, String>,
}

impl Reply {
    /// A reply over HTTP.
    pub fn http(status: u16, body: Result<Value, String>) -> Reply {
        Reply { status: Some(status), body }
    }
}

impl From<Result<Value, String>> for Reply {
    /// A reply with no transport status (stdio, or in process).
    fn from(body: Result<Value, String>) -> Reply {
        Reply { status: None, body }
    }
}

/// What a reply amounts to, for the probe.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// A complete result: the call went through.
    Completed {
        /// Its first text.
        text: String,
    },
    /// A result with `isError: true`: the call reached the tool, which failed.
    ToolError {
        /// Its first text.
        text: String,
    },
    /// `input_required`: the server asks.
    Asked {
        /// The keys of its questions.
        keys: Vec<String>,
    },
    /// A JSON-RPC error about the request itself: a refusal.
    Refused {
        /// The code.
        code: i64,
        /// The message.
        message: String,
        /// The check the server names (`data.check`, as this lab's servers do).
        check: Option<String>,
    },
    /// An answer that says nothing about the ticket by itself: authentication, routing, rate,
    /// or the server failing (HTTP 401, 403, 404, 405, 429, 5xx; an unknown method or tool).
    Elsewhere {
        /// Why, in words.
        why: String,
        /// True when it says the method or target does not exist (404, 405, -32601, an unknown
        /// tool): once a fresh flow has shown that they do, such an answer refused this request.
        routing: bool,
        /// The HTTP status that said so, where one did.
        status: Option<u16>,
    },
    /// No MCP answer came: a transport failure, or a body that is not JSON-RPC.
    Nothing {
        /// Why.
        why: String,
    },
}

/// The longest text kept from a reply.
const LONGEST: usize = 160;

fn clip(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    mrtr_sim::text::clip(line.to_owned(), LONGEST)
}

/// True when an error's words say the method, tool, prompt or resource does not exist.
fn names_a_missing_target(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    !m.contains("requeststate")
        && !m.contains("request state")
        && (m.contains("unknown tool")
            || m.contains("unknown prompt")
            || m.contains("unknown resource")
            || m.contains("not found")
            || m.contains("no such")
            || m.contains("does not exist"))
}

impl Outcome {
    /// Reads a reply.
    pub fn of(reply: &Reply) -> Outcome {
        let body = match &reply.body {
            Ok(body) => body,
            Err(why) => return Outcome::Nothing { why: clip(why) },
        };
        let status = reply.status.unwrap_or(200);
        // An OAuth error body says `"error": "invalid_token"`; a JSON-RPC one is an object.
        let oauth = body.get("error").and_then(Value::as_str).map(|e| format!(": {}", clip(e)));
        let error = body.get("error").filter(|e| e.is_object());
        let said = error.map(|e| {
            let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
            (code, clip(e.get("message").and_then(Value::as_str).unwrap_or_default()))
        });
        let mut words =
            said.as_ref().map(|(code, message)| format!(": {code} {message}")).or(oauth).unwrap_or_default();
        if let Some(challenge) = body.get("wwwAuthenticate").and_then(Value::as_str) {
            words.push_str(&format!(" (WWW-Authenticate: {})", clip(challenge)));
        }
        let http = |what: &str, routing: bool| Outcome::Elsewhere {
            why: format!("HTTP {status} ({what}){words}"),
            routing,
            status: Some(status),
        };
        match status {
            401 => return http("not authenticated", false),
            403 => return http("forbidden", false),
            404 => return http("no such endpoint", true),
            405 => return http("method not allowed", true),
            429 => return http("rate limited", false),
            500..=599 => return http("the server failed", false),
            _ => {}
        }
        if let (Some(error), Some((code, message))) = (error, said) {
            if code == -32601 {
                return Outcome::Elsewhere {
                    why: format!("method not found: {code} {message}"),
                    routing: true,
                    status: None,
                };
            }
            if names_a_missing_target(&message) {
                return Outcome::Elsewhere {
                    why: format!("no such target: {code} {message}"),
                    routing: true,
                    status: None,
                };
            }
            let check = error.pointer("/data/check").and_then(Value::as_str).map(str::to_owned);
            return Outcome::Refused { code, message, check };
        }
        let Some(result) = body.get("result").filter(|r| r.is_object()) else {
            let shown = clip(&body.to_string());
            return Outcome::Nothing { why: format!("HTTP {status}, and the answer is not JSON-RPC: {shown}") };
        };
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            let keys = result.get("inputRequests").and_then(Value::as_object);
            return Outcome::Asked { keys: keys.map(|k| k.keys().cloned().collect()).unwrap_or_default() };
        }
        // A tool's first text, a prompt's first message, or a resource's first contents.
        let text = ["/content/0/text", "/messages/0/content/text", "/contents/0/text"]
            .iter()
            .find_map(|at| result.pointer(at).and_then(Value::as_str))
            .unwrap_or("complete");
        let text = clip(text);
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            let m = text.to_ascii_lowercase();
            // A server that words its refusal of the ticket as a tool error still refused it.
            if m.contains("requeststate") || m.contains("request state") {
                return Outcome::Refused { code: 0, message: text, check: None };
            }
            return Outcome::ToolError { text };
        }
        Outcome::Completed { text }
    }

    /// True for an HTTP 401: the server wants a token, or another one.
    pub fn is_unauthenticated(&self) -> bool {
        matches!(self, Outcome::Elsewhere { status: Some(401), .. })
    }

    /// The outcome in a few words, naming the check that refused where the server says.
    pub fn words(&self) -> String {
        match self {
            Outcome::Completed { text } => format!("completed: {text}"),
            Outcome::ToolError { text } => format!("reached the tool, which failed: {text}"),
            Outcome::Asked { keys } => format!("asked for input ({})", keys.join(", ")),
            Outcome::Refused { check: Some(check), code, message } => {
                format!("refused by the {check} check: {code} {message}")
            }
            Outcome::Refused { code: 0, message, .. } => format!("refused, as a tool error: {message}"),
            Outcome::Refused { code, message, .. } => format!("refused: {code} {message}"),
            Outcome::Elsewhere { why, .. } | Outcome::Nothing { why } => why.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn authentication_routing_and_rate_are_never_refusals_of_the_ticket() {
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid requestState"}});
        assert!(matches!(Outcome::of(&Reply::http(200, Ok(error.clone()))), Outcome::Refused { .. }));
        assert!(matches!(Outcome::of(&Reply::http(400, Ok(error.clone()))), Outcome::Refused { .. }));
        for status in [401, 403, 404, 405, 429, 500, 503] {
            assert!(matches!(Outcome::of(&Reply::http(status, Ok(error.clone()))), Outcome::Elsewhere { .. }));
        }
        let challenged = json!({"error": "invalid_token", "wwwAuthenticate": "Bearer error=\"invalid_token\""});
        let Outcome::Elsewhere { why, routing: false, .. } = Outcome::of(&Reply::http(401, Ok(challenged))) else {
            panic!("a 401 is about authentication")
        };
        assert_eq!(
            why,
            "HTTP 401 (not authenticated): invalid_token (WWW-Authenticate: Bearer error=\"invalid_token\")"
        );
        let unknown = json!({"error": {"code": -32602, "message": "Unknown tool: charge_good"}});
        assert!(matches!(Outcome::of(&Ok(unknown).into()), Outcome::Elsewhere { .. }));
        let no_method = json!({"error": {"code": -32601, "message": "Method not found"}});
        assert!(matches!(Outcome::of(&Ok(no_method).into()), Outcome::Elsewhere { .. }));
        assert!(matches!(Outcome::of(&Ok(json!([1, 2])).into()), Outcome::Nothing { .. }));
        assert!(matches!(Outcome::of(&Ok(json!({"result": 5})).into()), Outcome::Nothing { .. }));
    }

    #[test]
    fn a_tool_error_is_the_tools_unless_it_refuses_the_state() {
        let error = |text: &str| json!({"result": {"content": [{"type": "text", "text": text}], "isError": true}});
        assert!(matches!(Outcome::of(&Ok(error("charge failed")).into()), Outcome::ToolError { .. }));
        assert!(matches!(Outcome::of(&Ok(error("invalid requestState")).into()), Outcome::Refused { .. }));
    }
}
