//! The malicious client, as data: named moves applied to a retry (turmoil's faults-as-data).
//!
//! Each move starts from one [`Situation`]: the first call, the `input_required` answer with
//! its ticket, and the person's answers. Every move is a separate attempt on that ticket, at
//! its own time on the clock.

use crate::client::Client;
use crate::cluster::{Replica, ATTACKER_KEY};
use crate::jsonrpc;
use crate::person::{Person, Reply};
use mrtr_ticket::{inspect, with_payload, with_payload_bytes, Codec, FixedNonces, Key, Mode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::{Map, Value};

/// One thing a client can do with (or to) a ticket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    /// The honest retry: new id, the answers, the ticket byte for byte.
    Honest,
    /// Change one character of the ticket.
    TamperByte,
    /// Edit a payload field (staging → prod, the price → 1.0) and keep the old tag.
    EditPayload,
    /// Edit the payload and sign it again with a key of one's own.
    ResignOtherKey,
    /// "Tidy" the ticket: the same claims written back in other bytes.
    Reencode,
    /// Present bob's ticket with alice's bearer token.
    OtherPrincipal,
    /// Send the honest retry 5 minutes after the ticket was minted.
    TooLate,
    /// Send the exact honest retry again.
    SendTwice,
    /// Spend the ticket on the same tool with other arguments.
    OtherArguments,
    /// Spend the ticket on another tool.
    OtherTool,
    /// Spend the ticket on another method (`prompts/get`).
    OtherMethod,
    /// Send `hello` as the ticket.
    Hello,
    /// Send the answers without the ticket.
    DropTicket,
    /// A first call carrying a ticket the server never issued.
    UnaskedTicket,
    /// A first call with the answer already filled in, and no ticket.
    PrefillAnswer,
    /// Send the opposite of what the person answered.
    ChangeAnswer,
    /// Send the latest round's answers with round 1's ticket instead of the latest one.
    FirstTicket,
}

impl Move {
    /// Every move, in the order the lab lists them.
    pub const ALL: [Move; 17] = [
        Move::Honest,
        Move::TamperByte,
        Move::EditPayload,
        Move::ResignOtherKey,
        Move::Reencode,
        Move::OtherPrincipal,
        Move::TooLate,
        Move::SendTwice,
        Move::OtherArguments,
        Move::OtherTool,
        Move::OtherMethod,
        Move::Hello,
        Move::DropTicket,
        Move::UnaskedTicket,
        Move::PrefillAnswer,
        Move::ChangeAnswer,
        Move::FirstTicket,
    ];

