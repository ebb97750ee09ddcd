//! Input requests a tool can make, and the answers that come back.

use crate::protocol::InputKind;
use mrtr_json::json;
use mrtr_json::{Map, Value};

/// One way of asking: the kind, and the embedded request (`{"method", "params"}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// What kind of input request it is.
    pub kind: InputKind,
    /// The embedded request as it goes into `inputRequests`.
    pub request: Value,
}

impl Ask {
    /// A yes/no confirmation: a form with one required boolean field.
    pub fn confirm(message: &str, field: &str) -> Ask {
        Ask::form(message, json!({"type": "object", "properties": {field: {"type": "boolean"}}, "required": [field]}))
    }

    /// A form-mode elicitation with a flat schema.
    pub fn form(message: &str, schema: Value) -> Ask {
        Ask {
            kind: InputKind::ElicitForm,
            request: json!({
                "method": "elicitation/create",
                "params": {"mode": "form", "message": message, "requestedSchema": schema},
            }),
        }
    }

    /// A URL-mode elicitation: the person completes something on a page outside the client.
    pub fn url(message: &str, url: &str, elicitation_id: &str) -> Ask {
        Ask {
            kind: InputKind::ElicitUrl,
            request: json!({"method": "elicitation/create", "params": {"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id}}),
        }
    }

    /// A sampling request (deprecated in 2026-07-28): the host's model writes some text.
    pub fn sampling(prompt: &str, max_tokens: u32) -> Ask {
        Ask {
            kind: InputKind::Sampling,
            request: json!({"method": "sampling/createMessage", "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
                "maxTokens": max_tokens}}),
        }
    }

    /// A roots request (deprecated in 2026-07-28): the folders the client works in.
    pub fn roots() -> Ask {
        Ask { kind: InputKind::Roots, request: json!({"method": "roots/list", "params": {}}) }
    }
}

/// An answer from the client, read from `inputResponses`.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Elicitation accepted, with the form's content (empty in URL mode).
    Accept(Map),
    /// The person said no: do not ask again for the same thing.
    Decline,
    /// The person dismissed it without choosing: it may be asked again later.
    Cancel,
    /// Text the host's model wrote (sampling).
    Text(String),
    /// The client's roots (their URIs).
    Roots(Vec<String>),
}

impl Answer {
    /// Reads an answer of the kind that was asked; `None` when it has another shape.
    pub fn read(kind: InputKind, value: &Value) -> Option<Answer> {
        match kind {
            InputKind::ElicitForm | InputKind::ElicitUrl => match value.get("action")?.as_str()? {
                "accept" => {
                    let content = value.get("content").and_then(Value::as_object).cloned().unwrap_or_default();
                    Some(Answer::Accept(content))
                }
                "decline" => Some(Answer::Decline),
                "cancel" => Some(Answer::Cancel),
                _ => None,
            },
            InputKind::Sampling => {
                let content = value.get("content")?;
                let text = content.get("text").or_else(|| content.get(0)?.get("text"))?.as_str()?;
                Some(Answer::Text(text.to_owned()))
            }
            InputKind::Roots => {
                let roots = value.get("roots")?.as_array()?;
                Some(Answer::Roots(roots.iter().filter_map(|r| r.get("uri")?.as_str().map(str::to_owned)).collect()))
            }
        }
    }

    /// For an accepted form: the boolean field's value.
    pub fn flag(&self, field: &str) -> Option<bool> {
        match self {
            Answer::Accept(content) => content.get(field)?.as_bool(),
            _ => None,
        }
    }

    /// For an accepted form: the string field's value.
    pub fn text_field(&self, field: &str) -> Option<&str> {
        match self {
            Answer::Accept(content) => content.get(field)?.as_str(),
            Answer::Text(text) => Some(text),
            _ => None,
        }
    }
}
