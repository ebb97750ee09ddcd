//! An attack under way: a sans-IO state machine from its controls to the verdict.
//!
//! Every attack runs on flows of its own. Before it spends a ticket on another target (other
//! arguments, another tool or method, another principal) it shows, on a fresh flow without the
//! ticket, that the target works: a refusal is only a refusal of the ticket when the target
//! would have answered otherwise.

use crate::battery::{Attack, Grade, Tactic};
use crate::reply::{asked, Asked};
use crate::setup::Setup;
use crate::verdict::Verdict;
use crate::why::{Lacks, Why};
use mrtr_sim::client::Client;
use mrtr_sim::moves::{Answers, Edit, Move, Target, Ticket as Sends};
use mrtr_sim::protocol::Capabilities;
use mrtr_wire::{Outcome, Reply, Ticket};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::VecDeque;

/// The most rounds the honest retry plays before it gives up on a flow that keeps asking.
pub const MAX_ROUNDS: usize = 10;

/// The longest a probe waits out a ticket's lifetime for [`Move::TooLate`]: a ticket that
/// lives longer has no short expiry to test.
pub const MAX_WAIT_MS: u64 = 10 * 60 * 1000;

/// The bearer token no server issued, sent to see whether the server authenticates at all.
pub const MADE_UP_TOKEN: &str = "mrtr-probe-made-up-token-0000000000";

/// One line to send, whose token to send it with, and how long to wait first.
#[derive(Debug, Clone, PartialEq)]
pub struct Send {
    /// The JSON-RPC request.
    pub message: Value,
    /// The bearer token.
    pub bearer: Option<String>,
    /// Wait this long before sending it, ms.
    pub wait_ms: u64,
}

/// One line an attack sent and what came back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Exchange {
    /// The JSON-RPC request.
    pub sent: Value,
    /// Whose bearer token it carried: `first`, `second` or `made-up` (never the token itself:
    /// a report is written where others read it), or `None` without one.
    pub bearer: Option<&'static str>,
    /// The HTTP status, where there is one.
    pub status: Option<u16>,
    /// The response, or `{"transportError": why}` when none came.
    pub reply: Value,
    /// How long the probe waited before sending it, ms.
    #[serde(skip_serializing_if = "is_zero")]
    pub waited_ms: u64,
}

fn is_zero(ms: &u64) -> bool {
    *ms == 0
}

impl Exchange {
    /// What was sent, in a line built from the request itself: its id, its ticket (clipped),
    /// its answers, whose token, and how long before it the probe waited.
    pub fn sent_words(&self) -> String {
        let params = self.sent.get("params");
        let state = match params.and_then(|p| p.get("requestState")) {
            None => "no requestState".to_owned(),
            Some(Value::String(text)) if text.len() > 60 => {
                format!(
                    "requestState \"{}…\" ({} characters)",
                    mrtr_sim::text::clip(text.clone(), 48),
                    text.chars().count()
                )
            }
            Some(other) => format!("requestState {other}"),
        };
        let answers: Vec<&String> = params
            .and_then(|p| p.get("inputResponses"))
            .and_then(Value::as_object)
            .map(|a| a.keys().collect())
            .unwrap_or_default();
        let answers = if answers.is_empty() {
            String::new()
        } else {
            format!(", answers {}", answers.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "))
        };
        let method = self.sent.get("method").and_then(Value::as_str).unwrap_or("?");
        let member = mrtr_sim::protocol::target_member(method);
        let target = member.and_then(|m| params?.get(m)).and_then(Value::as_str).unwrap_or("");
        let bearer = self.bearer.map(|b| format!(", {b} token")).unwrap_or_default();
        let waited = if self.waited_ms >= 1_000 {
            format!(", {} s after the ticket came", self.waited_ms / 1000)
        } else {
            String::new()
        };
        format!(
            "{method} {target} id {}, {state}{answers}{bearer}{waited}",
            self.sent.get("id").unwrap_or(&Value::Null)
        )
    }
}

/// What an attack under way wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send this and give the reply to [`Run::next`].
    Send(Send),
    /// Send all of these at once and give the replies, in the same order, to [`Run::next_race`].
    Race(Vec<Send>),
    /// The attack is over.
    Done(Verdict),
}

/// A fresh flow with a target other than the attack's own, sent before the attack: what it
/// must show.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Control {
    /// A made-up token must not start a flow: else the server authenticates nobody.
    MadeUpToken,
    /// The second principal's token must start a flow of its own.
    SecondToken,
    /// The target must ask for input on a fresh flow.
    Target,
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Controls,
    First,
    Others,
    Reach,
    /// A fresh flow's first call, whose round-1 ticket the skip sends with a later round's answers.
    SkipFresh,
    Attempts,
    Racing,
    Done,
}

