//! A student's claim that a challenge is met, checked by replaying it: the lab sends the
//! situation (its share link's fragment), and the class server rebuilds it with the same
//! deterministic simulation the lab runs and asks the challenge's own check. Nothing the
//! page says is believed.
//!
//! ```
//! use mrtr_class::evidence::{verify, Refusal};
//! use mrtr_lab::class::Class;
//! let open = Class::default();
//! // Signing off, the price edited to 1.00: the server charges less than it quoted.
//! let met = "s=buy-ticket&m=edit-payload&p=unsigned";
//! assert_eq!(verify("charge-less", met, &open), Ok(()));
//! // The honest flow alone meets nothing.
//! assert_eq!(verify("charge-less", "s=buy-ticket&m=honest", &open), Err(Refusal::NotMet));
//! // An impossible challenge stays impossible, whatever is sent.
//! let all = "s=deploy&m=honest,tamper-byte,edit-payload,resign,other-arguments&p=signed";
//! assert_eq!(verify("staging-to-prod", all, &open), Err(Refusal::NotMet));
//! ```

use mrtr_lab::class::Class;
use mrtr_lab::share;
use mrtr_sim::challenges;
use std::fmt;

/// The longest situation a claim may carry: a share link's fragment holds an edited ticket
/// (8 KB) and a request written by hand (16 KB) at most, percent-encoded.
pub const MAX_SITUATION: usize = 64 * 1024;

/// Why a claim is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No challenge has this id.
    UnknownChallenge,
    /// The situation is longer than any the lab writes.
    TooLarge,
    /// The situation is another scenario than the challenge's.
    OtherScenario {
        /// The challenge's scenario.
        wanted: &'static str,
        /// The situation's.
        got: &'static str,
    },
    /// The class does not offer the challenge's scenario.
    NotOffered(&'static str),
    /// The situation names things the lab does not know (a forged or garbled link).
    Garbled(String),
    /// Replayed, the situation does not meet the challenge.
    NotMet,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownChallenge => f.write_str("no challenge has this id"),
            Refusal::TooLarge => write!(f, "the situation is longer than any the lab writes ({MAX_SITUATION} bytes)"),
            Refusal::OtherScenario { wanted, got } => {
                write!(f, "the challenge is played in {wanted}, and the situation is {got}")
            }
            Refusal::NotOffered(scenario) => write!(f, "this class does not offer {scenario}"),
            Refusal::Garbled(said) => write!(f, "the situation is not one the lab writes: {said}"),
            Refusal::NotMet => f.write_str("replayed here, the situation does not meet the challenge"),
        }
    }
}

/// Checks a claim that `situation` meets challenge `id`, in a class with `class`'s settings.
pub fn verify(id: &str, situation: &str, class: &Class) -> Result<(), Refusal> {
    let challenge = challenges::challenge(id).ok_or(Refusal::UnknownChallenge)?;
    if situation.len() > MAX_SITUATION {
        return Err(Refusal::TooLarge);
    }
    let lab = share::read_fragment(situation);
    if let Some(said) = lab.ignored.first() {
        return Err(Refusal::Garbled(said.clone()));
    }
    if lab.scenario != challenge.scenario {
        return Err(Refusal::OtherScenario { wanted: challenge.scenario, got: lab.scenario });
    }
    if !class.offers(lab.scenario) {
        return Err(Refusal::NotOffered(lab.scenario));
    }
    if challenge.achieved(&lab.run, lab.mode) {
        Ok(())
    } else {
        Err(Refusal::NotMet)
    }
}
