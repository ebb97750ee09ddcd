//! The malicious client, as data: named moves applied to a retry (turmoil's faults-as-data).
//!
//! Each move starts from one [`Situation`]: the first call, the `input_required` answer with
//! its ticket, and the person's answers. Every move is a separate attempt on that ticket, at
//! its own time on the clock. What each move is called and shows is one table (below); what it
//! sends is another, as values ([`Move::sends`]), which the lab builds into lines with
//! [`Situation::attempt`] and the probe with a server's tickets; how it mangles a ticket is
//! `forgery.rs`.

mod forgery;
mod sends;
mod situation;

pub use forgery::{
    edited_keeping_tag, flip_char_at, flip_one_char, flip_tag_char, forged_with_attacker_key, reencoded,
    resign_with_attacker_key, with_tag_of, without_tag,
};
pub use sends::{Answers, Edit, Sends, Target, Ticket};
pub use situation::{Attempt, OwnAttempt, Situation};

use serde::{Deserialize, Serialize};

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
    /// A request carrying a ticket the server never issued (made-up claims), with the answers.
    UnaskedTicket,
    /// A first call with the answer already filled in, and no ticket.
    PrefillAnswer,
    /// Send the opposite of what the person answered.
    ChangeAnswer,
    /// Send the latest round's answers with round 1's ticket instead of the latest one.
    FirstTicket,
    /// Change one character of the ticket's tag.
    TamperTag,
    /// Send the ticket without its tag.
    DropTag,
    /// This ticket's payload under the tag of another flow's ticket.
    SpliceTag,
    /// A number where the ticket should be.
    NotAString,
    /// A one-megabyte string where the ticket should be.
    Huge,
    /// An empty string where the ticket should be.
    Empty,
}

/// What the lab shows of a move, and when it plays it.
struct Row {
    /// Its identifier on the command line and in URLs.
    id: &'static str,
    /// A label for a button.
    title: &'static str,
    /// What the move does, in one sentence.
    what: &'static str,
    /// When the lab plays it, seconds after the ticket was minted (the lesson's timeline).
    at_s: u64,
}

/// One row per move, in the order of [`Move`]'s variants.
const ROWS: [Row; 23] = [
    Row {
        id: "honest",
        title: "Honest retry",
        what: "New id, the person's answer in inputResponses, requestState byte for byte.",
        at_s: 8,
    },
    Row {
        id: "tamper-byte",
        title: "Change one character",
        what: "The honest retry with one character of the ticket's payload (a sealed ticket's nonce) changed.",
        at_s: 10,
    },
    Row {
        id: "edit-payload",
        title: "Tamper: edit the payload",
        what: "Decode the readable payload, change a value (staging to prod, the price to 1.0), keep the old signature; a sealed box, unreadable, is changed blind.",
        at_s: 12,
    },
    Row {
        id: "resign",
        title: "Re-sign with another key",
        what: "The same edit, then a fresh signature (or seal) made with the attacker's own key.",
        at_s: 14,
    },
    Row {
        id: "re-encode",
        title: "Re-encode the ticket",
        what: "An honest client that tidies the ticket: it decodes the payload and writes the same claims back as pretty-printed JSON (a sealed one it can only re-encode as standard base64), and keeps the tag. Same meaning, other bytes.",
        at_s: 18,
    },
    Row {
        id: "other-principal",
        title: "alice replays bob's ticket",
        what: "alice got hold of bob's ticket and sends the retry with her own bearer token.",
        at_s: 20,
    },
    Row {
        id: "too-late",
        title: "Too late (5 minutes)",
        what: "bob sends the honest retry 5 minutes after the ticket was minted; it lives 120 s.",
        at_s: 300,
    },
    Row {
        id: "send-twice",
        title: "Send the honest retry twice",
        what: "The honest retry again, same ticket and answers: a replay of a request that already worked (played first, it is sent twice).",
        at_s: 40,
    },
    Row {
        id: "other-arguments",
        title: "Spend on another request",
        what: "The ticket attached to the same tool with other arguments: a deploy to prod instead of staging, 20 tickets instead of 2, another flight.",
        at_s: 30,
    },
    Row {
        id: "other-tool",
        title: "Spend on another tool",
        what: "The ticket attached to a call of a different tool.",
        at_s: 32,
    },
    Row {
        id: "other-method",
        title: "Spend on another method",
        what: "The ticket attached to a prompts/get request.",
        at_s: 34,
    },
    Row {
        id: "hello",
        title: "Send \"hello\"",
        what: "The word hello where the ticket should be.",
        at_s: 45,
    },
    Row {
        id: "drop-ticket",
        title: "Drop the ticket",
        what: "The answers without the ticket: the server has nothing to continue from.",
        at_s: 50,
    },
    Row {
        id: "unasked-ticket",
        title: "Ticket nobody asked for",
        what: "A ticket the client made up, signed (or sealed) with its own key, sent with the answers.",
        at_s: 0,
    },
    Row {
        id: "prefill-answer",
        title: "Forged answer, no ticket",
        what: "A first call with inputResponses already saying yes: nothing was asked yet.",
        at_s: 0,
    },
    Row {
        id: "change-answer",
        title: "Change the person's answer",
        what: "The person answered one thing; the client sends the opposite.",
        at_s: 55,
    },
    Row {
        id: "first-ticket",
        title: "Echo round 1's ticket",
        what: "The latest answers with the ticket from round 1, as a client that kept the first requestState. In a one-round flow round 1's ticket is the latest.",
        at_s: 16,
    },
    Row { id: "tamper-tag", title: "Change the tag", what: "The honest retry with one character of the tag changed.", at_s: 11 },
    Row { id: "drop-tag", title: "Remove the tag", what: "The ticket cut after its last dot: the payload with no tag.", at_s: 13 },
    Row { id: "splice-tag", title: "Another flow's tag", what: "This ticket's payload under the tag of another ticket the server gave.", at_s: 15 },
    Row { id: "not-a-string", title: "A number", what: "The number 1 where the ticket should be.", at_s: 46 },
    Row { id: "huge", title: "One megabyte", what: "A string of 1,000,000 letters where the ticket should be.", at_s: 47 },
    Row { id: "empty", title: "Empty", what: "An empty string where the ticket should be.", at_s: 48 },
];

impl Move {
    /// Every move, in the order the lab lists them.
    pub const ALL: [Move; 23] = [
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
        Move::TamperTag,
        Move::DropTag,
        Move::SpliceTag,
        Move::NotAString,
        Move::Huge,
        Move::Empty,
    ];

    fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// Its identifier on the command line and in URLs.
    pub fn id(self) -> &'static str {
        self.row().id
    }

    /// A label for a button.
    pub fn title(self) -> &'static str {
        self.row().title
    }

    /// What the move does, in one sentence.
    pub fn what(self) -> &'static str {
        self.row().what
    }

    /// When the lab plays it, seconds after the ticket was minted (the lesson's timeline).
    pub fn default_at_s(self) -> u64 {
        self.row().at_s
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

    #[test]
    fn every_move_has_its_own_row() {
        for (i, by) in Move::ALL.into_iter().enumerate() {
            assert_eq!(by as usize, i);
        }
        let mut ids: Vec<&str> = ROWS.iter().map(|row| row.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ROWS.len());
        assert_eq!((Move::ResignOtherKey.id(), Move::TooLate.default_at_s()), ("resign", 300));
    }
}
