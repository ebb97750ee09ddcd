//! The shared known-answer vectors (tests/vectors/tickets.json), checked against this crate.
//! tests/test_vectors.py checks the same file with an independent Python implementation.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mrtr_ticket::{
    canonical_json, Check, Claims, Codec, Expect, FixedNonces, Key, Mint, Mode, RequestDigest, UsedNonces,
};
use serde_json::Value;

const VECTORS: &str = include_str!("../../../tests/vectors/tickets.json");

fn vectors() -> Value {
    serde_json::from_str::<Value>(VECTORS).expect("tickets.json is JSON")
}

fn codec(v: &Value) -> Codec {
    let key = Key::new(v["key"].as_str().expect("key").as_bytes()).expect("long key");
    Codec::new(key, Mode::Signed).with_max_len(v["max_len"].as_u64().expect("max_len") as usize)
}

fn digest_of(request: &Value) -> RequestDigest {
    RequestDigest::of(request["method"].as_str().expect("method"), &request["params"]).expect("params are an object")
}

/// Who presents an attempt's ticket, when, and for which request.
fn expect_of<'a>(attempt: &'a Value, digest: &'a RequestDigest) -> Expect<'a> {
    Expect {
        principal: attempt["principal"].as_str().expect("principal"),
        request: digest,
        now_ms: attempt["now_ms"].as_u64().expect("now"),
    }
}

#[test]
fn digests_match_the_vectors() {
    let v = vectors();
    for case in v["digests"].as_array().expect("digests") {
        let method = case["method"].as_str().expect("method");
        let mut kept = case["params"].clone();
        for member in mrtr_ticket::ROUND_ONLY_PARAMS {
            kept.as_object_mut().expect("object").remove(member);
        }
        let text = canonical_json(&serde_json::json!({"method": method, "params": kept}));
        assert_eq!(text, case["canonical"].as_str().expect("canonical"));
        assert_eq!(
            RequestDigest::of(method, &case["params"]).expect("params are an object").as_str(),
            case["digest"].as_str().expect("digest")
        );
    }
}

#[test]
fn minted_tokens_match_the_vectors_exactly() {
    let v = vectors();
    let codec = codec(&v);
    for case in v["mint"].as_array().expect("mint") {
        let claims: Claims = serde_json::from_str(&case["claims"].to_string()).expect("claims");
        let token = codec.mint_claims(&claims, &mut FixedNonces(vec![0])).expect("mintable");
        assert_eq!(token, case["token"].as_str().expect("token"), "{}", case["name"]);
    }
}

#[test]
fn every_attempt_gets_the_expected_verdict() {
    let v = vectors();
    let codec = codec(&v);
    let mut attempts = 0;
    for seq in v["sequences"].as_array().expect("sequences") {
        let mut record = UsedNonces::new();
        let keep_record = seq["record"].as_bool().expect("record");
        for a in seq["attempts"].as_array().expect("attempts") {
            let digest = digest_of(&a["request"]);
            let expect = expect_of(a, &digest);
            let record = keep_record.then_some(&mut record as &mut dyn mrtr_ticket::ReplayRecord);
            let opened = codec.open(a["ticket"].as_str().expect("ticket"), &expect, record);
            let verdict = opened.failure().map_or("accepted", |f| f.check().id());
            assert_eq!(verdict, a["expect"].as_str().expect("expect"), "{}: {}", seq["name"], a["label"]);
            attempts += 1;
        }
    }
    assert_eq!(attempts, 19);
}

#[test]
fn the_lesson_timeline_reads_as_the_lesson_says() {
    let v = vectors();
    let codec = codec(&v);
    let timeline = v["sequences"].as_array().expect("sequences").last().expect("timeline").clone();
    let explained: Vec<String> = timeline["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| {
            let digest = digest_of(&a["request"]);
            let expect = expect_of(a, &digest);
            let opened = codec.open(a["ticket"].as_str().expect("ticket"), &expect, None);
            match opened.failure() {
                None => "accepted".to_owned(),
                Some(f) => format!("{}: {}", f.check().id(), opened.explain(f.check())),
            }
        })
        .collect();
    assert_eq!(explained[0], "accepted");
    assert!(explained[1].starts_with("signature: the tag does not match"));
    assert_eq!(explained[2], "principal: minted for bob, presented by alice");
    assert_eq!(explained[3], "expiry: expired at 120 s, now 300 s (180 s too late)");
    assert!(explained[4].starts_with("request: minted for request Viu00c12…"));
    assert_eq!(explained[5], "accepted");
}

