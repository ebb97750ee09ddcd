//! Building JSON values from values already built.
//!
//! `serde_json::json!` serializes every expression it is given into a new `Value`, so a
//! `Value` passed to it is copied member by member and the original dropped. Where the
//! members are values already (a request's params, an error object), [`object`] moves them.

use serde_json::Value;

/// An object with these members, in this order, each moved in.
///
/// ```
/// use mrtr_sim::json::object;
/// let params = serde_json::json!({"name": "deploy"});
/// let line = object([("jsonrpc", "2.0".into()), ("id", 7.into()), ("params", params)]);
/// assert_eq!(line.to_string(), r#"{"jsonrpc":"2.0","id":7,"params":{"name":"deploy"}}"#);
/// ```
pub fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(members.into_iter().map(|(name, value)| (name.to_owned(), value)).collect())
}
