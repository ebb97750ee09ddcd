//! Plays every attack against replies made of arbitrary bytes: what the fuzz target
//! (`fuzz/fuzz_targets/probe.rs`) and the property test feed the probe. A server's reply and
//! its ticket are hostile input; nothing they hold may panic the probe or keep it going forever.

use crate::{Flow, Reply, Setup, Step, Targets, Tokens, BATTERY};
use serde_json::{json, Value};

/// The most steps one attack may take: an attack is over in far fewer whatever comes back.
pub const MAX_STEPS: usize = 64;

/// The replies `data` describes: chunks split on `0xFF`. The first chunk is a ticket; a chunk
/// starting with `?` asks for input with that ticket under the keys it names; one starting
/// with `#` is a transport failure; the rest are JSON text (or not), sent with status 200,
/// or the status of a chunk's first byte where that byte is below 6 (401, 403, 404, 429, 500, 400).
pub fn replies(data: &[u8]) -> (String, Vec<Reply>) {
    let mut chunks = data.split(|b| *b == 0xFF);
    let ticket = String::from_utf8_lossy(chunks.next().unwrap_or_default()).into_owned();
    let statuses = [401, 403, 404, 429, 500, 400];
    let replies = chunks
        .map(|chunk| {
            let (status, chunk) = match chunk.split_first() {
                Some((first, rest)) if usize::from(*first) < statuses.len() => (statuses[usize::from(*first)], rest),
                _ => (200, chunk),
            };
            let text = String::from_utf8_lossy(chunk);
            let body = if let Some(keys) = text.strip_prefix('?') {
                let requests: serde_json::Map<String, Value> = keys
                    .split(',')
                    .map(|k| (k.to_owned(), json!({"method": "elicitation/create", "params": {"mode": "form",
                        "message": "?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}})))
                    .collect();
                Ok(json!({"jsonrpc": "2.0", "id": 0, "result": {"resultType": "input_required",
                    "inputRequests": requests, "requestState": ticket}}))
            } else if let Some(why) = text.strip_prefix('#') {
                Err(why.to_owned())
            } else {
                serde_json::from_str(&text).map_err(|e| e.to_string())
            };
            Reply::http(status, body)
        })
        .collect();
    (ticket, replies)
}

/// Runs every attack of the battery on the replies `data` describes, taken in turn and over
/// again; returns how many steps were taken in all. Panics only if an attack runs past
/// [`MAX_STEPS`].
pub fn play(data: &[u8]) -> usize {
    let (_, replies) = replies(data);
    let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).unwrap_or_else(|_| unreachable!("a valid call"));
    let mut setup = Setup::new(flow, Tokens { first: Some("bob".into()), second: Some("alice".into()) });
    setup.wait_expiry = true;
    setup.now_ms = 1_700_000_000_000;
    setup.race = 3;
    setup.targets = Targets {
        tool: Some(json!({"name": "other", "arguments": {"env": "staging"}})),
        method: Some(("prompts/get".into(), json!({"name": "p"}))),
        arguments: Some(json!({"env": "prod"})),
    };
    let mut next = replies.iter().cycle();
    let mut taken = 0;
    for attack in BATTERY {
        let (mut run, mut step) = attack.start(&setup);
        for _ in 0..=MAX_STEPS {
            taken += 1;
            step = match step {
                Step::Done(_) => break,
                Step::Send(_) => run.next(next.next().cloned().unwrap_or_else(|| Reply::from(Err("none".into())))),
                Step::Race(lines) => run.next_race(
                    lines
                        .iter()
                        .map(|_| next.next().cloned().unwrap_or_else(|| Reply::from(Err("none".into()))))
                        .collect(),
                ),
            };
        }
        assert!(matches!(step, Step::Done(_)), "{} ran past {MAX_STEPS} steps", attack.id());
        let _ = (run.exchanges(), run.shape());
    }
    taken
}
