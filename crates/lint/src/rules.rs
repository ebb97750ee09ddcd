//! What each operation's rounds did wrong, in the MRTR page's words: the client's side (a
//! retry's id, its ticket, its answers) and the server's (where it asks, what it hands out).

use crate::read::Message;
use crate::rounds::{End, Grouped, Joined};
use mrtr_wire::spec::{EXPIRY, PRINCIPAL, SINGLE_USE};
/// How much a finding matters, as the probe grades what got through: the keyword of the
/// sentence it breaks (MUST, SHOULD), or a note.
pub use mrtr_wire::Grade;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// One thing the transcript shows done wrong.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// How much it matters.
    pub grade: Grade,
    /// The rule's id.
    pub rule: &'static str,
    /// Who did it: `client` or `server`.
    pub side: &'static str,
    /// The operation (an index in [`Grouped::operations`]).
    /// In JSON it counts from 1, as the text report numbers operations.
    #[serde(serialize_with = "crate::rounds::one_based")]
    pub operation: usize,
    /// The transcript's line of the message that shows it.
    pub line: usize,
    /// What happened, with the values.
    pub says: String,
    /// The MRTR page's sentence.
    pub spec: &'static str,
}

const SAME_ID: &str =
    "The JSON-RPC `id` MUST be different between the initial request and the retry, as they are independent requests.";
const ECHO: &str = "If an `InputRequiredResult` contains the `requestState` field, the client MUST echo back the exact value of that field when retrying the original request.";
const NO_STATE_GIVEN: &str = "If the `InputRequiredResult` does not contain a `requestState` field, the client MUST NOT include one in the retry.";
const CONSTRUCT: &str = "If a client receives an `InputRequiredResult` that contains the `inputRequests` field, the client MUST construct the requested inputs before retrying the original request.";
const NOT_ASKED: &str = "If additional, unexpected parameters are provided in the `InputResponses` object, the server SHOULD ignore any information it does not recognize or need.";
const ELSEWHERE: &str = "Both the `inputRequests` and `requestState` fields affect only the client's retry of the original request. They MUST NOT be used for any other request that the client may be sending in parallel.";
const ONLY_THREE: &str = "Servers MUST NOT send `InputRequiredResult` responses on any other client requests.";
const ONE_OF_TWO: &str =
    "Servers MUST include at least one of `inputRequests` or `requestState` in every `InputRequiredResult` response.";
const OPAQUE_STRING: &str = "`requestState` (optional): An opaque string meaningful only to the server.";
const ROUNDS: &str = "Servers MAY choose to return an `InputRequiredResult` on multiple attempts at the same request if they want to repeatedly prompt the user for information until they have what they need to complete the request.";

/// At most the first ten keys, then how many more: a finding stays a line however many.
fn listed(keys: &[&str]) -> String {
    const SHOWN: usize = 10;
    match keys.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{} (and {more} more)", keys[..SHOWN].join(", ")),
        _ => keys.join(", "),
    }
}

