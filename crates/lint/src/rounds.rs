//! Grouping a transcript's messages into operations: a request, its response, and every
//! retry that carries on from an `input_required` answer, each a round.
//!
//! A retry joins the operation whose last round handed out the ticket it carries, or, when an
//! earlier round already sent that ticket, the same operation again (a replay). One whose
//! ticket was handed out for another request starts an operation of its own. One whose
//! ticket matches none joins the operation of the same request (method, target, arguments)
//! that is waiting for a retry, as one whose ticket was changed; one that carries answers but
//! no ticket joins that operation too, as one that left its ticket out. Anything else starts an
//! operation. The rules (rules.rs) then read what each round did.

use crate::read::Message;
use mrtr_ticket::canonical_json;
use mrtr_wire::Ticket;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// What a retry adds to the request it repeats.
const ROUND_ONLY: [&str; 3] = ["requestState", "inputResponses", "_meta"];

/// How a round came to belong to its operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Joined {
    /// It started the operation.
    First,
    /// It carried the ticket the last round handed out.
    ByTicket,
    /// It repeated the request with another ticket than the one handed out.
    ByRequest,
    /// It repeated the request with answers and no ticket.
    ByAnswers,
    /// It carried a ticket of this operation's that an earlier round had already sent.
    Again,
}

/// How a round ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum End {
    /// `input_required`: the keys asked for and the ticket handed out (by its index in
    /// [`Grouped::tickets`]), or a `requestState` that is not a string.
    Asked {
        /// The `inputRequests` keys.
        asked: Vec<String>,
        /// The ticket handed out, if one was.
        ticket: Option<usize>,
        /// A `requestState` that is not a string, as sent.
        odd_state: Option<Value>,
    },
    /// A result.
    Complete,
    /// A JSON-RPC error.
    Error {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No response in the transcript.
    NoResponse,
}

/// One request of an operation and what answered it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    /// The request (an index in the transcript's messages).
    pub request: usize,
    /// Its response, if the transcript has it.
    pub response: Option<usize>,
    /// The request's id.
    pub id: Value,
    /// The `requestState` it carried, as sent.
    pub sent_state: Option<Value>,
    /// The `inputResponses` keys it carried.
    pub answered: Vec<String>,
    /// How it joined the operation.
    pub joined: Joined,
    /// How it ended.
    pub end: End,
}

/// A request and its retries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Operation {
    /// The method.
    pub method: String,
    /// The tool's or prompt's name, or the resource's URI.
    pub target: Option<String>,
    /// Whose it was, as far as the transcript says.
    pub who: Option<String>,
    /// Its rounds, in order.
    pub rounds: Vec<Round>,
}

impl Operation {
    /// `tools/call deploy`.
    pub fn title(&self) -> String {
        match &self.target {
            Some(target) => format!("{} {target}", self.method),
            None => self.method.clone(),
        }
    }
}

/// A ticket a server handed out, read as far as its shape allows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TicketSeen {
    /// `T1`, `T2`, … in the order they were handed out.
    pub name: String,
    /// The ticket.
    pub text: String,
    /// Its shape, in words (`mrtr_wire::Shape`).
    pub shape: String,
    /// Its payload, when anyone can read it.
    pub claims: Option<Value>,
    /// When it says it expires, ms since the epoch.
    pub expires_at_ms: Option<u64>,
    /// The operation it was handed out in, and whose that was.
    /// In JSON it counts from 1, as the text report numbers operations.
    #[serde(serialize_with = "crate::rounds::one_based")]
    pub operation: usize,
    /// Whose request it answered.
    pub who: Option<String>,
}

/// The transcript's operations and tickets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grouped {
    /// Every operation, in the order it started.
    pub operations: Vec<Operation>,
    /// Every ticket handed out.
    pub tickets: Vec<TicketSeen>,
    /// Responses to no request of the transcript (indexes in its messages).
    pub orphans: Vec<usize>,
}

/// What identifies a request, whatever a retry adds: its method and parameters without the
/// round's own, as canonical JSON (members sorted, numbers as the codec's digest writes them).
fn request_key(json: &Value) -> String {
    let params = json["params"].as_object().cloned().unwrap_or_default();
    let kept: Map<String, Value> = params.into_iter().filter(|(k, _)| !ROUND_ONLY.contains(&k.as_str())).collect();
    canonical_json(&json!({"method": json["method"], "params": kept}))
}

