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
use mrtr_probe::Ticket;
use serde::Serialize;
use serde_json::{Map, Value};

/// The methods that may answer `input_required` (the MRTR page's "Supported requests").
pub const ASKING_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];
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
    /// Its shape, in words (`mrtr_probe::Shape`).
    pub shape: &'static str,
    /// Its payload, when anyone can read it.
    pub claims: Option<Value>,
    /// When it says it expires, ms since the epoch.
    pub expires_at_ms: Option<u64>,
    /// The operation it was handed out in, and whose that was.
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

/// The request's method, target and arguments without what a retry adds: what identifies it.
fn request_key(json: &Value) -> (String, Option<String>, Value) {
    let method = json["method"].as_str().unwrap_or_default().to_owned();
    let params = json["params"].as_object().cloned().unwrap_or_default();
    let target = params.get("name").or_else(|| params.get("uri")).and_then(Value::as_str).map(str::to_owned);
    let kept: Map<String, Value> = params.into_iter().filter(|(k, _)| !ROUND_ONLY.contains(&k.as_str())).collect();
    (method, target, Value::Object(kept))
}

fn keys(value: &Value) -> Vec<String> {
    value.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

/// Whether `operation` waits for a retry: its last round asked.
fn waiting(operation: &Operation) -> Option<&End> {
    operation.rounds.last().map(|r| &r.end).filter(|end| matches!(end, End::Asked { .. }))
}

/// Groups `messages` into operations.
pub fn group(messages: &[Message]) -> Grouped {
    let mut grouped = Grouped { operations: Vec::new(), tickets: Vec::new(), orphans: Vec::new() };
    // Requests waiting for their response: id → (operation, round).
    let mut pending: Vec<(Value, usize, usize)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let json = &message.json;
        if message.from_client {
            let (method, target, arguments) = request_key(json);
            let params = &json["params"];
            let sent_state = params.get("requestState").cloned();
            let answered = keys(&params["inputResponses"]);
            let key = (method.clone(), target.clone(), arguments.clone());
            let same_request = |op: &Operation| request_key(&messages[op.rounds[0].request].json) == key;
            let handed = sent_state
                .as_ref()
                .and_then(Value::as_str)
                .and_then(|s| grouped.tickets.iter().rposition(|t| t.text == s));
            let joined = match handed {
                Some(t) => {
                    let op = grouped.tickets[t].operation;
                    let waits_for_it =
                        matches!(waiting(&grouped.operations[op]), Some(End::Asked { ticket: Some(w), .. }) if *w == t);
                    let same = same_request(&grouped.operations[op]);
                    if waits_for_it && same {
                        Some((op, Joined::ByTicket))
                    } else if same {
                        Some((op, Joined::Again))
                    } else {
                        // Spent on a request it does not belong to: an operation of its own.
                        None
                    }
                }
                None if sent_state.is_some() || !answered.is_empty() => {
                    let how = if sent_state.is_some() { Joined::ByRequest } else { Joined::ByAnswers };
                    grouped
                        .operations
                        .iter()
                        .rposition(|op| waiting(op).is_some() && same_request(op))
                        .map(|op| (op, how))
                }
                None => None,
            };
            let round = |joined| Round {
                request: index,
                response: None,
                id: json["id"].clone(),
                sent_state: sent_state.clone(),
                answered: answered.clone(),
                joined,
                end: End::NoResponse,
            };
            let op = match joined {
                Some((op, how)) => {
                    grouped.operations[op].rounds.push(round(how));
                    op
                }
                None => {
                    grouped.operations.push(Operation {
                        method,
                        target,
                        who: message.who.clone(),
                        rounds: vec![round(Joined::First)],
                    });
                    grouped.operations.len() - 1
                }
            };
            pending.retain(|(id, _, _)| *id != json["id"]);
            pending.push((json["id"].clone(), op, grouped.operations[op].rounds.len() - 1));
            continue;
        }
        let Some(at) = pending.iter().position(|(id, _, _)| *id == json["id"]) else {
            grouped.orphans.push(index);
            continue;
        };
        let (_, op, round) = pending.remove(at);
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
        let round = &mut grouped.operations[op].rounds[round];
        round.response = Some(index);
        round.end = end;
    }
    grouped
}
