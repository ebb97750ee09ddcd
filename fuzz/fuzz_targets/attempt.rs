//! Fuzzes the simulated cluster with a learner's own attempt, sent the way the lab's request
//! writer and ticket editor send it: an arbitrary request line (at an arbitrary time), ticket
//! or arguments, on every scenario that takes moves, in every protection mode and with every
//! replay record. No input may panic; every response on the wire is one JSON-RPC 2.0 object
//! with a result or an error; the attempt adds exactly one verdict to the scenario's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mrtr_sim::cluster::RecordMode;
use mrtr_sim::moves::OwnAttempt;
use mrtr_sim::scenarios::{Options, Prepared, SCENARIOS};
use mrtr_sim::trace::Kind;
use mrtr_ticket::Mode;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::LazyLock;

const MODES: [Mode; 3] = [Mode::Signed, Mode::Sealed, Mode::Unsigned];
const RECORDS: [RecordMode; 3] = [RecordMode::Off, RecordMode::Shared, RecordMode::PerReplica];

/// The scenarios that take moves, by their index in SCENARIOS: worked out once, not per input.
static TAKES_MOVES: LazyLock<Vec<usize>> =
    LazyLock::new(|| (0..SCENARIOS.len()).filter(|&i| SCENARIOS[i].takes_moves()).collect());

thread_local! {
    /// Each (scenario, mode, record) prepared once, with its own verdicts before the attempt.
    static PREPARED: std::cell::RefCell<HashMap<(usize, usize, usize), (Prepared, usize)>> = Default::default();
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest).into_owned();
    let takes_moves = &*TAKES_MOVES;
    let pick = usize::from(pick);
    // What is fuzzed (pick % 4), on which scenario, in which mode, with which record.
    let key = (takes_moves[(pick / 4) % takes_moves.len()], (pick / 24) % MODES.len(), (pick / 72) % RECORDS.len());
    let attempt = match pick % 4 {
        0 => OwnAttempt { line: Some(text), ..OwnAttempt::default() },
        // The clock too: its first 8 bytes are when the line is sent, up to the end of time.
        1 => {
            let at_ms = rest.get(..8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
            OwnAttempt { line: Some(text), at_ms, ..OwnAttempt::default() }
        }
        2 => OwnAttempt { ticket: Some(text), ..OwnAttempt::default() },
        _ => OwnAttempt {
            arguments: Some(serde_json::from_str::<serde_json::Value>(&text).unwrap_or(Value::String(text))),
            ..OwnAttempt::default()
        },
    };
    PREPARED.with(|prepared| {
        let mut prepared = prepared.borrow_mut();
        let (prepared, before) = prepared.entry(key).or_insert_with(|| {
            let options = Options { mode: Some(MODES[key.1]), record: Some(RECORDS[key.2]), ..Options::default() };
            let prepared = SCENARIOS[key.0].prepare(&options).expect("a scenario that takes moves");
            let before = prepared.finish(None).verdicts.len();
            (prepared, before)
        });
        let run = prepared.finish(Some(&attempt));
        assert_eq!(run.verdicts.len(), *before + 1, "one verdict for the attempt");
        for event in run.trace.events.iter().filter(|e| e.kind == Kind::Response) {
            let line = event.line.as_deref().expect("a response on the wire has its line");
            let response = serde_json::from_str::<Value>(line).expect("every response is JSON");
            assert_eq!(response["jsonrpc"], "2.0", "{line}");
            assert!(response.get("result").is_some() != response.get("error").is_some(), "{line}");
        }
    });
});
