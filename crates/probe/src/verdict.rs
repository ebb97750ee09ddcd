//! What the probe concludes about one attack, from the replies it got.

use crate::battery::{Attack, Grade};
use crate::reply::{asked, said};
use mrtr_sim::moves::Move;
use mrtr_sim::scenarios::Answered;
use serde::Serialize;
use serde_json::Value;

/// What the probe concluded about one attack.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The server refused (or asked again): what the page asks.
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
    /// The honest retry completed: the flow works.
    Completed,
    /// Not tried, and why.
    NotTested {
        /// Why.
        why: String,
    },
    /// Tried, and nothing can be concluded, with why.
    Inconclusive {
        /// Why.
        why: String,
    },
}

impl Verdict {
    /// True for a finding of the MUST grade.
    pub fn breaks_a_must(&self) -> bool {
        matches!(self, Verdict::Finding { grade: Grade::Must, .. })
    }
}

impl Attack {
    /// What the replies say about the server: the last one decides. `first_questions` are
    /// the keys of the first round's questions: a server that answers an attack with other
    /// questions took the ticket and went on to a later round; one that asks round 1's again
    /// started over, except with round 1's ticket, which it took to go back a step.
    pub(crate) fn judge(&self, replies: &[Result<Value, String>], first_questions: &[String]) -> Verdict {
        let last = replies.last().and_then(|r| r.clone().ok());
        let (answered, words) = said(last.as_ref());
        let moved_on = || {
            let questions: Vec<String> =
                asked(last.as_ref()).map(|a| a.requests.keys().cloned().collect()).unwrap_or_default();
            questions != first_questions
        };
        let through = |answered: String| Verdict::Finding { grade: self.grade, spec: self.spec, answered };
        match (self.by, answered) {
            (Move::Honest, Answered::Accepted { .. }) => Verdict::Completed,
            (Move::Honest, _) => Verdict::Inconclusive { why: format!("the honest retry did not complete: {words}") },
            (_, Answered::Accepted { .. }) => through(words),
            (Move::FirstTicket, Answered::AskedAgain) => through(format!("{words}: it took round 1's ticket again")),
            (_, Answered::AskedAgain) if moved_on() => {
                through(format!("{words}, with the next round's questions: it took the ticket"))
            }
            (_, Answered::NoResponse) => {
                let why = replies.last().and_then(|r| r.clone().err()).unwrap_or_default();
                Verdict::Inconclusive { why: format!("no response: {why}").trim_end_matches(": ").to_owned() }
            }
            _ => Verdict::Passed { answered: words },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::BATTERY;
    use serde_json::json;
    #[test]
    fn the_honest_retry_decides_whether_anything_can_be_concluded() {
        let honest = BATTERY[0];
        let done = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}});
        assert_eq!(honest.judge(&[Ok(done)], &[]), Verdict::Completed);
        let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}});
        assert!(matches!(honest.judge(&[Ok(refused.clone())], &[]), Verdict::Inconclusive { .. }));
        let tamper = BATTERY[1];
        assert!(matches!(tamper.judge(&[Ok(refused)], &[]), Verdict::Passed { .. }));
        let unreached = tamper.judge(&[Err("HTTP 413, and the body is not JSON".into())], &[]);
        assert_eq!(unreached, Verdict::Inconclusive { why: "no response: HTTP 413, and the body is not JSON".into() });
    }

    #[test]
    fn asked_again_is_taken_when_the_questions_moved_on() {
        let asking = |key: &str| {
            json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "t",
                "inputRequests": {key: {"method": "elicitation/create", "params": {"mode": "form", "message": "?",
                    "requestedSchema": {"type": "object", "properties": {}}}}}}})
        };
        let seat = ["seat".to_owned()];
        let tamper = BATTERY[1];
        assert!(matches!(tamper.judge(&[Ok(asking("seat"))], &seat), Verdict::Passed { .. }), "started over");
        assert!(matches!(tamper.judge(&[Ok(asking("confirm"))], &seat), Verdict::Finding { .. }), "went on");
        let stale = BATTERY.iter().find(|a| a.by == Move::FirstTicket).expect("in the battery");
        assert!(matches!(stale.judge(&[Ok(asking("seat"))], &seat), Verdict::Finding { .. }), "went back");
    }
}
