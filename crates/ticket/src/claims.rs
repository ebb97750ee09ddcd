//! What a ticket carries: the payload, readable by anyone in signed mode.

use crate::canonical;
use crate::digest::RequestDigest;
use mrtr_json::Reader;
use mrtr_json::Value;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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
    /// types), `None` for any other payload.
    pub(crate) fn from_payload(payload: &[u8]) -> Option<Claims> {
        let read = PayloadClaims::read(payload, true).ok()?;
        Some(Claims {
            data: read.data,
            dig: RequestDigest::from_encoded(read.dig.into_owned()),
            exp: read.exp,
            iat: read.iat,
            nonce: read.nonce.into_owned(),
            sub: read.sub.into_owned(),
        })
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

/// The six claims as a payload holds them, read member by member: strings borrowed where
/// they have no escapes, `data` built only when asked for (the checks check it is JSON and
/// pass over it; it is read when someone asks for the claims). Every member exactly once,
/// and no other.
pub(crate) struct PayloadClaims<'a> {
    /// `Null` unless asked for.
    pub data: Value,
    pub dig: Cow<'a, str>,
    pub exp: u64,
    pub iat: u64,
    pub nonce: Cow<'a, str>,
    pub sub: Cow<'a, str>,
}

impl<'a> PayloadClaims<'a> {
    const NAMES: [&'static str; 6] = ["data", "dig", "exp", "iat", "nonce", "sub"];

    /// The claims in `payload`, `data` too when `with_data`; an error saying what is wrong
    /// and where for anything else.
    pub(crate) fn read(payload: &'a [u8], with_data: bool) -> Result<Self, mrtr_json::Error> {
        let mut reader = Reader::new(payload)?;
        let mut read =
            PayloadClaims { data: Value::Null, dig: "".into(), exp: 0, iat: 0, nonce: "".into(), sub: "".into() };
        let mut seen = [false; 6];
        reader.members(|reader, name| {
            let Some(i) = Self::NAMES.iter().position(|n| *n == name) else {
                return Err(
                    reader.error(format!("unknown claim `{name}` (a ticket has data, dig, exp, iat, nonce and sub)"))
                );
            };
            if std::mem::replace(&mut seen[i], true) {
                return Err(reader.error(format!("the claim `{name}` twice")));
            }
            match i {
                0 if with_data => read.data = reader.value()?,
                0 => reader.read_past()?,
                1 => read.dig = reader.string()?,
                2 => read.exp = reader.u64()?,
                3 => read.iat = reader.u64()?,
                4 => read.nonce = reader.string()?,
                _ => read.sub = reader.string()?,
            }
            Ok(())
        })?;
        reader.end()?;
        match seen.iter().position(|seen| !seen) {
            Some(i) => Err(reader.error(format!("no claim `{}`", Self::NAMES[i]))),
            None => Ok(read),
        }
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
        let generic = canonical::canonical_json(
            &mrtr_json::parse(serde_json::to_string(&claims).expect("serializable")).expect("JSON"),
        );
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
