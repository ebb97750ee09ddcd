//! The request digest: a fingerprint of the call a ticket was minted for.

use crate::{b64, canonical};
use mrtr_json::Value;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::fmt;

/// The top-level members of `params` that belong to a round, not to the request itself.
pub const ROUND_ONLY_PARAMS: [&str; 3] = ["_meta", "inputResponses", "requestState"];

/// base64url(SHA-256(canonical JSON of `{"method": …, "params": …}`)), with
/// [`ROUND_ONLY_PARAMS`] removed from the params first. 43 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestDigest(String);

impl RequestDigest {
    /// Computes the digest of a request. Pass `{}` when the request has no params.
    ///
    /// ```
    /// use mrtr_ticket::RequestDigest;
    /// use mrtr_json::json;
    /// let first = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "staging"}}));
    /// let retry = RequestDigest::of("tools/call", &json!({
    ///     "arguments": {"env": "staging"}, "name": "deploy",
    ///     "requestState": "v1.…", "inputResponses": {}, "_meta": {"x": 1}}));
    /// assert_eq!(first, retry);
    /// let prod = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "prod"}}));
    /// assert_ne!(first, prod);
    /// ```
    pub fn of(method: &str, params: &Value) -> Self {
        let mut out = String::with_capacity(128);
        out.push_str("{\"method\":");
        canonical::write_string(&mut out, method);
        out.push_str(",\"params\":");
        match params {
            Value::Object(map) => canonical::write_object_without(&mut out, map, &ROUND_ONLY_PARAMS),
            other => canonical::write_value(&mut out, other),
        }
        out.push('}');
        Self(b64::encode(Sha256::digest(out.as_bytes())))
    }

    /// Wraps a digest string as found in a ticket (no validation: it is only compared).
    pub fn from_encoded(encoded: impl Into<String>) -> Self {
        Self(encoded.into())
    }

    /// The digest as base64url text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first eight characters, enough to tell two digests apart in a sentence.
    pub fn short(&self) -> &str {
        self.0.get(..8).unwrap_or(&self.0)
    }
}

impl fmt::Display for RequestDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