/// An attack under way: [`Attack::start`] gives the first step; each reply goes to
/// [`Run::next`] (or [`Run::next_race`]), which gives the next, until [`Step::Done`].
///
/// ```
/// use mrtr_probe::{Flow, Reply, Setup, Step, Tokens, Verdict, Attack};
/// use serde_json::json;
///
/// let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).unwrap();
/// let setup = Setup::new(flow, Tokens { first: Some("bob-token".into()), second: None });
/// let tamper = Attack::named("tamper-byte").unwrap();
/// let (mut run, Step::Send(first)) = tamper.start(&setup) else { panic!() };
/// assert_eq!(first.message["method"], "tools/call");
/// // The server asked, with a ticket: the attack's line is the retry with one character changed.
/// let asked = json!({"jsonrpc": "2.0", "id": 0, "result": {"resultType": "input_required",
///     "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
///         "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
///     "requestState": "v1.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"}});
/// let Step::Send(retry) = run.next(Reply::http(200, Ok(asked.clone()))) else { panic!() };
/// assert_ne!(retry.message["params"]["requestState"], asked["result"]["requestState"]);
/// // The server accepted the edited ticket: a MUST of the spec is broken.
/// let accepted = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}});
/// assert!(matches!(run.next(Reply::http(200, Ok(accepted))), Step::Done(Verdict::Finding { .. })));
/// ```
#[derive(Debug, Clone)]
pub struct Run {
    attack: Attack,
    setup: Setup,
    client: Client,
    /// The flow's first call.
    first: Send,
    phase: Phase,
    controls: VecDeque<(Control, Send)>,
    /// The target's own questions and answers, from its control.
    target: Option<Asked>,
    /// The control's call of the target, which the attack sends again with the ticket.
    target_call: Option<Value>,
    /// The first call's answer.
    asked: Option<Asked>,
    /// The round after the ticket's, for [`Move::FirstTicket`].
    round2: Option<Asked>,
    /// Rounds the main flow answered honestly before one carried a ticket: an attack on the
    /// ticket plays them first, and so does every other flow it starts.
    ticket_round: usize,
    /// Ticketless rounds answered so far on the flow under way.
    climbed: usize,
    /// The first call of the other flow under way (splice, skip-round).
    other_call: Option<Value>,
    /// Honest rounds played so far.
    rounds: usize,
    /// The fresh flow's first call and answer, for [`Tactic::SkipRound`].
    skip_from: Option<(Value, Asked)>,
    /// True when the attack's first line is the retry with no ticket at all: what the server
    /// does without one, to judge a value it may read as "none".
    absent_first: bool,
    /// Other flows' tickets, for [`Move::SpliceTag`].
    others: Vec<String>,
    queue: VecDeque<Send>,
    /// What came back for the attack's own lines.
    outcomes: Vec<Outcome>,
    exchanges: Vec<Exchange>,
    pending: Vec<Send>,
}

impl Attack {
    /// Starts this attack on fresh flows: its first step.
    pub fn start(&self, setup: &Setup) -> (Run, Step) {
        let tokens = &setup.tokens;
        let mut client =
            Client::new(tokens.first.as_deref().unwrap_or_default(), Capabilities::ALL).with_first_id(setup.first_id);
        let first_message = client.request(&setup.flow.method, setup.flow.params.clone());
        let first = Send { message: first_message, bearer: tokens.first.clone(), wait_ms: 0 };
        let mut run = Run {
            attack: *self,
            setup: setup.clone(),
            client,
            first,
            phase: Phase::Controls,
            controls: VecDeque::new(),
            target: None,
            target_call: None,
            asked: None,
            round2: None,
            ticket_round: 0,
            climbed: 0,
            other_call: None,
            rounds: 0,
            skip_from: None,
            absent_first: false,
            others: Vec::new(),
            queue: VecDeque::new(),
            outcomes: Vec::new(),
            exchanges: Vec::new(),
            pending: Vec::new(),
        };
        let step = match run.plan_controls() {
            Err(verdict) => run.finish(verdict),
            Ok(()) => run.next_control(),
        };
        (run, step)
    }

