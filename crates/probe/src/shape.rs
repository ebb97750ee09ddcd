//! Tickets of every shape a server may issue: which parts a ticket has, where a byte is
//! changed, how its lifetime is read, and the edits each attack makes, in that shape's terms.
//!
//! A server's ticket is foreign input. Nothing here indexes into it: every part is found by
//! search, every decode may fail, and an edit that has no meaning for a shape is `None`, so
//! the attack says "not tested" with the reason instead of sending something meaningless.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use mrtr_sim::moves::forged_with_attacker_key;
use serde::Serialize;
use serde_json::Value;
use std::ops::Range;

/// The shapes of ticket the probe knows, each from an SDK or a convention. Serialized as
/// [`Shape::id`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `v1.payload.tag`, a JSON payload with `iat` and `exp` in milliseconds: this lab's signed tickets.
    Lab,
    /// `v1e.nonce.box`: this lab's sealed tickets (AEAD).
    LabSealed,
    /// `v1.payload.tag`, payload `{"p", "exp" (seconds), "b"?}`: the TypeScript SDK's codec.
    TypeScript,
    /// `v1.box`: one sealed segment after the prefix (the Python and Ruby SDKs).
    SealedOne,
    /// `rs1.payload.tag` or `rs2.kid.payload.tag`: rmcp's codec.
    Rmcp,
    /// `header.payload.signature`, the header JSON with `alg`: JWT-style.
    Jwt,
    /// Two parts, `payload.tag`, with or without a prefix before them (the PHP SDK's).
    TwoPart,
    /// None of the above: one opaque string.
    Opaque,
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl Shape {
    /// Its identifier in reports.
    pub fn id(self) -> &'static str {
        match self {
            Shape::Lab => "lab",
            Shape::LabSealed => "lab-sealed",
            Shape::TypeScript => "typescript-codec",
            Shape::SealedOne => "sealed-one-segment",
            Shape::Rmcp => "rmcp",
            Shape::Jwt => "jwt",
            Shape::TwoPart => "two-part",
            Shape::Opaque => "opaque",
        }
    }

    /// What it is, in a few words for a report.
    pub fn words(self) -> &'static str {
        match self {
            Shape::Lab => "this lab's signed ticket (v1.payload.tag, times in ms)",
            Shape::LabSealed => "this lab's sealed ticket (v1e.nonce.box)",
            Shape::TypeScript => "the TypeScript SDK codec's ticket (v1.payload.tag, exp in seconds)",
            Shape::SealedOne => "a sealed ticket of one segment (prefix.box, as the Python SDK's)",
            Shape::Rmcp => "rmcp's ticket (rs1.payload.tag or rs2.kid.payload.tag)",
            Shape::Jwt => "a JWT-style ticket (header.payload.signature)",
            Shape::TwoPart => "a ticket of a payload and a tag ([prefix.]payload.tag)",
            Shape::Opaque => "an opaque ticket (no parts the probe can name)",
        }
    }
}

/// A ticket read as far as its shape allows: which byte ranges are the payload and the tag,
/// and the payload's JSON where it reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticket {
    /// The ticket as the server sent it.
    pub text: String,
    /// Its shape.
    pub shape: Shape,
    /// Where its readable (or, sealed, its opaque) body is: what tamper-byte changes.
    pub body: Range<usize>,
    /// Where its tag is, when it has one apart from the body.
    pub tag: Option<Range<usize>>,
    /// The payload's JSON, when the body is base64 of JSON (after rmcp's 8-byte expiry).
    pub claims: Option<Value>,
    /// Bytes of the decoded body before the payload: rmcp's big-endian expiry in ms (0: none).
    head: Vec<u8>,
}

/// The length of rmcp's binary head: a big-endian i64 expiry in ms.
const RMCP_HEAD: usize = 8;

/// The byte ranges of the dot-separated segments of `text`.
fn segments(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (at, byte) in text.bytes().enumerate() {
        if byte == b'.' {
            ranges.push(start..at);
            start = at + 1;
        }
    }
    ranges.push(start..text.len());
    ranges
}

/// Decodes base64 in any of its spellings (url-safe or standard, padded or not).
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let trimmed = text.trim_end_matches('=');
    URL_SAFE_NO_PAD.decode(trimmed).ok().or_else(|| STANDARD.decode(text).ok())
}

/// The JSON a base64 segment holds, if it does.
fn json_of(segment: &str) -> Option<Value> {
    serde_json::from_slice(&decode_base64(segment)?).ok()
}

