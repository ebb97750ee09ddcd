//! Fuzzes `Codec::open` and `inspect` with arbitrary bytes in every mode: no input may
//! panic, and every refusal names exactly one failed check.
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
    let _ = inspect(&String::from_utf8_lossy(data));
});
