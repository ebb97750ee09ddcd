//! Where every move starts ([`Situation`]) and the line each move sends from there.

use super::forgery::{
    edited_keeping_tag, flip_one_char, flip_tag_char, forged_with_attacker_key, made_up_claims, reencoded, with_tag_of,
    without_tag,
};
use super::sends::{Answers, Edit, Target, Ticket};
use super::Move;
use crate::client::Client;
use crate::cluster::Replica;
use crate::jsonrpc;
use crate::person::{Person, Reply};
use mrtr_ticket::inspect;
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::{Map, Value};

/// The student's own retry: the honest one, with any of its parts changed by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OwnAttempt {
    /// The ticket as edited; `None` sends the one the server gave.
    pub ticket: Option<String>,
    /// When it is sent, ms after the ticket was minted; `None` is 8 s.
    pub at_ms: Option<u64>,
    /// Whose bearer token; `None` is the client's own (bob's).
    pub bearer: Option<String>,
    /// Other arguments for the same tool; `None` keeps the original ones.
    pub arguments: Option<Value>,
    /// Send it to this replica instead of letting the balancer choose.
    pub replica: Option<Replica>,
    /// The whole request, written by hand: sent exactly as it is, in place of the retry the
    /// fields above build (only the time, the bearer token and the replica still apply).
    pub line: Option<String>,
}

/// Where every move starts: bob's first call and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Situation {
    /// The first request, as sent.
    pub first: Value,
    /// The ticket the server gave in the latest round: the one to echo.
    pub ticket: String,
    /// The ticket round 1 gave (the same one in a flow of one round).
    pub first_ticket: String,
    /// Which round's ticket the moves start from: 1, or 2 in a flow of two rounds.
    pub round: usize,
    /// The questions the server asked.
    pub requests: Map<String, Value>,
    /// What the person answered.
    pub answers: Map<String, Value>,
    /// When the ticket was minted, ms.
    pub minted_at: u64,
    /// The honest retry line, built once so a replay is byte-identical.
    pub honest_line: String,
    /// Arguments for [`Move::OtherArguments`].
    pub other_arguments: Value,
    /// The replica that minted the ticket.
    pub minted_on: Option<Replica>,
    /// A ticket of another flow, for [`Move::SpliceTag`] (round 1's when there is none).
    pub other_ticket: Option<String>,
    /// The call [`Move::OtherTool`] spends the ticket on: `{"name", "arguments"}`.
    pub other_tool: Value,
}

/// One line a move sends.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The move.
    pub by: Move,
    /// When, ms.
    pub at_ms: u64,
    /// Whose bearer token.
    pub bearer: String,
    /// The exact line.
    pub line: String,
}

impl Situation {
    /// Builds the situation; the honest retry gets its id now.
    pub fn new(
        first: Value,
        ticket: String,
        requests: Map<String, Value>,
        answers: Map<String, Value>,
        minted_at: u64,
        client: &mut Client,
    ) -> Self {
        let honest = client.retry(&first, answers.clone(), Some(&ticket));
        let other_arguments = other_arguments(first.pointer("/params/arguments").unwrap_or(&Value::Null));
        Situation {
            first,
            first_ticket: ticket.clone(),
            ticket,
            round: 1,
            requests,
            answers,
            minted_at,
            honest_line: jsonrpc::line(&honest),
            other_arguments,
            minted_on: None,
            other_ticket: None,
            other_tool: json!({"name": "charge_good", "arguments": {"amount": 1}}),
        }
    }

    /// A "yes" to every question, as a client that forges consent would send it.
    fn yes(&self) -> Map<String, Value> {
        let person = Person { reply: Reply::Accept, think_ms: 0 };
        self.requests.iter().filter_map(|(k, r)| Some((k.clone(), person.answer(r)?))).collect()
    }

    /// The attempt a move makes, at its default time.
    pub fn attempt(&self, by: Move, client: &mut Client) -> Attempt {
        let at_ms = self.minted_at.saturating_add(by.default_at_s() * 1_000);
        let sends = by.sends();
        let bearer = if sends.other_principal { "alice-token".to_owned() } else { client.bearer.clone() };
        if sends.is_honest_line() {
            return Attempt { by, at_ms, bearer, line: self.honest_line.clone() };
        }
        let answers = match sends.answers {
            Answers::Given => self.answers.clone(),
            Answers::Absent => Map::new(),
            Answers::Yes => self.yes(),
            Answers::Flipped => {
                let accepted = self.answers.values().all(|a| a.get("action").and_then(Value::as_str) == Some("accept"));
                if accepted {
                    self.answers.keys().map(|k| (k.clone(), json!({"action": "decline"}))).collect()
                } else {
                    self.yes()
                }
            }
        };
        let ticket: Option<Value> = match sends.ticket {
            Ticket::Same => Some(self.ticket.clone().into()),
            Ticket::Absent => None,
            Ticket::Earlier => Some(self.first_ticket.clone().into()),
            Ticket::Text(text) => Some(text.into()),
            Ticket::NotAString => Some(1.into()),
            Ticket::Huge => Some("A".repeat(1_000_000).into()),
            Ticket::Edited(edit) => Some(self.edit(edit).into()),
        };
        let mut message = match sends.target {
            Target::Same => client.retry(&self.first, answers, None),
            Target::OtherArguments => {
                let mut message = client.retry(&self.first, answers, None);
                message["params"]["arguments"] = self.other_arguments.clone();
                message
            }
            Target::OtherTool => self.elsewhere(client, "tools/call", self.other_tool.clone(), answers),
            Target::OtherMethod => self.elsewhere(
                client,
                "prompts/get",
                json!({"name": "release_notes", "arguments": {"version": "2.0"}}),
                answers,
            ),
        };
        if let Some(ticket) = ticket {
            message["params"]["requestState"] = ticket;
        }
        Attempt { by, at_ms, bearer, line: jsonrpc::line(&message) }
    }

