//! Reading a ticket without the key: what a client (or an attacker) can see, and as much
//! as can be made of broken input, with exactly what is wrong.

use crate::b64;
use crate::Mode;
use serde::Serialize;
use serde_json::Value;

/// What one part of a ticket is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// `v1` or `v1e`.
    Prefix,
    /// Signed mode: the readable payload.
    Payload,
    /// Signed mode: the HMAC tag.
    Tag,
    /// Sealed mode: the AEAD nonce.
    Nonce,
    /// Sealed mode: ciphertext and tag.
    SealedBox,
    /// Everything past the third part, dots and all (one part however many dots follow).
    Extra,
}

impl Role {
    /// A word for the part, so colour is never the only cue.
    pub fn label(self) -> &'static str {
        match self {
            Role::Prefix => "prefix",
            Role::Payload => "payload",
            Role::Tag => "signature",
            Role::Nonce => "nonce",
            Role::SealedBox => "sealed box",
            Role::Extra => "extra",
        }
    }
}

/// One dot-separated part, with its byte range in the ticket. The first three parts are
/// the format's; whatever follows the third dot is one [`Role::Extra`] part, so a pasted
/// run of dots is a few parts, not one per dot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    /// What it is.
    pub role: Role,
    /// Byte offset where it starts.
    pub start: usize,
    /// Byte offset just past its end.
    pub end: usize,
    /// Its text.
    pub text: String,
}

/// What can be read from a ticket without the key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inspection {
    /// The parts, in order.
    pub parts: Vec<Part>,
    /// The decoded payload as text (signed mode), even when it is not valid JSON.
    pub payload_text: Option<String>,
    /// The decoded payload as JSON, when it is.
    pub payload: Option<Value>,
    /// Everything wrong with it, each with a position where there is one.
    pub problems: Vec<String>,
    /// True for a sealed ticket: its payload cannot be read without the key.
    pub sealed: bool,
}

/// The longest input [`inspect`] reads; past it, only the length is reported.
pub const INSPECT_MAX_LEN: usize = 64 * 1024;

/// Reads what anyone can read from a ticket, and lists what is wrong with it.
///
/// ```
/// let seen = mrtr_ticket::inspect("v1.eyJzdWIiOiJib2IifQ.AAAA");
/// assert_eq!(seen.payload.unwrap()["sub"], "bob");
/// assert_eq!(seen.problems, ["the signature is 3 bytes; HMAC-SHA256 gives 32"]);
/// let broken = mrtr_ticket::inspect("hello");
/// assert!(broken.problems[0].contains("three parts"));
/// let dotted = mrtr_ticket::inspect("v1.e30.AAAA.x.y");
/// assert_eq!(dotted.parts.last().unwrap().text, "x.y");
/// assert!(dotted.problems[0].ends_with("found 5"));
/// ```
pub fn inspect(ticket: &str) -> Inspection {
    let mut seen =
        Inspection { parts: Vec::new(), payload_text: None, payload: None, problems: Vec::new(), sealed: false };
    if ticket.len() > INSPECT_MAX_LEN {
        seen.problems.push(format!("{} bytes is far longer than any ticket; not read", ticket.len()));
        return seen;
    }
    if ticket.trim() != ticket {
        seen.problems.push("white space at the start or end: copy the ticket exactly".to_owned());
    }
    let texts: Vec<&str> = ticket.splitn(4, '.').collect();
    seen.sealed = Mode::of_ticket(ticket) == Mode::Sealed;
    let roles = if seen.sealed {
        [Role::Prefix, Role::Nonce, Role::SealedBox]
    } else {
        [Role::Prefix, Role::Payload, Role::Tag]
    };
    let mut start = 0;
    for (i, text) in texts.iter().enumerate() {
        let role = roles.get(i).copied().unwrap_or(Role::Extra);
        seen.parts.push(Part { role, start, end: start + text.len(), text: (*text).to_owned() });
        start += text.len() + 1;
    }
    let found = ticket.bytes().filter(|&b| b == b'.').count() + 1;
    if found != 3 {
        seen.problems.push(format!("expected three parts separated by dots, found {found}"));
    }
    if !matches!(texts[0], "v1" | "v1e") {
        seen.problems.push(format!("the prefix is '{}', not 'v1' (signed) or 'v1e' (sealed)", texts[0]));
    }
    for part in seen.parts.iter().skip(1).filter(|p| p.role != Role::Extra) {
        match b64::decode(&part.text) {
            Ok(bytes) => {
                if part.role == Role::Payload {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    match serde_json::from_slice::<Value>(&bytes) {
                        Ok(value) => seen.payload = Some(value),
                        Err(e) => seen.problems.push(format!("the payload decodes but is not JSON: {e}")),
                    }
                    seen.payload_text = Some(text);
                } else if part.role == Role::Tag && bytes.len() != 32 && !bytes.is_empty() {
                    seen.problems.push(format!("the signature is {} bytes; HMAC-SHA256 gives 32", bytes.len()));
                } else if part.role == Role::Tag && bytes.is_empty() {
                    seen.problems.push("there is no signature: anyone could have written this payload".to_owned());
                }
            }
            Err(why) => seen.problems.push(format!("{} (at byte {}): {why}", part.role.label(), part.start)),
        }
    }
    seen
}

/// The ticket with its payload replaced and everything else kept: the classic forgery
/// ("edit the price, keep the old signature").
///
/// ```
/// let forged = mrtr_ticket::with_payload("v1.e30.TAG", &serde_json::json!({"price": 1.0}));
/// assert_eq!(forged, "v1.eyJwcmljZSI6MX0.TAG");
/// ```
pub fn with_payload(ticket: &str, payload: &Value) -> String {
    with_payload_bytes(ticket, crate::canonical_json(payload).as_bytes())
}

/// [`with_payload`] with the payload's bytes as given, not as canonical JSON: the same
/// claims written another way, say.
///
/// ```
/// let spaced = mrtr_ticket::with_payload_bytes("v1.e30.TAG", b"{ }");
/// assert_eq!(spaced, "v1.eyB9.TAG");
/// ```
pub fn with_payload_bytes(ticket: &str, payload: &[u8]) -> String {
    let encoded = b64::encode(payload);
    let mut parts: Vec<&str> = ticket.split('.').collect();
    if parts.len() < 2 {
        parts.resize(2, "");
    }
    parts[1] = &encoded;
    parts.join(".")
}
