//! What a real server logs for each line it answers: the line in and out with the replica and
//! the principal, under a retry the checks its ticket went through (each with the values
//! compared), the answers, and what the tool did.
//!
//! The log goes through `tracing` to stderr, off the request path: a bounded queue that a
//! writer thread empties. When stderr is not read fast enough (a pipe nobody reads), lines are
//! dropped rather than the server blocked, and the next line that gets through says how many
//! were. `--log text` (the default) is for people, `--log json` one object a line; control
//! characters in what a client sent are escaped either way.

use crate::service::Exchange;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};

/// How the log is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// For people: each exchange as a few indented lines.
    Text,
    /// One JSON object a line, with the exchange's parts as fields.
    Json,
}

/// How many lines the queue holds before it drops.
const QUEUED_LINES: usize = 16_384;

struct Logger {
    format: LogFormat,
    dropped: ErrorCounter,
    reported: AtomicUsize,
}

static LOGGER: OnceLock<Logger> = OnceLock::new();

/// Starts the log in `format`; keep the guard until the end (dropping it flushes the queue).
/// `None` when a log was started before.
pub fn start(format: LogFormat) -> Option<WorkerGuard> {
    let (writer, guard) =
        NonBlockingBuilder::default().lossy(true).buffered_lines_limit(QUEUED_LINES).finish(std::io::stderr());
    let dropped = writer.error_counter();
    let builder = tracing_subscriber::fmt().with_writer(writer).with_ansi(false).with_target(false);
    let installed = match format {
        LogFormat::Text => builder.without_time().with_level(false).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(false).try_init(),
    };
    installed.ok()?;
    LOGGER.set(Logger { format, dropped, reported: AtomicUsize::new(0) }).ok()?;
    Some(guard)
}

/// Logs one exchange, if a log was started.
pub fn exchange(replica: &str, request: &str, exchange: &Exchange) {
    let Some(logger) = LOGGER.get() else { return };
    let dropped = logger.dropped.dropped_lines();
    if dropped > logger.reported.swap(dropped, Ordering::Relaxed) {
        tracing::warn!(dropped, "{dropped} log lines dropped so far: stderr is not read fast enough");
    }
    match logger.format {
        LogFormat::Text => tracing::info!("{}", text(replica, request, exchange)),
        LogFormat::Json => {
            let checks: Vec<String> = exchange
                .handled
                .checks
                .iter()
                .flat_map(|report| &report.steps)
                .map(|step| format!("{} {}: {}", step.mark, step.label, step.detail))
                .collect();
            let effects: Vec<String> =
                exchange.effects.entries().iter().map(|e| format!("{} ({})", e.what, e.tool)).collect();
            tracing::info!(
                at_ms = exchange.at_ms,
                replica,
                principal = exchange.principal.as_str(),
                request = shown(request).as_str(),
                checks = checks.join("; ").as_str(),
                answers = exchange.handled.answers.as_ref().map(|a| a.detail.as_str()).unwrap_or_default(),
                effects = effects.join("; ").as_str(),
                notes = exchange.handled.notes.join("; ").as_str(),
                response = exchange.response.as_deref().map(shown).unwrap_or_default().as_str(),
                "exchange"
            );
        }
    }
}

/// One exchange for people: the request, the ticket checks (when a ticket came), the
/// answers, the effects, the server's notes, and the response.
pub fn text(replica: &str, request: &str, exchange: &Exchange) -> String {
    let when = clock(exchange.at_ms);
    let mut out = format!("{when}  C->S {replica:<9}  [{}] {}", exchange.principal, shown(request));
    if let Some(report) = &exchange.handled.checks {
        for step in &report.steps {
            let _ = write!(out, "\n{:>12}    {} {}: {}", "", step.mark, step.label, step.detail);
        }
    }
    if let Some(answers) = &exchange.handled.answers {
        let _ = write!(out, "\n{:>12}    {} answers: {}", "", if answers.passed { "✓" } else { "✗" }, answers.detail);
    }
    for effect in exchange.effects.entries() {
        let _ = write!(out, "\n{:>12}    effect: {} ({})", "", effect.what, effect.tool);
    }
    for note in &exchange.handled.notes {
        let _ = write!(out, "\n{:>12}    ({note})", "");
    }
    match &exchange.response {
        Some(response) => {
            let _ = write!(out, "\n{when}  S->C {replica:<9}  {}", shown(response));
        }
        None => {
            let _ = write!(out, "\n{when}  S->C {replica:<9}  (no response: a notification)");
        }
    }
    out
}

/// The time of day (UTC) of a time in ms since the epoch: `14:03:07.251`.
fn clock(at_ms: u64) -> String {
    let of_day = at_ms % 86_400_000;
    let (h, m, s, ms) = (of_day / 3_600_000, of_day / 60_000 % 60, of_day / 1_000 % 60, of_day % 1_000);
    format!("{h:02}:{m:02}:{s:02}.{ms:03}")
}

/// A line as the log shows it: control characters escaped (a client's newline cannot forge a
/// log line), cut where it is long (a 1 MB paste is not printed whole).
fn shown(line: &str) -> String {
    const LONGEST: usize = 2_000;
    let mut out = String::new();
    for (n, c) in line.chars().enumerate() {
        if n == LONGEST {
            let _ = write!(out, "… ({} bytes)", line.len());
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
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

    #[test]
    fn a_clients_control_characters_cannot_forge_a_log_line() {
        assert_eq!(
            shown("{\"a\":1}\n12:00:00.000  S->C A  forged\u{1b}[31m"),
            "{\"a\":1}\\n12:00:00.000  S->C A  forged\\u{1b}[31m"
        );
    }
}