    /// Its identifier on the command line and in URLs.
    pub fn id(self) -> &'static str {
        match self {
            Move::Honest => "honest",
            Move::TamperByte => "tamper-byte",
            Move::EditPayload => "edit-payload",
            Move::ResignOtherKey => "resign",
            Move::Reencode => "re-encode",
            Move::OtherPrincipal => "other-principal",
            Move::TooLate => "too-late",
            Move::SendTwice => "send-twice",
            Move::OtherArguments => "other-arguments",
            Move::OtherTool => "other-tool",
            Move::OtherMethod => "other-method",
            Move::Hello => "hello",
            Move::DropTicket => "drop-ticket",
            Move::UnaskedTicket => "unasked-ticket",
            Move::PrefillAnswer => "prefill-answer",
            Move::ChangeAnswer => "change-answer",
            Move::FirstTicket => "first-ticket",
        }
    }

    /// Finds a move by its identifier or one of the short names lesson pages use
    /// ([`Move::ALIASES`]: `moves="tamper,alice"`).
    pub fn from_id(id: &str) -> Option<Move> {
        let id = id.trim();
        Move::ALL
            .into_iter()
            .find(|m| m.id() == id)
            .or_else(|| Move::ALIASES.iter().find(|(alias, _)| *alias == id).map(|(_, by)| *by))
    }

    /// Short names for the moves a lesson talks about.
    pub const ALIASES: [(&'static str, Move); 9] = [
        ("tamper", Move::EditPayload),
        ("flip", Move::TamperByte),
        ("alice", Move::OtherPrincipal),
        ("late", Move::TooLate),
        ("twice", Move::SendTwice),
        ("replay", Move::SendTwice),
        ("another-request", Move::OtherArguments),
        ("forge-answer", Move::PrefillAnswer),
        ("stale", Move::FirstTicket),
    ];

    /// A label for a button.
    pub fn title(self) -> &'static str {
        match self {
            Move::Honest => "Honest retry",
            Move::TamperByte => "Change one character",
            Move::EditPayload => "Tamper: edit the payload",
            Move::ResignOtherKey => "Re-sign with another key",
            Move::Reencode => "Re-encode the ticket",
            Move::OtherPrincipal => "alice replays bob's ticket",
            Move::TooLate => "Too late (5 minutes)",
            Move::SendTwice => "Send the honest retry twice",
            Move::OtherArguments => "Spend on another request",
            Move::OtherTool => "Spend on another tool",
            Move::OtherMethod => "Spend on another method",
            Move::Hello => "Send \"hello\"",
            Move::DropTicket => "Drop the ticket",
            Move::UnaskedTicket => "Ticket nobody asked for",
            Move::PrefillAnswer => "Forged answer, no ticket",
            Move::ChangeAnswer => "Change the person's answer",
            Move::FirstTicket => "Echo round 1's ticket",
        }
    }

    /// What the move does, in one sentence.
    pub fn what(self) -> &'static str {
        match self {
            Move::Honest => "New id, the person's answer in inputResponses, requestState byte for byte.",
            Move::TamperByte => "The honest retry with one character of the ticket's payload (a sealed ticket's nonce) changed.",
            Move::EditPayload => "Decode the readable payload, change a value (staging to prod, the price to 1.0), keep the old signature; a sealed box, unreadable, is changed blind.",
            Move::ResignOtherKey => "The same edit, then a fresh signature (or seal) made with the attacker's own key.",
            Move::Reencode => "An honest client that tidies the ticket: it decodes the payload and writes the same claims back as pretty-printed JSON (a sealed one it can only re-encode as standard base64), and keeps the tag. Same meaning, other bytes.",
            Move::OtherPrincipal => "alice got hold of bob's ticket and sends the retry with her own bearer token.",
            Move::TooLate => "bob sends the honest retry 5 minutes after the ticket was minted; it lives 120 s.",
            Move::SendTwice => "The exact same retry line again: a replay of a request that already worked (played first, it sends the line twice).",
            Move::OtherArguments => "The ticket attached to the same tool with other arguments: a deploy to prod instead of staging, 20 tickets instead of 2, another flight.",
            Move::OtherTool => "The ticket attached to a call of a different tool.",
            Move::OtherMethod => "The ticket attached to a prompts/get request.",
            Move::Hello => "The word hello where the ticket should be.",
            Move::DropTicket => "The answers without the ticket: the server has nothing to continue from.",
            Move::UnaskedTicket => "A first call carrying a ticket the client made up, signed (or sealed) with its own key.",
            Move::PrefillAnswer => "A first call with inputResponses already saying yes: nothing was asked yet.",
            Move::ChangeAnswer => "The person answered one thing; the client sends the opposite.",
            Move::FirstTicket => "The latest answers with the ticket from round 1, as a client that kept the first requestState. In a one-round flow round 1's ticket is the latest.",
        }
    }

    /// When the lab plays it, seconds after the ticket was minted (the lesson's timeline).
    pub fn default_at_s(self) -> u64 {
        match self {
            Move::Honest => 8,
            Move::TamperByte => 10,
            Move::EditPayload => 12,
            Move::ResignOtherKey => 14,
            Move::Reencode => 18,
            Move::OtherPrincipal => 20,
            Move::TooLate => 300,
            Move::OtherArguments => 30,
            Move::OtherTool => 32,
            Move::OtherMethod => 34,
            Move::SendTwice => 40,
            Move::Hello => 45,
            Move::DropTicket => 50,
            Move::UnaskedTicket => 0,
            Move::PrefillAnswer => 0,
            Move::ChangeAnswer => 55,
            Move::FirstTicket => 16,
        }
    }
}

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
        let bob = client.bearer.clone();
        let retry = |client: &mut Client, answers: Map<String, Value>, ticket: Option<&str>| {
            jsonrpc::line(&client.retry(&self.first, answers, ticket))
        };
        let line = match by {
            Move::Honest | Move::SendTwice | Move::OtherPrincipal | Move::TooLate => self.honest_line.clone(),
            Move::TamperByte => retry(client, self.answers.clone(), Some(&flip_one_char(&self.ticket))),
            Move::EditPayload => retry(client, self.answers.clone(), Some(&self.edited(false))),
            Move::ResignOtherKey => retry(client, self.answers.clone(), Some(&self.edited(true))),
            Move::Reencode => retry(client, self.answers.clone(), Some(&reencoded(&self.ticket))),
            Move::OtherArguments => {
                let mut message = serde_json::from_str::<Value>(&self.honest_line).unwrap_or_default();
                message["id"] = client.next_id().into();
                message["params"]["arguments"] = self.other_arguments.clone();
                jsonrpc::line(&message)
            }
            Move::OtherTool => {
                self.elsewhere(client, "tools/call", json!({"name": "charge_good", "arguments": {"amount": 1}}))
            }
            Move::OtherMethod => {
                self.elsewhere(client, "prompts/get", json!({"name": "release_notes", "arguments": {"version": "2.0"}}))
            }
            Move::Hello => retry(client, self.answers.clone(), Some("hello")),
            Move::FirstTicket => retry(client, self.answers.clone(), Some(&self.first_ticket)),
            Move::DropTicket => retry(client, self.answers.clone(), None),
            Move::UnaskedTicket => {
                let mut first = self.first.clone();
                first["id"] = client.next_id().into();
                first["params"]["requestState"] = self.edited(true).into();
                jsonrpc::line(&first)
            }
            Move::PrefillAnswer => {
                let mut first = self.first.clone();
                first["id"] = client.next_id().into();
                first["params"]["inputResponses"] = Value::Object(self.yes());
                jsonrpc::line(&first)
            }
            Move::ChangeAnswer => {
                let accepted = self.answers.values().all(|a| a.get("action").and_then(Value::as_str) == Some("accept"));
                let flipped = if accepted {
                    self.answers.keys().map(|k| (k.clone(), json!({"action": "decline"}))).collect()
                } else {
                    self.yes()
                };
                retry(client, flipped, Some(&self.ticket))
            }
        };
        let bearer = if by == Move::OtherPrincipal { "alice-token".to_owned() } else { bob };
        Attempt { by, at_ms, bearer, line }
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

    fn elsewhere(&self, client: &mut Client, method: &str, params: Value) -> String {
        let mut message = client.request(method, params);
        message["params"]["inputResponses"] = Value::Object(self.answers.clone());
        message["params"]["requestState"] = self.ticket.clone().into();
        jsonrpc::line(&message)
    }

    /// The ticket with its most tempting payload value changed (claims made up where the
    /// payload is sealed): under the old tag, or re-signed with the attacker's key when
    /// `resign`.
    fn edited(&self, resign: bool) -> String {
        let mut payload = inspect(&self.ticket).payload.unwrap_or_else(made_up_claims);
        let data = &mut payload["data"];
        if data.get("env").is_some() {
            data["env"] = "prod".into();
        } else if data.get("price").is_some() {
            data["price"] = json!(1.0);
        } else {
            data["approved"] = true.into();
        }
        if resign {
            forged_with_attacker_key(&self.ticket, &payload)
        } else {
            edited_keeping_tag(&self.ticket, &payload)
        }
    }
}

