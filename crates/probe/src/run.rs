//! An attack under way: a sans-IO state machine from the first call to the verdict.

use crate::battery::Attack;
use crate::reply::{asked, said, Asked};
use crate::setup::Setup;
use crate::verdict::Verdict;
use mrtr_sim::client::Client;
use mrtr_sim::moves::{Move, Situation};
use mrtr_sim::protocol::Capabilities;
use serde::Serialize;
use serde_json::{json, Value};

/// The most rounds the honest retry plays before it gives up on a flow that keeps asking.
pub const MAX_ROUNDS: usize = 10;

/// The longest a probe waits out a ticket's lifetime for [`Move::TooLate`]: a ticket that
/// lives longer has no short expiry to test.
pub const MAX_WAIT_MS: u64 = 10 * 60 * 1000;

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
    replies: Vec<Result<Value, String>>,
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
        let kept = reply.clone();
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
                self.replies.push(kept);
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
            let reached = self.replies.last().and_then(|r| r.clone().ok());
            if let Some(Asked { ticket, answers, .. }) = asked(reached.as_ref()) {
                let message = self.client.retry(&self.first.message, answers, ticket);
                return Step::Send(Send { message, bearer: self.first.bearer.clone(), wait_ms: 0 });
            }
        }
        if let Some(round1_ticket) = self.round1_ticket.take() {
            let reached = self.replies.pop().and_then(Result::ok);
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
