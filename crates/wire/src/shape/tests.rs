use super::*;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::json;

fn b64(value: &Value) -> String {
    URL_SAFE_NO_PAD.encode(value.to_string())
}

/// The JSON a ticket of the same layers as `ticket` reads as.
fn claims(ticket: &str) -> Option<Value> {
    Ticket::read(ticket).claims
}

#[test]
fn the_lab_typescript_rmcp_and_jwt_tickets_read_by_structure_alone() {
    let lab = format!(
        "v1.{}.{}",
        b64(&json!({"iat": 1_000_000_000_000u64, "exp": 1_000_000_120_000u64, "data": {"env": "staging"}})),
        "TAGTAGTAG"
    );
    let ts = format!("v1.{}.{}", b64(&json!({"p": {"env": "prod"}, "exp": 1_800_000_000u64})), "TAGTAGTAG");
    let jwt = format!("{}.{}.c2lnbmF0dXJl", b64(&json!({"alg": "HS256"})), b64(&json!({"exp": 1_800_000_000u64})));
    assert_eq!(Ticket::read(&lab).lifetime_ms(), Some(120_000), "ms by magnitude");
    assert_eq!(Ticket::read(&ts).expires_at_ms(), Some(1_800_000_000_000), "seconds by magnitude");
    assert_eq!(Ticket::read(&ts).lifetime_ms(), None, "no time it was issued");
    assert!(Ticket::read(&jwt).has_tag());
    assert_eq!(claims(&jwt), Some(json!({"exp": 1_800_000_000u64})), "the header is not the payload");
    let sealed = Ticket::read("v1.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBka");
    assert!(!sealed.shape.readable() && !sealed.has_tag());
    assert!(sealed.payload_edits().is_empty() && sealed.without_tag().is_empty());
    assert_eq!(sealed.byte_edits().len(), 1);
}

#[test]
fn edits_keep_the_shape_and_change_what_they_say() {
    let text =
        format!("v1.{}.TAGTAGTAG", b64(&json!({"p": {"env": "staging"}, "n": "h3k4j5l6", "exp": 1_800_000_000u64})));
    let ts = Ticket::read(&text);
    let edits = ts.payload_edits();
    assert_eq!(claims(&edits[0]).map(|c| c["probe"].clone()), Some(json!(true)), "a member added");
    assert_eq!(claims(&edits[1]).map(|c| c["exp"].clone()), Some(json!(1_800_003_600u64)), "an hour later, in seconds");
    assert_eq!(claims(&edits[2]).map(|c| c["p"]["env"].clone()), Some(json!("prod")));
    assert!(edits.iter().all(|e| e.starts_with("v1.") && e.ends_with(".TAGTAGTAG")));
    let bytes = ts.byte_edits();
    assert!(!bytes.is_empty() && bytes.iter().all(|e| claims(e).is_some()), "still JSON after a byte edit");
    assert_eq!(ts.without_tag().first().map(String::as_str), text.strip_suffix("TAGTAGTAG"));
    assert!(!ts.tag_edits().is_empty() && !ts.tag_edits().contains(&text));
    assert!(ts.with_tag_of(&ts).is_empty(), "a splice of a ticket with itself is no splice");
    let forged = Ticket::read(&ts.forgeries()[0]);
    assert_ne!(forged.claims.as_ref().map(|c| c["n"].clone()), Some(json!("h3k4j5l6")), "the nonce replaced");
    assert_eq!(forged.node.tag().map(|t| t.len()), Some(9), "a tag of the same length");
    let resigned = ts.resigned();
    assert_eq!(resigned.len(), 3, "each payload edit under the attacker's tag");
    assert!(resigned.iter().all(|r| !r.ends_with("TAGTAGTAG")));
}

