//! The report for people: the summary first, then each attack with what it changed, what
//! came back, the verdict, and for a finding what to fix and the sentence of the spec it breaks.

use super::Outcome;
use mrtr_probe::Verdict;
use std::fmt::Write;

/// The report as text.
pub fn report(outcome: &Outcome) -> String {
    let mut out = String::new();
    let flow = &outcome.flow;
    let _ = writeln!(out, "mrtr probe: {} — {} {}", outcome.target, flow.method, flow.params);
    if let Some(shape) = &outcome.report.shape {
        let _ = writeln!(out, "ticket: {}", shape.words());
    }
    let _ = writeln!(out, "summary: {}\n", outcome.report.summary.headline());
    for row in &outcome.report.rows {
        let id = row.attack.id();
        let (mark, line) = match &row.verdict {
            Verdict::Completed => ("✓", "completed: the flow works".to_owned()),
            Verdict::Passed { answered } => ("✓", format!("refused — {answered}")),
            Verdict::Finding { grade, answered, .. } => {
                let known = if row.known { " (in the baseline)" } else { "" };
                ("✗", format!("GOT THROUGH, {}{known} — {answered}", grade.word()))
            }
            Verdict::NotTested { why } => ("·", format!("not tested — {why}")),
            Verdict::Inconclusive { why } => ("?", format!("inconclusive — {why}")),
        };
        let _ = writeln!(out, "  {mark} {id:<16} {line}");
        if let Verdict::Finding { spec, .. } = &row.verdict {
            let sent = row.evidence().map_or_else(|| row.attack.by.what().to_owned(), |e| e.sent_words());
            let _ = writeln!(out, "      it sent: {sent}");
            let _ = writeln!(out, "      fix:     {}", row.attack.fix);
            let _ = writeln!(out, "      spec:    “{spec}”");
        }
    }
    let _ = write!(out, "\nsummary: {}", outcome.report.summary.headline());
    out
}