    /// Runs the whole attack with a blocking `send`, waiting as each [`Send::wait_ms`] asks is
    /// the caller's to do (or to simulate). A race is sent one line after another.
    pub fn run(&self, setup: &Setup, mut send: impl FnMut(&Send) -> Reply) -> Verdict {
        let (mut run, mut step) = self.start(setup);
        loop {
            step = match step {
                Step::Send(line) => run.next(send(&line)),
                Step::Race(lines) => {
                    let replies = lines.iter().map(&mut send).collect();
                    run.next_race(replies)
                }
                Step::Done(verdict) => return verdict,
            }
        }
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

    /// The shape of the ticket the flow was given, once it was.
    pub fn shape(&self) -> Option<crate::Shape> {
        self.asked.as_ref()?.ticket.as_deref().map(|t| Ticket::read(t).shape)
    }

    /// Takes the reply to the last [`Step::Send`] and gives the next step.
    pub fn next(&mut self, reply: impl Into<Reply>) -> Step {
        let reply = reply.into();
        self.record(std::slice::from_ref(&reply));
        self.advance(reply)
    }

    /// Takes the replies to a [`Step::Race`], in the order its lines were given.
    pub fn next_race(&mut self, replies: Vec<Reply>) -> Step {
        self.record(&replies);
        if self.phase != Phase::Racing {
            return self.finish(Verdict::Inconclusive { why: Why::OutOfTurn("race replies") });
        }
        // Each retry judged as any other: taken when it completed or went on to the next round.
        let asked_keys = self.asked.as_ref().map(|a| a.keys.clone()).unwrap_or_default();
        let verdicts: Vec<Verdict> =
            replies.iter().map(|r| self.attack.judge_taken(&Outcome::of(r), &asked_keys)).collect();
        let taken = verdicts.iter().filter(|v| matches!(v, Verdict::Finding { .. })).count();
        let refused = verdicts.iter().filter(|v| matches!(v, Verdict::Passed { .. })).count();
        let race = Why::Race { taken, refused, sent: verdicts.len() };
        let verdict = match taken {
            0 => Verdict::Inconclusive { why: race },
            1 if taken + refused == verdicts.len() => Verdict::Passed { answered: race.to_string() },
            1 => Verdict::Inconclusive { why: race },
            _ => self.attack.through(format!("{race}: the ticket was used {taken} times")),
        };
        self.finish(verdict)
    }

    fn record(&mut self, replies: &[Reply]) {
        let second = self.setup.tokens.second.clone();
        for (sent, reply) in self.pending.drain(..).zip(replies) {
            let body = reply.body.clone().unwrap_or_else(|why| json!({"transportError": why}));
            let bearer = sent.bearer.as_deref().map(|token| match token {
                MADE_UP_TOKEN => "made-up",
                token if second.as_deref() == Some(token) => "second",
                _ => "first",
            });
            let waited_ms = sent.wait_ms;
            self.exchanges.push(Exchange { sent: sent.message, bearer, status: reply.status, reply: body, waited_ms });
        }
    }

    fn send(&mut self, send: Send) -> Step {
        self.pending = vec![send.clone()];
        Step::Send(send)
    }

    fn finish(&mut self, verdict: Verdict) -> Step {
        self.phase = Phase::Done;
        self.pending.clear();
        Step::Done(verdict)
    }

    fn is(&self, by: Move) -> bool {
        self.attack.is(by)
    }

    /// The fresh flows the attack's target must pass first, or why it cannot be tested.
    fn plan_controls(&mut self) -> Result<(), Verdict> {
        let not_tested = |why: Why| Err(Verdict::NotTested { why });
        let setup = self.setup.clone();
        let flow = &setup.flow;
        let Tactic::Lab(by) = self.attack.by else { return Ok(()) };
        let target = match by {
            Move::OtherPrincipal => {
                if !setup.bearer_auth {
                    return not_tested(Why::NoTokenOverStdio);
                }
                let made_up = Send { bearer: Some(MADE_UP_TOKEN.into()), ..self.fresh(&flow.method, &flow.params) };
                self.controls.push_back((Control::MadeUpToken, made_up));
                if let Some(second) = &setup.tokens.second {
                    let theirs = Send { bearer: Some(second.clone()), ..self.fresh(&flow.method, &flow.params) };
                    self.controls.push_back((Control::SecondToken, theirs));
                }
                return Ok(());
            }
            Move::OtherTool => match &setup.targets.tool {
                None => return not_tested(Why::NoOtherTool),
                Some(params) => ("tools/call".to_owned(), params.clone()),
            },
            Move::OtherMethod => match &setup.targets.method {
                None => return not_tested(Why::NoOtherMethod),
                Some(target) => target.clone(),
            },
            Move::OtherArguments => match (&setup.targets.arguments, flow.params.get("arguments")) {
                (Some(arguments), Some(_)) => {
                    let mut params = flow.params.clone();
                    if let Some(members) = params.as_object_mut() {
                        members.insert("arguments".into(), arguments.clone());
                    }
                    (flow.method.clone(), params)
                }
                _ => return not_tested(Why::NoOtherArguments),
            },
            _ => return Ok(()),
        };
        let control = self.fresh(&target.0, &target.1);
        self.controls.push_back((Control::Target, control));
        Ok(())
    }

    /// A first call of `method` with `params`, as the flow's principal.
    fn fresh(&mut self, method: &str, params: &Value) -> Send {
        Send { message: self.client.request(method, params.clone()), bearer: self.first.bearer.clone(), wait_ms: 0 }
    }

    fn next_control(&mut self) -> Step {
        match self.controls.front() {
            Some((_, send)) => {
                let send = send.clone();
                self.send(send)
            }
            None => {
                self.phase = Phase::First;
                let first = self.first.clone();
                self.send(first)
            }
        }
    }

    fn advance(&mut self, reply: Reply) -> Step {
        let outcome = Outcome::of(&reply);
        match self.phase {
            Phase::Controls => self.after_control(&reply, &outcome),
            Phase::First => self.after_first(reply, &outcome),
            Phase::Others => self.after_other(&reply),
            Phase::Reach => self.after_reach(reply, &outcome),
            Phase::SkipFresh => self.after_skip_fresh(reply, &outcome),
            Phase::Attempts => {
                self.outcomes.push(outcome);
                self.next_attempt()
            }
            Phase::Racing => self.finish(Verdict::Inconclusive { why: Why::OutOfTurn("one reply for a race") }),
            Phase::Done => {
                self.finish(Verdict::Inconclusive { why: Why::OutOfTurn("a reply after the attack was over") })
            }
        }
    }

    fn after_control(&mut self, reply: &Reply, outcome: &Outcome) -> Step {
        let Some((control, sent)) = self.controls.pop_front() else { return self.next_control() };
        let words = outcome.words();
        let shows_asked = asked(reply);
        match control {
            Control::MadeUpToken if shows_asked.is_some() => {
                return self.finish(self.attack.through(format!(
                    "principal binding cannot hold: a made-up bearer token started a flow ({words}), so the server authenticates nobody"
                )));
            }
            Control::MadeUpToken if self.setup.tokens.second.is_none() => {
                return self.finish(Verdict::NotTested { why: Why::NeedsSecondToken });
            }
            Control::MadeUpToken => {}
            Control::SecondToken if shows_asked.is_none() => {
                return self.finish(Verdict::NotTested { why: Why::SecondTokenStartsNothing(outcome.clone()) });
            }
            Control::SecondToken => {}
            Control::Target => {
                let method = sent.message.get("method").and_then(Value::as_str).unwrap_or_default();
                let member = mrtr_sim::protocol::target_member(method);
                let name = member.and_then(|m| sent.message.get("params")?.get(m));
                let target = format!("{method} {}", name.map(Value::to_string).unwrap_or_default());
                match (shows_asked, outcome) {
                    (Some(asked), _) => {
                        self.target = Some(asked);
                        self.target_call = Some(sent.message);
                    }
                    (None, Outcome::Completed { .. }) => {
                        return self.finish(Verdict::NotTested { why: Why::TargetCompletes { target } });
                    }
                    (None, _) => {
                        return self
                            .finish(Verdict::NotTested { why: Why::TargetFails { target, answer: outcome.clone() } });
                    }
                }
            }
        }
        self.next_control()
    }

    fn after_first(&mut self, reply: Reply, outcome: &Outcome) -> Step {
        let call = self.first.message.clone();
        if let Some(step) = self.climb(&reply, &call, MAX_ROUNDS) {
            return step;
        }
        let Some(asked) = asked(&reply) else {
            if self.climbed > 0 {
                return self.finish(Verdict::NotTested {
                    why: Why::NeverATicket { answer: outcome.clone(), rounds: self.climbed },
                });
            }
            return self.finish(Verdict::Inconclusive { why: Why::NotAsking(outcome.clone()) });
        };
        if asked.ticket.is_none() && self.attack.by.needs_ticket() {
            return self.finish(Verdict::NotTested { why: Why::NoTicketYet { rounds: self.climbed + 1 } });
        }
        self.ticket_round = self.climbed;
        self.asked = Some(asked);
        if self.is(Move::Honest) || self.is(Move::FirstTicket) || self.attack.by == Tactic::SkipRound {
            self.rounds = 1;
            return self.retry_honestly(self.asked.clone());
        }
        if self.is(Move::SpliceTag) {
            self.phase = Phase::Others;
            return self.start_other(0);
        }
        self.attack_now()
    }

    /// On a flow whose ticket comes in a later round, the honest retry of a round that asked
    /// without one (on the flow whose first call is `call`), as long as the attack needs a
    /// ticket and the flow has climbed fewer than `limit` rounds. `None` once the reply
    /// carries a ticket, asks nothing, or the limit is reached.
    fn climb(&mut self, reply: &Reply, call: &Value, limit: usize) -> Option<Step> {
        let asked = asked(reply)?;
        if asked.ticket.is_some() || !self.attack.by.needs_ticket() || self.climbed >= limit {
            return None;
        }
        self.climbed += 1;
        let message = self.client.retry(call, asked.answers, None);
        Some(self.send(Send { message, bearer: self.first.bearer.clone(), wait_ms: 0 }))
    }

    /// Starts another flow of the same call, sent after `wait_ms`: its ticket comes in the
    /// round the main flow's came.
    fn start_other(&mut self, wait_ms: u64) -> Step {
        let mut other = self.fresh(&self.setup.flow.method.clone(), &self.setup.flow.params.clone());
        other.wait_ms = wait_ms;
        self.other_call = Some(other.message.clone());
        self.climbed = 0;
        self.send(other)
    }

    /// The other flow's reply: climbed to the ticket's round, then `Some` of its answer.
    fn other_reached(&mut self, reply: &Reply) -> Result<Option<Asked>, Step> {
        let call = self.other_call.clone().unwrap_or_default();
        let limit = self.ticket_round;
        match self.climb(reply, &call, limit) {
            Some(step) => Err(step),
            None => Ok(asked(reply)),
        }
    }

    /// The honest retry of the round `asked` asked (the flow's ticket byte for byte).
    fn retry_honestly(&mut self, asked: Option<Asked>) -> Step {
        let Some(asked) = asked else {
            return self.finish(Verdict::Inconclusive { why: Why::OutOfTurn("a retry with nothing to retry") });
        };
        self.phase = Phase::Reach;
        let message = self.client.retry(&self.first.message, asked.answers, asked.ticket.as_deref());
        let send = Send { message, bearer: self.first.bearer.clone(), wait_ms: 0 };
        self.send(send)
    }

    /// The honest flow's later rounds: for the honest attack, until it completes; for the
    /// first ticket's attacks, until the round after the ticket's is reached.
    fn after_reach(&mut self, reply: Reply, outcome: &Outcome) -> Step {
        let next = asked(&reply);
        if self.is(Move::FirstTicket) || self.attack.by == Tactic::SkipRound {
            return match next {
                Some(round2) if round2.keys != self.asked.as_ref().map(|a| a.keys.clone()).unwrap_or_default() => {
                    self.round2 = Some(round2);
                    if self.attack.by == Tactic::SkipRound {
                        self.phase = Phase::SkipFresh;
                        return self.start_other(0);
                    }
                    self.attack_now()
                }
                Some(_) => self.finish(Verdict::NotTested { why: Why::SameQuestionsNext }),
                None => self.finish(Verdict::NotTested {
                    why: Why::NoLaterRound { before_ticket: self.ticket_round, answer: outcome.clone() },
                }),
            };
        }
        match (next, outcome) {
            (Some(_), _) if self.rounds >= MAX_ROUNDS => {
                self.finish(Verdict::Inconclusive { why: Why::StillAsking { rounds: MAX_ROUNDS } })
            }
            (Some(more), _) => {
                self.rounds += 1;
                self.retry_honestly(Some(more))
            }
            (None, Outcome::Completed { .. }) => self.finish(Verdict::Completed),
            (None, _) => self.finish(Verdict::Inconclusive { why: Why::HonestIncomplete(outcome.clone()) }),
        }
    }

    /// The fresh flow's answer in the ticket's round: its ticket goes with the next round's answers.
    fn after_skip_fresh(&mut self, reply: Reply, outcome: &Outcome) -> Step {
        let sent = self.other_call.clone().unwrap_or_default();
        let reached = match self.other_reached(&reply) {
            Err(step) => return step,
            Ok(reached) => reached,
        };
        match reached {
            Some(fresh) if fresh.ticket.is_some() => {
                self.skip_from = Some((sent, fresh));
                self.attack_now()
            }
            _ => self.finish(Verdict::Inconclusive { why: Why::FreshWithoutTicket(outcome.clone()) }),
        }
    }

    /// Another flow's ticket, for the splice: a flow that got byte-identical bytes (a codec
    /// with no nonce, in the same second) is started again a second later, once.
    fn after_other(&mut self, reply: &Reply) -> Step {
        let reached = match self.other_reached(reply) {
            Err(step) => return step,
            Ok(reached) => reached,
        };
        if let Some(ticket) = reached.and_then(|a| a.ticket) {
            self.others.push(ticket);
        }
        let own = self.ticket();
        let identical = self.others.last().is_some_and(|other| own.as_ref().is_some_and(|own| own.text == *other));
        if identical && self.others.len() < 2 {
            return self.start_other(1_100);
        }
        self.attack_now()
    }

    fn ticket(&self) -> Option<Ticket> {
        self.asked.as_ref()?.ticket.as_deref().map(Ticket::read)
    }

    /// The attack's own lines, built from the answer of the flow's first round that carried a
    /// ticket (and, for that ticket spent again, the next round's).
    fn attack_now(&mut self) -> Step {
        match self.lines() {
            Err(verdict) => self.finish(verdict),
            Ok(Some(race)) => {
                self.phase = Phase::Racing;
                self.pending = race.clone();
                Step::Race(race)
            }
            Ok(None) => {
                self.phase = Phase::Attempts;
                self.next_attempt()
            }
        }
    }

    /// Fills the queue with the attack's lines; a race's lines are given back to send at once.
    fn lines(&mut self) -> Result<Option<Vec<Send>>, Verdict> {
        let asked =
            self.asked.clone().ok_or(Verdict::Inconclusive { why: Why::OutOfTurn("the attack before an answer") })?;
        let answers = asked.answers.clone();
        let present = asked.ticket.clone().map(Value::String);
        let own = asked.ticket.clone().unwrap_or_default();
        let ticket = Ticket::read(&own);
        let shape = ticket.shape.words();
        let unfit = |lacks: Lacks| {
            let why = if ticket.has_empty_tag() && lacks == Lacks::Tag {
                Why::EmptyTag
            } else {
                Why::Unfit { shape: shape.clone(), lacks }
            };
            Verdict::NotTested { why }
        };
        // An edit in each spelling the server may use, or not tested with why.
        let edit = |edited: Vec<String>, missing: Lacks| {
            if edited.is_empty() {
                Err(unfit(missing))
            } else {
                Ok(edited)
            }
        };
        let bearer = self.first.bearer.clone();
        let with = |state: Option<Value>, answers: &Map<String, Value>, client: &mut Client| {
            let mut message = client.retry(&self.first.message, answers.clone(), None);
            if let (Some(state), Some(params)) = (state, message.get_mut("params").and_then(Value::as_object_mut)) {
                params.insert("requestState".into(), state);
            }
            Send { message, bearer: bearer.clone(), wait_ms: 0 }
        };
        let mut client = self.client.clone();
        let by = match self.attack.by {
            Tactic::Lab(by) => by,
            Tactic::Race => {
                let count = self.setup.race.max(2);
                let race = (0..count).map(|_| with(present.clone(), &answers, &mut client)).collect();
                self.client = client;
                return Ok(Some(race));
            }
            Tactic::SkipRound => {
                let (fresh_call, fresh) = self
                    .skip_from
                    .clone()
                    .ok_or(Verdict::Inconclusive { why: Why::OutOfTurn("a skip before a fresh flow") })?;
                let later = self.round2.clone().map(|r| r.answers).unwrap_or_default();
                let message = client.retry(&fresh_call, later, fresh.ticket.as_deref());
                self.queue = vec![Send { message, bearer: bearer.clone(), wait_ms: 0 }].into();
                self.client = client;
                return Ok(None);
            }
            Tactic::NonStrings => {
                let states = [Value::Null, json!(1), json!([]), json!({}), json!(true)];
                let absent = with(None, &answers, &mut client);
                self.absent_first = true;
                self.queue = std::iter::once(absent)
                    .chain(states.into_iter().map(|state| with(Some(state), &answers, &mut client)))
                    .collect();
                self.client = client;
                return Ok(None);
            }
        };
        if by == Move::Honest {
            self.client = client;
            return Ok(None);
        }
        // What the move sends, as the lab's table says; built here from the server's ticket, in
        // its shape, and from the rounds this flow played.
        let sends = by.sends();
        let latest = match sends.ticket {
            // An earlier round's ticket goes with the latest round's answers.
            Sends::Earlier => self.round2.clone().map(|r| r.answers).unwrap_or_default(),
            _ => answers.clone(),
        };
        let answers = match sends.answers {
            Answers::Given => latest,
            Answers::Absent | Answers::Yes | Answers::Flipped => {
                return Err(Verdict::NotTested { why: Why::NotAProbeAttack })
            }
        };
        // Each ticket to send: several for an edit (each in a spelling the server may use).
        let states: Vec<Option<Value>> = match sends.ticket {
            // The flow's ticket, or none where its round handed out none.
            Sends::Same | Sends::Earlier => vec![present.clone()],
            Sends::Absent => vec![None],
            Sends::Text(text) => vec![Some(text.into())],
            Sends::Huge => vec![Some("A".repeat(1_000_000).into())],
            Sends::NotAString => return Err(Verdict::NotTested { why: Why::NotAProbeAttack }),
            Sends::Edited(kind) => {
                let (edits, lacks) = match kind {
                    Edit::Byte => (ticket.byte_edits(), Lacks::Character),
                    Edit::Tag => (ticket.tag_edits(), Lacks::Tag),
                    Edit::DropTag => (ticket.without_tag(), Lacks::Tag),
                    Edit::Payload => (ticket.payload_edits(), Lacks::Payload),
                    Edit::Resign => (ticket.resigned(), Lacks::PayloadAndTag),
                    Edit::Reencode => (ticket.reencoded(), Lacks::Spelling),
                    // Claims the server never wrote, in the shape it writes them.
                    Edit::Forged => (ticket.forgeries(), Lacks::Forgery),
                    Edit::Splice => {
                        let others: Vec<Ticket> = self.others.iter().map(|t| Ticket::read(t)).collect();
                        let spliced =
                            others.iter().rev().map(|other| ticket.with_tag_of(other)).find(|s| !s.is_empty());
                        match (spliced, ticket.has_tag()) {
                            (Some(spliced), _) => (spliced, Lacks::Tag),
                            (None, false) => return Err(unfit(Lacks::Tag)),
                            (None, true) => return Err(Verdict::NotTested { why: Why::SameTicketEverywhere }),
                        }
                    }
                };
                edit(edits, lacks)?.into_iter().map(|e| Some(e.into())).collect()
            }
        };
        self.queue.clear();
        // A value in the ticket's place is first shown beside no ticket at all.
        if matches!(sends.ticket, Sends::Text(_) | Sends::Huge) {
            self.absent_first = true;
            self.queue.push_back(with(None, &answers, &mut client));
        }
        let wait_ms = if sends.late { self.wait_for_expiry(&ticket)? } else { 0 };
        let bearer = if sends.other_principal { self.setup.tokens.second.clone() } else { bearer.clone() };
        for state in states {
            let mut send = match sends.target {
                Target::Same => with(state, &answers, &mut client),
                Target::OtherArguments | Target::OtherTool | Target::OtherMethod => {
                    // The target's own call and answers, from its control, with this ticket.
                    let target = self
                        .target
                        .clone()
                        .ok_or(Verdict::Inconclusive { why: Why::OutOfTurn("an attack before its target") })?;
                    let mut message = self.target_call.clone().unwrap_or_default();
                    message["id"] = client.next_id().into();
                    if let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) {
                        params.insert("inputResponses".into(), Value::Object(target.answers));
                        if let Some(state) = state {
                            params.insert("requestState".into(), state);
                        }
                    }
                    Send { message, bearer: None, wait_ms: 0 }
                }
            };
            send.bearer = bearer.clone();
            send.wait_ms = wait_ms;
            // Sent twice under new ids: a server that refuses a repeated id would otherwise
            // pass for one that remembers its tickets.
            if sends.twice {
                self.queue.push_back(send.clone());
                send.message["id"] = client.next_id().into();
            }
            self.queue.push_back(send);
        }
        self.client = client;
        Ok(None)
    }

