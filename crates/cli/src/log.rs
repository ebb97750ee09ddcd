//! What a real server prints on stderr for each line it answers, as `mrtr sim` prints a
//! scenario: every line in and out with its direction and replica, and under a retry the
//! checks its ticket went through, each with the values compared, and what the tool did.

use crate::service::Exchange;
use std::io::Write;

/// Writes one exchange: the request, the ticket checks (when a ticket came), the server's
/// notes, and the response.
pub fn exchange(out: &mut impl Write, replica: &str, request: &str, exchange: &Exchange) {
    let when = clock(exchange.at_ms);
    let _ = writeln!(out, "{when}  C->S {replica:<9}  [{}] {}", exchange.principal, shown(request));
    if let Some(report) = &exchange.handled.checks {
        for step in &report.steps {
            let _ = writeln!(out, "{:>12}    {} {}: {}", "", step.mark, step.label, step.detail);
        }
    }
    if let Some(answers) = &exchange.handled.answers {
        let _ = writeln!(out, "{:>12}    {} answers: {}", "", if answers.passed { "✓" } else { "✗" }, answers.detail);
    }
    for effect in exchange.effects.entries() {
        let _ = writeln!(out, "{:>12}    effect: {} ({})", "", effect.what, effect.tool);
    }
    for note in &exchange.handled.notes {
        let _ = writeln!(out, "{:>12}    ({note})", "");
    }
    match &exchange.response {
        Some(response) => {
            let _ = writeln!(out, "{when}  S->C {replica:<9}  {response}");
        }
        None => {
            let _ = writeln!(out, "{when}  S->C {replica:<9}  (no response: a notification)");
        }
    }
}

/// The time of day (UTC) of a time in ms since the epoch: `14:03:07.251`.
fn clock(at_ms: u64) -> String {
    let of_day = at_ms % 86_400_000;
    let (h, m, s, ms) = (of_day / 3_600_000, of_day / 60_000 % 60, of_day / 1_000 % 60, of_day % 1_000);
    format!("{h:02}:{m:02}:{s:02}.{ms:03}")
}

/// A request as the log shows it: a line of it, cut where it is long (a 1 MB paste is not
/// printed whole).
fn shown(request: &str) -> String {
    const LONGEST: usize = 2_000;
    match request.char_indices().nth(LONGEST) {
        Some((at, _)) => format!("{}… ({} bytes)", &request[..at], request.len()),
        None => request.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_a_clock_and_long_lines_are_cut() {
        assert_eq!(clock(86_400_000 * 3 + 14 * 3_600_000 + 3 * 60_000 + 7_251), "14:03:07.251");
        let long = "x".repeat(5_000);
        assert!(shown(&long).ends_with("… (5000 bytes)"));
        assert_eq!(shown("short"), "short");
    }
}
