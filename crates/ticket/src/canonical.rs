//! Canonical JSON, as RFC 8785 (JCS) defines it: the bytes the request digest and the
//! ticket payload are computed over, so that any implementation produces the same ones.
//!
//! - no white space;
//! - object members sorted by their names' UTF-16 code units;
//! - strings escaped minimally: `"` `\` and the control characters below U+0020
//!   (`\b \f \n \r \t` by name, the rest as `\u00xx` in lower-case hex); everything else
//!   is written as it is, in UTF-8;
//! - numbers as IEEE 754 doubles written the way ECMAScript's `Number.prototype.toString`
//!   writes them (`2`, `190`, `0.5`, `1e+21`, `1e-7`).

use serde_json::{Map, Value};
use std::fmt::Write;

/// Writes `value` as canonical JSON.
///
/// ```
/// let value = serde_json::json!({"b": [1.0, 0.5, 1e21, 9007199254740993_u64], "a": "é\n"});
/// assert_eq!(mrtr_ticket::canonical_json(&value), r#"{"a":"é\n","b":[1,0.5,1e+21,9007199254740992]}"#);
/// ```
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::with_capacity(64);
    write_value(&mut out, value);
    out
}

pub(crate) fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // Every number is the double nearest to it (ties to even), as in JavaScript.
        Value::Number(n) => write_double(out, n.as_f64().unwrap_or(0.0)),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_object_without(out, map, &[]),
    }
}

/// Writes an object as if the members named in `left_out` were not in it, its members in the
/// order of their names' UTF-16 code units.
pub(crate) fn write_object_without(out: &mut String, map: &Map<String, Value>, left_out: &[&str]) {
    let mut members: Vec<(&String, &Value)> =
        map.iter().filter(|(name, _)| !left_out.contains(&name.as_str())).collect();
    members.sort_unstable_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    out.push('{');
    for (i, (name, item)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, name);
        out.push(':');
        write_value(out, item);
    }
    out.push('}');
}

/// Writes `s` as a JSON string, escaped as above: serde_json's escaping is exactly RFC 8785's.
pub(crate) fn write_string(out: &mut String, s: &str) {
    // A string always serializes.
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

/// ECMAScript's Number::toString for a finite double (ECMA-262 §6.1.6.1.20).
pub(crate) fn write_double(out: &mut String, x: f64) {
    if x == 0.0 || !x.is_finite() {
        out.push('0');
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    // The shortest digits that round-trip (zmij, the float printer serde_json writes with), as
    // "d.ddd", "ddd.d" or "d.ddde-x"; `n` is where the decimal point goes (ECMA-262's n).
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(x.abs());
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let point = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
    let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    let k = digits.len() as i32;
    let n = point - leading as i32 + exponent.parse::<i32>().unwrap_or(0);
    if k <= n && n <= 21 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{}", if e < 0 { '-' } else { '+' }, e.abs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(x: f64) -> String {
        let mut s = String::new();
        write_double(&mut s, x);
        s
    }

    #[test]
    #[allow(clippy::excessive_precision, reason = "a tie case is written as its exact value")]
    fn numbers_follow_ecmascript() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (190.0, "190"),
            (95.5, "95.5"),
            (0.1, "0.1"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.2345e-7, "1.2345e-7"),
            (123456789012345680000.0, "123456789012345680000"),
            (4.5e300, "4.5e+300"),
            (5e-324, "5e-324"),
            (0.000001234, "0.000001234"),
            // Exactly halfway between ...853.2 and ...853.3: the even digit, as V8 prints it
            // (Rust's own `{:e}` writes ...853.3).
            (667082108456853.25, "667082108456853.2"),
        ];
        for (x, want) in cases {
            assert_eq!(number(x), want, "{x:e}");
        }
    }

    #[test]
    fn keys_sort_by_utf16_code_units() {
        // U+1F600 sorts after U+FF5E in UTF-8 bytes but before it in UTF-16 units (a surrogate).
        let value = json!({"😀": 1, "～": 2, "a": 3, "B": 4});
        assert_eq!(canonical_json(&value), r#"{"B":4,"a":3,"😀":1,"～":2}"#);
    }

    #[test]
    fn numbers_round_trip_with_the_fewest_digits() {
        // Doubles from all over the range (random bit patterns): what is written reads back as
        // the same double, with as few digits as Rust's own shortest formatting uses (on a
        // tie the two may pick different digits: ECMAScript picks the even one).
        let mut bits = crate::SplitMix64::new(1);
        for _ in 0..100_000 {
            let x = f64::from_bits(bits.next_u64());
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            let written = number(x);
            assert_eq!(written.parse::<f64>().ok(), Some(x), "{written}");
            let shortest = format!("{:e}", x.abs());
            let want: String = shortest.split('e').next().unwrap_or("").chars().filter(char::is_ascii_digit).collect();
            let got: String = written.split('e').next().unwrap_or("").chars().filter(char::is_ascii_digit).collect();
            assert_eq!(
                got.trim_start_matches('0').trim_end_matches('0').len(),
                want.trim_end_matches('0').len(),
                "{x:e}"
            );
        }
    }

    #[test]
    fn strings_escape_only_what_they_must() {
        let value = json!("q\"b\\\u{1}\u{1f}\u{7f}\u{2028}é\t");
        assert_eq!(canonical_json(&value), "\"q\\\"b\\\\\\u0001\\u001f\u{7f}\u{2028}é\\t\"");
    }

    #[test]
    fn integers_are_doubles() {
        // Exact up to 2^53; beyond it the nearest double, ties to even, as JavaScript reads them.
        assert_eq!(canonical_json(&json!([9007199254740992_i64, -3, 2.0])), "[9007199254740992,-3,2]");
        assert_eq!(
            canonical_json(&json!([9007199254740993_u64, 9007199254740995_u64, u64::MAX, i64::MIN])),
            "[9007199254740992,9007199254740996,18446744073709552000,-9223372036854776000]"
        );
    }
}