    /// How long to wait before sending the ticket too late, or why it is not tested.
    fn wait_for_expiry(&self, ticket: &Ticket) -> Result<u64, Verdict> {
        if !self.setup.wait_expiry {
            return Err(Verdict::NotTested { why: Why::ExpiryNotWaited });
        }
        // What the ticket says wins over a shorter --ttl: waiting too little would report an
        // expiry that was never passed.
        let said = match (ticket.lifetime_ms(), ticket.expires_at_ms()) {
            (Some(lifetime), _) => Some(lifetime.saturating_add(1_000)),
            (None, Some(at)) => Some(at.saturating_sub(self.setup.now_ms).saturating_add(1_500)),
            (None, None) => None,
        };
        let given = self.setup.ttl_ms.map(|ttl| ttl.saturating_add(1_000));
        let Some(wait) = said.max(given) else {
            return Err(Verdict::NotTested { why: Why::ExpiryUnknown { shape: ticket.shape.words() } });
        };
        if wait > MAX_WAIT_MS + 2_000 {
            return Err(Verdict::NotTested {
                why: Why::LivesTooLong { seconds: wait / 1000, most: MAX_WAIT_MS / 1000 },
            });
        }
        Ok(wait)
    }

    fn next_attempt(&mut self) -> Step {
        if let Some(send) = self.queue.pop_front() {
            return self.send(send);
        }
        let verdict = self.judge();
        self.finish(verdict)
    }

