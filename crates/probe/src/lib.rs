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

use mrtr_sim::client::Client;
use mrtr_sim::moves::{Move, Situation};
use mrtr_sim::person::{Person, Reply};
use mrtr_sim::protocol::Capabilities;
use mrtr_sim::scenarios::Answered;
use serde::Serialize;
use serde_json::{json, Map, Value};

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
    Attack { by: Move::TamperTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::EditPayload, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::DropTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::SpliceTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::ResignOtherKey, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::UnaskedTicket, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Hello, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::NotAString, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Huge, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Empty, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Reencode, grade: Grade::Note, spec: spec::INTEGRITY },
    Attack { by: Move::OtherPrincipal, grade: Grade::Should, spec: spec::PRINCIPAL },
    Attack { by: Move::TooLate, grade: Grade::Should, spec: spec::EXPIRY },
    Attack { by: Move::OtherArguments, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::OtherTool, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::OtherMethod, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::SendTwice, grade: Grade::Note, spec: spec::SINGLE_USE },
    Attack { by: Move::FirstTicket, grade: Grade::Note, spec: spec::SINGLE_USE },
    Attack { by: Move::PrefillAnswer, grade: Grade::Note, spec: spec::ANSWERS },
    Attack { by: Move::DropTicket, grade: Grade::Note, spec: spec::ANSWERS },
];

/// The most rounds the honest retry plays before it gives up on a flow that keeps asking.
pub const MAX_ROUNDS: usize = 10;

/// The longest a probe waits out a ticket's lifetime for [`Move::TooLate`]: a ticket that
/// lives longer has no short expiry to test.
pub const MAX_WAIT_MS: u64 = 10 * 60 * 1000;

/// What a probe works with: the call that starts a flow, who sends it, and what it may do.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The call that asks for input.
    pub flow: Flow,
    /// Whose tokens.
    pub tokens: Tokens,
    /// Whether to wait out a ticket's lifetime for [`Move::TooLate`], and that lifetime when
    /// the ticket does not say it (`Some(None)`: read it from a readable ticket).
    pub wait_expiry: Option<Option<u64>>,
    /// Another call of the same server, for [`Move::OtherTool`] (`{"name", "arguments"}`).
    pub other_tool: Option<Value>,
}

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

/// One line to send, whose token to send it with, and how long to wait first.
#[derive(Debug, Clone, PartialEq)]
pub struct Send {
    /// The JSON-RPC request.
    pub message: Value,
    /// The bearer token.
    pub bearer: Option<String>,
    /// Wait this long before sending it, ms (a ticket's lifetime, for [`Move::TooLate`]).
    pub wait_ms: u64,
}

/// One line an attack sent and what came back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exchange {
    /// The JSON-RPC request.
    pub sent: Value,
    /// The response, or `{"transportError": why}` when none came.
    pub reply: Value,
}

/// What an attack under way wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send this and give the reply (or why none came) to [`Run::next`].
    Send(Send),
    /// The attack is over.
    Done(Verdict),
}

/// Where an attack under way is.
#[derive(Debug, Clone)]
enum Phase {
    /// Waiting for another flow's first answer, for its ticket.
    Other,
    /// Waiting for the first call's answer.
    First,
    /// Sending the attack's lines, collecting the replies.
    Attempts(Vec<Send>),
    /// Over.
    Done,
}

/// An attack under way on a fresh flow: a sans-IO state machine. [`Attack::start`] gives the
/// first step; each reply goes to [`Run::next`], which gives the next, until
/// [`Step::Done`].
///
/// ```
/// use mrtr_probe::{Attack, Flow, Setup, Step, Tokens, Verdict, BATTERY};
/// use serde_json::json;
///
/// let flow = Flow { method: "tools/call".into(), params: json!({"name": "deploy", "arguments": {"env": "staging"}}) };
/// let setup = Setup { flow, tokens: Tokens { first: Some("bob-token".into()), second: None }, wait_expiry: None, other_tool: None };
/// let tamper = BATTERY.iter().find(|a| a.by.id() == "tamper-byte").unwrap();
/// let (mut run, Step::Send(first)) = tamper.start(&setup) else { panic!() };
/// assert_eq!(first.message["method"], "tools/call");
/// // The server asked, with a ticket: the attack's line is the retry with one character changed.
/// let asked = json!({"jsonrpc": "2.0", "id": 0, "result": {"resultType": "input_required",
///     "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
///         "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
///     "requestState": "v1.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"}});
/// let Step::Send(retry) = run.next(Ok(asked.clone())) else { panic!() };
/// assert_ne!(retry.message["params"]["requestState"], asked["result"]["requestState"]);
/// // The server accepted the edited ticket: a MUST of the spec is broken.
/// let accepted = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}});
/// assert!(matches!(run.next(Ok(accepted)), Step::Done(Verdict::Finding { .. })));
/// ```
#[derive(Debug, Clone)]
pub struct Run {
    attack: Attack,
    setup: Setup,
    client: Client,
    first: Send,
    other_ticket: Option<String>,
    /// Round 1's ticket, to send in round 2 ([`Move::FirstTicket`]).
    round1_ticket: Option<String>,
    /// The keys of the first answer's questions.
    first_questions: Vec<String>,
    /// Every line sent so far with its reply.
    exchanges: Vec<Exchange>,
    /// The line sent last, waiting for its reply.
    pending: Option<Value>,
    phase: Phase,
    replies: Vec<Option<Value>>,
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

/// An `input_required` result: its ticket, its questions, and the lab person's answers.
struct Asked<'a> {
    ticket: Option<&'a str>,
    requests: Map<String, Value>,
    answers: Map<String, Value>,
}

