//! # mrtr-lint: real MCP traffic, read for multi round-trip requests
//!
//! Paste or give a transcript (a HAR file, `mrtr serve`'s log, `mrtr call`'s output, an HTTP
//! transcript, JSON-RPC lines: [`read()`]) and get each operation's rounds grouped
//! ([`rounds`]), every ticket the server handed out read as far as its shape allows
//! (`mrtr_wire::Ticket`), and what breaks the MRTR page, in its words ([`rules`]). Sans-IO:
//! `mrtr lint FILE` prints a [`Report`] in the terminal, the lab's "Bring your own transcript"
//! panel in the browser, where nothing leaves the page.
//!
//! ```
//! let transcript = r#"
//! C->S {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}
//! S->C {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{}}},"requestState":"opaque-1"}}
//! C->S {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"confirm":{"action":"accept"}},"requestState":"opaque-1"}}
//! S->C {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}
//! "#;
//! let report = mrtr_lint::lint(transcript, mrtr_lint::MAX_ROUNDS).unwrap();
//! assert_eq!(report.grouped.operations.len(), 1);
//! assert_eq!(report.grouped.operations[0].rounds.len(), 2);
//! assert_eq!(report.findings[0].rule, "retry-same-id");
//! assert_eq!(report.exit_code(mrtr_lint::Grade::Must), 1);
//! ```
#![deny(missing_docs)]

pub mod read;
pub mod rounds;
pub mod rules;

pub use read::{read, Format, Message, Transcript};
pub use rounds::{group, End, Grouped, Joined, Operation, Round, TicketSeen};
pub use rules::{findings, Finding, Grade};

use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// How many rounds one operation may take before the report notes it.
pub const MAX_ROUNDS: usize = 5;

/// What a transcript shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The report's format: `mrtr-lint-report/1`.
    pub schema: &'static str,
    /// What was read.
    pub transcript: Transcript,
    /// Its operations and tickets.
    pub grouped: Grouped,
    /// What they did wrong.
    pub findings: Vec<Finding>,
}

/// Reads `text` and lints it; an error only when it cannot be read at all (too long).
pub fn lint(text: &str, max_rounds: usize) -> Result<Report, String> {
    let transcript = read(text)?;
    let grouped = group(&transcript.messages);
    let findings = findings(&transcript.messages, &grouped, max_rounds);
    Ok(Report { schema: "mrtr-lint-report/1", transcript, grouped, findings })
}

impl Report {
    /// How many findings of `grade`.
    pub fn count(&self, grade: Grade) -> usize {
        self.findings.iter().filter(|f| f.grade == grade).count()
    }

    /// The operations that took more than one round: the multi round-trip ones.
    pub fn multi_round(&self) -> usize {
        self.grouped.operations.iter().filter(|op| op.rounds.len() > 1 || asked(op)).count()
    }

    /// 1 when a finding is at `fail_on` or above; else 2 when part of the transcript could not
    /// be read (the report cannot speak for it); else 0.
    pub fn exit_code(&self, fail_on: Grade) -> i32 {
        if self.findings.iter().any(|f| f.grade >= fail_on) {
            1
        } else if !self.transcript.unreadable.is_empty() {
            2
        } else {
            0
        }
    }

    /// One line: what was read and found.
    pub fn headline(&self) -> String {
        let t = &self.transcript;
        let found = if self.findings.is_empty() {
            "nothing breaks the MRTR page".to_owned()
        } else {
            format!(
                "{} MUST, {} SHOULD, {} NOTE",
                self.count(Grade::Must),
                self.count(Grade::Should),
                self.count(Grade::Note)
            )
        };
        let count = |n: usize, what: &str| if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") };
        let incomplete = match t.unreadable.len() {
            0 => String::new(),
            n => format!(" (incomplete: {} could not be read)", count(n, "part")),
        };
        format!(
            "{}: {}, {} ({} asked for input): {found}{incomplete}",
            t.format.words(),
            count(t.messages.len(), "message"),
            count(self.grouped.operations.len(), "operation"),
            self.multi_round()
        )
    }

