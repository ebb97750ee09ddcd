//! How the malicious client mangles a ticket: the edits a forger without the key can make,
//! and what the attacker's own key makes.

use crate::cluster::ATTACKER_KEY;
use base64::Engine;
use mrtr_ticket::{inspect, with_payload, with_payload_bytes, Codec, FixedNonces, Key, Mode};
use serde_json::json;
use serde_json::Value;

/// `claims` in place of the ticket's payload, the old tag kept: what a forger without the key
/// can do. A sealed ticket has no payload to swap (it does not read without the key), so one
/// character of its box is changed blind instead, the tag still at its end.
///
/// ```
/// use mrtr_sim::moves::edited_keeping_tag;
/// let claims = serde_json::json!({"price": 1.0});
/// assert_eq!(edited_keeping_tag("v1.e30.TAG", &claims), "v1.eyJwcmljZSI6MX0.TAG");
/// assert_eq!(edited_keeping_tag("v1e.NONCE.BOXBOX", &claims), "v1e.NONCE.BOXAOX");
/// ```
pub fn edited_keeping_tag(ticket: &str, claims: &Value) -> String {
    if Mode::of_ticket(ticket) != Mode::Sealed {
        return with_payload(ticket, claims);
    }
    flip_tag_char(ticket)
}

/// A ticket carrying `claims`, made by the attacker with its own key in the format of
/// `ticket`: signed, or sealed when `ticket` is. Only the server's key makes one that opens.
///
/// ```
/// use mrtr_sim::moves::forged_with_attacker_key;
/// let claims = serde_json::json!({"sub": "bob"});
/// assert!(forged_with_attacker_key("v1.e30.TAG", &claims).starts_with("v1.eyJzdWIiOiJib2IifQ."));
/// assert!(forged_with_attacker_key("v1e.NONCE.BOX", &claims).starts_with("v1e."));
/// ```
pub fn forged_with_attacker_key(ticket: &str, claims: &Value) -> String {
    wrapped_by_attacker(Mode::of_ticket(ticket), mrtr_ticket::canonical_json(claims).as_bytes())
}

/// `payload` signed or sealed with the attacker's own key.
fn wrapped_by_attacker(mode: Mode, payload: &[u8]) -> String {
    let key = Key::new(ATTACKER_KEY).unwrap_or_else(|_| unreachable!("32 bytes"));
    Codec::new(key, mode).wrap_payload(payload, &mut FixedNonces(vec![7]))
}

/// Changes the character at `at` to another base64url character (`A`, or `B` where it was
/// `A`): the smallest edit a student can make.
pub fn flip_char_at(ticket: &str, at: usize) -> String {
    let mut bytes = ticket.as_bytes().to_vec();
    if let Some(b) = bytes.get_mut(at) {
        *b = if *b == b'A' { b'B' } else { b'A' };
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Signs the ticket's payload again, as it stands, with the attacker's own key. A sealed
/// payload does not read without the server's key: made-up claims are sealed instead.
pub fn resign_with_attacker_key(ticket: &str) -> String {
    if Mode::of_ticket(ticket) == Mode::Sealed {
        return forged_with_attacker_key(ticket, &made_up_claims());
    }
    let payload = ticket.split('.').nth(1).and_then(|p| mrtr_ticket::base64url_decode(p).ok()).unwrap_or_default();
    wrapped_by_attacker(Mode::Signed, &payload)
}

/// The claims a forger writes where it cannot read the real ones.
pub(super) fn made_up_claims() -> Value {
    json!({"sub": "bob", "data": {}})
}

/// The ticket as a client that "tidies" it would send it: a readable payload decoded and
/// its JSON written back pretty-printed (the same claims in other bytes); a payload it
/// cannot read (a sealed ticket) re-encoded, every part after the prefix, as standard
/// base64 with padding. The tag is kept as it was.
///
/// ```
/// use mrtr_sim::moves::reencoded;
/// use mrtr_ticket::inspect;
/// let ticket = "v1.eyJzdWIiOiJib2IifQ.tag";
/// let tidied = reencoded(ticket);
/// assert_ne!(tidied, ticket);
/// assert_eq!(inspect(&tidied).payload, inspect(ticket).payload);
/// assert_eq!(reencoded("v1e.ab-c_w.xyz"), "v1e.ab+c/w==.xyz");
/// ```
pub fn reencoded(ticket: &str) -> String {
    if let Some(pretty) = inspect(ticket).payload.map(|payload| format!("{payload:#}")) {
        return with_payload_bytes(ticket, pretty.as_bytes());
    }
    match ticket.split_once('.') {
        Some((prefix, rest)) => {
            // Each part that is base64url, spelt as standard base64 with padding.
            let standard = |part: &str| match mrtr_ticket::base64url_decode(part) {
                Ok(bytes) => base64::engine::general_purpose::STANDARD.encode(bytes),
                Err(_) => part.to_owned(),
            };
            let parts: Vec<String> = rest.split('.').map(standard).collect();
            format!("{prefix}.{}", parts.join("."))
        }
        None => ticket.to_owned(),
    }
}

/// Changes one character in the middle of the payload to another base64url character.
pub fn flip_one_char(ticket: &str) -> String {
    let first_dot = ticket.find('.').unwrap_or(0);
    flip_middle(ticket, first_dot + 1, ticket.rfind('.').unwrap_or(ticket.len()))
}

/// Changes one character in the middle of the tag (a sealed ticket's box).
pub fn flip_tag_char(ticket: &str) -> String {
    flip_middle(ticket, ticket.rfind('.').map_or(0, |dot| dot + 1), ticket.len())
}

/// Everything up to the last dot: the ticket without its tag.
///
/// ```
/// assert_eq!(mrtr_sim::moves::without_tag("v1.e30.TAG"), "v1.e30.");
/// assert_eq!(mrtr_sim::moves::with_tag_of("v1.e30.TAG", "v1.eyJ9.OTHER"), "v1.e30.OTHER");
/// ```
pub fn without_tag(ticket: &str) -> &str {
    ticket.rfind('.').map_or(ticket, |dot| &ticket[..=dot])
}

/// `ticket` with the tag of `other`.
pub fn with_tag_of(ticket: &str, other: &str) -> String {
    let tag = other.rfind('.').map_or("", |dot| &other[dot + 1..]);
    format!("{}{tag}", without_tag(ticket))
}

/// Changes the character in the middle of the bytes `from..to` of the ticket.
fn flip_middle(ticket: &str, from: usize, to: usize) -> String {
    flip_char_at(ticket, from + to.saturating_sub(from) / 2)
}