/// The `input_required` result of a reply, if it is one.
fn asked(reply: Option<&Value>) -> Option<Asked<'_>> {
    let result = reply?.get("result").filter(|r| r["resultType"] == "input_required")?;
    let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
    let person = Person { reply: Reply::Accept, think_ms: 0 };
    let answers = requests.iter().filter_map(|(key, request)| Some((key.clone(), person.answer(request)?))).collect();
    Some(Asked { ticket: result.get("requestState").and_then(Value::as_str), requests, answers })
}

impl Attack {
    /// Starts a fresh flow for this attack: its first step.
    pub fn start(&self, setup: &Setup) -> (Run, Step) {
        let tokens = &setup.tokens;
        let mut client = Client::new(tokens.first.as_deref().unwrap_or_default(), Capabilities::ALL);
        let message = client.request(&setup.flow.method, setup.flow.params.clone());
        let first = Send { message, bearer: tokens.first.clone(), wait_ms: 0 };
        // Splicing needs another flow's ticket: that flow is started first.
        let (phase, step) = if self.by == Move::SpliceTag {
            let other = client.request(&setup.flow.method, setup.flow.params.clone());
            (Phase::Other, Send { message: other, ..first.clone() })
        } else {
            (Phase::First, first.clone())
        };
        let run = Run {
            attack: *self,
            setup: setup.clone(),
            client,
            first,
            other_ticket: None,
            round1_ticket: None,
            first_questions: Vec::new(),
            phase,
            replies: vec![],
            exchanges: vec![],
            pending: Some(step.message.clone()),
        };
        (run, Step::Send(step))
    }

    /// Runs the whole attack with a blocking `send` (which gives the reply, or why none came), after
    /// each [`Send::wait_ms`] has passed: the caller waits or moves its clock.
    pub fn run(&self, setup: &Setup, mut send: impl FnMut(&Send) -> Result<Value, String>) -> Verdict {
        let (mut run, mut step) = self.start(setup);
        loop {
            match step {
                Step::Send(line) => step = run.next(send(&line)),
                Step::Done(verdict) => return verdict,
            }
        }
    }

    /// What to send once the first call was answered with `asked`, built by the lab's own
    /// move from a situation made of the real flow. `Err` when the attack cannot be tried.
    fn attempts(&self, run: &mut Run, asked_by: &Value) -> Result<Vec<Send>, Verdict> {
        let Some(Asked { ticket, requests, answers }) = asked(Some(asked_by)) else {
            return Err(Verdict::Inconclusive {
                why: format!("the first call did not ask for input: {}", said(Some(asked_by)).1),
            });
        };
        let tokens = &run.setup.tokens;
        let needs_ticket = !matches!(self.by, Move::Honest | Move::PrefillAnswer | Move::DropTicket);
        let Some(ticket) = ticket.or((!needs_ticket).then_some("")) else {
            return Err(Verdict::NotTested { why: "the server sent no requestState to attack".into() });
        };
        let (bearer, wait_ms) = match self.by {
            Move::OtherPrincipal => match &tokens.second {
                Some(second) => (Some(second.clone()), 0),
                None => {
                    return Err(Verdict::NotTested { why: "needs a second principal's token (--second-token)".into() })
                }
            },
            Move::TooLate => (tokens.first.clone(), lifetime(ticket, run.setup.wait_expiry)? + 1_000),
            _ => (tokens.first.clone(), 0),
        };
        let mut situation =
            Situation::new(run.first.message.clone(), ticket.to_owned(), requests, answers, 0, &mut run.client);
        situation.other_ticket = run.other_ticket.clone();
        if let Some(other) = &run.setup.other_tool {
            situation.other_tool = other.clone();
        }
        // Round 1's ticket is tried in round 2: first the honest retry, to reach it.
        let by = if self.by == Move::FirstTicket { Move::Honest } else { self.by };
        let mut message: Value = serde_json::from_str(&situation.attempt(by, &mut run.client).line)
            .map_err(|e| Verdict::Inconclusive { why: format!("the move's line is not JSON: {e}") })?;
        let mangles =
            matches!(by, Move::TamperByte | Move::TamperTag | Move::DropTag | Move::SpliceTag | Move::EditPayload);
        if mangles && message.pointer("/params/requestState").and_then(Value::as_str) == Some(ticket) {
            return Err(Verdict::NotTested {
                why: "it leaves this ticket as it was (its tag is empty, or another flow's is the same)".into(),
            });
        }
        if by == Move::Honest && ticket.is_empty() {
            if let Some(params) = message["params"].as_object_mut() {
                params.remove("requestState");
            }
        }
        let send = Send { message, bearer, wait_ms };
        if self.by == Move::FirstTicket {
            run.round1_ticket = Some(ticket.to_owned());
        }
        Ok(match self.by {
            // A replay: the honest retry, then the same line again.
            Move::SendTwice => vec![send.clone(), send],
            _ => vec![send],
        })
    }

