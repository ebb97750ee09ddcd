//! The battery: which attacks the probe plays, in what order, how strongly the MRTR page asks a
//! server to refuse each (in its own words), and what to fix when one gets through.

use mrtr_sim::moves::Move;
pub use mrtr_wire::spec;
pub use mrtr_wire::Grade;

/// What an attack does: one of the lab's moves, or the race, which only a real server has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tactic {
    /// A move of the lab's malicious client.
    Lab(Move),
    /// Five kinds of non-string in place of the ticket (null, a number, an array, an object,
    /// true), each with valid answers: the lab's move sends one, a number.
    NonStrings,
    /// Many retries of one ticket at once.
    Race,
    /// A fresh flow's round-1 ticket with a later round's answers: a server that reads the
    /// round from the answers, not from its ticket, lets a client skip a question.
    SkipRound,
}

impl Tactic {
    /// Its identifier on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Tactic::Lab(by) => by.id(),
            Tactic::NonStrings => Move::NotAString.id(),
            Tactic::Race => "race",
            Tactic::SkipRound => "skip-round",
        }
    }

    /// A label for people.
    pub fn title(self) -> &'static str {
        match self {
            Tactic::Lab(by) => by.title(),
            Tactic::NonStrings => "Not a string",
            Tactic::Race => "Race: many retries at once",
            Tactic::SkipRound => "Skip a round",
        }
    }

    /// What it does, in one sentence.
    pub fn what(self) -> &'static str {
        match self {
            Tactic::Lab(by) => by.what(),
            Tactic::NonStrings => "The retry with valid answers and, in place of the ticket, null, a number, an array, an object, true: a server that takes a non-string as no ticket lets the answers reach the tool.",
            Tactic::Race => "The honest retry sent many times at once, over every URL given: a used-ticket record that checks, then sets, lets more than one through.",
            Tactic::SkipRound => "A fresh flow's round-1 ticket sent with round 2's answers instead of round 1's: a server that reads which round it is from the answers lets a client skip a question.",
        }
    }

    /// True when it needs a ticket of the server's; the others run on a flow whose first
    /// round carries none (the answers alone, no ticket, a value in place of one, the race).
    pub fn needs_ticket(self) -> bool {
        !matches!(
            self,
            Tactic::NonStrings
                | Tactic::Race
                | Tactic::Lab(
                    Move::Honest | Move::DropTicket | Move::Hello | Move::Huge | Move::Empty | Move::SendTwice
                )
        )
    }
}

/// One attack of the battery.
#[derive(Debug, Clone, Copy)]
pub struct Attack {
    /// What it does.
    pub by: Tactic,
    /// How a server that lets it through is graded.
    pub grade: Grade,
    /// The page's words.
    pub spec: &'static str,
    /// What to fix in a server that lets it through, in one line.
    pub fix: &'static str,
}

impl Attack {
    /// The attack's identifier.
    pub fn id(&self) -> &'static str {
        self.by.id()
    }

    /// True when it is the lab move `by`.
    pub fn is(&self, by: Move) -> bool {
        self.by == Tactic::Lab(by)
    }

    /// The attack whose identifier is `id`.
    pub fn named(id: &str) -> Option<&'static Attack> {
        BATTERY.iter().find(|a| a.id() == id)
    }
}

const fn lab(by: Move, grade: Grade, spec: &'static str, fix: &'static str) -> Attack {
    Attack { by: Tactic::Lab(by), grade, spec, fix }
}

const VERIFY: &str =
    "Verify the ticket's MAC (or AEAD tag) over every byte, in constant time, before reading any claim.";
const STRING: &str =
    "Refuse a requestState that is not a non-empty string of bounded length before any answer reaches the tool.";

/// Every attack, the honest retry first: if it does not complete, the rest cannot say
/// anything and are inconclusive.
pub const BATTERY: &[Attack] = &[
    lab(Move::Honest, Grade::Must, "", ""),
    lab(Move::TamperByte, Grade::Must, spec::INTEGRITY, VERIFY),
    lab(Move::TamperTag, Grade::Must, spec::INTEGRITY, VERIFY),
    lab(Move::EditPayload, Grade::Must, spec::INTEGRITY, VERIFY),
    lab(Move::DropTag, Grade::Must, spec::INTEGRITY, "Refuse a ticket whose tag is missing or of the wrong length."),
    lab(
        Move::SpliceTag,
        Grade::Must,
        spec::INTEGRITY,
        "The tag must cover the whole payload: recompute it, never look it up.",
    ),
    lab(
        Move::ResignOtherKey,
        Grade::Must,
        spec::INTEGRITY,
        "Verify with the server's own key only; never a key or algorithm named in the ticket.",
    ),
    lab(Move::UnaskedTicket, Grade::Must, spec::INTEGRITY, VERIFY),
    lab(Move::Hello, Grade::Must, spec::INTEGRITY, VERIFY),
    Attack { by: Tactic::NonStrings, grade: Grade::Must, spec: spec::INTEGRITY, fix: STRING },
    lab(Move::Huge, Grade::Must, spec::INTEGRITY, STRING),
    lab(Move::Empty, Grade::Must, spec::INTEGRITY, STRING),
    lab(Move::Reencode, Grade::Note, spec::INTEGRITY, "Compare the ticket's bytes, not a re-parse of them."),
    lab(
        Move::OtherPrincipal,
        Grade::Should,
        spec::PRINCIPAL,
        "Authenticate every request, put the principal in the ticket and compare it on the retry.",
    ),
    lab(Move::TooLate, Grade::Should, spec::EXPIRY, "Put a short expiry in the ticket and refuse it once past."),
    lab(
        Move::OtherArguments,
        Grade::Should,
        spec::REQUEST,
        "Put a digest of the arguments in the ticket and compare it on the retry.",
    ),
    lab(
        Move::OtherTool,
        Grade::Should,
        spec::REQUEST,
        "Put the tool's name in the ticket and compare it on the retry.",
    ),
    lab(Move::OtherMethod, Grade::Should, spec::REQUEST, "Put the method in the ticket and compare it on the retry."),
    lab(
        Move::SendTwice,
        Grade::Note,
        spec::SINGLE_USE,
        "Where one use matters, record each ticket's use and refuse a second.",
    ),
    Attack {
        by: Tactic::Race,
        grade: Grade::Note,
        spec: spec::SINGLE_USE,
        fix:
            "Claim the ticket with one atomic check-and-set (SET NX, INSERT … ON CONFLICT), never a read then a write.",
    },
    lab(
        Move::FirstTicket,
        Grade::Note,
        spec::SINGLE_USE,
        "Record each round's ticket as used once the next round is issued.",
    ),
    Attack {
        by: Tactic::SkipRound,
        grade: Grade::Note,
        spec: spec::ANSWERS,
        fix: "Put the round in the ticket and take only the answers to that round's questions.",
    },
    lab(Move::DropTicket, Grade::Note, spec::ANSWERS, "Take answers only together with a ticket that asked for them."),
];
