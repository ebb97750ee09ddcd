//! The request digest: a fingerprint of the call a ticket was minted for.

use crate::{b64, canonical};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use std::fmt;

/// The top-level members of `params` that belong to a round, not to the request itself.
pub const ROUND_ONLY_PARAMS: [&str; 3] = ["_meta", "inputResponses", "requestState"];

/// base64url(SHA-256(canonical JSON of `{"method": …, "params": …}`)), with
/// [`ROUND_ONLY_PARAMS`] removed from the params first. 43 characters.
///
/// A request's params are an object; absent or `null` they are `{}`. A request whose params
/// are anything else (an array, a string) has no digest: no ticket is minted for it or
/// accepted with it (docs/TOKEN.md).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestDigest(String);

impl RequestDigest {
    /// Computes the digest of a request. Pass `{}` or `null` when the request has no params;
    /// params of any other type than an object are refused.
    ///
    /// ```
    /// use mrtr_ticket::RequestDigest;
    /// use serde_json::json;
    /// let first = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "staging"}}))?;
    /// let retry = RequestDigest::of("tools/call", &json!({
    ///     "arguments": {"env": "staging"}, "name": "deploy",
    ///     "requestState": "v1.…", "inputResponses": {}, "_meta": {"x": 1}}))?;
    /// assert_eq!(first, retry);
    /// let prod = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "prod"}}))?;
    /// assert_ne!(first, prod);
    /// assert_eq!(RequestDigest::of("tools/list", &json!(null))?, RequestDigest::of("tools/list", &json!({}))?);
    /// assert!(RequestDigest::of("tools/call", &json!(["deploy"])).is_err());
    /// # Ok::<(), mrtr_ticket::ParamsNotAnObject>(())
    /// ```
    pub fn of(method: &str, params: &Value) -> Result<Self, ParamsNotAnObject> {
        let mut out = String::with_capacity(128);
        out.push_str("{\"method\":");
        canonical::write_string(&mut out, method);
        out.push_str(",\"params\":");
        match params {
            Value::Object(map) => canonical::write_object_without(&mut out, map, &ROUND_ONLY_PARAMS),
            Value::Null => out.push_str("{}"),
            other => return Err(ParamsNotAnObject { found: json_type(other) }),
        }
        out.push('}');
        Ok(Self(b64::encode(Sha256::digest(out.as_bytes()))))
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

/// A value's JSON type, with its article.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Why a request has no digest: its params are not an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamsNotAnObject {
    /// The JSON type they are instead: "an array", "a string", …
    pub found: &'static str,
}

impl fmt::Display for ParamsNotAnObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a request's params are an object (or absent), not {}", self.found)
    }
}

impl std::error::Error for ParamsNotAnObject {}

impl fmt::Display for RequestDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
