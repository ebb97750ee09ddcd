//! `mrtr lint FILE`: a transcript of MCP traffic read for multi round-trip requests
//! (`mrtr-lint`): each operation's rounds, the tickets, and what breaks the MRTR page.
//! Exit codes: 0 nothing at or above `--fail-on`, 1 a finding at or above it, 2 the file
//! could not be read.

use crate::fail_on::FailOn;
use clap::Args;
use std::io::{Read as _, Write as _};
use std::process::ExitCode;

/// `mrtr lint`'s arguments.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// The transcript: a HAR file, mrtr serve's log, mrtr call's output (or --json), an HTTP
    /// transcript or JSON-RPC lines; `-` reads stdin.
    file: String,
    /// Print the report as JSON (schema mrtr-lint-report/1).
    #[arg(long)]
    json: bool,
    /// The most rounds one operation takes before the report notes it.
    #[arg(long, default_value_t = mrtr_lint::MAX_ROUNDS)]
    max_rounds: usize,
    /// The least grade that fails: must, should or note.
    #[arg(long, value_enum, default_value_t = FailOn::Must)]
    fail_on: FailOn,
}

/// Reads the file (at most `mrtr_lint::read::MAX_LEN` bytes), lints it and prints the report.
pub fn run(args: &LintArgs) -> ExitCode {
    let limit = mrtr_lint::read::MAX_LEN as u64 + 1;
    let read = if args.file == "-" {
        let mut text = String::new();
        std::io::stdin().take(limit).read_to_string(&mut text).map(|_| text)
    } else {
        std::fs::File::open(&args.file).and_then(|file| {
            let mut text = String::new();
            file.take(limit).read_to_string(&mut text).map(|_| text)
        })
    };
    let text = match read {
        Ok(text) => text,
        Err(e) => {
            eprintln!("mrtr lint: cannot read {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let report = match mrtr_lint::lint(&text, args.max_rounds) {
        Ok(report) => report,
        Err(why) => {
            eprintln!("mrtr lint: {why}");
            return ExitCode::from(2);
        }
    };
    let shown = if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => json,
            Err(e) => {
                eprintln!("mrtr lint: the report does not serialize: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        report.text()
    };
    // A reader that stops early (`| head`) is not an error of the transcript's.
    let _ = writeln!(std::io::stdout().lock(), "{shown}");
    ExitCode::from(u8::try_from(report.exit_code(args.fail_on.least())).unwrap_or(1))
}
