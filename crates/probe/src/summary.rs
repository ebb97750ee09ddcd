//! A battery's results in one sentence and one exit code: the honest flow first, then the
//! findings by grade, then what could not be concluded and why.

use crate::battery::{Attack, Grade};
use crate::verdict::Verdict;
use serde::Serialize;

/// The exit codes of a probe run, documented in the README.
pub mod exit {
    /// No finding at the failing grade, and the honest flow worked.
    pub const CLEAN: u8 = 0;
    /// A finding at the failing grade (MUST unless `--fail-on` says otherwise) not in the baseline.
    pub const FINDING: u8 = 1;
    /// Nothing could be concluded: the honest flow did not complete, or nothing was testable.
    pub const INCONCLUSIVE: u8 = 2;
    /// A usage error, or a server that cannot be reached.
    pub const USAGE: u8 = 3;
}

/// The counts of a battery's verdicts, and why nothing could be concluded where that is so.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Whether the honest flow completed.
    pub honest_completed: bool,
    /// Attacks refused.
    pub passed: usize,
    /// Findings of the MUST grade.
    pub must: usize,
    /// Findings of the SHOULD grade.
    pub should: usize,
    /// Findings of the NOTE grade.
    pub note: usize,
    /// Findings already in the baseline (counted above too).
    pub known: usize,
    /// Attacks not tested.
    pub not_tested: usize,
    /// Attacks tried without a conclusion.
    pub inconclusive: usize,
    /// Why the run as a whole is inconclusive, when it is.
    pub reason: Option<String>,
}

impl Summary {
    /// Counts `results` (the honest flow's first); `known(attack)` says which findings a
    /// baseline already holds.
    pub fn of(results: &[(&Attack, Verdict)], known: impl Fn(&Attack) -> bool) -> Summary {
        let mut summary = Summary::default();
        for (attack, verdict) in results {
            match verdict {
                Verdict::Completed => summary.honest_completed = true,
                Verdict::Passed { .. } => summary.passed += 1,
                Verdict::Finding { grade, .. } => {
                    *match grade {
                        Grade::Must => &mut summary.must,
                        Grade::Should => &mut summary.should,
                        Grade::Note => &mut summary.note,
                    } += 1;
                    summary.known += usize::from(known(attack));
                }
                Verdict::NotTested { .. } => summary.not_tested += 1,
                Verdict::Inconclusive { .. } => summary.inconclusive += 1,
            }
        }
        let honest = results.iter().find(|(a, _)| a.is(mrtr_sim::moves::Move::Honest)).map(|(_, v)| v);
        summary.reason = match honest {
            Some(Verdict::Completed) if results.len() == 1 => Some("only the honest flow was run".into()),
            Some(Verdict::Completed) if summary.passed + summary.findings() == 0 => {
                Some("no attack could be tested on this server".into())
            }
            Some(Verdict::Completed) => None,
            Some(Verdict::Inconclusive { why } | Verdict::NotTested { why }) => {
                Some(format!("the honest flow did not complete: {why}"))
            }
            Some(_) | None => Some("the honest flow was not run".into()),
        };
        summary
    }

    /// All findings.
    pub fn findings(&self) -> usize {
        self.must + self.should + self.note
    }

    /// The exit code: findings at `fail_on` or stronger that are not known fail the run.
    pub fn exit_code(&self, results: &[(&Attack, Verdict)], fail_on: Grade, known: impl Fn(&Attack) -> bool) -> u8 {
        let failing = results.iter().any(|(attack, verdict)| verdict.finding_at_least(fail_on) && !known(attack));
        match (&self.reason, failing) {
            (_, true) => exit::FINDING,
            (Some(_), false) => exit::INCONCLUSIVE,
            (None, false) => exit::CLEAN,
        }
    }

    /// The summary in one line, the most important first.
    pub fn headline(&self) -> String {
        if let Some(reason) = &self.reason {
            return format!("inconclusive: {reason}");
        }
        let mut parts = Vec::new();
        if self.findings() == 0 {
            parts.push("passed: no attack got through".to_owned());
        } else {
            parts.push(format!(
                "{} MUST, {} SHOULD, {} NOTE finding{}",
                self.must,
                self.should,
                self.note,
                if self.findings() == 1 { "" } else { "s" }
            ));
        }
        if self.known > 0 {
            parts.push(format!("{} already in the baseline", self.known));
        }
        parts.push(format!("{} refused", self.passed));
        if self.not_tested > 0 {
            parts.push(format!("{} not tested", self.not_tested));
        }
        if self.inconclusive > 0 {
            parts.push(format!("{} inconclusive", self.inconclusive));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::BATTERY;

    #[test]
    fn a_run_whose_honest_flow_failed_says_so_first_and_exits_2() {
        let answer = mrtr_wire::Outcome::Elsewhere {
            why: "HTTP 401 (not authenticated)".into(),
            routing: false,
            status: Some(401),
        };
        let refused = Verdict::Inconclusive { why: crate::Why::Answer(answer) };
        let results =
            vec![(&BATTERY[0], refused.clone()), (&BATTERY[1], Verdict::after_honest(&refused).expect("gated"))];
        let summary = Summary::of(&results, |_| false);
        assert!(summary.headline().starts_with("inconclusive: the honest flow did not complete: HTTP 401"));
        assert_eq!(summary.exit_code(&results, Grade::Must, |_| false), exit::INCONCLUSIVE);
    }

    #[test]
    fn a_run_where_nothing_was_tested_is_inconclusive_not_clean() {
        let untested = Verdict::NotTested { why: crate::Why::Unfit { shape: "JSON".into(), lacks: crate::Lacks::Tag } };
        let results = vec![(&BATTERY[0], Verdict::Completed), (&BATTERY[2], untested)];
        let summary = Summary::of(&results, |_| false);
        assert_eq!(summary.headline(), "inconclusive: no attack could be tested on this server");
        assert_eq!(summary.exit_code(&results, Grade::Must, |_| false), exit::INCONCLUSIVE);
    }

    #[test]
    fn findings_fail_at_their_grade_unless_the_baseline_knows_them() {
        let should = Verdict::Finding { grade: Grade::Should, spec: "", answered: "completed".into() };
        let results = vec![(&BATTERY[0], Verdict::Completed), (&BATTERY[13], should)];
        let summary = Summary::of(&results, |_| false);
        assert_eq!(summary.exit_code(&results, Grade::Must, |_| false), exit::CLEAN);
        assert_eq!(summary.exit_code(&results, Grade::Should, |_| false), exit::FINDING);
        assert_eq!(summary.exit_code(&results, Grade::Should, |_| true), exit::CLEAN, "known");
        assert_eq!(summary.headline(), "0 MUST, 1 SHOULD, 0 NOTE finding; 0 refused");
    }
}