/// An index written counting from 1.
pub(crate) fn one_based<S: serde::Serializer>(index: &usize, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(*index as u64 + 1)
}

fn keys(value: &Value) -> Vec<String> {
    value.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

/// Whether `operation` waits for a retry: its last round asked.
fn waiting(operation: &Operation) -> Option<&End> {
    operation.rounds.last().map(|r| &r.end).filter(|end| matches!(end, End::Asked { .. }))
}

/// What grouping looks up as it goes, kept so that a message costs about the same however
/// long the transcript is (a 16 MiB paste of requests nobody answered is hostile input too).
#[derive(Default)]
struct Index {
    /// Each operation's request key.
    keys: Vec<String>,
    /// The operations waiting for a retry, by request key, in the order they started.
    waiting: HashMap<String, BTreeSet<usize>>,
    /// The latest ticket handed out with each text.
    tickets: HashMap<String, usize>,
    /// The tickets an operation waits for, by their text and the operation's request key, the
    /// earliest first: concurrent flows of one request may be handed identical bytes.
    awaited: HashMap<(String, String), BTreeSet<usize>>,
    /// The requests waiting for their response, by id (as JSON text): (operation, round).
    pending: HashMap<String, (usize, usize)>,
    /// Responses that came before their request (a capture by `tee` of both directions), by
    /// id, with where they are.
    early: HashMap<String, VecDeque<usize>>,
}

/// How far (in messages) a response may come before its request and still be paired with it.
const EARLY_WINDOW: usize = 64;

/// Groups `messages` into operations.
pub fn group(messages: &[Message]) -> Grouped {
    let mut grouper = Grouper {
        messages,
        grouped: Grouped { operations: Vec::new(), tickets: Vec::new(), orphans: Vec::new() },
        index: Index::default(),
    };
    for (at, message) in messages.iter().enumerate() {
        if message.from_client {
            let id = grouper.request(at);
            let early = grouper.index.early.get_mut(&id).and_then(VecDeque::pop_front);
            if let Some(response) = early {
                grouper.response(response, true);
            }
        } else {
            grouper.response(at, false);
        }
    }
    let Grouper { mut grouped, index, .. } = grouper;
    grouped.orphans.extend(index.early.into_values().flatten());
    grouped.orphans.sort_unstable();
    grouped
}

struct Grouper<'a> {
    messages: &'a [Message],
    grouped: Grouped,
    index: Index,
}

