//! The trace: everything that happened, in order, with its virtual time. The lab renders
//! it (sequence diagram, timeline, raw transcript); the runner prints it.

use crate::ledger::Entry;
use mrtr_ticket::Report;
use serde::Serialize;

/// Who did something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    /// The MCP client (honest or not).
    Client,
    /// The load balancer in front of the replicas.
    Balancer,
    /// Replica A.
    ReplicaA,
    /// Replica B.
    ReplicaB,
    /// The person answering questions.
    Person,
    /// The ledger of side effects.
    Ledger,
}

impl Actor {
    /// Every actor, in the order of the sequence diagram's lanes.
    pub const ALL: [Actor; 6] =
        [Actor::Client, Actor::Balancer, Actor::ReplicaA, Actor::ReplicaB, Actor::Person, Actor::Ledger];

    /// A name for people.
    pub fn name(self) -> &'static str {
        match self {
            Actor::Client => "client",
            Actor::Balancer => "balancer",
            Actor::ReplicaA => "replica A",
            Actor::ReplicaB => "replica B",
            Actor::Person => "person",
            Actor::Ledger => "ledger",
        }
    }
}

/// What kind of thing happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A JSON-RPC request on the wire.
    Request,
    /// The balancer chose a replica.
    Route,
    /// A JSON-RPC response on the wire.
    Response,
    /// The client showed a question to the person.
    Ask,
    /// The person answered.
    Answer,
    /// A replica ran the ticket checks.
    Checks,
    /// A side effect went into the ledger.
    Effect,
    /// The clock moved.
    Clock,
    /// Something failed outside the protocol: a replica down, a timeout, a lost call.
    Fault,
    /// A remark for the reader.
    Note,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Position in the trace, from 0.
    pub seq: usize,
    /// Virtual time, ms.
    pub at_ms: u64,
    /// Who did it.
    pub from: Actor,
    /// Who it went to (the same actor for things that stay in one place).
    pub to: Actor,
    /// What kind of thing.
    pub kind: Kind,
    /// One line for people.
    pub summary: String,
    /// The exact JSON-RPC line, for requests and responses.
    pub line: Option<String>,
    /// The ticket checks, for [`Kind::Checks`].
    pub checks: Option<Report>,
    /// The ledger entry, for [`Kind::Effect`].
    pub effect: Option<Entry>,
    /// True for messages of the earlier era (before 2026-07-28), which its schema does not describe.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub earlier_era: bool,
}

/// The longest line for people an event or a verdict keeps, in characters: a server that
/// echoes a pasted megabyte (an unknown tool's name, say) makes a line, not a book, in every
/// view of it. The exact wire line is kept whole beside it.
pub const LONGEST_LINE: usize = 300;

/// `text` as a line for people: whole when it is at most [`LONGEST_LINE`] characters, else
/// cut there and ended with an ellipsis ([`crate::text::clip`]).
pub fn line_for_people(text: String) -> String {
    crate::text::clip(text, LONGEST_LINE)
}

/// Everything that happened, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// The events.
    pub events: Vec<Event>,
    /// Every ticket a server handed out so far, in order: what [`Trace::ticket_name`] counts.
    #[serde(skip)]
    tickets: Vec<String>,
}

impl Trace {
    /// Names a ticket a server just handed out, `T1`, `T2`, … in the order they were given.
    pub fn name_new_ticket(&mut self, ticket: &str) -> String {
        if !self.tickets.iter().any(|t| t == ticket) {
            self.tickets.push(ticket.to_owned());
        }
        self.ticket_name(ticket)
    }

    /// The name of a ticket a client sent: `T1` for the first one a server gave, and so on,
    /// or `(never issued)` for a string no server gave (an edit, a forgery).
    pub fn ticket_name(&self, ticket: &str) -> String {
        match self.tickets.iter().position(|t| t == ticket) {
            Some(i) => format!("T{}", i + 1),
            None => "(never issued)".to_owned(),
        }
    }

    /// Appends an event and returns its position.
    pub fn push(&mut self, at_ms: u64, from: Actor, to: Actor, kind: Kind, summary: impl Into<String>) -> usize {
        self.push_line(at_ms, from, to, kind, summary.into())
    }

    /// [`Trace::push`] once, whatever the summary was made from.
    fn push_line(&mut self, at_ms: u64, from: Actor, to: Actor, kind: Kind, summary: String) -> usize {
        let seq = self.events.len();
        self.events.push(Event {
            seq,
            at_ms,
            from,
            to,
            kind,
            summary: line_for_people(summary),
            line: None,
            checks: None,
            effect: None,
            earlier_era: false,
        });
        seq
    }

    /// Appends a wire message.
    pub fn wire(&mut self, at_ms: u64, from: Actor, to: Actor, kind: Kind, summary: impl Into<String>, line: String) {
        let seq = self.push(at_ms, from, to, kind, summary);
        self.events[seq].line = Some(line);
    }

    /// Appends a side effect: `from` wrote `entry` into the ledger.
    pub fn effect(&mut self, at_ms: u64, from: Actor, entry: Entry) {
        let seq = self.push(at_ms, from, Actor::Ledger, Kind::Effect, entry.what.clone());
        self.events[seq].effect = Some(entry);
    }

    /// Appends a wire message of the earlier era.
    pub fn wire_earlier_era(
        &mut self,
        at_ms: u64,
        from: Actor,
        to: Actor,
        kind: Kind,
        summary: impl Into<String>,
        line: String,
    ) {
        self.wire(at_ms, from, to, kind, summary, line);
        if let Some(event) = self.events.last_mut() {
            event.earlier_era = true;
        }
    }

    /// Every wire line in order, with its direction: what "run it raw" prints.
    pub fn raw_lines(&self) -> impl Iterator<Item = (&Event, &str)> {
        self.events.iter().filter_map(|e| e.line.as_deref().map(|l| (e, l)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_for_people_keeps_a_short_text_and_cuts_a_long_one_at_a_character() {
        assert_eq!(line_for_people("deployed to staging".into()), "deployed to staging");
        let exact = "n".repeat(LONGEST_LINE);
        assert_eq!(line_for_people(exact.clone()), exact);
        let echoed = format!("Unknown tool: {}", "é".repeat(1 << 19));
        let line = line_for_people(echoed);
        assert!(line.chars().count() == LONGEST_LINE && line.ends_with("é…"), "{} characters", line.chars().count());
        let mut trace = Trace::default();
        trace.push(0, Actor::Client, Actor::Client, Kind::Clock, "x".repeat(1 << 20));
        assert_eq!(trace.events[0].summary.len(), LONGEST_LINE - 1 + '…'.len_utf8());
    }
}
