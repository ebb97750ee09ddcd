//! The class's progress as CSV, in the form spreadsheets open without asking: a header row,
//! one row per student (in the order they joined), one column per challenge holding when it
//! was met (ISO-8601, UTC) or nothing, a count, the quick check's score (of 5) as the class
//! server graded it, and when the class server verified Fix-It passed; RFC 4180 quoting, CRLF line ends, and a
//! cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`) prefixed with `'`.
//!
//! ```
//! use mrtr_class::export::csv;
//! use mrtr_class::store::{Completion, Progress, QuizGrade, Seat};
//! let seats = vec![Seat { id: "s1".into(), name: "=Ada, \"A\"".into(), joined_ms: 0 }];
//! let done = vec![Completion { seat: "s1".into(), challenge: "redeem-twice".into(), situation: String::new(), at_ms: 1_767_225_600_000 }];
//! let quiz = vec![QuizGrade { seat: "s1".into(), score: 4, max: 5, at_ms: 0 }];
//! let text = csv(&Progress { seats, done, quiz, fixit: vec![] });
//! assert!(text.starts_with("name,joined,charge-less,redeem-twice,staging-to-prod,loop-forever,met,quick check (of 5),fix-it (verified)\r\n"));
//! assert!(text.contains("\"'=Ada, \"\"A\"\"\",1970-01-01T00:00:00Z,,2026-01-01T00:00:00Z,,,1,4,\r\n"));
//! ```

use crate::quiz::QUESTIONS;
use crate::store::Progress;
use mrtr_sim::challenges::CHALLENGES;

/// The CSV text.
pub fn csv(progress: &Progress) -> String {
    let Progress { seats, done, quiz, fixit } = progress;
    let mut out = String::new();
    let mut header = vec!["name".to_owned(), "joined".to_owned()];
    header.extend(CHALLENGES.iter().map(|c| c.id.to_owned()));
    header.extend(["met".to_owned(), format!("quick check (of {QUESTIONS})"), "fix-it (verified)".to_owned()]);
    line(&mut out, &header);
    for seat in seats {
        let mut row = vec![seat.name.clone(), iso(seat.joined_ms)];
        let mut met = 0;
        for challenge in CHALLENGES {
            match done.iter().find(|c| c.seat == seat.id && c.challenge == challenge.id) {
                Some(c) => {
                    met += 1;
                    row.push(iso(c.at_ms));
                }
                None => row.push(String::new()),
            }
        }
        row.push(met.to_string());
        row.push(quiz.iter().find(|q| q.seat == seat.id).map(|q| q.score.to_string()).unwrap_or_default());
        let verified = fixit.iter().find(|f| f.seat == seat.id && f.passed);
        row.push(verified.map(|f| iso(f.at_ms)).unwrap_or_default());
        line(&mut out, &row);
    }
    out
}

fn line(out: &mut String, cells: &[String]) {
    let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    out.push_str(&cells.join(","));
    out.push_str("\r\n");
}

fn cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) { format!("'{text}") } else { text.to_owned() };
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Milliseconds since the epoch as ISO-8601 UTC (RFC 3339): to the millisecond where there are
/// any (xAPI's `timestamp`), else to the second.
pub fn iso_ms(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
}

/// To the second, as a spreadsheet shows a time.
fn iso(ms: i64) -> String {
    iso_ms(ms - ms.rem_euclid(1000))
}