    /// The verdict from the attack's own replies.
    fn judge(&self) -> Verdict {
        let asked_keys = self.asked.as_ref().map(|a| a.keys.clone()).unwrap_or_default();
        let (absent, outcomes) = match self.outcomes.split_first() {
            Some((absent, rest)) if self.absent_first => (Some(absent), rest),
            _ => (None, self.outcomes.as_slice()),
        };
        let Some(last) = outcomes.last() else {
            return Verdict::Inconclusive { why: Why::OutOfTurn("a judgement before anything was sent") };
        };
        let by = match self.attack.by {
            Tactic::Lab(by) => by,
            Tactic::NonStrings => return self.judge_non_strings(absent, outcomes, &asked_keys),
            Tactic::SkipRound => return self.attack.judge_taken(last, &asked_keys),
            Tactic::Race => return Verdict::Inconclusive { why: Why::OutOfTurn("a race judged as one line") },
        };
        match by {
            // The first send is the honest retry: it must be taken (complete, or go on to the
            // next round) for the second to say anything.
            Move::SendTwice => match outcomes.first() {
                Some(first) if outcomes.len() == 2 => match self.attack.judge_taken(first, &asked_keys) {
                    Verdict::Finding { .. } => self.attack.judge_taken(last, &asked_keys),
                    _ => Verdict::Inconclusive { why: Why::FirstSendNotTaken(first.clone()) },
                },
                _ => Verdict::Inconclusive { why: Why::OutOfTurn("a judgement before both sends") },
            },
            Move::FirstTicket => {
                let round2 = self.round2.as_ref().map(|a| a.keys.clone()).unwrap_or_default();
                match last {
                    Outcome::Asked { keys } if *keys == round2 => self
                        .attack
                        .through(format!("{}: the spent ticket took it to the next round again", last.words())),
                    _ => self.attack.judge_taken(last, &asked_keys),
                }
            }
            Move::OtherArguments | Move::OtherTool | Move::OtherMethod => {
                let target_keys = self.target.as_ref().map(|a| a.keys.clone()).unwrap_or_default();
                self.attack.judge_taken(last, &target_keys)
            }
            Move::TamperByte
            | Move::TamperTag
            | Move::DropTag
            | Move::SpliceTag
            | Move::EditPayload
            | Move::ResignOtherKey
            | Move::UnaskedTicket
            | Move::Reencode => self.any_taken(outcomes, &asked_keys),
            Move::Hello | Move::Huge | Move::Empty => {
                self.as_absent(absent, self.attack.judge_taken(last, &asked_keys), &asked_keys)
            }
            _ => self.attack.judge_taken(last, &asked_keys),
        }
    }

