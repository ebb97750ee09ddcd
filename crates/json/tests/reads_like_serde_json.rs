//! `mrtr_json::parse` accepts what serde_json accepts and reads the same values, and a value
//! is written as serde_json writes it, compact and pretty: on texts written by hand at every
//! edge, and on many random texts and random edits of them.

use mrtr_json::parse;
use serde_json::Value;

/// Both readers agree on `text`: both refuse it, or both read values that are the same (a
/// double beyond the exact range within its last binary digits). Values that are the same
/// are written the same.
fn agree(text: &[u8]) {
    let ours = parse(text);
    let theirs = serde_json::from_slice::<Value>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            let a_theirs = serde_json::to_value(a).expect("a value is serializable");
            assert!(same(&a_theirs, b), "{}: we read {a}, serde_json {b}", String::from_utf8_lossy(text));
            if a_theirs == *b {
                assert_eq!(a.to_string(), b.to_string());
                assert_eq!(format!("{a:#}"), format!("{b:#}"));
            }
        }
        (Err(_), Err(_)) => {}
        _ => panic!("{:?}: we say {ours:?}, serde_json {theirs:?}", String::from_utf8_lossy(text)),
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || ((x - y) / y).abs() < 1e-15
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

#[test]
fn texts_at_every_edge() {
    let texts = [
        "",
        " ",
        "null",
        "true",
        "false",
        "nul",
        "True",
        "nullx",
        "[]",
        "{}",
        "[ ]",
        "{ }",
        " [1] ",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{\"a\":1,}",
        "{,}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{1:2}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1,\"a\":2}",
        "{\"b\":1,\"a\":2,\"b\":3}",
        "[[[]]]",
        "[",
        "]",
        "{",
        "}",
        "[1",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "\"abc",
        "0",
        "-0",
        "-0.0",
        "0.0",
        "00",
        "01",
        "-01",
        "1.",
        ".5",
        "-",
        "+1",
        "1e",
        "1e+",
        "1e-",
        "1E5",
        "1e+5",
        "1e-5",
        "1.5e3",
        "-1.5E-3",
        "123456789",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999999",
        "1e308",
        "1e309",
        "-1e309",
        "1e-400",
        "2.2250738585072014e-308",
        "4.9e-324",
        "0.1",
        "0.30000000000000004",
        "1e22",
        "1e23",
        "123.456",
        "9007199254740993",
        "9007199254740993.0",
        "1e0000000000000000000005",
        "0e999999999999",
        "1e-9999999999999",
        "\"\"",
        "\"a\\\"b\"",
        "\"\\\\\"",
        "\"\\/\"",
        "\"\\b\\f\\n\\r\\t\"",
        "\"\\u0041\"",
        "\"\\u00e9\"",
        "\"\\uD83D\\uDE00\"",
        "\"\\uD83D\"",
        "\"\\uDE00\"",
        "\"\\uD83Dx\"",
        "\"\\uD83D\\u0041\"",
        "\"\\u12\"",
        "\"\\u12G4\"",
        "\"\\x\"",
        "\"\\\"",
        "\"tab\there\"",
        "\"nl\nhere\"",
        "\"é ✓ 😀\"",
        "\"\u{7f}\"",
        "[\"a\",{\"b\":[null,true,false,1,-2,3.5]}]",
        "\t\n\r [1]\r\n",
        "[1]x",
        "[1] [2]",
        "{\"a\":1}}",
        "\u{feff}1",
        "[1e2, 1E-2, -0e0, 0.0e0]",
        "{\"\":\"\"}",
        "{\"\\u0000\":1}",
    ];
    for text in texts {
        agree(text.as_bytes());
    }
    for bytes in [&b"\"\xff\""[..], b"\xff", b"[\"a\xc3\"]", b"\"\xed\xa0\x80\"", b"\"\xc3\xa9\""] {
        agree(bytes);
    }
}

#[test]
fn nesting_up_to_the_limit_and_past_it() {
    for depth in [1, 100, 127, 128, 129, 130, 10_000] {
        agree(format!("{}{}", "[".repeat(depth), "]".repeat(depth)).as_bytes());
        agree(format!("{}1{}", "[".repeat(depth), "]".repeat(depth)).as_bytes());
        agree(format!("{}null{}", "{\"a\":".repeat(depth), "}".repeat(depth)).as_bytes());
        agree("[".repeat(depth).as_bytes());
    }
}

/// A small deterministic generator: xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
}

