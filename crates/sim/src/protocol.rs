//! The 2026-07-28 envelope every request carries in `params._meta`, and capabilities.

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::Value;

/// The one protocol revision this server speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// `_meta` key: the request's protocol version.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: who the client says it is.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: what this request's client can do.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key on results: who the server is.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The kinds of input a server may ask for inside `input_required`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// `elicitation/create`, form mode: a small flat form shown to the person.
    ElicitForm,
    /// `elicitation/create`, URL mode: the person opens a page outside the client.
    ElicitUrl,
    /// `sampling/createMessage` (deprecated): the host's model writes something.
    Sampling,
    /// `roots/list` (deprecated): the folders the client works in.
    Roots,
}

impl InputKind {
    /// The embedded request's method.
    pub fn method(self) -> &'static str {
        match self {
            InputKind::ElicitForm | InputKind::ElicitUrl => "elicitation/create",
            InputKind::Sampling => "sampling/createMessage",
            InputKind::Roots => "roots/list",
        }
    }

    /// The `clientCapabilities` that allow it, as the `-32021` error names them.
    pub fn required_capabilities(self) -> Value {
        match self {
            InputKind::ElicitForm => json!({"elicitation": {"form": {}}}),
            InputKind::ElicitUrl => json!({"elicitation": {"url": {}}}),
            InputKind::Sampling => json!({"sampling": {}}),
            InputKind::Roots => json!({"roots": {}}),
        }
    }
}

/// What one request's client declared it can do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Form-mode elicitation.
    pub elicit_form: bool,
    /// URL-mode elicitation.
    pub elicit_url: bool,
    /// Sampling.
    pub sampling: bool,
    /// Roots.
    pub roots: bool,
}

impl Capabilities {
    /// Everything a full client declares.
    pub const ALL: Capabilities = Capabilities { elicit_form: true, elicit_url: true, sampling: true, roots: true };

    /// Reads `clientCapabilities`. An empty `elicitation` object means form mode, as the
    /// specification keeps for clients written before URL mode.
    pub fn from_value(value: &Value) -> Self {
        let elicitation = value.get("elicitation").and_then(Value::as_object);
        let mode = |m: &str| elicitation.is_some_and(|e| e.contains_key(m));
        Capabilities {
            elicit_form: mode("form") || elicitation.is_some_and(|e| e.is_empty()),
            elicit_url: mode("url"),
            sampling: value.get("sampling").is_some_and(Value::is_object),
            roots: value.get("roots").is_some_and(Value::is_object),
        }
    }

    /// Writes them as `clientCapabilities`.
    pub fn to_value(self) -> Value {
        let mut caps = serde_json::Map::new();
        let mut elicitation = serde_json::Map::new();
        if self.elicit_form {
            elicitation.insert("form".into(), json!({}));
        }
        if self.elicit_url {
            elicitation.insert("url".into(), json!({}));
        }
        if !elicitation.is_empty() {
            caps.insert("elicitation".into(), elicitation.into());
        }
        if self.sampling {
            caps.insert("sampling".into(), json!({}));
        }
        if self.roots {
            caps.insert("roots".into(), json!({}));
        }
        caps.into()
    }

    /// True when a request of this kind may be sent to this client.
    pub fn allows(self, kind: InputKind) -> bool {
        match kind {
            InputKind::ElicitForm => self.elicit_form,
            InputKind::ElicitUrl => self.elicit_url,
            InputKind::Sampling => self.sampling,
            InputKind::Roots => self.roots,
        }
    }
}

/// The `_meta` envelope of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The protocol version it names, if any.
    pub version: Option<String>,
    /// What it can do.
    pub capabilities: Capabilities,
}

impl Envelope {
    /// Reads the envelope from a request's params.
    pub fn from_params(params: &Value) -> Self {
        let meta = params.get("_meta");
        Envelope {
            version: meta.and_then(|m| m.get(META_VERSION)).and_then(Value::as_str).map(str::to_owned),
            capabilities: meta.and_then(|m| m.get(META_CAPABILITIES)).map(Capabilities::from_value).unwrap_or_default(),
        }
    }
}

/// The marks around a header value written in base64 (the transports page's Value Encoding).
const BASE64_OPEN: &str = "=?base64?";
const BASE64_CLOSE: &str = "?=";

