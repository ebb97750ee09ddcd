//! What each move sends, as values: one table that the lab ([`super::Situation::attempt`], on
//! its own tickets) and the probe (`mrtr_probe`, on a server's tickets, in their shape) both
//! build their lines from, so one move's id means one attack everywhere.

use super::Move;

/// The request the move sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The flow's own call, again (a retry).
    Same,
    /// The same tool with other arguments.
    OtherArguments,
    /// Another tool.
    OtherTool,
    /// Another method (a prompt or a resource).
    OtherMethod,
}

/// What goes in `requestState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ticket {
    /// The latest ticket, byte for byte.
    Same,
    /// None at all.
    Absent,
    /// An earlier round's ticket instead of the latest one.
    Earlier,
    /// This text.
    Text(&'static str),
    /// A JSON value that is not a string.
    NotAString,
    /// One megabyte of letters.
    Huge,
    /// The ticket, changed.
    Edited(Edit),
}

/// How the ticket is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// One character of the payload.
    Byte,
    /// One character of the tag.
    Tag,
    /// The tag removed.
    DropTag,
    /// The payload under another flow's tag.
    Splice,
    /// A payload value changed, the tag kept.
    Payload,
    /// A payload value changed and signed again with the attacker's key.
    Resign,
    /// The same claims in other bytes.
    Reencode,
    /// Claims the server never wrote, signed with the attacker's key.
    Forged,
}

/// What goes in `inputResponses`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answers {
    /// What the person answered.
    Given,
    /// None.
    Absent,
    /// "Yes" to every question, which nobody answered.
    Yes,
    /// The opposite of what the person answered.
    Flipped,
}

/// What a move sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sends {
    /// The request.
    pub target: Target,
    /// Its `requestState`.
    pub ticket: Ticket,
    /// Its `inputResponses`.
    pub answers: Answers,
    /// With another principal's bearer token.
    pub other_principal: bool,
    /// After the ticket's lifetime.
    pub late: bool,
    /// Sent again after it was taken.
    pub twice: bool,
}

impl Sends {
    const fn retry(ticket: Ticket) -> Sends {
        Sends {
            target: Target::Same,
            ticket,
            answers: Answers::Given,
            other_principal: false,
            late: false,
            twice: false,
        }
    }

    const fn edit(edit: Edit) -> Sends {
        Sends::retry(Ticket::Edited(edit))
    }

    const fn at(target: Target) -> Sends {
        Sends { target, ..Sends::retry(Ticket::Same) }
    }

    /// True for the honest retry's own bytes (sent later, twice, or with another token).
    pub fn is_honest_line(&self) -> bool {
        self.target == Target::Same && self.ticket == Ticket::Same && self.answers == Answers::Given
    }
}

impl Move {
    /// What this move sends.
    ///
    /// ```
    /// use mrtr_sim::moves::{Answers, Edit, Move, Ticket};
    /// let unasked = Move::UnaskedTicket.sends();
    /// assert_eq!((unasked.ticket, unasked.answers), (Ticket::Edited(Edit::Forged), Answers::Given));
    /// assert!(Move::TooLate.sends().late && Move::TooLate.sends().is_honest_line());
    /// ```
    pub const fn sends(self) -> Sends {
        match self {
            Move::Honest => Sends::retry(Ticket::Same),
            Move::TamperByte => Sends::edit(Edit::Byte),
            Move::EditPayload => Sends::edit(Edit::Payload),
            Move::ResignOtherKey => Sends::edit(Edit::Resign),
            Move::Reencode => Sends::edit(Edit::Reencode),
            Move::OtherPrincipal => Sends { other_principal: true, ..Sends::retry(Ticket::Same) },
            Move::TooLate => Sends { late: true, ..Sends::retry(Ticket::Same) },
            Move::SendTwice => Sends { twice: true, ..Sends::retry(Ticket::Same) },
            Move::OtherArguments => Sends::at(Target::OtherArguments),
            Move::OtherTool => Sends::at(Target::OtherTool),
            Move::OtherMethod => Sends::at(Target::OtherMethod),
            Move::Hello => Sends::retry(Ticket::Text("hello")),
            Move::DropTicket => Sends::retry(Ticket::Absent),
            Move::UnaskedTicket => Sends::edit(Edit::Forged),
            Move::PrefillAnswer => Sends { answers: Answers::Yes, ..Sends::retry(Ticket::Absent) },
            Move::ChangeAnswer => Sends { answers: Answers::Flipped, ..Sends::retry(Ticket::Same) },
            Move::FirstTicket => Sends::retry(Ticket::Earlier),
            Move::TamperTag => Sends::edit(Edit::Tag),
            Move::DropTag => Sends::edit(Edit::DropTag),
            Move::SpliceTag => Sends::edit(Edit::Splice),
            Move::NotAString => Sends::retry(Ticket::NotAString),
            Move::Huge => Sends::retry(Ticket::Huge),
            Move::Empty => Sends::retry(Ticket::Text("")),
        }
    }
}