    /// Several edits of one kind: taken when any one was, refused when every one was.
    fn any_taken(&self, outcomes: &[Outcome], asked_keys: &[String]) -> Verdict {
        let verdicts: Vec<Verdict> = outcomes.iter().map(|o| self.attack.judge_taken(o, asked_keys)).collect();
        let count = verdicts.len();
        if let Some((at, Verdict::Finding { answered, .. })) =
            verdicts.iter().enumerate().find(|(_, v)| matches!(v, Verdict::Finding { .. }))
        {
            let which = if count > 1 { format!("edit {} of {count}: ", at + 1) } else { String::new() };
            return self.attack.through(format!("{which}{answered}"));
        }
        match verdicts.iter().find(|v| !matches!(v, Verdict::Passed { .. })) {
            Some(unclear) => unclear.clone(),
            None if count > 1 => Verdict::Passed {
                answered: format!(
                    "all {count} edits refused: {}",
                    outcomes.last().map(Outcome::words).unwrap_or_default()
                ),
            },
            None => verdicts
                .into_iter()
                .next()
                .unwrap_or(Verdict::Inconclusive { why: Why::OutOfTurn("a judgement before anything was sent") }),
        }
    }

    /// A value sent in place of the ticket and taken, where the retry with no ticket at all
    /// was taken too: the server reads the value as "none", which drop-ticket grades.
    fn as_absent(&self, absent: Option<&Outcome>, verdict: Verdict, asked_keys: &[String]) -> Verdict {
        let (Verdict::Finding { answered, .. }, Some(absent)) = (&verdict, absent) else { return verdict };
        match self.attack.judge_taken(absent, asked_keys) {
            Verdict::Finding { .. } => match Attack::named(Move::DropTicket.id()) {
                Some(drop) => drop.through(format!(
                    "{answered}; the retry with no ticket at all is taken too, so the server reads this as no ticket (drop-ticket)"
                )),
                None => verdict,
            },
            _ => verdict,
        }
    }