#[test]
fn failures_answer_with_invalid_params_and_say_what_to_do() {
    let v = vectors();
    let codec = codec(&v);
    let token = v["mint"][0]["token"].as_str().expect("token");
    let digest = digest_of(&v["sequences"][0]["attempts"][0]["request"]);
    let opened = codec.open(token, &Expect { principal: "bob", request: &digest, now_ms: 300_000 }, None);
    let report = opened.report();
    let error = report.error.expect("refused");
    assert_eq!(error["code"], -32602);
    assert_eq!(error["message"], "Invalid requestState: expired. Start the request again without it.");
    assert_eq!(error["data"]["reason"], "invalid_request_state");
    assert_eq!(report.failed_check, Some(Check::Expiry));
    let marks: String = report.steps.iter().map(|s| s.mark).collect();
    assert_eq!(marks, "✓✓✓✓✓✓✗––");
}

fn mode(case: &Value) -> Mode {
    serde_json::from_value(case["mode"].clone()).expect("a mode")
}

fn key_of(text: &Value) -> Key {
    Key::new(text.as_str().expect("key").as_bytes()).expect("long key")
}

#[test]
fn every_rule_mints_as_the_vectors_say() {
    let v = vectors();
    for case in v["rules"]["mint"].as_array().expect("mint rules") {
        let codec = Codec::new(key_of(&case["key"]), mode(case))
            .with_max_len(case["max_len"].as_u64().expect("max_len") as usize);
        let nonces: Vec<u8> = (0..24)
            .map(|i| u8::from_str_radix(&case["nonces"].as_str().expect("hex")[2 * i..2 * i + 2], 16).expect("hex"))
            .collect();
        let minted = RequestDigest::of(case["request"]["method"].as_str().expect("method"), &case["request"]["params"])
            .map_err(|e| e.to_string())
            .and_then(|request| {
                let mint = Mint {
                    principal: case["principal"].as_str().expect("principal").to_owned(),
                    request,
                    data: case["data"].clone(),
                    now_ms: case["now_ms"].as_u64().expect("now"),
                    ttl_ms: case["ttl_ms"].as_u64().expect("ttl"),
                };
                codec.mint(&mint, &mut FixedNonces(nonces)).map_err(|e| e.to_string())
            });
        assert_eq!(minted.ok().as_deref(), case["token"].as_str(), "{}", case["label"]);
    }
}

#[test]
fn every_rule_opens_as_the_vectors_say() {
    let v = vectors();
    let mut attempts = 0;
    for case in v["rules"]["open"].as_array().expect("open rules") {
        let codec = Codec::new(key_of(&v["key"]), mode(case));
        let mut record = UsedNonces::new();
        for a in case["attempts"].as_array().expect("attempts") {
            let digest = digest_of(&a["request"]);
            let expect = expect_of(a, &digest);
            let keep = case["record"].as_bool().expect("record");
            let opened = codec.open(
                a["ticket"].as_str().expect("ticket"),
                &expect,
                keep.then_some(&mut record as &mut dyn mrtr_ticket::ReplayRecord),
            );
            let verdict = opened.failure().map_or("accepted", |f| f.check().id());
            assert_eq!(verdict, a["expect"].as_str().expect("expect"), "{}", case["label"]);
            if let Some(first) = a["first_used_at"].as_u64() {
                assert_eq!(opened.failure(), Some(&mrtr_ticket::Failure::AlreadyUsed { first_used_at: first }));
            }
            attempts += 1;
        }
    }
    assert_eq!(attempts, 37);
}

#[test]
fn every_digest_rule_holds() {
    let v = vectors();
    for case in v["rules"]["digest"].as_array().expect("digest rules") {
        let digest = case["method"]
            .as_str()
            .ok_or("no method")
            .and_then(|method| RequestDigest::of(method, &case["params"]).map_err(|_| "params"));
        match case["refused"].as_bool() {
            Some(true) => assert!(digest.is_err(), "{}", case["label"]),
            _ => {
                assert_eq!(digest.map(|d| d.to_string()).ok().as_deref(), case["digest"].as_str(), "{}", case["label"]);
                if let Some(canonical) = case["canonical"].as_str() {
                    let request = serde_json::json!({"method": case["method"], "params": case["params"]});
                    assert_eq!(canonical_json(&request), canonical);
                }
            }
        }
    }
}

#[test]
fn every_key_rule_holds() {
    let v = vectors();
    for case in v["rules"]["keys"].as_array().expect("key rules") {
        let key = Key::new(case["key"].as_str().expect("key").as_bytes());
        assert_eq!(key.is_ok(), case["ok"].as_bool().expect("ok"), "{}", case["label"]);
    }
}
