//! Prints doubles from all over the range, one a line: the bits (hex), the canonical JSON of
//! the double, and the digest of a request carrying it, for `tests/test_doubles.py` to check
//! against the Python reference. Each double is first written by serde_json and read back,
//! and must come back exactly (`float_roundtrip`).
//!
//! ```text
//! cargo run -q -p mrtr-ticket --example doubles -- 100000 | python3 tests/test_doubles.py
//! ```

use mrtr_ticket::{canonical_json, RequestDigest, SplitMix64};
use serde_json::{json, Value};
use std::io::Write;

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bits = SplitMix64::new(0);
    let mut written = 0;
    while written < count {
        let x = f64::from_bits(bits.next_u64());
        if !x.is_finite() {
            continue;
        }
        let text = serde_json::to_string(&x).expect("a finite double");
        let read: f64 = serde_json::from_str(&text).expect("JSON");
        assert_eq!(read.to_bits(), x.to_bits(), "{text} read back differently");
        let value = json!(x);
        let digest = RequestDigest::of("tools/call", &json!({"v": value})).expect("an object");
        let canonical = canonical_json(&value);
        // The canonical text reads back as the same double too (-0 as 0, which equals it).
        assert_eq!(serde_json::from_str::<Value>(&canonical).ok().and_then(|v| v.as_f64()), Some(x), "{canonical}");
        writeln!(out, "{:016x} {canonical} {digest}", x.to_bits()).expect("stdout");
        written += 1;
    }
}