/// Every finding in `grouped`, in the order of the transcript's lines. More than `max_rounds`
/// rounds in one operation is a note.
pub fn findings(messages: &[Message], grouped: &Grouped, max_rounds: usize) -> Vec<Finding> {
    let mut found = Vec::new();
    let line = |index: usize| messages[index].line;
    // Looked up rather than searched, so that a long transcript costs a look-up a round: every
    // ticket with a text, in order, and the first one handed to each principal.
    let mut by_text: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut first_to: HashMap<&str, Vec<(Option<&str>, usize)>> = HashMap::new();
    for (i, t) in grouped.tickets.iter().enumerate() {
        by_text.entry(&t.text).or_default().push(i);
        let whom = first_to.entry(&t.text).or_default();
        if !whom.iter().any(|(who, _)| *who == t.who.as_deref()) {
            whom.push((t.who.as_deref(), i));
        }
    }
    for (o, op) in grouped.operations.iter().enumerate() {
        let mut add = |grade, rule, side, line, says: String, spec| {
            found.push(Finding { grade, rule, side, operation: o, line, says, spec });
        };
        // The operation's replays, by the state they carried: the first's round, and how many.
        let mut replays: HashMap<String, (usize, usize)> = HashMap::new();
        for (r, round) in op.rounds.iter().enumerate().filter(|(_, round)| round.joined == Joined::Again) {
            let state = round.sent_state.as_ref().map(ToString::to_string).unwrap_or_default();
            replays.entry(state).or_insert((r, 0)).1 += 1;
        }
        for (r, round) in op.rounds.iter().enumerate() {
            // The client's side: a retry against the round before it.
            if let Some(before) = r.checked_sub(1).map(|b| &op.rounds[b]) {
                let at = line(round.request);
                let (first_by, by) = (&messages[op.rounds[0].request].who, &messages[round.request].who);
                if let (Some(first_by), Some(by)) = (first_by, by) {
                    if first_by != by {
                        let says = format!("the retry is sent by {by}; the request it continues, by {first_by}");
                        add(Grade::Note, "retry-other-principal", "client", at, says, PRINCIPAL);
                    }
                }
                if round.id == before.id {
                    add(
                        Grade::Must,
                        "retry-same-id",
                        "client",
                        at,
                        format!("the retry reuses id {}", round.id),
                        SAME_ID,
                    );
                }
                // A ticket sent again: said once, at its first repeat, with how many there were.
                let state = round.sent_state.as_ref().map(ToString::to_string).unwrap_or_default();
                let replay = replays.get(&state).filter(|(first, _)| *first == r && round.joined == Joined::Again);
                if let Some(&(_, repeats)) = replay {
                    let text = round.sent_state.as_ref().and_then(|s| s.as_str()).unwrap_or_default();
                    let name =
                        by_text.get(text).map_or("its ticket", |indexes| grouped.tickets[indexes[0]].name.as_str());
                    let times = if repeats == 1 { "once more".to_owned() } else { format!("{repeats} more times") };
                    let says = format!("{name} is sent {times} after a round of this operation sent it (a replay)");
                    add(Grade::Note, "ticket-sent-again", "client", at, says, SINGLE_USE);
                }
                if let End::Asked { asked, ticket, .. } = &before.end {
                    let handed = ticket.map(|t| &grouped.tickets[t]);
                    match (round.joined, handed) {
                        (Joined::ByRequest, Some(handed)) => add(
                            Grade::Must,
                            "ticket-not-echoed",
                            "client",
                            at,
                            format!("the retry's requestState is not {} byte for byte, as handed out", handed.name),
                            ECHO,
                        ),
                        (Joined::ByRequest, None) => add(
                            Grade::Must,
                            "ticket-not-issued",
                            "client",
                            at,
                            "the retry carries a requestState, where the server handed out none".into(),
                            NO_STATE_GIVEN,
                        ),
                        (Joined::ByAnswers, Some(handed)) => add(
                            Grade::Must,
                            "ticket-missing",
                            "client",
                            at,
                            format!("the retry leaves out {}, the ticket the server handed out", handed.name),
                            ECHO,
                        ),
                        _ => {}
                    }
                    // Sets, not lists: a round may ask (or answer) hundreds of thousands of keys.
                    let answered: HashSet<&str> = round.answered.iter().map(String::as_str).collect();
                    let asked_set: HashSet<&str> = asked.iter().map(String::as_str).collect();
                    let missing: Vec<&str> =
                        asked.iter().map(String::as_str).filter(|k| !answered.contains(k)).collect();
                    if !missing.is_empty() {
                        let says = format!("the retry answers no {}, which the server asked for", listed(&missing));
                        add(Grade::Must, "answer-missing", "client", at, says, CONSTRUCT);
                    }
                    let extra: Vec<&str> =
                        round.answered.iter().map(String::as_str).filter(|k| !asked_set.contains(k)).collect();
                    if !extra.is_empty() {
                        let says = format!("the retry answers {}, which the server did not ask for", listed(&extra));
                        add(Grade::Note, "answer-not-asked", "client", at, says, NOT_ASKED);
                    }
                }
            } else if let Some(state) = round.sent_state.as_ref().and_then(|s| s.as_str()) {
                // A first request with a ticket: one handed out in another operation is spent
                // on a request it does not belong to.
                let elsewhere =
                    by_text.get(state).and_then(|all| all.iter().find(|&&t| grouped.tickets[t].operation != o));
                if let Some(handed) = elsewhere.map(|&t| &grouped.tickets[t]) {
                    let (theirs, ours) = (grouped.operations[handed.operation].title(), op.title());
                    let on = if theirs == ours {
                        format!("{ours} with other arguments: {}", messages[round.request].json["params"]["arguments"])
                    } else {
                        ours
                    };
                    let says =
                        format!("{} of operation {} ({theirs}) is sent on {on}", handed.name, handed.operation + 1);
                    add(Grade::Must, "ticket-elsewhere", "client", line(round.request), says, ELSEWHERE);
                }
            }
            // The server's side: what it answered.
            let (Some(response), End::Asked { ticket, odd_state, .. }) = (round.response, &round.end) else { continue };
            let at = line(response);
            if mrtr_sim::protocol::target_member(&op.method).is_none() {
                let says = format!("{} answers input_required", op.method);
                add(Grade::Must, "asks-on-wrong-method", "server", at, says, ONLY_THREE);
            }
            let asked_nothing = matches!(&round.end, End::Asked { asked, .. } if asked.is_empty());
            if asked_nothing && ticket.is_none() && odd_state.is_none() {
                let says = "input_required with neither inputRequests nor requestState".into();
                add(Grade::Must, "asks-for-nothing", "server", at, says, ONE_OF_TWO);
            }
            if let Some(odd) = odd_state {
                let says = format!("the requestState handed out is not a string: {odd}");
                add(Grade::Must, "state-not-string", "server", at, says, OPAQUE_STRING);
            }
            if let Some(&index) = ticket.as_ref() {
                let t = &grouped.tickets[index];
                if t.claims.is_some() && t.expires_at_ms.is_none() {
                    let says = format!("{} can be read ({}), and says no expiry", t.name, t.shape);
                    add(Grade::Should, "ticket-without-expiry", "server", at, says, EXPIRY);
                }
                // The same bytes handed out earlier for someone else: nothing in it names whose it is.
                let whom = first_to.get(t.text.as_str()).map_or(&[][..], Vec::as_slice);
                let twin = whom
                    .iter()
                    .find(|(who, i)| *i < index && who.is_some() && *who != t.who.as_deref())
                    .map(|(_, i)| &grouped.tickets[*i]);
                if let (Some(twin), Some(who)) = (twin, &t.who) {
                    let other = twin.who.as_deref().unwrap_or_default();
                    let says =
                        format!("{} is the same ticket as {}, handed to {other}; this one to {who}", t.name, twin.name);
                    add(Grade::Should, "ticket-for-two-principals", "server", at, says, PRINCIPAL);
                }
            }
        }
        // Rounds the server asked for: a replayed ticket is the client's, not another round.
        let asked_rounds: Vec<_> = op.rounds.iter().filter(|r| r.joined != Joined::Again).collect();
        if asked_rounds.len() > max_rounds {
            let says = format!("{} rounds in one operation (more than {max_rounds})", asked_rounds.len());
            add(Grade::Note, "many-rounds", "server", line(asked_rounds[max_rounds].request), says, ROUNDS);
        }
    }
    found.sort_by_key(|f| (f.line, std::cmp::Reverse(f.grade)));
    found
}