/// `claims` in place of the ticket's payload, the old tag kept: what a forger without the key
/// can do. A sealed ticket has no payload to swap (it does not read without the key), so one
/// character of its box is changed blind instead, the tag still at its end.
///
/// ```
/// use mrtr_sim::moves::edited_keeping_tag;
/// let claims = serde_json::json!({"price": 1.0});
/// assert_eq!(edited_keeping_tag("v1.e30.TAG", &claims), "v1.eyJwcmljZSI6MX0.TAG");
/// assert_eq!(edited_keeping_tag("v1e.NONCE.BOXBOX", &claims), "v1e.NONCE.BOXAOX");
/// ```
pub fn edited_keeping_tag(ticket: &str, claims: &Value) -> String {
    if Mode::of_ticket(ticket) != Mode::Sealed {
        return with_payload(ticket, claims);
    }
    flip_middle(ticket, ticket.rfind('.').map_or(0, |dot| dot + 1), ticket.len())
}

/// A ticket carrying `claims`, made by the attacker with its own key in the format of
/// `ticket`: signed, or sealed when `ticket` is. Only the server's key makes one that opens.
///
/// ```
/// use mrtr_sim::moves::forged_with_attacker_key;
/// let claims = serde_json::json!({"sub": "bob"});
/// assert!(forged_with_attacker_key("v1.e30.TAG", &claims).starts_with("v1.eyJzdWIiOiJib2IifQ."));
/// assert!(forged_with_attacker_key("v1e.NONCE.BOX", &claims).starts_with("v1e."));
/// ```
pub fn forged_with_attacker_key(ticket: &str, claims: &Value) -> String {
    wrapped_by_attacker(Mode::of_ticket(ticket), mrtr_ticket::canonical_json(claims).as_bytes())
}