/// A short alphanumeric prefix such as `v1`, `v1e`, `rs1`.
fn is_prefix(segment: &str) -> bool {
    (1..=5).contains(&segment.len()) && segment.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Ticket {
    /// Reads `text`: its shape, parts and claims. Never fails; what it cannot name is opaque.
    ///
    /// ```
    /// use mrtr_probe::{Shape, Ticket};
    /// assert_eq!(Ticket::read("v1.eyJwIjp7fSwiZXhwIjoxNzAwMDAwMDAwfQ.c2ln").shape, Shape::TypeScript);
    /// assert_eq!(Ticket::read("v1.AAECAwQFBgcICQoLDA0ODxAREhM").shape, Shape::SealedOne);
    /// assert_eq!(Ticket::read("hello").shape, Shape::Opaque);
    /// ```
    pub fn read(text: &str) -> Ticket {
        let parts = segments(text);
        let part = |i: usize| parts.get(i).and_then(|r| text.get(r.clone())).unwrap_or_default();
        let whole = 0..text.len();
        let (shape, body, tag) = match parts.len() {
            2 if is_prefix(part(0)) && part(1).len() > 8 => (Shape::SealedOne, parts[1].clone(), None),
            2 => (Shape::TwoPart, parts[0].clone(), Some(parts[1].clone())),
            3 if part(0) == "v1e" => (Shape::LabSealed, parts[1].clone(), Some(parts[2].clone())),
            3 if part(0) == "rs1" => (Shape::Rmcp, parts[1].clone(), Some(parts[2].clone())),
            4 if part(0) == "rs2" => (Shape::Rmcp, parts[2].clone(), Some(parts[3].clone())),
            3 if is_prefix(part(0)) => {
                let claims = json_of(part(1));
                let has = |k: &str| claims.as_ref().and_then(|c| c.get(k)).is_some();
                let shape = if has("iat") && has("exp") {
                    Shape::Lab
                } else if has("p") && has("exp") {
                    Shape::TypeScript
                } else {
                    Shape::TwoPart
                };
                (shape, parts[1].clone(), Some(parts[2].clone()))
            }
            3 if json_of(part(0)).is_some_and(|h| h.get("alg").is_some()) => {
                (Shape::Jwt, parts[1].clone(), Some(parts[2].clone()))
            }
            _ => (Shape::Opaque, whole, None),
        };
        let readable = !matches!(shape, Shape::LabSealed | Shape::SealedOne | Shape::Opaque);
        let decoded = if readable { text.get(body.clone()).and_then(decode_base64) } else { None };
        let head_len = if shape == Shape::Rmcp { RMCP_HEAD } else { 0 };
        let (head, claims) = match decoded {
            Some(bytes) if bytes.len() >= head_len => {
                let (head, payload) = bytes.split_at(head_len);
                (head.to_vec(), serde_json::from_slice(payload).ok())
            }
            _ => (Vec::new(), None),
        };
        Ticket { text: text.to_owned(), shape, body, tag: tag.filter(|t| !t.is_empty()), claims, head }
    }

    fn slice(&self, range: &Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or_default()
    }

    /// The ticket with one character in the middle of its body changed to another base64
    /// character: a payload byte, or a sealed box's.
    pub fn with_body_byte_changed(&self) -> Option<String> {
        flip_middle(&self.text, &self.body)
    }

    /// The ticket with one character in the middle of its tag changed.
    pub fn with_tag_byte_changed(&self) -> Option<String> {
        flip_middle(&self.text, self.tag.as_ref()?)
    }

    /// The ticket without its tag (the dot before it kept).
    pub fn without_tag(&self) -> Option<String> {
        let tag = self.tag.as_ref()?;
        self.text.get(..tag.start).map(str::to_owned)
    }

    /// This ticket's body under `other`'s tag, when both have one and the result differs from
    /// both tickets (a splice that reproduces a ticket the server issued is no splice).
    pub fn with_tag_of(&self, other: &Ticket) -> Option<String> {
        let spliced = format!("{}{}", self.without_tag()?, other.slice(other.tag.as_ref()?));
        (spliced != self.text && spliced != other.text).then_some(spliced)
    }

    /// The readable payload with its most tempting value changed, the old tag kept.
    pub fn with_payload_edited(&self) -> Option<String> {
        let mut claims = self.claims.clone()?;
        edit_value(&mut claims);
        self.with_claims(&claims)
    }

    /// The edited payload under a well-formed tag made with the attacker's own key: an
    /// HMAC-SHA256 of the length the server's has, which only the server's key could make
    /// right. This lab's tickets are signed (or sealed) anew in their own format.
    pub fn resigned(&self) -> Option<String> {
        if self.shape == Shape::LabSealed {
            return Some(forged_with_attacker_key(&self.text, &serde_json::json!({"sub": "bob", "data": {}})));
        }
        let mut claims = self.claims.clone()?;
        edit_value(&mut claims);
        let lab_forgery = forged_with_attacker_key("v1.e30.x", &claims);
        if self.shape == Shape::Lab {
            return Some(lab_forgery);
        }
        let attacker_tag = lab_forgery.rsplit('.').next()?;
        let edited = Ticket::read(&self.with_claims(&claims)?);
        let tag = edited.tag.clone()?;
        let forged = format!("{}{attacker_tag}", edited.text.get(..tag.start)?);
        (forged != self.text).then_some(forged)
    }

    /// The same claims written back in other bytes (pretty-printed JSON), or every base64
    /// part spelt as standard base64 with padding: what a client that "tidies" the ticket sends.
    pub fn reencoded(&self) -> Option<String> {
        let tidied = match &self.claims {
            Some(claims) => self.with_payload_bytes(format!("{claims:#}").as_bytes())?,
            None => {
                let parts: Vec<String> = segments(&self.text)
                    .iter()
                    .map(|r| {
                        let part = self.slice(r);
                        match decode_base64(part) {
                            Some(bytes) if !is_prefix(part) => STANDARD.encode(bytes),
                            _ => part.to_owned(),
                        }
                    })
                    .collect();
                parts.join(".")
            }
        };
        (tidied != self.text).then_some(tidied)
    }

    /// `claims` in place of the payload, the tag kept.
    pub fn with_claims(&self, claims: &Value) -> Option<String> {
        self.with_payload_bytes(serde_json::to_string(claims).ok()?.as_bytes())
    }

    fn with_payload_bytes(&self, bytes: &[u8]) -> Option<String> {
        self.claims.as_ref()?;
        let before = self.text.get(..self.body.start)?;
        let after = self.text.get(self.body.end..)?;
        let body = [self.head.as_slice(), bytes].concat();
        Some(format!("{before}{}{after}", URL_SAFE_NO_PAD.encode(body)))
    }

    /// When the ticket says it expires, in ms since the epoch. The shape says the unit (this
    /// lab: ms; the TypeScript codec and JWT: seconds); elsewhere `exp` reads as seconds below
    /// 10^11 and as milliseconds above (a date in 1973 in ms is a date in 5138 in seconds).
    pub fn expires_at_ms(&self) -> Option<u64> {
        if self.shape == Shape::Rmcp {
            let head: [u8; RMCP_HEAD] = self.head.as_slice().try_into().ok()?;
            return u64::try_from(i64::from_be_bytes(head)).ok().filter(|ms| *ms > 0);
        }
        self.time_ms("exp")
    }

    /// How long the ticket lives, ms, where it says when it was issued too (`iat`).
    pub fn lifetime_ms(&self) -> Option<u64> {
        self.expires_at_ms()?.checked_sub(self.time_ms("iat")?)
    }

    fn time_ms(&self, claim: &str) -> Option<u64> {
        let t = self.claims.as_ref()?.get(claim)?.as_f64()?;
        if !t.is_finite() || t < 0.0 {
            return None;
        }
        let seconds = match self.shape {
            Shape::Lab => false,
            Shape::TypeScript | Shape::Jwt => true,
            _ => t < 1e11,
        };
        let ms = if seconds { t * 1000.0 } else { t };
        (ms < 1e15).then_some(ms as u64)
    }
}

/// Changes the character in the middle of `range` to another base64 character.
fn flip_middle(text: &str, range: &Range<usize>) -> Option<String> {
    if range.is_empty() {
        return None;
    }
    let at = range.start + range.len() / 2;
    let mut bytes = text.as_bytes().to_vec();
    let byte = bytes.get_mut(at)?;
    if !byte.is_ascii() {
        return None;
    }
    *byte = if *byte == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).ok()
}

