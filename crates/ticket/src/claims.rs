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

impl Claims {
    /// The claims in a payload the checks have read (exactly these six members, of these
    /// types), read member by member from a JSON value: the lab's wasm then carries the one
    /// JSON value reader it needs anyway, not a second one for this struct. `None` for any
    /// other payload.
    pub(crate) fn from_payload(payload: &[u8]) -> Option<Claims> {
        let Ok(Value::Object(mut members)) = mrtr_json::parse(payload) else { return None };
        let mut text = |name: &str| match members.remove(name) {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        let (dig, nonce, sub) = (text("dig")?, text("nonce")?, text("sub")?);
        let exp = members.remove("exp")?.as_u64()?;
        let iat = members.remove("iat")?.as_u64()?;
        let data = members.remove("data")?;
        members.is_empty().then(|| Claims { data, dig: RequestDigest::from_encoded(dig), exp, iat, nonce, sub })
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use mrtr_json::json;

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
    fn a_payload_reads_as_serde_reads_it() {
        let claims = Claims {
            data: json!({"seat": "12A", "quoted": [1, 2.5, null]}),
            dig: RequestDigest::from_encoded("abc"),
            exp: 120_000,
            iat: 7,
            nonce: "n\"é".into(),
            sub: "bob".into(),
        };
        let payload = claims.to_canonical_json();
        assert_eq!(Claims::from_payload(payload.as_bytes()), Some(claims.clone()));
        let derived: Claims = serde_json::from_slice(payload.as_bytes()).expect("claims");
        assert_eq!(derived, claims);
        // Anything else is refused, as serde refuses it.
        for other in [
            payload.replacen("\"sub\"", "\"who\"", 1),
            payload.replacen("\"exp\":120000", "\"exp\":-1", 1),
            payload.replacen("\"exp\":120000", "\"exp\":1.5", 1),
            payload.replacen("\"nonce\":", "\"extra\":1,\"nonce\":", 1),
            payload.replacen("\"sub\":\"bob\"", "\"sub\":7", 1),
            "[]".to_owned(),
            "{".to_owned(),
        ] {
            assert_eq!(Claims::from_payload(other.as_bytes()), None, "{other}");
            assert!(serde_json::from_slice::<Claims>(other.as_bytes()).is_err(), "{other}");
        }
    }
}
