//! What a probe works with: the call that starts a flow, the principals' tokens, and what
//! it may do (wait out a lifetime, spend the ticket on another of the server's tools).

use serde_json::{Map, Value};

/// What a probe works with: the call that starts a flow, who sends it, and what it may do.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The call that asks for input.
    pub flow: Flow,
    /// Whose tokens.
    pub tokens: Tokens,
    /// Whether the transport carries bearer tokens (HTTP): over stdio the server decides who
    /// speaks, and the principal cannot be tested.
    pub bearer_auth: bool,
    /// Whether to wait out a ticket's lifetime for [`Move::TooLate`](mrtr_sim::moves::Move).
    pub wait_expiry: bool,
    /// The tickets' lifetime when given (`--ttl`), ms: it overrides what a ticket says.
    pub ttl_ms: Option<u64>,
    /// The clock when this attack starts, ms since the epoch: a ticket whose `exp` is a date
    /// is waited out until then.
    pub now_ms: u64,
    /// Other targets of the same server, for spending the ticket elsewhere.
    pub targets: Targets,
    /// How many retries of one ticket the race sends at once.
    pub race: usize,
    /// The first JSON-RPC id the attack's requests carry (0 by default). Attacks that share
    /// one connection (stdio) each start past the ids sent before, so that a late answer to an
    /// earlier request is never taken for theirs.
    pub first_id: i64,
}

/// Other targets of the server under test, taken from its own lists: never names it may not
/// have.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Targets {
    /// Another tool's `tools/call` params (`{"name", "arguments"}`), for
    /// [`Move::OtherTool`](mrtr_sim::moves::Move). Against a server the probe does not know, the
    /// flow's arguments byte for byte, so that only the name differs.
    pub tool: Option<Value>,
    /// Another method's request (`prompts/get`, `resources/read` or `tools/call`) and its
    /// params, for [`Move::OtherMethod`](mrtr_sim::moves::Move).
    pub method: Option<(String, Value)>,
    /// Other arguments for the same tool that it accepts, for
    /// [`Move::OtherArguments`](mrtr_sim::moves::Move).
    pub arguments: Option<Value>,
}

impl Setup {
    /// A setup with the defaults: no second token, no waiting, no other targets, a race of 16,
    /// ids from 0.
    pub fn new(flow: Flow, tokens: Tokens) -> Setup {
        Setup {
            flow,
            tokens,
            bearer_auth: true,
            wait_expiry: false,
            ttl_ms: None,
            now_ms: 0,
            targets: Targets::default(),
            race: DEFAULT_RACE,
            first_id: 0,
        }
    }
}

/// How many retries of one ticket the race sends at once, by default.
pub const DEFAULT_RACE: usize = 16;

/// The call that starts a flow: a method and params that answer `input_required`.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: String,
    /// Its params (`name`, `arguments`, …), without `_meta`.
    pub params: Value,
}

impl Flow {
    /// `METHOD NAME ARGUMENTS` as a flow: `tools/call deploy {"env":"staging"}`,
    /// `resources/read lab://report`.
    ///
    /// ```
    /// let flow = mrtr_probe::Flow::parse(r#"tools/call deploy {"env": "staging"}"#).unwrap();
    /// assert_eq!(flow.params, serde_json::json!({"name": "deploy", "arguments": {"env": "staging"}}));
    /// ```
    pub fn parse(call: &str) -> Result<Flow, String> {
        let mut words = call.trim().splitn(3, ' ');
        let (Some(method), Some(name)) = (words.next(), words.next()) else {
            return Err(format!("a call is METHOD NAME ARGUMENTS, not '{call}'"));
        };
        let arguments: Value = match words.next() {
            Some(text) => serde_json::from_str(text).map_err(|e| format!("the arguments are not JSON: {e}"))?,
            None => Value::Object(Map::new()),
        };
        let mut params = Map::new();
        if method == "resources/read" {
            params.insert("uri".into(), name.into());
        } else {
            params.insert("name".into(), name.into());
            params.insert("arguments".into(), arguments);
        }
        Ok(Flow { method: method.to_owned(), params: params.into() })
    }
}

/// The bearer tokens of one principal, and of another for the principal attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokens {
    /// Whose flows the probe starts (`None`: no `Authorization`).
    pub first: Option<String>,
    /// Someone else's, for presenting the first's ticket (`None`: that attack is not tested).
    pub second: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn a_call_reads_as_method_name_and_arguments() {
        let flow = Flow::parse(r#"tools/call deploy {"env": "staging"}"#).expect("a flow");
        assert_eq!(flow.method, "tools/call");
        assert_eq!(flow.params, json!({"name": "deploy", "arguments": {"env": "staging"}}));
        assert_eq!(Flow::parse("resources/read lab://report").expect("a flow").params, json!({"uri": "lab://report"}));
        assert!(Flow::parse("tools/call").is_err());
        assert!(Flow::parse("tools/call deploy {").is_err());
    }
}
