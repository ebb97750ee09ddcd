//! Fuzzes `Codec::open` and `inspect` with arbitrary bytes in every mode: no input may
//! panic, every refusal names exactly one failed check, and the parts `inspect` reads are at
//! most four that put together make the ticket again. The same bytes as JSON text: whatever
//! serde_json reads has a canonical form (docs/TOKEN.md) that reads back to the same form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mrtr_ticket::{inspect, Codec, Expect, Key, Mode, RequestDigest, Status, UsedNonces};

fuzz_target!(|data: &[u8]| {
    let request =
        RequestDigest::of("tools/call", &serde_json::json!({"name": "deploy"})).expect("params are an object");
    for mode in [Mode::Signed, Mode::Sealed, Mode::Unsigned] {
        let codec = Codec::new(Key::new([3u8; 32]).expect("32 bytes"), mode);
        let mut record = UsedNonces::new();
        let opened = codec.open(data, &Expect { principal: "bob", request: &request, now_ms: 1 }, Some(&mut record));
        let failed = opened.steps().filter(|(_, s)| *s == Status::Failed).count();
        assert_eq!(failed, usize::from(!opened.is_ok()));
        let _ = opened.report();
    }
    let text = String::from_utf8_lossy(data);
    let seen = inspect(&text);
    if !seen.parts.is_empty() {
        assert!(seen.parts.len() <= 4);
        let texts: Vec<&str> = seen.parts.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts.join("."), text);
        assert!(seen.parts.iter().all(|p| text.get(p.start..p.end) == Some(p.text.as_str())));
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        let canonical = mrtr_ticket::canonical_json(&value);
        let again = serde_json::from_str::<serde_json::Value>(&canonical).expect("canonical JSON is JSON");
        assert_eq!(mrtr_ticket::canonical_json(&again), canonical);
    }
});
