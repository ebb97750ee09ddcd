//! # mrtr-probe: the lab's attacks on any MCP server's `requestState`
//!
//! The malicious client of the lab (`mrtr_sim::moves`), turned on a real server: the same moves,
//! built by the same code, from a real flow's first answer. The crate sends nothing. For each
//! attack it says what to send ([`Attack::begin`], then [`Attack::attempts`] once the first
//! answer is in) and what the replies say about the server ([`Attack::judge`]), graded by the
//! words of the MRTR page. Each attack starts a flow of its own, so one cannot spoil the next.
//!
//! ```
//! use mrtr_probe::{Attack, Flow, Tokens, Verdict, BATTERY};
//! use serde_json::json;
//!
//! let flow = Flow { method: "tools/call".into(), params: json!({"name": "deploy", "arguments": {"env": "staging"}}) };
//! let tokens = Tokens { first: Some("bob-token".into()), second: None };
//! let tamper = BATTERY.iter().find(|a| a.by.id() == "tamper-byte").unwrap();
//! let mut run = tamper.begin(&flow, &tokens);
//! assert_eq!(run.first.message["method"], "tools/call");
//! // The server asked, with a ticket: the attack's line is the retry with one character changed.
//! let asked = json!({"jsonrpc": "2.0", "id": 0, "result": {"resultType": "input_required",
//!     "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
//!         "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
//!     "requestState": "v1.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"}});
//! let sends = tamper.attempts(&mut run, &asked, &tokens).unwrap();
//! assert_ne!(sends[0].message["params"]["requestState"], asked["result"]["requestState"]);
//! // The server accepted the edited ticket: a MUST of the spec is broken.
//! let accepted = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}});
//! assert!(matches!(tamper.judge(&[Some(accepted)]), Verdict::Finding { .. }));
//! ```

use mrtr_sim::client::Client;
use mrtr_sim::moves::{Move, Situation};
use mrtr_sim::person::{Person, Reply};
use mrtr_sim::protocol::Capabilities;
use mrtr_sim::scenarios::Answered;
use serde::Serialize;
use serde_json::{Map, Value};

/// How strongly the specification asks for what an attack tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// A MUST of the MRTR page: a server that lets the attack through is not compliant.
    Must,
    /// A SHOULD: a server may have a reason, but the attack went through.
    Should,
    /// Worth knowing: what the server did, which the page leaves to it.
    Note,
}

/// The words of the MRTR page (basic/patterns/mrtr, server requirements) an attack tests.
pub mod spec {
    /// Integrity.
    pub const INTEGRITY: &str = "If requestState influences authorization, resource access, or business logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that fails verification.";
    /// The principal.
    pub const PRINCIPAL: &str =
        "servers SHOULD include … the authenticated principal, rejecting state presented by a different principal.";
    /// Expiry.
    pub const EXPIRY: &str = "servers SHOULD include … a short expiry (TTL), rejecting state presented after it lapses";
    /// The originating request.
    pub const REQUEST: &str = "servers SHOULD include … an identifier for the originating request, e.g. the method name and a digest of its salient parameters, rejecting state presented on a request that does not match.";
    /// Single use.
    pub const SINGLE_USE: &str = "Servers for which a given requestState must be consumed at most once (e.g., one-time redemptions) MUST enforce that invariant server-side.";
    /// Answers without state.
    pub const ANSWERS: &str = "If a client request contains a requestState field, servers MUST treat requestState as an attacker-controlled input.";
}

/// One attack of the battery: a lab move, how strongly the page asks the server to refuse
/// it, and the sentence that asks.
#[derive(Debug, Clone, Copy)]
pub struct Attack {
    /// The lab's move.
    pub by: Move,
    /// How a server that lets it through is graded.
    pub grade: Grade,
    /// The page's words.
    pub spec: &'static str,
}

/// Every attack, the honest retry first (if it does not complete, the rest cannot say
/// anything: they are inconclusive).
pub const BATTERY: &[Attack] = &[
    Attack { by: Move::Honest, grade: Grade::Must, spec: "" },
    Attack { by: Move::TamperByte, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::EditPayload, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::ResignOtherKey, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::UnaskedTicket, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Hello, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Reencode, grade: Grade::Note, spec: spec::INTEGRITY },
    Attack { by: Move::OtherPrincipal, grade: Grade::Should, spec: spec::PRINCIPAL },
    Attack { by: Move::TooLate, grade: Grade::Should, spec: spec::EXPIRY },
    Attack { by: Move::OtherArguments, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::SendTwice, grade: Grade::Note, spec: spec::SINGLE_USE },
    Attack { by: Move::PrefillAnswer, grade: Grade::Note, spec: spec::ANSWERS },
    Attack { by: Move::DropTicket, grade: Grade::Note, spec: spec::ANSWERS },
];

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

/// One line to send and whose token to send it with.
#[derive(Debug, Clone, PartialEq)]
pub struct Send {
    /// The JSON-RPC request.
    pub message: Value,
    /// The bearer token.
    pub bearer: Option<String>,
}

/// An attack under way: its client (ids, envelope) and the first call.
#[derive(Debug, Clone)]
pub struct Run {
    client: Client,
    /// The first call.
    pub first: Send,
}

