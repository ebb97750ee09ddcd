//! Properties that must hold for every input, checked exhaustively where the space is
//! small and with a seeded generator where it is not (the same cases natively and in wasm).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mrtr_ticket::{
    inspect, with_payload, Check, Codec, Expect, Key, Mint, Mode, NonceSource, RequestDigest, SplitMix64, Status,
};
use serde_json::json;
use serde_json::Value;

/// `len` bytes drawn from the workspace's seeded generator, so every run sees the same cases.
fn bytes(gen: &mut SplitMix64, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    gen.fill(&mut out);
    out
}

fn codec(mode: Mode) -> Codec {
    Codec::new(Key::new(b"property-test key, thirty-two bytes or more").expect("key"), mode)
}

fn request() -> RequestDigest {
    RequestDigest::of("tools/call", &json!({"name": "buy_ticket", "arguments": {"quantity": 2}}))
        .expect("params are an object")
}

fn minted(codec: &Codec, gen: &mut SplitMix64) -> String {
    let mint =
        Mint { principal: "bob".into(), request: request(), data: json!({"price": 190.0}), now_ms: 0, ttl_ms: 120_000 };
    codec.mint(&mint, gen).expect("mintable")
}

fn open(codec: &Codec, ticket: impl AsRef<[u8]>) -> mrtr_ticket::Opened {
    codec.open(ticket, &Expect { principal: "bob", request: &request(), now_ms: 1_000 }, None)
}

/// The bytes a change may write: the whole base64url alphabet, the dot, and a few others.
fn replacement_bytes() -> Vec<u8> {
    let mut bytes: Vec<u8> = (b'A'..=b'Z').chain(b'a'..=b'z').chain(b'0'..=b'9').collect();
    bytes.extend_from_slice(b"-_.=+/ \0\x7f\xff\xc3");
    bytes
}

#[test]
fn every_single_byte_change_is_rejected() {
    for mode in [Mode::Signed, Mode::Sealed] {
        let codec = codec(mode);
        let ticket = minted(&codec, &mut SplitMix64::new(1)).into_bytes();
        assert!(open(&codec, &ticket).is_ok());
        let mut changes = 0;
        for at in 0..ticket.len() {
            for &byte in &replacement_bytes() {
                if byte == ticket[at] {
                    continue;
                }
                let mut changed = ticket.clone();
                changed[at] = byte;
                let opened = open(&codec, &changed);
                assert!(!opened.is_ok(), "{mode:?}: byte {at} -> {byte:#x} was accepted");
                changes += 1;
            }
        }
        assert!(changes > 10_000, "{changes}");
    }
}

#[test]
fn every_payload_field_edit_under_the_old_tag_is_rejected() {
    let codec = codec(Mode::Signed);
    let ticket = minted(&codec, &mut SplitMix64::new(2));
    let payload = inspect(&ticket).payload.expect("readable payload");
    let edits: Vec<(&str, Value)> = vec![
        ("data", json!({"price": 1.0})),
        ("data", json!({"price": 190.0, "extra": true})),
        (
            "dig",
            json!(RequestDigest::of("tools/call", &json!({"name": "buy_ticket", "arguments": {"quantity": 20}}))
                .expect("params are an object")
                .as_str()),
        ),
        ("exp", json!(10_000_000)),
        ("iat", json!(5)),
        ("nonce", json!("AAAAAAAAAAAAAAAAAAAAAA")),
        ("sub", json!("alice")),
    ];
    for (field, value) in edits {
        let mut edited = payload.clone();
        edited[field] = value;
        let forged = with_payload(&ticket, &edited);
        let opened = open(&codec, &forged);
        assert_eq!(opened.status(Check::Signature), Status::Failed, "edit of {field} was not caught by the signature");
    }
    // The same edits are believed by a server with signing off: that is the lesson.
    let careless = codec_unsigned_view(&ticket);
    assert!(careless.is_ok());
}

fn codec_unsigned_view(ticket: &str) -> mrtr_ticket::Opened {
    let mut payload = inspect(ticket).payload.expect("payload");
    payload["data"] = json!({"price": 1.0});
    let forged = with_payload(ticket, &payload);
    let opened = open(&codec(Mode::Unsigned), &forged);
    assert_eq!(opened.status(Check::Signature), Status::Skipped);
    assert_eq!(opened.trusted().expect("believed").data()["price"], 1.0);
    opened
}

