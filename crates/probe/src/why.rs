//! Why an attack was not tested, or why nothing could be concluded: every reason the probe
//! gives, as a value, worded here and nowhere else. Drivers and tests match the variants; a
//! report shows the words ([`Why`]'s `Display`, which is also how it serializes).

use mrtr_wire::Outcome;
use serde::{Serialize, Serializer};
use std::fmt;

/// What a ticket lacks for an edit to be made in its own shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lacks {
    /// No character whose change leaves it well-formed.
    Character,
    /// No tag apart from its body.
    Tag,
    /// No payload readable without the server's key.
    Payload,
    /// No readable payload and tag to forge a signature over.
    PayloadAndTag,
    /// No other ticket of its kind to make.
    Forgery,
    /// No other spelling of the same bytes.
    Spelling,
}

impl Lacks {
    fn words(self) -> &'static str {
        match self {
            Lacks::Character => "no character to change that leaves it well-formed",
            Lacks::Tag => "no tag apart from its body",
            Lacks::Payload => "no payload readable without the key",
            Lacks::PayloadAndTag => "no readable payload and tag to forge",
            Lacks::Forgery => "no other ticket of its kind to make",
            Lacks::Spelling => "no other spelling of the same bytes",
        }
    }
}

/// What a 401 for the honest flow means, from the tokens the run was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenHint {
    /// No token was given: give one.
    GiveOne,
    /// The token given was refused.
    Refused,
}