/// A random JSON text, spaced at random, its numbers and strings from the awkward end.
fn text(rng: &mut Rng, depth: u32, out: &mut String) {
    let space = |rng: &mut Rng, out: &mut String| out.push_str(rng.pick(&["", "", " ", "\n ", "\t", "\r\n"]));
    space(rng, out);
    match rng.below(if depth > 4 { 4 } else { 6 }) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 => {
            let number = match rng.below(4) {
                0 => rng.next().to_string(),
                1 => (rng.next() as i64).to_string(),
                2 => format!("{}.{}", rng.below(100_000), rng.below(1000)),
                _ => format!(
                    "{}{}.{}e{}{}",
                    rng.pick(&["", "-"]),
                    rng.below(1 << 53),
                    rng.below(1_000_000),
                    rng.pick(&["", "+", "-"]),
                    rng.below(30)
                ),
            };
            out.push_str(&number);
        }
        2 | 3 => {
            out.push('"');
            for _ in 0..rng.below(8) {
                out.push_str(rng.pick(&[
                    "a",
                    "Z",
                    " ",
                    "é",
                    "😀",
                    "\\n",
                    "\\\"",
                    "\\\\",
                    "\\u00e9",
                    "\\uD83D\\uDE00",
                    "\\/",
                ]));
            }
            out.push('"');
        }
        4 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                text(rng, depth + 1, out);
            }
            space(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                out.push_str(rng.pick(&["\"a\"", "\"b\"", "\"\"", "\"a\\u0062\""]));
                space(rng, out);
                out.push(':');
                text(rng, depth + 1, out);
            }
            space(rng, out);
            out.push('}');
        }
    }
    space(rng, out);
}

#[test]
fn random_texts_and_random_edits_of_them() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let alphabet = b"{}[],:\"\\ 0123456789.eE+-untrfalsx\n\xc3\xa9\xff";
    for _ in 0..20_000 {
        let mut written = String::new();
        text(&mut rng, 0, &mut written);
        let mut bytes = written.into_bytes();
        agree(&bytes);
        for _ in 0..rng.below(4) + 1 {
            let at = rng.below(bytes.len() as u64 + 1) as usize;
            let byte = alphabet[rng.below(alphabet.len() as u64) as usize];
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, byte),
            }
            agree(&bytes);
        }
    }
}

#[test]
fn large_objects_with_names_read_twice() {
    let mut rng = Rng(7);
    for size in [17, 40, 300, 2_000] {
        for _ in 0..20 {
            let names = 1 + rng.next() % size;
            let members: Vec<String> = (0..size).map(|i| format!("\"n{}\": {i}", rng.next() % names)).collect();
            agree(format!("{{{}}}", members.join(", ")).as_bytes());
        }
    }
}

#[test]
fn a_megabyte_object_is_read_at_once() {
    // 100,000 members, each name twice: n log n steps, where a look-up per member took n².
    let members: Vec<String> = (0..100_000).map(|i| format!("\"k{}\":{i}", i % 50_000)).collect();
    let text = format!("{{{}}}", members.join(","));
    let value = parse(&text).expect("JSON");
    let map = value.as_object().expect("an object");
    assert_eq!(map.len(), 50_000);
    assert_eq!(map.keys().take(2).collect::<Vec<_>>(), ["k0", "k1"]);
    assert_eq!(value["k0"], 50_000);
    assert_eq!(value, value.clone());
    // The same object through serde: a JavaScript caller's options.
    assert_eq!(serde_json::from_str::<mrtr_json::Value>(&text).expect("JSON"), value);
}

#[test]
fn messages_say_what_and_where() {
    let message = |text: &str| parse(text).expect_err(text).to_string();
    assert_eq!(message(""), "the text ends where a value should be at line 1 column 1");
    assert_eq!(message("[1,\n 2,]"), "expected a value at line 2 column 4");
    assert_eq!(message("{\"a\" 1}"), "expected ':' at line 1 column 6");
    assert_eq!(message("01"), "a number cannot start with 0 at line 1 column 2");
    assert_eq!(message("[1] x"), "unexpected text after the JSON value at line 1 column 5");
    assert_eq!(message("\"\\uD83D\""), "a lone surrogate in a \\u escape at line 1 column 8");
    assert_eq!(message(&"[".repeat(200)), "arrays and objects nested more than 127 deep at line 1 column 128");
    assert_eq!(parse(b"\"\xff\"").expect_err("not UTF-8").what(), "byte 2 is not UTF-8 text");
}
