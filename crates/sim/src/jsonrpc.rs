//! JSON-RPC 2.0 messages as MCP 2026-07-28 uses them, and the error codes.

use serde_json::json;
use serde_json::{Map, Value};

/// The text could not be parsed as JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON, but not a JSON-RPC request.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Bad parameters, including every refused `requestState`.
pub const INVALID_PARAMS: i64 = -32602;
/// The server failed.
pub const INTERNAL_ERROR: i64 = -32603;
/// An HTTP header disagreed with the body (listed for completeness; the simulation has no headers).
pub const HEADER_MISMATCH: i64 = -32020;
/// The request needs a client capability its envelope did not declare.
pub const MISSING_CAPABILITY: i64 = -32021;
/// The request's protocol version is missing or not supported.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// A request line: `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`.
pub fn request(id: Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A result line.
pub fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error line; `data` is left out when `None`, and `id` when it is unknown (`null`),
/// as the MCP schema wants it.
pub fn error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), code.into());
    error.insert("message".into(), message.into());
    if let Some(data) = data {
        error.insert("data".into(), data);
    }
    failed(id, Value::Object(error))
}

/// An error line carrying this error object; `id` is left out when it is unknown (`null`).
pub fn failed(id: Value, error: Value) -> Value {
    let mut line = Map::new();
    line.insert("jsonrpc".into(), "2.0".into());
    if !id.is_null() {
        line.insert("id".into(), id);
    }
    line.insert("error".into(), error);
    Value::Object(line)
}

/// The error object inside an error line, if it is one.
pub fn error_of(message: &Value) -> Option<&Value> {
    message.get("error")
}

/// The error code of an error line.
pub fn error_code(message: &Value) -> Option<i64> {
    error_of(message)?.get("code")?.as_i64()
}

/// Writes a message as one line of compact JSON, exactly as it goes on the wire.
pub fn line(message: &Value) -> String {
    message.to_string()
}