    /// What the replies say about the server: the last one decides. `first_questions` are
    /// the keys of the first round's questions: a server that answers an attack with other
    /// questions took the ticket and went on to a later round; one that asks round 1's again
    /// started over, except with round 1's ticket, which it took to go back a step.
    fn judge(&self, replies: &[Option<Value>], first_questions: &[String]) -> Verdict {
        let last = replies.last().cloned().flatten();
        let (answered, words) = said(last.as_ref());
        let moved_on = || {
            let questions: Vec<String> =
                asked(last.as_ref()).map(|a| a.requests.keys().cloned().collect()).unwrap_or_default();
            questions != first_questions
        };
        let through = |answered: String| Verdict::Finding { grade: self.grade, spec: self.spec, answered };
        match (self.by, answered) {
            (Move::Honest, Answered::Accepted { .. }) => Verdict::Completed,
            (Move::Honest, _) => Verdict::Inconclusive { why: format!("the honest retry did not complete: {words}") },
            (_, Answered::Accepted { .. }) => through(words),
            (Move::FirstTicket, Answered::AskedAgain) => through(format!("{words}: it took round 1's ticket again")),
            (_, Answered::AskedAgain) if moved_on() => {
                through(format!("{words}, with the next round's questions: it took the ticket"))
            }
            (_, Answered::NoResponse) => Verdict::Inconclusive { why: "no response".into() },
            _ => Verdict::Passed { answered: words },
        }
    }
}

/// How long to wait for a ticket to expire: its lifetime, read from a readable ticket or
/// given, or why the attack is not tested.
fn lifetime(ticket: &str, wait_expiry: Option<Option<u64>>) -> Result<u64, Verdict> {
    let Some(given) = wait_expiry else {
        return Err(Verdict::NotTested {
            why: "waiting out the ticket's lifetime is not asked for (--wait-expiry)".into(),
        });
    };
    let claims = mrtr_ticket::inspect(ticket).payload;
    let read = claims.and_then(|c| Some(c.get("exp")?.as_u64()?.saturating_sub(c.get("iat")?.as_u64()?)));
    match given.or(read) {
        None => Err(Verdict::NotTested { why: "the ticket does not say how long it lives: give it (--ttl)".into() }),
        Some(ms) if ms > MAX_WAIT_MS => Err(Verdict::NotTested {
            why: format!("the ticket lives {} s, longer than the probe waits ({} s)", ms / 1000, MAX_WAIT_MS / 1000),
        }),
        Some(ms) => Ok(ms),
    }
}

impl Run {
    /// The attack.
    pub fn attack(&self) -> &Attack {
        &self.attack
    }

    /// Every line sent so far, with its reply: what a report shows of the attack.
    pub fn exchanges(&self) -> &[Exchange] {
        &self.exchanges
    }

    /// Takes the reply to the last [`Step::Send`] and gives the next step.
    pub fn next(&mut self, reply: Result<Value, String>) -> Step {
        if let Some(sent) = self.pending.take() {
            let reply = reply.clone().unwrap_or_else(|why| json!({"transportError": why}));
            self.exchanges.push(Exchange { sent, reply });
        }
        let step = self.advance(reply);
        if let Step::Send(send) = &step {
            self.pending = Some(send.message.clone());
        }
        step
    }