#[test]
fn plain_json_tickets_are_edited_as_json_with_their_spacing() {
    let text = r#"{"sub": "bob", "tool": "deploy", "n": "f00dfeed77", "exp": 1800000000}"#;
    let ticket = Ticket::read(text);
    assert!(ticket.shape.readable() && !ticket.has_tag());
    for edit in ticket.byte_edits().iter().chain(&ticket.payload_edits()) {
        assert!(edit.contains("\"sub\": "), "{edit}: spaced as it came");
        assert!(serde_json::from_str::<Value>(edit).is_ok(), "{edit}: still JSON");
    }
    let signed = Ticket::read(r#"{"p":{"env":"staging","n":"abcdefgh"},"sig":"q83vEjRWeJq83vEjRWeJq83vEjRWeJq8"}"#);
    assert!(signed.has_tag());
    let untagged = signed.without_tag();
    assert_eq!(claims(&untagged[0]), Some(json!({"p": {"env": "staging", "n": "abcdefgh"}})));
    let tampered = claims(&signed.tag_edits()[0]).expect("JSON");
    assert_ne!(tampered["sig"], json!("q83vEjRWeJq83vEjRWeJq83vEjRWeJq8"));
    assert!(signed.byte_edits().iter().all(|e| e.contains("q83vEjRWeJq83vEjRWeJq83vEjRWeJq8")), "the tag left alone");
}

#[test]
fn base64_layers_are_written_back_in_their_own_spelling() {
    let padded = STANDARD.encode(r#"{"sub":"bob","n":"zz9yy8xx7"}"#);
    let ticket = Ticket::read(&padded);
    assert!(ticket.shape.readable());
    for edit in ticket.payload_edits().iter().chain(&ticket.byte_edits()) {
        assert!(!edit.contains('-') && !edit.contains('_'), "{edit}: standard alphabet");
        assert!(STANDARD.decode(edit).is_ok(), "{edit}: decodes as the server does");
    }
    let nested = URL_SAFE_NO_PAD.encode(format!("v1.{}.c2lnbmF0dXJlYnl0ZXM", b64(&json!({"n": "abcdefghij"}))));
    let ticket = Ticket::read(&nested);
    assert!(ticket.has_tag());
    let edited = Ticket::read(&ticket.payload_edits()[0]);
    assert_eq!(edited.claims.as_ref().map(|c| c["n"].clone()), Some(json!("abcdefghij")));
    assert!(edited.claims.as_ref().is_some_and(|c| c.get("probe").is_some()), "a member added");
    assert_eq!(edited.node.tag(), ticket.node.tag());
}

#[test]
fn digits_hex_and_sealed_boxes_are_changed_within_their_kind() {
    let digits = Ticket::read("8172635490");
    assert!(digits.byte_edits()[0].bytes().all(|b| b.is_ascii_digit()));
    assert!(digits.forgeries()[0].bytes().all(|b| b.is_ascii_digit()));
    let hex = Ticket::read("0f3a9c0f3a9c0f3a9c0f3a9c");
    assert!(hex.byte_edits()[0].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    assert!(hex.forgeries()[0].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    assert!(hex.reencoded().is_empty(), "hex is its own standard base64");
    assert!(digits.reencoded().is_empty(), "digits have no other spelling");
}

#[test]
fn rmcps_body_is_an_expiry_then_the_payload() {
    let body = |expiry: i64| {
        let mut bytes = expiry.to_be_bytes().to_vec();
        bytes.extend_from_slice(br#"{"tool":"deploy","env":"staging"}"#);
        URL_SAFE_NO_PAD.encode(bytes)
    };
    let never = Ticket::read(&format!("rs1.{}.TAGTAGTAG", body(0)));
    assert_eq!(never.claims, Some(json!({"tool": "deploy", "env": "staging"})));
    assert_eq!(never.expires_at_ms(), None, "0 is no expiry");
    let edited = Ticket::read(&never.payload_edits()[0]);
    assert_eq!(edited.claims, Some(json!({"tool": "deploy", "env": "staging", "probe": true})));
    let soon = Ticket::read(&format!("rs1.{}.TAGTAGTAG", body(1_800_000_000_000)));
    assert_eq!(soon.expires_at_ms(), Some(1_800_000_000_000));
}

#[test]
fn payloads_that_are_not_objects_are_edited_without_a_panic() {
    for payload in [json!([1, 2]), json!(7), json!("x"), json!(null), json!({"data": "s"}), json!({"p": [true]})] {
        let ticket = Ticket::read(&format!("v1.{}.TAGTAG", b64(&payload)));
        let _ = (ticket.payload_edits(), ticket.resigned(), ticket.reencoded(), ticket.expires_at_ms());
        let _ = (ticket.byte_edits(), ticket.forgeries(), ticket.without_tag(), ticket.tag_edits());
    }
    for text in ["", ".", "...", "{", "[1,", "=", "é.ü", "\u{0}"] {
        let ticket = Ticket::read(text);
        let _ = (ticket.payload_edits(), ticket.byte_edits(), ticket.forgeries(), ticket.reencoded());
    }
}

#[test]
fn beside_a_tag_member_the_edits_go_where_the_tag_covers() {
    let signed =
        Ticket::read(r#"{"p": {"env": "staging", "n": "abcdefghij"}, "sig": "q83vEjRWeJq83vEjRWeJq83vEjRWeJq8"}"#);
    for edit in signed.payload_edits().iter().chain(&signed.forgeries()).chain(&signed.resigned()) {
        let claims = claims(edit).expect("JSON");
        assert_eq!(claims.as_object().map(|m| m.len()), Some(2), "{edit}: nothing added beside the tag");
    }
    assert!(claims(&signed.payload_edits()[0]).is_some_and(|c| c["p"].get("probe").is_some()));
}

#[test]
fn json_text_then_a_tag_and_other_separators_are_read_by_structure() {
    // JSON text whose strings hold dots, then `~` and a tag: the JSON is read whole.
    let suffixed = Ticket::read(r#"{"plan": "v1.2 to prod", "n": 7}~c2lnbmF0dXJlLXRhZw"#);
    assert_eq!(suffixed.claims, Some(json!({"plan": "v1.2 to prod", "n": 7})));
    assert!(suffixed.has_tag());
    for edit in suffixed.payload_edits() {
        let (json, tag) = edit.rsplit_once('~').expect("the separator is kept");
        assert_eq!(tag, "c2lnbmF0dXJlLXRhZw", "an edit of the payload keeps the tag");
        assert!(serde_json::from_str::<Value>(json).is_ok(), "{json}");
    }
    // prefix~payload~tag, split at `~` as a dotted ticket is at `.`.
    let tilde = Ticket::read(&format!("v1~{}~TAGTAGTAG", URL_SAFE_NO_PAD.encode(br#"{"env":"staging"}"#)));
    assert_eq!(tilde.claims, Some(json!({"env": "staging"})));
    assert!(tilde.tag_edits().iter().all(|t| t.starts_with("v1~") && t.matches('~').count() == 2));
    // A mark inside text that is not made of tokens does not split it.
    assert_eq!(Ticket::read("2026-12-05T18:00:00Z").claims, None);
}
