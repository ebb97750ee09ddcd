//! Challenges a student can try, each with an automatic check of the run, hints, and (for
//! the impossible ones) the reason it cannot be done, shown when the student gives up.

use crate::scenarios::Run;
use mrtr_ticket::Mode;

/// One challenge.
#[derive(Debug)]
pub struct Challenge {
    /// Its identifier (kept in the browser's progress record).
    pub id: &'static str,
    /// What to achieve.
    pub goal: &'static str,
    /// Where to start.
    pub scenario: &'static str,
    /// Hints, from gentle to blunt.
    pub hints: [&'static str; 3],
    /// When it cannot be done: why, for the student who gives up.
    pub impossible: Option<&'static str>,
    achieved: fn(&Run, Mode) -> bool,
}

impl Challenge {
    /// True when this run (under this protection) achieves the goal.
    pub fn achieved(&self, run: &Run, mode: Mode) -> bool {
        (self.achieved)(run, mode)
    }
}

/// Every challenge, in the order the lab lists them.
pub const CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "charge-less",
        goal: "Make the server charge less than it quoted for two tickets (190.00).",
        scenario: "buy-ticket",
        hints: [
            "The quoted price travels inside the ticket, and the payload is readable.",
            "Edit the price in the decoded payload and send your attempt. What stops it?",
            "Only a server that does not check the signature believes an edited price: turn signing off.",
        ],
        impossible: None,
        achieved: |run, _| {
            run.ledger.entries().iter().any(|e| e.tool == "buy_ticket" && e.cents.is_some_and(|c| c < 19_000))
        },
    },
    Challenge {
        id: "redeem-twice",
        goal: "Redeem the WELCOME10 voucher twice.",
        scenario: "voucher",
        hints: [
            "A signed ticket stays valid until it expires, however often it is shown.",
            "Send the honest retry twice. What refuses the second one?",
            "Turn the replay record off, or keep one record per replica and land the replay on the other one.",
        ],
        impossible: None,
        achieved: |run, _| run.ledger.entries().iter().filter(|e| e.tool == "redeem_voucher").count() >= 2,
    },
    Challenge {
        id: "staging-to-prod",
        goal: "With signing on, get bob's staging confirmation to deploy to prod.",
        scenario: "deploy",
        hints: [
            "The ticket holds a digest of the request: method, tool and arguments.",
            "Change the arguments to prod, or the digest in the payload. Which check fails each time?",
            "Every route to prod changes either the signed payload or the request it is bound to.",
        ],
        impossible: Some(
            "It cannot be done while the server signs. The ticket's dig member is the SHA-256 of the \
             original method and arguments (deploy, staging), so sending it with prod fails the request \
             check; editing dig to match prod changes the signed payload, so the signature check fails; \
             signing a new payload needs the server's key. A staging confirmation can only ever be spent \
             on staging.",
        ),
        achieved: |run, mode| {
            mode != Mode::Unsigned
                && run.ledger.entries().iter().any(|e| e.tool == "deploy" && e.what == "deployed to prod")
        },
    },
    Challenge {
        id: "loop-forever",
        goal: "Make the greedy server keep the client asking forever.",
        scenario: "greedy",
        hints: [
            "The greedy tool asks again after every answer, 50 rounds in all.",
            "Count the requests in the transcript.",
            "Who decides how many rounds a call may take?",
        ],
        impossible: Some(
            "It cannot be done: the client sets a round limit (3 here). After the first request and \
             three retries it stops and reports the call abandoned, whatever the server wants. A server \
             must not assume the client will ever retry, and a client must never let a server loop it.",
        ),
        achieved: |run, _| run.figure("outcome") == "complete" && run.scenario == "greedy",
    },
];

/// Finds a challenge by id.
pub fn challenge(id: &str) -> Option<&'static Challenge> {
    CHALLENGES.iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::RecordMode;
    use crate::moves::Move;
    use crate::scenarios::{self, Options};

    fn run(id: &str, options: Options) -> Run {
        scenarios::run(id, &options).expect("scenario")
    }

    #[test]
    fn the_possible_ones_are_detected() {
        let careless = run("careless", Options::default());
        assert!(challenge("charge-less").expect("c").achieved(&careless, Mode::Unsigned));
        let honest = run("buy-ticket", Options::default());
        assert!(!challenge("charge-less").expect("c").achieved(&honest, Mode::Signed));
        let twice = run("voucher", Options { record: Some(RecordMode::Off), ..Options::default() });
        assert!(challenge("redeem-twice").expect("c").achieved(&twice, Mode::Signed));
        let once = run("voucher", Options::default());
        assert!(!challenge("redeem-twice").expect("c").achieved(&once, Mode::Signed));
    }

    #[test]
    fn the_impossible_ones_stay_impossible_with_every_move() {
        let all = Options { moves: Some(Move::ALL.to_vec()), ..Options::default() };
        let deploy = run("deploy", all);
        assert!(!challenge("staging-to-prod").expect("c").achieved(&deploy, Mode::Signed));
        let greedy = run("greedy", Options::default());
        assert!(!challenge("loop-forever").expect("c").achieved(&greedy, Mode::Signed));
        assert!(CHALLENGES.iter().filter(|c| c.impossible.is_some()).count() == 2);
    }
}