/// Why an attack was not tested ([`crate::Verdict::NotTested`]) or is inconclusive
/// ([`crate::Verdict::Inconclusive`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    // ---- not tested ----------------------------------------------------------------------
    /// Over stdio the server decides who speaks: no token to change.
    NoTokenOverStdio,
    /// `tools/list` names no other tool.
    NoOtherTool,
    /// Nothing is listed under another method.
    NoOtherMethod,
    /// The tool's schema gives no other arguments it accepts.
    NoOtherArguments,
    /// `--second-token` was not given.
    NeedsSecondToken,
    /// The second token does not start a flow of its own (a mistyped token's 401, say).
    SecondTokenStartsNothing(Outcome),
    /// The attack's target completes without asking: a ticket spent on it proves nothing.
    TargetCompletes {
        /// `method "name"`.
        target: String,
    },
    /// The attack's target does not work on a fresh flow.
    TargetFails {
        /// `method "name"`.
        target: String,
        /// What it answered.
        answer: Outcome,
    },
    /// The flow completed without any round carrying a ticket.
    NeverATicket {
        /// How it ended.
        answer: Outcome,
        /// The rounds it asked without one.
        rounds: usize,
    },
    /// The flow kept asking without a ticket for as many rounds as the probe plays.
    NoTicketYet {
        /// The rounds without one.
        rounds: usize,
    },
    /// The round after the ticket's asks the same questions: a replay cannot be told apart.
    SameQuestionsNext,
    /// No round follows the ticket's.
    NoLaterRound {
        /// Rounds answered before the ticket came (0: it came with the first).
        before_ticket: usize,
        /// How the honest retry ended.
        answer: Outcome,
    },
    /// `--wait-expiry` was not given.
    ExpiryNotWaited,
    /// The ticket does not say when it expires, and `--ttl` was not given.
    ExpiryUnknown {
        /// The ticket's shape in words.
        shape: String,
    },
    /// The ticket lives longer than the probe waits.
    LivesTooLong {
        /// Its lifetime, s.
        seconds: u64,
        /// The longest the probe waits, s.
        most: u64,
    },
    /// The ticket's shape has no room for this edit.
    Unfit {
        /// The ticket's shape in words.
        shape: String,
        /// What it lacks.
        lacks: Lacks,
    },
    /// The tag is empty: the server signs nothing.
    EmptyTag,
    /// Every other flow got this very ticket: no other tag to splice.
    SameTicketEverywhere,
    /// A lab move that is not one of the probe's attacks.
    NotAProbeAttack,
    // ---- inconclusive --------------------------------------------------------------------
    /// The answer says nothing about the ticket (authentication, routing, rate, a failure).
    Answer(Outcome),
    /// A 401 for the honest flow, and what to do about it.
    Unauthenticated {
        /// The answer.
        answer: Outcome,
        /// Whether to give a token or another one.
        hint: TokenHint,
    },
    /// The call did not ask for input.
    NotAsking(Outcome),
    /// The flow still asked after the most rounds the probe plays.
    StillAsking {
        /// The rounds played.
        rounds: usize,
    },
    /// The honest retry did not complete.
    HonestIncomplete(Outcome),
    /// A fresh flow did not ask with a ticket.
    FreshWithoutTicket(Outcome),
    /// The first of two sends was not taken, so the second says nothing.
    FirstSendNotTaken(Outcome),
    /// A race where none, or one with some unanswered, was taken.
    Race {
        /// Retries taken.
        taken: usize,
        /// Retries refused.
        refused: usize,
        /// Retries sent.
        sent: usize,
    },
    /// One of several values sent in the ticket's place, and why it says nothing.
    Value {
        /// The value, in words.
        value: &'static str,
        /// Why.
        why: Box<Why>,
    },
    /// The honest flow did not complete, so no attack can say anything.
    HonestFailed(Box<Why>),
    /// The honest flow did not complete, with the verdict it got.
    HonestFailedAs(&'static str),
    /// A driver's own account (replicas that work alone, a server of another revision).
    Said(String),
    /// The driver gave a reply the attack did not ask for.
    OutOfTurn(&'static str),
}

impl Why {
    /// True for a 401 (or a reason built on one): the server wants a token.
    pub fn is_unauthenticated(&self) -> bool {
        match self {
            Why::Unauthenticated { .. } => true,
            Why::Answer(outcome) => outcome.is_unauthenticated(),
            Why::HonestFailed(inner) | Why::Value { why: inner, .. } => inner.is_unauthenticated(),
            _ => false,
        }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::NoTokenOverStdio => {
                f.write_str("over stdio the server decides who speaks: there is no token to change")
            }
            Why::NoOtherTool => f.write_str("the server lists no other tool to spend the ticket on (tools/list)"),
            Why::NoOtherMethod => f.write_str("the server lists no prompt, resource or tool under another method"),
            Why::NoOtherArguments => {
                f.write_str("no other arguments are known that the tool accepts (its input schema)")
            }
            Why::NeedsSecondToken => f.write_str("needs a second principal's token (--second-token)"),
            Why::SecondTokenStartsNothing(answer) => {
                write!(f, "the second token does not start a flow of its own: {}", answer.words())
            }
            Why::TargetCompletes { target } => {
                write!(f, "{target} completes without asking, so a ticket spent on it proves nothing")
            }
            Why::TargetFails { target, answer } => {
                write!(f, "{target} does not work on a fresh flow: {}", answer.words())
            }
            Why::NeverATicket { answer, rounds } => write!(
                f,
                "no round carries a requestState: the flow {} after {rounds} rounds without one",
                answer.words()
            ),
            Why::NoTicketYet { rounds } => write!(
                f,
                "none of the first {rounds} rounds carries a requestState: there is no ticket of the server's to attack"
            ),
            Why::SameQuestionsNext => {
                f.write_str("the next round asks the same questions as the ticket's: a replay cannot be told apart")
            }
            Why::NoLaterRound { before_ticket: 0, answer } => {
                write!(f, "the flow has one round: the honest retry {}", answer.words())
            }
            Why::NoLaterRound { before_ticket, answer } => write!(
                f,
                "no round follows round {}, the first with a ticket: the honest retry {}",
                before_ticket + 1,
                answer.words()
            ),
            Why::ExpiryNotWaited => f.write_str("waiting out the ticket's lifetime is not asked for (--wait-expiry)"),
            Why::ExpiryUnknown { shape } => {
                write!(f, "{shape} does not say when it expires: give its lifetime (--ttl)")
            }
            Why::LivesTooLong { seconds, most } => {
                write!(f, "the ticket lives {seconds} s, longer than the probe waits ({most} s)")
            }
            Why::Unfit { shape, lacks } => write!(f, "{shape} has {}", lacks.words()),
            Why::EmptyTag => f.write_str("its tag is empty: the server signs nothing, so there is no tag to change"),
            Why::SameTicketEverywhere => {
                f.write_str("every other flow got this very ticket: there is no other tag to splice")
            }
            Why::NotAProbeAttack => f.write_str("not one of the probe's attacks"),
            Why::Answer(answer) => f.write_str(&answer.words()),
            Why::Unauthenticated { answer, hint } => write!(
                f,
                "{}{}",
                answer.words(),
                match hint {
                    TokenHint::GiveOne =>
                        "; it wants a bearer token: give one (mrtr probe --token, or the page's token field)",
                    TokenHint::Refused => "; the bearer token given was refused",
                }
            ),
            Why::NotAsking(answer) => write!(f, "the call did not ask for input: {}", answer.words()),
            Why::StillAsking { rounds } => write!(f, "the flow still asked after {rounds} honest rounds"),
            Why::HonestIncomplete(answer) => write!(f, "the honest retry did not complete: {}", answer.words()),
            Why::FreshWithoutTicket(answer) => {
                write!(f, "a fresh flow did not ask with a ticket: {}", answer.words())
            }
            Why::FirstSendNotTaken(answer) => write!(f, "the first send was not taken: {}", answer.words()),
            Why::Race { taken, refused, sent } => {
                let unclear = sent - taken - refused;
                let counts = format!("{taken} of {sent} taken, {refused} refused, {unclear} unanswered");
                if *taken == 0 {
                    write!(f, "none of the retries completed: {counts}")
                } else {
                    f.write_str(&counts)
                }
            }
            Why::Value { value, why } => write!(f, "{value}: {why}"),
            Why::HonestFailed(why) => write!(f, "the honest flow did not complete ({why})"),
            Why::HonestFailedAs(kind) => write!(f, "the honest flow did not complete ({kind})"),
            Why::Said(words) => f.write_str(words),
            Why::OutOfTurn(what) => write!(f, "{what} came when the attack did not ask for it"),
        }
    }
}

impl Serialize for Why {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
