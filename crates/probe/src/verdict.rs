//! What the probe concludes about one attack, from what came back.

use crate::battery::{Attack, Grade};
use crate::why::Why;
use mrtr_wire::Outcome;
use serde::Serialize;

/// What the probe concluded about one attack.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The server refused: what the page asks.
    Passed {
        /// How it refused.
        answered: String,
    },
    /// The attack went through.
    Finding {
        /// How strongly the page asks to refuse it.
        grade: Grade,
        /// The page's words.
        spec: &'static str,
        /// What the server answered.
        answered: String,
    },
    /// The honest flow completed: the server works, and the attacks can say something.
    Completed,
    /// Not tried, and why.
    NotTested {
        /// Why.
        why: Why,
    },
    /// Tried, and nothing can be concluded, with why.
    Inconclusive {
        /// Why.
        why: Why,
    },
}

impl Verdict {
    /// True for a finding of the MUST grade.
    pub fn breaks_a_must(&self) -> bool {
        self.finding_at_least(Grade::Must)
    }

    /// True for a finding of grade `at_least` or stronger.
    pub fn finding_at_least(&self, at_least: Grade) -> bool {
        matches!(self, Verdict::Finding { grade, .. } if *grade >= at_least)
    }

    /// The verdict's kind in one word: `passed`, `finding`, `completed`, `not-tested`, `inconclusive`.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Passed { .. } => "passed",
            Verdict::Finding { .. } => "finding",
            Verdict::Completed => "completed",
            Verdict::NotTested { .. } => "not-tested",
            Verdict::Inconclusive { .. } => "inconclusive",
        }
    }

    /// Every attack's verdict when the honest flow did not complete: nothing can be concluded.
    pub fn after_honest(honest: &Verdict) -> Option<Verdict> {
        match honest {
            Verdict::Completed => None,
            Verdict::Inconclusive { why } | Verdict::NotTested { why } => {
                Some(Verdict::Inconclusive { why: Why::HonestFailed(Box::new(why.clone())) })
            }
            other => Some(Verdict::Inconclusive { why: Why::HonestFailedAs(other.kind()) }),
        }
    }
}

impl Attack {
    /// A finding of this attack's grade.
    pub(crate) fn through(&self, answered: String) -> Verdict {
        Verdict::Finding { grade: self.grade, spec: self.spec, answered }
    }

    /// What one reply to a line that carried an attacker's ticket (and valid answers) says:
    /// taken when the call completed, reached the tool, or moved on to other questions than
    /// `asked_keys`; refused when the server refused it or asked the same questions again;
    /// inconclusive when the answer is about something else (authentication, rate, failure).
    /// Every attack's target was shown to exist first (the honest flow, or the attack's own
    /// control), so an answer that says it does not exist refused this request.
    pub(crate) fn judge_taken(&self, outcome: &Outcome, asked_keys: &[String]) -> Verdict {
        let words = outcome.words();
        match outcome {
            Outcome::Completed { .. } | Outcome::ToolError { .. } => self.through(words),
            Outcome::Asked { keys } if keys.as_slice() != asked_keys => {
                self.through(format!("{words}: other questions than before, so it took the ticket"))
            }
            Outcome::Asked { .. } => Verdict::Passed { answered: format!("{words} again: it did not take the ticket") },
            Outcome::Refused { .. } => Verdict::Passed { answered: words },
            Outcome::Elsewhere { routing: true, .. } => Verdict::Passed {
                answered: format!(
                    "{words}, though a fresh flow showed the target exists: refused for this request's state"
                ),
            },
            Outcome::Elsewhere { .. } | Outcome::Nothing { .. } => {
                Verdict::Inconclusive { why: Why::Answer(outcome.clone()) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::BATTERY;

    #[test]
    fn only_a_refusal_of_the_ticket_passes() {
        let tamper = BATTERY[1];
        let keys = ["ok".to_owned()];
        let refused = Outcome::Refused { code: -32602, message: "Invalid requestState".into(), check: None };
        assert!(matches!(tamper.judge_taken(&refused, &keys), Verdict::Passed { .. }));
        let tool = Outcome::ToolError { text: "card declined".into() };
        assert!(tamper.judge_taken(&tool, &keys).breaks_a_must(), "a tool error came after the ticket was taken");
        let again = Outcome::Asked { keys: keys.to_vec() };
        assert!(matches!(tamper.judge_taken(&again, &keys), Verdict::Passed { .. }));
        let on = Outcome::Asked { keys: vec!["confirm".into()] };
        assert!(tamper.judge_taken(&on, &keys).breaks_a_must(), "went on to the next round");
        let auth = Outcome::Elsewhere { why: "HTTP 401".into(), routing: false, status: Some(401) };
        assert!(matches!(tamper.judge_taken(&auth, &keys), Verdict::Inconclusive { .. }));
    }
}