/// `payload` signed or sealed with the attacker's own key.
fn wrapped_by_attacker(mode: Mode, payload: &[u8]) -> String {
    let key = Key::new(ATTACKER_KEY).unwrap_or_else(|_| unreachable!("32 bytes"));
    Codec::new(key, mode).wrap_payload(payload, &mut FixedNonces(vec![7]))
}

/// Changes the character at `at` to another base64url character (`A`, or `B` where it was
/// `A`): the smallest edit a student can make.
pub fn flip_char_at(ticket: &str, at: usize) -> String {
    let mut bytes = ticket.as_bytes().to_vec();
    if let Some(b) = bytes.get_mut(at) {
        *b = if *b == b'A' { b'B' } else { b'A' };
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Signs the ticket's payload again, as it stands, with the attacker's own key. A sealed
/// payload does not read without the server's key: made-up claims are sealed instead.
pub fn resign_with_attacker_key(ticket: &str) -> String {
    if Mode::of_ticket(ticket) == Mode::Sealed {
        return forged_with_attacker_key(ticket, &made_up_claims());
    }
    let payload = ticket.split('.').nth(1).and_then(|p| mrtr_ticket::base64url_decode(p).ok()).unwrap_or_default();
    wrapped_by_attacker(Mode::Signed, &payload)
}

/// The claims a forger writes where it cannot read the real ones.
fn made_up_claims() -> Value {
    json!({"sub": "bob", "data": {}})
}

/// The ticket as a client that "tidies" it would send it: a readable payload decoded and
/// its JSON written back pretty-printed (the same claims in other bytes); a payload it
/// cannot read (a sealed ticket) re-encoded, every part after the prefix, as standard
/// base64 with padding. The tag is kept as it was.
///
/// ```
/// use mrtr_sim::moves::reencoded;
/// use mrtr_ticket::inspect;
/// let ticket = "v1.eyJzdWIiOiJib2IifQ.tag";
/// let tidied = reencoded(ticket);
/// assert_ne!(tidied, ticket);
/// assert_eq!(inspect(&tidied).payload, inspect(ticket).payload);
/// assert_eq!(reencoded("v1e.ab-c_d.xyz"), "v1e.ab+c/d==.xyz=");
/// ```
pub fn reencoded(ticket: &str) -> String {
    if let Some(pretty) = inspect(ticket).payload.map(|payload| format!("{payload:#}")) {
        return with_payload_bytes(ticket, pretty.as_bytes());
    }
    match ticket.split_once('.') {
        Some((prefix, rest)) => {
            let parts: Vec<String> = rest.split('.').map(standard_base64).collect();
            format!("{prefix}.{}", parts.join("."))
        }
        None => ticket.to_owned(),
    }
}

/// base64url text as standard base64: `-` and `_` become `+` and `/`, and `=` pads it to a
/// multiple of four.
fn standard_base64(base64url: &str) -> String {
    let mut text: String = base64url
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            other => other,
        })
        .collect();
    while !text.len().is_multiple_of(4) {
        text.push('=');
    }
    text
}

/// Changes one character in the middle of the payload to another base64url character.
pub fn flip_one_char(ticket: &str) -> String {
    let first_dot = ticket.find('.').unwrap_or(0);
    flip_middle(ticket, first_dot + 1, ticket.rfind('.').unwrap_or(ticket.len()))
}

/// Changes the character in the middle of the bytes `from..to` of the ticket.
fn flip_middle(ticket: &str, from: usize, to: usize) -> String {
    flip_char_at(ticket, from + to.saturating_sub(from) / 2)
}

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

    #[test]
    fn ids_and_aliases_name_moves_and_nothing_else_does() {
        for by in Move::ALL {
            assert_eq!(Move::from_id(by.id()), Some(by));
        }
        assert_eq!(Move::from_id("tamper"), Some(Move::EditPayload));
        assert_eq!(Move::from_id(" alice "), Some(Move::OtherPrincipal));
        assert_eq!(Move::from_id("Alice"), None);
        assert_eq!(Move::from_id(""), None);
        assert!(Move::ALIASES.iter().all(|(alias, _)| Move::ALL.iter().all(|m| m.id() != *alias)));
    }
}