/// The methods that may answer `input_required` (the MRTR page's "Supported requests"), each
/// with the member of its params that names its target.
pub const MAY_ASK: [(&str, &str); 3] = [("tools/call", "name"), ("prompts/get", "name"), ("resources/read", "uri")];

/// The member of `method`'s params that names its target (`name`, `uri`), for a method that
/// may ask ([`MAY_ASK`]); `None` for any other.
///
/// ```
/// use mrtr_sim::protocol::{target_member, MAY_ASK};
/// assert!(MAY_ASK.iter().all(|(method, member)| target_member(method) == Some(*member)));
/// assert_eq!(target_member("tools/list"), None);
/// ```
pub fn target_member(method: &str) -> Option<&'static str> {
    // A match, not a search of MAY_ASK: the lab's wasm is counted in bytes.
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// The headers a client sets on a Streamable HTTP POST carrying `message`: the content type,
/// what it accepts, and the request metadata (`MCP-Protocol-Version`, `Mcp-Method`, and
/// `Mcp-Name` for `tools/call`, `prompts/get` and `resources/read`). The bearer token is the
/// caller's to add.
///
/// ```
/// let message = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "déploy"}});
/// let headers = mrtr_sim::protocol::http_headers(&message);
/// assert!(headers.contains(&("mcp-name", "=?base64?ZMOpcGxveQ==?=".to_owned())));
/// ```
pub fn http_headers(message: &Value) -> Vec<(&'static str, String)> {
    let method = message.get("method").and_then(Value::as_str).unwrap_or_default();
    let version = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).and_then(Value::as_str);
    let mut headers = vec![
        ("content-type", "application/json".to_owned()),
        ("accept", "application/json, text/event-stream".to_owned()),
        ("mcp-protocol-version", version.unwrap_or(PROTOCOL_VERSION).to_owned()),
        ("mcp-method", header_value(method)),
    ];
    let name = target_member(method).and_then(|member| message.get("params")?.get(member));
    if let Some(name) = name.and_then(Value::as_str) {
        headers.push(("mcp-name", header_value(name)));
    }
    headers
}

/// A header value as the transports page writes it: as it is when it is visible ASCII with no
/// space at either end, else (or when it looks like the encoded form) `=?base64?…?=`.
pub fn header_value(text: &str) -> String {
    let plain = text.bytes().all(|b| (0x20..0x7f).contains(&b))
        && text.trim() == text
        && !(text.starts_with(BASE64_OPEN) && text.ends_with(BASE64_CLOSE));
    match plain {
        true => text.to_owned(),
        false => format!("{BASE64_OPEN}{}{BASE64_CLOSE}", base64::engine::general_purpose::STANDARD.encode(text)),
    }
}

/// A header value as a server reads it: decoded from `=?base64?…?=`, or as it is; `None` when
/// the base64 does not decode to text.
pub fn read_header_value(text: &str) -> Option<String> {
    match text.strip_prefix(BASE64_OPEN).and_then(|t| t.strip_suffix(BASE64_CLOSE)) {
        Some(encoded) => String::from_utf8(base64::engine::general_purpose::STANDARD.decode(encoded).ok()?).ok(),
        None => Some(text.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_plain_or_base64_and_read_back() {
        for (text, written) in [
            ("deploy", "deploy"),
            ("déploy", "=?base64?ZMOpcGxveQ==?="),
            (" padded", "=?base64?IHBhZGRlZA==?="),
            ("=?base64?x?=", "=?base64?PT9iYXNlNjQ/eD89?="),
        ] {
            assert_eq!(header_value(text), written);
            assert_eq!(read_header_value(written).as_deref(), Some(text));
        }
        assert_eq!(read_header_value("=?base64?%%?="), None);
    }

    #[test]
    fn capabilities_read_as_the_spec_says() {
        let caps = Capabilities::from_value(&json!({"elicitation": {}}));
        assert!(caps.elicit_form && !caps.elicit_url && !caps.sampling);
        let caps = Capabilities::from_value(&json!({"elicitation": {"url": {}}, "sampling": {}}));
        assert!(!caps.elicit_form && caps.elicit_url && caps.sampling && !caps.roots);
        assert_eq!(Capabilities::from_value(&Capabilities::ALL.to_value()), Capabilities::ALL);
    }
}