impl Grouper<'_> {
    /// The operation `op` stops waiting for a retry: one came.
    fn stop_waiting(&mut self, op: usize) {
        if let Some(ops) = self.index.waiting.get_mut(&self.index.keys[op]) {
            ops.remove(&op);
        }
        if let Some(End::Asked { ticket: Some(t), .. }) = self.grouped.operations[op].rounds.last().map(|r| &r.end) {
            let awaited = (self.grouped.tickets[*t].text.clone(), self.index.keys[op].clone());
            if let Some(tickets) = self.index.awaited.get_mut(&awaited) {
                tickets.remove(t);
            }
        }
    }

    /// A request at `at`: the operation it starts or joins. Gives its id, as JSON text.
    fn request(&mut self, at: usize) -> String {
        let (grouped, index) = (&mut self.grouped, &mut self.index);
        let message = &self.messages[at];
        let json = &message.json;
        let id = json["id"].to_string();
        let key = request_key(json);
        let params = &json["params"];
        let sent_state = params.get("requestState").cloned();
        let answered = keys(&params["inputResponses"]);
        let text = sent_state.as_ref().and_then(Value::as_str);
        let awaited = text
            .and_then(|text| index.awaited.get(&(text.to_owned(), key.clone())))
            .and_then(|tickets| tickets.first().copied());
        let latest = text.and_then(|text| index.tickets.get(text).copied());
        let joined = match (awaited, latest) {
            (Some(t), _) => Some((grouped.tickets[t].operation, Joined::ByTicket)),
            // Sent again on the request it was handed out for: a replay; on another: its own.
            (None, Some(t)) => {
                let op = grouped.tickets[t].operation;
                (index.keys[op] == key).then_some((op, Joined::Again))
            }
            (None, None) if sent_state.is_some() || !answered.is_empty() => {
                // The latest operation of the same request that waits for a retry: a state that
                // is not a string and echoes the one handed out is that operation's ticket.
                let op = index.waiting.get(&key).and_then(|ops| ops.last().copied());
                op.map(|op| {
                    let echoed = matches!(
                        waiting(&grouped.operations[op]),
                        Some(End::Asked { odd_state: Some(odd), .. }) if Some(odd) == sent_state.as_ref()
                    );
                    let how = match (echoed, sent_state.is_some()) {
                        (true, _) => Joined::ByTicket,
                        (false, true) => Joined::ByRequest,
                        (false, false) => Joined::ByAnswers,
                    };
                    (op, how)
                })
            }
            (None, None) => None,
        };
        let round = |joined| Round {
            request: at,
            response: None,
            id: json["id"].clone(),
            sent_state: sent_state.clone(),
            answered: answered.clone(),
            joined,
            end: End::NoResponse,
        };
        let op = match joined {
            Some((op, how)) => {
                // Its last round waits for a response now, not the operation for a retry.
                self.stop_waiting(op);
                self.grouped.operations[op].rounds.push(round(how));
                op
            }
            None => {
                let member = mrtr_sim::protocol::target_member(json["method"].as_str().unwrap_or_default());
                let target = member.and_then(|m| params.get(m)).and_then(Value::as_str);
                self.grouped.operations.push(Operation {
                    method: json["method"].as_str().unwrap_or_default().to_owned(),
                    target: target.map(str::to_owned),
                    who: message.who.clone(),
                    rounds: vec![round(Joined::First)],
                });
                self.index.keys.push(key);
                self.grouped.operations.len() - 1
            }
        };
        let round = self.grouped.operations[op].rounds.len() - 1;
        self.index.pending.insert(id.clone(), (op, round));
        id
    }

    /// A response at `at` (`late`: paired with a request that came after it).
    fn response(&mut self, at: usize, late: bool) {
        let json = &self.messages[at].json;
        let id = json["id"].to_string();
        let Some((op, round)) = self.index.pending.remove(&id) else {
            if late {
                self.grouped.orphans.push(at);
            } else {
                let early = self.index.early.entry(id).or_default();
                early.push_back(at);
                // Only the last few: a response much earlier than a request is no pair of it.
                while early.front().is_some_and(|first| at.saturating_sub(*first) > EARLY_WINDOW) {
                    if let Some(old) = early.pop_front() {
                        self.grouped.orphans.push(old);
                    }
                }
            }
            return;
        };
        let grouped = &mut self.grouped;
        let end = if let Some(error) = json.get("error") {
            End::Error {
                code: error["code"].as_i64().unwrap_or_default(),
                message: error["message"].as_str().unwrap_or_default().to_owned(),
            }
        } else if json["result"]["resultType"] == "input_required" {
            let state = json["result"].get("requestState");
            let ticket = state.and_then(Value::as_str).map(|text| {
                let read = Ticket::read(text);
                grouped.tickets.push(TicketSeen {
                    name: format!("T{}", grouped.tickets.len() + 1),
                    text: text.to_owned(),
                    shape: read.shape.words(),
                    expires_at_ms: read.expires_at_ms(),
                    claims: read.claims,
                    operation: op,
                    who: grouped.operations[op].who.clone(),
                });
                self.index.tickets.insert(text.to_owned(), grouped.tickets.len() - 1);
                grouped.tickets.len() - 1
            });
            End::Asked {
                asked: keys(&json["result"]["inputRequests"]),
                ticket,
                odd_state: state.filter(|s| !s.is_string()).cloned(),
            }
        } else {
            End::Complete
        };
        let last = grouped.operations[op].rounds.len() - 1;
        if round == last {
            if let End::Asked { ticket, .. } = &end {
                let key = self.index.keys[op].clone();
                if let Some(t) = ticket {
                    let text = grouped.tickets[*t].text.clone();
                    self.index.awaited.entry((text, key.clone())).or_default().insert(*t);
                }
                self.index.waiting.entry(key).or_default().insert(op);
            }
        }
        let round = &mut grouped.operations[op].rounds[round];
        round.response = Some(at);
        round.end = end;
    }
}
