//! Fuzzes `Codec::open` and `inspect` with arbitrary bytes in every mode: no input may
//! panic, every refusal names exactly one failed check, and the parts `inspect` reads are at
//! most four that put together make the ticket again. The same bytes as JSON text:
//! `mrtr_json::parse` accepts exactly what serde_json accepts, and reads the same value, which
//! it writes as serde_json writes it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mrtr_ticket::{inspect, Codec, Expect, Key, Mode, RequestDigest, Status, UsedNonces};

fuzz_target!(|data: &[u8]| {
    let request = RequestDigest::of("tools/call", &mrtr_json::json!({"name": "deploy"}));
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
    match (mrtr_json::parse(data), serde_json::from_slice::<serde_json::Value>(data)) {
        (Ok(ours), Ok(theirs)) => {
            if serde_json::to_value(&ours).ok().as_ref() == Some(&theirs) {
                assert_eq!(ours.to_string(), theirs.to_string());
            } else {
                assert!(has_float(&theirs), "{ours} against {theirs}");
            }
        }
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!("we read {ours:?}, serde_json {theirs:?}"),
    }
});

/// Whether a value holds a double: beyond the exact range the two readers may differ in its
/// last binary digit (crates/json/src/read.rs).
fn has_float(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) => n.is_f64(),
        serde_json::Value::Array(items) => items.iter().any(has_float),
        serde_json::Value::Object(members) => members.values().any(has_float),
        _ => false,
    }
}
