//! What a ticket carries: the payload, readable by anyone in signed mode.

use crate::canonical;
use crate::digest::RequestDigest;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The ticket payload. Serialized as canonical JSON, so its members appear in the order
/// `data, dig, exp, iat, nonce, sub`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    /// Whatever the tool saved for the next round (a quoted price, the step it reached).
    pub data: Value,
    /// Digest of the request the ticket was minted for.
    pub dig: RequestDigest,
    /// Expiry, in milliseconds on the server's clock: at or after this instant it is refused.
    pub exp: u64,
    /// When it was minted, in milliseconds on the server's clock.
    pub iat: u64,
    /// 128 random bits, base64url: what a replay record remembers.
    pub nonce: String,
    /// The principal it was minted for (who the server authenticated).
    pub sub: String,
}

/// The largest `exp` or `iat` a ticket may carry: 2^53 − 1, the largest integer every JSON
/// implementation reads exactly (JavaScript's `Number.MAX_SAFE_INTEGER`).
pub const MAX_TIME_MS: u64 = (1 << 53) - 1;

/// The length of `dig` (base64url of 32 bytes) and of `nonce` (base64url of 16 bytes).
const DIG_LEN: usize = 43;
const NONCE_LEN: usize = 22;

impl Claims {
    /// The claims in a payload: a JSON object with exactly the six members, of their types
    /// and within the rules of docs/TOKEN.md; a sentence saying what is wrong and where for
    /// anything else. Any member order and white space are read.
    pub(crate) fn read(payload: &[u8]) -> Result<Claims, String> {
        // serde would also read a struct from an array of six.
        if payload.trim_ascii_start().first() != Some(&b'{') {
            return Err("the payload is not a JSON object".to_owned());
        }
        let claims: Claims = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
        check_members(claims.dig.as_str(), claims.exp, claims.iat, &claims.nonce)?;
        Ok(claims)
    }

    /// The payload bytes that go into the ticket: canonical JSON (RFC 8785).
    pub fn to_canonical_json(&self) -> String {
        let mut out = String::with_capacity(160);
        out.push_str("{\"data\":");
        canonical::write_value(&mut out, &self.data);
        out.push_str(",\"dig\":");
        canonical::write_string(&mut out, self.dig.as_str());
        out.push_str(&format!(",\"exp\":{},\"iat\":{}", self.exp, self.iat));
        out.push_str(",\"nonce\":");
        canonical::write_string(&mut out, &self.nonce);
        out.push_str(",\"sub\":");
        canonical::write_string(&mut out, &self.sub);
        out.push('}');
        out
    }

    /// What the `payload` check would refuse in these claims, said in a sentence; `None` when
    /// a ticket may carry them. [`Codec::mint`](crate::Codec::mint) mints nothing `open` refuses.
    pub(crate) fn refusal(&self) -> Option<String> {
        check_members(self.dig.as_str(), self.exp, self.iat, &self.nonce).err()
    }
}