    /// The ticket as `edit` changes it.
    fn edit(&self, edit: Edit) -> String {
        match edit {
            Edit::Byte => flip_one_char(&self.ticket),
            Edit::Tag => flip_tag_char(&self.ticket),
            Edit::DropTag => without_tag(&self.ticket).to_owned(),
            Edit::Splice => with_tag_of(&self.ticket, self.other_ticket.as_deref().unwrap_or(&self.first_ticket)),
            Edit::Payload => self.edited(false),
            Edit::Resign => self.edited(true),
            Edit::Reencode => reencoded(&self.ticket),
            Edit::Forged => forged_with_attacker_key(&self.ticket, &made_up_claims()),
        }
    }

    /// The student's own attempt: the request they wrote, or the honest retry with the
    /// parts they changed.
    pub fn own_attempt(&self, own: &OwnAttempt, client: &mut Client) -> Attempt {
        let line = match &own.line {
            Some(line) => line.clone(),
            None => {
                let ticket = own.ticket.clone().unwrap_or_else(|| self.ticket.clone());
                let mut retry = client.retry(&self.first, self.answers.clone(), Some(&ticket));
                if let Some(arguments) = &own.arguments {
                    retry["params"]["arguments"] = arguments.clone();
                }
                jsonrpc::line(&retry)
            }
        };
        Attempt {
            by: Move::Honest,
            at_ms: self.minted_at.saturating_add(own.at_ms.unwrap_or(Move::Honest.default_at_s() * 1_000)),
            bearer: own.bearer.clone().unwrap_or_else(|| client.bearer.clone()),
            line,
        }
    }

    fn elsewhere(&self, client: &mut Client, method: &str, params: Value, answers: Map<String, Value>) -> Value {
        let mut message = client.request(method, params);
        message["params"]["inputResponses"] = Value::Object(answers);
        message
    }

    /// The ticket with its most tempting payload value changed (claims made up where the
    /// payload is sealed): under the old tag, or re-signed with the attacker's key when
    /// `resign`.
    fn edited(&self, resign: bool) -> String {
        // A payload that is not an object, or whose data is not, is a forger's blank page:
        // made-up claims instead (never an index into JSON that may not have it).
        let mut payload = inspect(&self.ticket).payload.filter(Value::is_object).unwrap_or_else(made_up_claims);
        if let Some(claims) = payload.as_object_mut() {
            let data = claims.entry("data").or_insert_with(|| json!({}));
            if !data.is_object() {
                *data = json!({});
            }
            if let Some(data) = data.as_object_mut() {
                if data.contains_key("env") {
                    data.insert("env".into(), "prod".into());
                } else if data.contains_key("price") {
                    data.insert("price".into(), json!(1.0));
                } else {
                    data.insert("approved".into(), true.into());
                }
            }
        }
        if resign {
            forged_with_attacker_key(&self.ticket, &payload)
        } else {
            edited_keeping_tag(&self.ticket, &payload)
        }
    }
}

/// Other arguments for the same tool: the most tempting change of each scenario's call.
fn other_arguments(arguments: &Value) -> Value {
    let mut other = arguments.clone();
    match other.as_object_mut() {
        Some(map) if map.get("env").is_some() => {
            map.insert("env".into(), "prod".into());
        }
        Some(map) if map.get("quantity").is_some() => {
            map.insert("quantity".into(), 20.into());
        }
        Some(map) if map.get("flight").is_some() => {
            map.insert("flight".into(), "LX999".into());
        }
        Some(map) => {
            map.insert("other".into(), true.into());
        }
        None => other = json!({"other": true}),
    }
    other
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Capabilities;

    #[test]
    fn a_payload_that_is_not_an_object_is_edited_without_a_panic() {
        let mut client = Client::new("bob-token", Capabilities::ALL);
        let first = client.request("tools/call", json!({"name": "deploy", "arguments": {"env": "staging"}}));
        for payload in ["WzEsMl0", "Nw", "ImEi", "bnVsbA", "eyJkYXRhIjoicyJ9", "eyJkYXRhIjpbMV19"] {
            let ticket = format!("v1.{payload}.TAG");
            let situation = Situation::new(first.clone(), ticket, Map::new(), Map::new(), 0, &mut client);
            for by in [Move::EditPayload, Move::ResignOtherKey, Move::UnaskedTicket] {
                assert!(!situation.attempt(by, &mut client).line.is_empty());
            }
        }
    }
}