#[test]
fn no_input_panics_and_every_refusal_names_one_failed_check() {
    let mut gen = SplitMix64::new(3);
    let codecs = [codec(Mode::Signed), codec(Mode::Sealed), codec(Mode::Unsigned)];
    let valid = minted(&codecs[0], &mut gen).into_bytes();
    let mut inputs: Vec<Vec<u8>> =
        vec![Vec::new(), b"hello".to_vec(), b"..".to_vec(), b"v1..".to_vec(), vec![b'A'; 1 << 20], vec![b'.'; 65_535]];
    for len in [1usize, 2, 3, 5, 43, 64, 200, 4095, 4096, 4097, 65_536, 1 << 20] {
        inputs.push(bytes(&mut gen, len));
    }
    for _ in 0..400 {
        // Splices of a valid ticket: cut, duplicate, insert random bytes.
        let mut t = valid.clone();
        let at = gen.below(t.len() as u64) as usize;
        match gen.below(4) {
            0 => t.truncate(at),
            1 => t.splice(at..at, valid.iter().copied()).for_each(drop),
            2 => {
                let len = 1 + gen.below(8) as usize;
                t.splice(at..at, bytes(&mut gen, len)).for_each(drop)
            }
            _ => {
                t.remove(at);
            }
        }
        inputs.push(t);
    }
    for input in &inputs {
        for codec in &codecs {
            let opened = open(codec, input);
            let failed = opened.steps().filter(|(_, s)| *s == Status::Failed).count();
            assert_eq!(failed, usize::from(!opened.is_ok()));
            let report = opened.report();
            assert_eq!(report.steps.len(), 9);
        }
        // Its parts are the format's three and at most one more, however many dots (the lab
        // draws each part), and put together they make the ticket again.
        let text = String::from_utf8_lossy(input);
        let seen = inspect(&text);
        if !seen.parts.is_empty() {
            assert!(seen.parts.len() <= 4, "{} parts", seen.parts.len());
            let texts: Vec<&str> = seen.parts.iter().map(|p| p.text.as_str()).collect();
            assert_eq!(texts.join("."), text);
            assert!(seen.parts.iter().all(|p| text.get(p.start..p.end) == Some(p.text.as_str())));
        }
    }
}

#[test]
fn open_of_mint_round_trips_in_every_mode() {
    let mut gen = SplitMix64::new(4);
    for mode in [Mode::Signed, Mode::Sealed, Mode::Unsigned] {
        let codec = codec(mode);
        for i in 0..50u64 {
            let principal = format!("user-{}", gen.below(1000));
            let data = json!({"n": i, "text": format!("é\"\n{}", gen.next_u64()), "list": [1.5, null, true]});
            let params = json!({"name": "tool", "arguments": {"i": i}});
            let request = RequestDigest::of("tools/call", &params).expect("params are an object");
            let now = gen.below(1 << 40);
            let mint = Mint {
                principal: principal.clone(),
                request: request.clone(),
                data: data.clone(),
                now_ms: now,
                ttl_ms: 1 + gen.below(600_000),
            };
            let ticket = codec.mint(&mint, &mut gen).expect("mintable");
            let opened = codec.open(&ticket, &Expect { principal: &principal, request: &request, now_ms: now }, None);
            let trusted = opened.trusted().expect("round trip");
            assert_eq!(trusted.data(), &data);
            assert_eq!(trusted.claims().sub, principal);
            assert_eq!(trusted.claims().iat, now);
        }
    }
}

#[test]
fn sealed_tickets_cannot_be_read_and_are_refused_by_a_signing_server() {
    let sealed = codec(Mode::Sealed);
    let ticket = minted(&sealed, &mut SplitMix64::new(5));
    assert!(ticket.starts_with("v1e."));
    let seen = inspect(&ticket);
    assert!(seen.sealed);
    assert_eq!(seen.payload, None);
    assert!(!ticket.contains("bob"));
    let opened = open(&codec(Mode::Signed), &ticket);
    assert_eq!(opened.status(Check::Shape), Status::Failed);
    assert!(opened.explain(Check::Shape).contains("sealed ticket"));
    // Another key cannot open it either.
    let other = Codec::new(Key::new([9u8; 32]).expect("key"), Mode::Sealed);
    let refused = open(&other, &ticket);
    assert_eq!(refused.status(Check::Signature), Status::Failed);
    assert!(refused.explain(Check::Signature).starts_with("the box does not open"));
    // The box's length gives the payload's away (a stream cipher), opened or not.
    let accepted = open(&sealed, &ticket);
    assert_eq!(accepted.status(Check::Signature), Status::Passed);
    assert_eq!(refused.explain(Check::Base64url), accepted.explain(Check::Base64url));
    assert!(!refused.explain(Check::Base64url).ends_with(" 0 bytes"));
}

#[test]
fn oversized_input_stops_at_the_first_check() {
    let codec = codec(Mode::Signed);
    let opened = open(&codec, vec![b'x'; 1 << 20]);
    assert_eq!(opened.status(Check::Size), Status::Failed);
    assert_eq!(opened.explain(Check::Size), "1048576 bytes is over the 4096-byte limit, so nothing else was read");
    assert!(opened.steps().skip(1).all(|(_, s)| s == Status::NotReached));
}

