//! Fuzzes `mrtr lint` with a hostile transcript: arbitrary bytes (as text, lossily) read in
//! every form it knows, grouped and judged. No input may panic, every finding must point at a
//! line of the input, and every round at a message of the transcript.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(report) = mrtr_lint::lint(&text, 3) else { return };
    let lines = text.lines().count().max(1);
    let messages = &report.transcript.messages;
    for finding in &report.findings {
        assert!(finding.line >= 1 && finding.line <= lines.max(messages.len()), "{finding:?}");
        assert!(finding.operation < report.grouped.operations.len());
    }
    for op in &report.grouped.operations {
        for round in &op.rounds {
            assert!(messages[round.request].from_client);
            assert!(round.response.is_none_or(|r| !messages[r].from_client));
        }
    }
    let _ = report.text();
});