/// The most tempting edit of a payload: `staging` becomes `prod`, any other first string
/// gets a suffix, or else the first number grows; nothing found, a member is added. Works on
/// any JSON, object or not.
fn edit_value(value: &mut Value) {
    /// The first leaf, depth first, that `is` says yes to.
    fn first(value: &mut Value, is: fn(&Value) -> bool) -> Option<&mut Value> {
        match value {
            Value::Array(items) => items.iter_mut().find_map(|v| first(v, is)),
            Value::Object(members) => members.values_mut().find_map(|v| first(v, is)),
            leaf if is(leaf) => Some(leaf),
            _ => None,
        }
    }
    // A payload's `p` (TypeScript) or `data` (the lab) holds the tool's own state: edit there first.
    let inner = match value {
        Value::Object(members) if members.contains_key("data") => members.get_mut("data"),
        Value::Object(members) if members.contains_key("p") => members.get_mut("p"),
        _ => None,
    };
    let target = match inner {
        Some(inner) => inner,
        None => value,
    };
    if let Some(Value::String(text)) = first(target, Value::is_string) {
        *text = if text == "staging" { "prod".to_owned() } else { format!("{text}-edited") };
    } else if let Some(number) = first(target, Value::is_number) {
        *number = (number.as_f64().unwrap_or(0.0) + 1.0).into();
    } else if let Value::Object(members) = target {
        members.insert("approved".into(), true.into());
    } else {
        *target = serde_json::json!({"approved": true});
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn b64(value: &Value) -> String {
        URL_SAFE_NO_PAD.encode(value.to_string())
    }

    #[test]
    fn each_shape_is_recognised_with_its_parts() {
        let lab =
            format!("v1.{}.{}", b64(&json!({"iat": 1_000, "exp": 121_000, "data": {"env": "staging"}})), "TAGTAG");
        let ts = format!("v1.{}.{}", b64(&json!({"p": {"env": "prod"}, "exp": 1_800_000_000u64})), "TAGTAG");
        let jwt = format!("{}.{}.sig", b64(&json!({"alg": "HS256"})), b64(&json!({"exp": 1_800_000_000u64})));
        let rs2 = format!("rs2.k1.{}.TAGTAG", b64(&json!({"x": 1})));
        let cases = [
            (lab.as_str(), Shape::Lab),
            (ts.as_str(), Shape::TypeScript),
            ("v1.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBka", Shape::SealedOne),
            ("v1e.NONCENONCE.BOXBOXBOX", Shape::LabSealed),
            (rs2.as_str(), Shape::Rmcp),
            (jwt.as_str(), Shape::Jwt),
            ("eyJhIjoxfQ.bWFj", Shape::TwoPart),
            ("hello", Shape::Opaque),
            ("", Shape::Opaque),
            ("...", Shape::Opaque),
        ];
        for (text, shape) in cases {
            assert_eq!(Ticket::read(text).shape, shape, "{text}");
        }
        assert_eq!(Ticket::read(&lab).lifetime_ms(), Some(120_000));
        assert_eq!(Ticket::read(&ts).expires_at_ms(), Some(1_800_000_000_000), "exp in seconds");
        assert_eq!(Ticket::read(&ts).lifetime_ms(), None, "no iat");
    }

    #[test]
    fn edits_keep_the_shape_and_change_what_they_say() {
        let ts =
            Ticket::read(&format!("v1.{}.TAGTAG", b64(&json!({"p": {"env": "staging"}, "exp": 1_800_000_000u64}))));
        let edited = Ticket::read(&ts.with_payload_edited().expect("readable"));
        assert_eq!(edited.claims, Some(json!({"p": {"env": "prod"}, "exp": 1_800_000_000u64})));
        assert!(edited.text.ends_with(".TAGTAG"));
        assert_eq!(ts.without_tag().as_deref(), ts.text.strip_suffix("TAGTAG"));
        assert_ne!(ts.with_tag_byte_changed(), Some(ts.text.clone()));
        let sealed = Ticket::read("v1.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBka");
        assert_eq!(sealed.with_payload_edited(), None, "a sealed box cannot be edited");
        assert_eq!(sealed.without_tag(), None, "nor has it a tag apart");
        assert!(sealed.with_body_byte_changed().is_some());
        assert_eq!(ts.with_tag_of(&ts), None, "a splice of a ticket with itself is no splice");
    }

    #[test]
    fn rmcps_body_is_an_expiry_then_the_payload() {
        let body = |expiry: i64| {
            let mut bytes = expiry.to_be_bytes().to_vec();
            bytes.extend_from_slice(br#"{"tool":"deploy","env":"staging"}"#);
            URL_SAFE_NO_PAD.encode(bytes)
        };
        let never = Ticket::read(&format!("rs1.{}.TAGTAG", body(0)));
        assert_eq!(never.claims, Some(json!({"tool": "deploy", "env": "staging"})));
        assert_eq!(never.expires_at_ms(), None, "0 is no expiry");
        let edited = Ticket::read(&never.with_payload_edited().expect("readable"));
        assert_eq!(edited.claims, Some(json!({"tool": "deploy-edited", "env": "staging"})));
        assert_eq!(edited.expires_at_ms(), None, "the head is kept");
        let soon = Ticket::read(&format!("rs1.{}.TAGTAG", body(1_800_000_000_000)));
        assert_eq!(soon.expires_at_ms(), Some(1_800_000_000_000));
    }

    #[test]
    fn payloads_that_are_not_objects_are_edited_without_a_panic() {
        for payload in [json!([1, 2]), json!(7), json!("x"), json!(null), json!({"data": "s"}), json!({"p": [true]})] {
            let ticket = Ticket::read(&format!("v1.{}.TAGTAG", b64(&payload)));
            let _ = ticket.with_payload_edited();
            let _ = ticket.resigned();
            let _ = ticket.reencoded();
            let _ = ticket.expires_at_ms();
        }
    }
}