    /// The report for a terminal: the headline, each operation that asked with its rounds, the
    /// tickets, the findings with the page's sentences, and the lines skipped.
    pub fn text(&self) -> String {
        let mut out = self.headline();
        let messages = &self.transcript.messages;
        let words = self.words();
        for (o, op) in self.grouped.operations.iter().enumerate().filter(|(_, op)| op.rounds.len() > 1 || asked(op)) {
            let _ = write!(out, "\n\n{}", words[o].heading);
            for (r, (round, [sent, ended])) in op.rounds.iter().zip(&words[o].rounds).enumerate() {
                let line = messages[round.request].line;
                let _ = write!(out, "\n  round {}  line {line}  {sent} → {ended}", r + 1);
            }
        }
        if !self.grouped.tickets.is_empty() {
            out.push_str("\n\ntickets:");
            for t in &self.grouped.tickets {
                let read = match (&t.claims, t.expires_at_ms) {
                    (Some(claims), Some(exp)) => format!("reads {claims}, expires at {exp} ms"),
                    (Some(claims), None) => format!("reads {claims}, no expiry"),
                    (None, _) => "cannot be read without the server's key".into(),
                };
                let _ = write!(out, "\n  {}  {}: {read}", t.name, t.shape);
            }
        }
        if !self.findings.is_empty() {
            out.push_str("\n\nfindings:");
            for f in &self.findings {
                let _ = write!(
                    out,
                    "\n  {:<6} line {} ({}, operation {}): {}\n         the page: \"{}\"",
                    f.grade.word(),
                    f.line,
                    f.side,
                    f.operation + 1,
                    f.says,
                    f.spec
                );
            }
        }
        if !self.transcript.unreadable.is_empty() {
            out.push_str("\n\ncould not read:");
            for s in &self.transcript.unreadable {
                let _ = write!(out, "\n  line {}: {}", s.line, s.why);
            }
        }
        if self.transcript.skipped_count > 0 {
            let _ = write!(out, "\n\nskipped {} lines:", self.transcript.skipped_count);
            for s in &self.transcript.skipped {
                let _ = write!(out, "\n  line {}: {}", s.line, s.why);
            }
        }
        out
    }

    /// Each operation in words, as the terminal and the lab's panel both show it: its heading,
    /// and for each round what the request sent and how it ended.
    pub fn words(&self) -> Vec<Words> {
        // Each ticket's name by its text (the first handed out with it), looked up per round.
        let mut names: HashMap<&str, &str> = HashMap::new();
        for t in &self.grouped.tickets {
            names.entry(&t.text).or_insert(&t.name);
        }
        let sent = |round: &Round| {
            let ticket = match round.sent_state.as_ref().and_then(|s| s.as_str()) {
                Some(state) => {
                    format!(", ticket {}", names.get(state).unwrap_or(&"handed out nowhere in the transcript"))
                }
                None if round.sent_state.is_some() => ", a requestState that is not a string".into(),
                None => String::new(),
            };
            let answers = if round.answered.is_empty() {
                String::new()
            } else {
                format!(", answers {}", round.answered.join(", "))
            };
            format!("id {}{answers}{ticket}", round.id)
        };
        self.grouped
            .operations
            .iter()
            .enumerate()
            .map(|(o, op)| {
                let who = op.who.as_deref().map(|w| format!(", by {w}")).unwrap_or_default();
                let rounds =
                    if op.rounds.len() == 1 { "1 round".to_owned() } else { format!("{} rounds", op.rounds.len()) };
                Words {
                    heading: format!("operation {}: {}{who}, {rounds}", o + 1, op.title()),
                    rounds: op.rounds.iter().map(|round| [sent(round), self.end_words(&round.end)]).collect(),
                }
            })
            .collect()
    }

    fn end_words(&self, end: &End) -> String {
        match end {
            End::Asked { asked, ticket, odd_state } => {
                let what = if asked.is_empty() { "nothing".to_owned() } else { asked.join(", ") };
                let handed = match (ticket, odd_state) {
                    (Some(t), _) => format!(", hands out {}", self.grouped.tickets[*t].name),
                    (None, Some(_)) => ", hands out a requestState that is not a string".into(),
                    (None, None) => String::new(),
                };
                format!("input_required: asks for {what}{handed}")
            }
            End::Complete => "complete".into(),
            End::Error { code, message } => format!("error {code}: {message}"),
            End::NoResponse => "no response in the transcript".into(),
        }
    }
}

/// One operation in words ([`Report::words`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Words {
    /// `operation 1: tools/call deploy, by bob, 2 rounds`.
    pub heading: String,
    /// For each round: what its request sent (`id 2, answers confirm, ticket T1`) and how it
    /// ended (`input_required: asks for pay, hands out T2`).
    pub rounds: Vec<[String; 2]>,
}

/// Whether an operation's first round asked for input.
fn asked(op: &Operation) -> bool {
    op.rounds.iter().any(|r| matches!(r.end, End::Asked { .. }))
}