/// The rules on the claims that their JSON types do not say (docs/TOKEN.md).
fn check_members(dig: &str, exp: u64, iat: u64, nonce: &str) -> Result<(), String> {
    let base64url = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    for (name, value) in [("exp", exp), ("iat", iat)] {
        if value > MAX_TIME_MS {
            return Err(format!("`{name}` is {value}, above 2^53 − 1 ({MAX_TIME_MS})"));
        }
    }
    for (name, value, len) in [("dig", dig, DIG_LEN), ("nonce", nonce, NONCE_LEN)] {
        if value.len() != len {
            return Err(format!("`{name}` is {len} base64url characters, not {}", value.chars().count()));
        }
        if !base64url(value) {
            return Err(format!("`{name}` holds a character that is not base64url"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_form_matches_the_generic_encoder() {
        let claims = Claims {
            data: json!({"price": 95.0, "env": "staging"}),
            dig: RequestDigest::from_encoded("abc"),
            exp: 120_000,
            iat: 0,
            nonce: "n".into(),
            sub: "bob".into(),
        };
        let generic = canonical::canonical_json(&serde_json::to_value(&claims).expect("serializable"));
        assert_eq!(claims.to_canonical_json(), generic);
        assert!(generic.starts_with(r#"{"data":{"env":"staging","price":95},"dig""#));
    }

    #[test]
    fn a_payload_reads_back_and_nothing_else_does() {
        let claims = Claims {
            data: json!({"seat": "12A", "quoted": [1, 2.5, null]}),
            dig: RequestDigest::from_encoded("x".repeat(43)),
            exp: 120_000,
            iat: 7,
            nonce: "AAECAwQFBgcICQoLDA0ODw".into(),
            sub: "bob \"é\"".into(),
        };
        let payload = claims.to_canonical_json();
        assert_eq!(Claims::read(payload.as_bytes()), Ok(claims.clone()));
        assert_eq!(claims.refusal(), None);
        // Any member order and white space read the same.
        let spaced = r#" { "sub" : "bob \"é\"", "nonce":"AAECAwQFBgcICQoLDA0ODw", "iat":7, "exp":120000,
            "dig":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "data":{"seat":"12A","quoted":[1,2.5,null]} } "#;
        assert_eq!(Claims::read(spaced.as_bytes()), Ok(claims.clone()));
        let refused = |payload: &str| Claims::read(payload.as_bytes()).err();
        for (other, why) in [
            (payload.replacen("\"sub\"", "\"who\"", 1), "unknown field `who`"),
            (payload.replacen("\"exp\":120000", "\"exp\":-1", 1), "invalid value: integer `-1`"),
            (payload.replacen("\"exp\":120000", "\"exp\":1.5", 1), "invalid type: floating point `1.5`"),
            (payload.replacen("\"exp\":120000", "\"exp\":9007199254740992", 1), "above 2^53"),
            (payload.replacen("\"iat\":7", "\"iat\":9007199254740992", 1), "`iat` is 9007199254740992"),
            (payload.replacen("\"nonce\":", "\"extra\":1,\"nonce\":", 1), "unknown field `extra`"),
            (payload.replacen("\"iat\":7", "\"iat\":7,\"exp\":1", 1), "duplicate field `exp`"),
            (payload.replacen(",\"iat\":7", "", 1), "missing field `iat`"),
            (payload.replacen("\"sub\":\"bob \\\"é\\\"\"", "\"sub\":7", 1), "invalid type: integer `7`"),
            (
                payload.replacen("AAECAwQFBgcICQoLDA0ODw", "AAECAwQFBgcICQoLDA0OD", 1),
                "`nonce` is 22 base64url characters, not 21",
            ),
            (payload.replacen("AAECAwQFBgcICQoLDA0ODw", "AAECAwQFBgcICQoLDA0OD+", 1), "not base64url"),
            (payload.replacen(&"x".repeat(43), &"x".repeat(44), 1), "`dig` is 43 base64url characters, not 44"),
            ("[]".to_owned(), "not a JSON object"),
            (format!("[{{}},\"{}\",1,0,\"{}\",\"bob\"]", "x".repeat(43), "A".repeat(22)), "not a JSON object"),
            ("{".to_owned(), "EOF"),
            (format!("{payload}x"), "trailing characters"),
        ] {
            let refusal = refused(&other).unwrap_or_else(|| panic!("accepted {other}"));
            assert!(refusal.contains(why), "{other}: {refusal}");
        }
    }

    #[test]
    fn a_payload_nested_128_deep_is_refused() {
        // At most 127 levels, the payload object the first (serde_json's limit).
        let payload = |depth: usize| {
            let claims = Claims {
                data: json!(null),
                dig: RequestDigest::from_encoded("x".repeat(43)),
                exp: 1,
                iat: 0,
                nonce: "A".repeat(22),
                sub: "bob".into(),
            };
            claims.to_canonical_json().replace("null", &format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
        };
        assert!(Claims::read(payload(126).as_bytes()).is_ok());
        let deeper = Claims::read(payload(127).as_bytes()).err();
        assert!(deeper.is_some_and(|why| why.contains("recursion limit exceeded")));
    }
}