/// What the probe concluded about one attack.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The server refused (or asked again): what the page asks.
    Passed {
        /// How it refused.
        answered: String,
    },
    /// The attack went through.
    Finding {
        /// How strongly the page asks to refuse it.
        grade: Grade,
        /// The page's words.
        spec: &'static str,
        /// What the server answered.
        answered: String,
    },
    /// The honest retry completed: the flow works.
    Completed,
    /// Not tried, and why.
    NotTested {
        /// Why.
        why: String,
    },
    /// Tried, and nothing can be concluded, with why.
    Inconclusive {
        /// Why.
        why: String,
    },
}

impl Verdict {
    /// True for a finding of the MUST grade.
    pub fn breaks_a_must(&self) -> bool {
        matches!(self, Verdict::Finding { grade: Grade::Must, .. })
    }
}

/// The outcome of a reply in a few words: `refused: -32602 Invalid requestState: …`.
fn said(reply: Option<&Value>) -> (Answered, String) {
    let answered = Answered::of_response(reply);
    let words = match &answered {
        Answered::Accepted { text } => format!("accepted: {text}"),
        Answered::AskedAgain => "asked again (input_required)".to_owned(),
        Answered::ToolError { text } => format!("a tool error: {text}"),
        Answered::Refused { code, message, .. } => format!("refused: {code} {message}"),
        Answered::NoResponse => "no response".to_owned(),
    };
    (answered, words)
}

impl Attack {
    /// Starts a fresh flow for this attack: the first call, as the first principal.
    pub fn begin(&self, flow: &Flow, tokens: &Tokens) -> Run {
        let mut client = Client::new(tokens.first.as_deref().unwrap_or_default(), Capabilities::ALL);
        let message = client.request(&flow.method, flow.params.clone());
        Run { client, first: Send { message, bearer: tokens.first.clone() } }
    }

    /// What to send once the first call was answered with `asked`, built by the lab's own
    /// move from a situation made of the real flow. `Err` when the attack cannot be tried.
    pub fn attempts(&self, run: &mut Run, asked: &Value, tokens: &Tokens) -> Result<Vec<Send>, Verdict> {
        let result = asked.get("result").filter(|r| r["resultType"] == "input_required").ok_or_else(|| {
            Verdict::Inconclusive { why: format!("the first call did not ask for input: {}", said(Some(asked)).1) }
        })?;
        let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
        let person = Person { reply: Reply::Accept, think_ms: 0 };
        let answers: Map<String, Value> =
            requests.iter().filter_map(|(key, request)| Some((key.clone(), person.answer(request)?))).collect();
        let ticket = result.get("requestState").and_then(Value::as_str);
        let needs_ticket = !matches!(self.by, Move::Honest | Move::PrefillAnswer | Move::DropTicket);
        let Some(ticket) = ticket.or((!needs_ticket).then_some("")) else {
            return Err(Verdict::NotTested { why: "the server sent no requestState to attack".into() });
        };
        let bearer = match self.by {
            Move::OtherPrincipal => match &tokens.second {
                Some(second) => Some(second.clone()),
                None => {
                    return Err(Verdict::NotTested { why: "needs a second principal's token (--second-token)".into() })
                }
            },
            Move::TooLate => {
                return Err(Verdict::NotTested { why: "waiting out the ticket's lifetime is not asked for".into() })
            }
            _ => tokens.first.clone(),
        };
        let situation =
            Situation::new(run.first.message.clone(), ticket.to_owned(), requests, answers, 0, &mut run.client);
        let mut message: Value = serde_json::from_str(&situation.attempt(self.by, &mut run.client).line)
            .map_err(|e| Verdict::Inconclusive { why: format!("the move's line is not JSON: {e}") })?;
        if self.by == Move::Honest && ticket.is_empty() {
            if let Some(params) = message["params"].as_object_mut() {
                params.remove("requestState");
            }
        }
        let send = Send { message, bearer };
        Ok(match self.by {
            // A replay: the honest retry, then the same line again.
            Move::SendTwice => vec![send.clone(), send],
            _ => vec![send],
        })
    }

    /// What the replies to [`Attack::attempts`] say about the server: the last one decides.
    pub fn judge(&self, replies: &[Option<Value>]) -> Verdict {
        let last = replies.last().cloned().flatten();
        let (answered, words) = said(last.as_ref());
        match (self.by, answered) {
            (Move::Honest, Answered::Accepted { .. }) => Verdict::Completed,
            (Move::Honest, _) => Verdict::Inconclusive { why: format!("the honest retry did not complete: {words}") },
            (_, Answered::Accepted { .. }) => Verdict::Finding { grade: self.grade, spec: self.spec, answered: words },
            (_, Answered::NoResponse) => Verdict::Inconclusive { why: "no response".into() },
            _ => Verdict::Passed { answered: words },
        }
    }
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

    #[test]
    fn the_honest_retry_decides_whether_anything_can_be_concluded() {
        let honest = BATTERY[0];
        let done = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}});
        assert_eq!(honest.judge(&[Some(done)]), Verdict::Completed);
        let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}});
        assert!(matches!(honest.judge(&[Some(refused.clone())]), Verdict::Inconclusive { .. }));
        let tamper = BATTERY[1];
        assert!(matches!(tamper.judge(&[Some(refused)]), Verdict::Passed { .. }));
        assert!(matches!(tamper.judge(&[None]), Verdict::Inconclusive { .. }));
    }
}