    fn advance(&mut self, reply: Result<Value, String>) -> Step {
        let attack = self.attack;
        let (reply, why) = match reply {
            Ok(reply) => (Some(reply), String::new()),
            Err(why) => (None, why),
        };
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Other => {
                self.other_ticket = asked(reply.as_ref()).and_then(|a| a.ticket.map(str::to_owned));
                self.phase = Phase::First;
                Step::Send(self.first.clone())
            }
            Phase::First => {
                let Some(reply) = reply else {
                    return Step::Done(Verdict::Inconclusive { why });
                };
                self.first_questions =
                    asked(Some(&reply)).map(|a| a.requests.keys().cloned().collect()).unwrap_or_default();
                match attack.attempts(self, &reply) {
                    Err(verdict) => Step::Done(verdict),
                    Ok(sends) => {
                        self.phase = Phase::Attempts(sends);
                        self.send_next()
                    }
                }
            }
            Phase::Attempts(sends) => {
                self.replies.push(reply);
                self.phase = Phase::Attempts(sends);
                self.send_next()
            }
            Phase::Done => Step::Done(attack.judge(&self.replies, &self.first_questions)),
        }
    }

    /// The next line of the attack, round 1's ticket once round 2 is reached, or the verdict.
    fn send_next(&mut self) -> Step {
        if let Phase::Attempts(sends) = &mut self.phase {
            if !sends.is_empty() {
                return Step::Send(sends.remove(0));
            }
        }
        // The honest retry plays every round of the flow, each with its latest ticket.
        if self.attack.by == Move::Honest && self.replies.len() < MAX_ROUNDS {
            let reached = self.replies.last().cloned().flatten();
            if let Some(Asked { ticket, answers, .. }) = asked(reached.as_ref()) {
                let message = self.client.retry(&self.first.message, answers, ticket);
                return Step::Send(Send { message, bearer: self.first.bearer.clone(), wait_ms: 0 });
            }
        }
        if let Some(round1_ticket) = self.round1_ticket.take() {
            let reached = self.replies.pop().flatten();
            let Some(Asked { answers, .. }) = asked(reached.as_ref()) else {
                self.phase = Phase::Done;
                return Step::Done(Verdict::NotTested { why: "the flow has one round".into() });
            };
            let message = self.client.retry(&self.first.message, answers, Some(&round1_ticket));
            self.phase = Phase::Attempts(vec![]);
            return Step::Send(Send { message, bearer: self.first.bearer.clone(), wait_ms: 0 });
        }
        self.phase = Phase::Done;
        Step::Done(self.attack.judge(&self.replies, &self.first_questions))
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
        assert_eq!(honest.judge(&[Some(done)], &[]), Verdict::Completed);
        let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}});
        assert!(matches!(honest.judge(&[Some(refused.clone())], &[]), Verdict::Inconclusive { .. }));
        let tamper = BATTERY[1];
        assert!(matches!(tamper.judge(&[Some(refused)], &[]), Verdict::Passed { .. }));
        assert!(matches!(tamper.judge(&[None], &[]), Verdict::Inconclusive { .. }));
    }

    #[test]
    fn asked_again_is_taken_when_the_questions_moved_on() {
        let asking = |key: &str| {
            json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "t",
                "inputRequests": {key: {"method": "elicitation/create", "params": {"mode": "form", "message": "?",
                    "requestedSchema": {"type": "object", "properties": {}}}}}}})
        };
        let seat = ["seat".to_owned()];
        let tamper = BATTERY[1];
        assert!(matches!(tamper.judge(&[Some(asking("seat"))], &seat), Verdict::Passed { .. }), "started over");
        assert!(matches!(tamper.judge(&[Some(asking("confirm"))], &seat), Verdict::Finding { .. }), "went on");
        let stale = BATTERY.iter().find(|a| a.by == Move::FirstTicket).expect("in the battery");
        assert!(matches!(stale.judge(&[Some(asking("seat"))], &seat), Verdict::Finding { .. }), "went back");
    }

    #[test]
    fn the_wait_for_expiry_is_the_tickets_lifetime_or_not_tested() {
        let ticket = mrtr_sim::moves::edited_keeping_tag("v1.e30.TAG", &json!({"exp": 121_000, "iat": 1_000}));
        assert_eq!(lifetime(&ticket, Some(None)), Ok(120_000));
        assert_eq!(lifetime("opaque", Some(Some(5_000))), Ok(5_000));
        assert!(matches!(lifetime(&ticket, None), Err(Verdict::NotTested { .. })));
        assert!(matches!(lifetime("opaque", Some(None)), Err(Verdict::NotTested { .. })));
        assert!(matches!(lifetime("opaque", Some(Some(MAX_WAIT_MS + 1))), Err(Verdict::NotTested { .. })));
    }
}