    /// The five non-strings: taken when any one was (null judged as no ticket where the server
    /// takes answers without one), refused when all five were.
    fn judge_non_strings(&self, absent: Option<&Outcome>, outcomes: &[Outcome], asked_keys: &[String]) -> Verdict {
        let names = ["null", "a number", "an array", "an object", "true"];
        let verdicts: Vec<Verdict> = outcomes
            .iter()
            .map(|o| self.as_absent(absent, self.attack.judge_taken(o, asked_keys), asked_keys))
            .collect();
        let taken = |at_least: Grade| -> Vec<String> {
            verdicts
                .iter()
                .zip(names)
                .filter_map(|(v, name)| match v {
                    Verdict::Finding { answered, grade, .. } if *grade >= at_least => {
                        Some(format!("{name}: {answered}"))
                    }
                    _ => None,
                })
                .collect()
        };
        let strong = taken(self.attack.grade);
        if !strong.is_empty() {
            return self.attack.through(format!("the answers reached the tool with {}", strong.join("; ")));
        }
        if let Some(as_none) = verdicts.iter().find(|v| matches!(v, Verdict::Finding { .. })) {
            return as_none.clone();
        }
        let unclear = verdicts.iter().zip(names).find(|(v, _)| !matches!(v, Verdict::Passed { .. }));
        match unclear {
            Some((Verdict::Inconclusive { why }, name)) => {
                Verdict::Inconclusive { why: Why::Value { value: name, why: Box::new(why.clone()) } }
            }
            Some((other, _)) => other.clone(),
            None => Verdict::Passed {
                answered: format!("all five refused: {}", outcomes.last().map(Outcome::words).unwrap_or_default()),
            },
        }
    }
}