#[test]
fn broken_input_is_described_precisely() {
    let codec = codec(Mode::Signed);
    let cases = [
        ("hello", Check::Shape, "expected three parts separated by dots (v1.…….……), found 1"),
        ("v2.a.b", Check::Shape, "starts with 'v2', this server's tickets start with 'v1.'"),
        (
            "v1.a+b.c",
            Check::Base64url,
            "the payload: character 2 is '+', which is not in the base64url alphabet (A-Z a-z 0-9 - _)",
        ),
        ("v1.e30.AAAA", Check::Base64url, "the tag is 3 bytes; an HMAC-SHA256 tag is 32"),
    ];
    for (input, check, why) in cases {
        let opened = open(&codec, input);
        assert_eq!(opened.status(check), Status::Failed, "{input}");
        assert_eq!(opened.explain(check), why, "{input}");
    }
}

#[test]
fn the_payload_check_reads_exactly_the_six_claims() {
    let codec = codec(Mode::Unsigned);
    let ticket = minted(&codec, &mut SplitMix64::new(7));
    let payload = inspect(&ticket).payload.expect("payload");
    let member = |name: &str| format!("\"{name}\":{}", payload[name]);
    let claims = |names: &[&str]| format!("{{{}}}", names.iter().map(|n| member(n)).collect::<Vec<_>>().join(","));
    let all = ["data", "dig", "exp", "iat", "nonce", "sub"];
    let opened = |text: &str| open(&codec, mrtr_ticket::with_payload_bytes(&ticket, text.as_bytes()));

    // Read: members in any order, spaced, escaped, `data` any JSON.
    let reversed = format!(" {{ {} }} ", all.iter().rev().map(|n| member(n)).collect::<Vec<_>>().join(" , "));
    let escaped = claims(&all).replace("\"sub\":\"bob\"", "\"s\\u0075b\":\"b\\u006fb\"");
    let nested = claims(&all).replace(&member("data"), "\"data\":[1,{\"x\":[null,\"\\n\"]},-2.5e3]");
    for text in [claims(&all), reversed, escaped, nested] {
        assert!(opened(&text).is_ok(), "{text}: {:?}", opened(&text).failure());
    }

    // Refused at the payload check, saying why.
    let exp = payload["exp"].to_string();
    let mut cases = vec![
        (claims(&all[1..]), "missing field `data`".to_owned()),
        (claims(&all[..5]), "missing field `sub`".to_owned()),
        (claims(&all).replacen('{', "{\"role\":1,", 1), "unknown field `role`".to_owned()),
        (claims(&all).replacen('{', &format!("{{{},", member("nonce")), 1), "duplicate field `nonce`".to_owned()),
        (claims(&all).replace(&exp, "-1"), "expected u64".to_owned()),
        (claims(&all).replace(&exp, &format!("{exp}.5")), "expected u64".to_owned()),
        (claims(&all).replace(&exp, "18446744073709551616"), "expected u64".to_owned()),
        (claims(&all).replace("\"bob\"", "7"), "expected a string".to_owned()),
        (claims(&all) + " x", "trailing characters".to_owned()),
        (claims(&all).replace(&member("data"), "\"data\":[1,]"), "trailing comma".to_owned()),
        (
            format!("[{}]", all.iter().map(|n| payload[*n].to_string()).collect::<Vec<_>>().join(",")),
            "not a JSON object".to_owned(),
        ),
    ];
    cases.push((String::from_utf8_lossy(b"{\"x\":\"\xff\"}").into_owned(), "unknown field `x`".to_owned()));
    for (text, why) in cases {
        let refused = opened(&text);
        assert_eq!(refused.status(Check::Payload), Status::Failed, "{text}");
        let explained = refused.explain(Check::Payload);
        assert!(
            explained.starts_with("the payload is not ticket JSON: ") && explained.contains(&why),
            "{text}: {explained}"
        );
    }
}

/// A record that cannot be asked (a store that is down).
struct Down;

impl mrtr_ticket::ReplayRecord for Down {
    fn check_and_insert(&mut self, _: &str, _: u64, _: u64, _: u64) -> Result<(), mrtr_ticket::Refused> {
        Err(mrtr_ticket::Refused::Unavailable("connection refused".into()))
    }
}

#[test]
fn a_record_that_cannot_answer_refuses_the_ticket() {
    let codec = codec(Mode::Signed);
    let ticket = minted(&codec, &mut SplitMix64::new(9));
    let opened = codec.open(&ticket, &Expect { principal: "bob", request: &request(), now_ms: 1_000 }, Some(&mut Down));
    assert_eq!(opened.failure(), Some(&mrtr_ticket::Failure::RecordUnavailable { why: "connection refused".into() }));
    assert_eq!(opened.status(Check::SingleUse), Status::Failed);
    let error = opened.report().error.expect("refused");
    assert_eq!(error["code"], -32603);
    assert_eq!(error["data"]["check"], "single-use");
}
