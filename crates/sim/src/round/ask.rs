//! Input requests a tool can make, and the answers that come back.

use crate::protocol::InputKind;
use serde_json::json;
use serde_json::{Map, Value};

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
    /// (2026-07-28 has no `elicitationId`: the answer comes back under the request's key.)
    pub fn url(message: &str, url: &str) -> Ask {
        Ask {
            kind: InputKind::ElicitUrl,
            request: json!({"method": "elicitation/create", "params": {"mode": "url", "message": message, "url": url}}),
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

/// True when a form's content fits its flat schema (the primitive fields MCP's elicitation
/// allows): every required field there, and each field the schema names of its `type` (the
/// lab's forms ask for booleans and strings), a string among its `enum` and within its
/// `maxLength`. Fields it does not name are let be.
fn fits(content: &Map<String, Value>, schema: &Value) -> bool {
    for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
        if !name.as_str().is_some_and(|name| content.contains_key(name)) {
            return false;
        }
    }
    for (name, value) in content {
        let Some(want) = schema.get("properties").and_then(|p| p.get(name)) else { continue };
        let typed = match want.get("type").and_then(Value::as_str) {
            Some("boolean") => value.as_bool().is_some(),
            Some("string") => value.as_str().is_some(),
            _ => true,
        };
        let text = value.as_str().unwrap_or_default();
        let offered = want
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|choices| choices.iter().any(|c| c.as_str() == Some(text)));
        let short = want.get("maxLength").and_then(Value::as_u64).is_none_or(|max| text.chars().count() as u64 <= max);
        if !(typed && offered && short) {
            return false;
        }
    }
    true
}

/// An answer from the client, read from `inputResponses`.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Elicitation accepted, with the form's content (empty in URL mode).
    Accept(Map<String, Value>),
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
    /// Reads an answer to `ask`; `None` when it has another shape, or when an accepted form's
    /// content does not fit the form's schema (a string where it asks for a boolean, a choice
    /// it does not offer, a required field missing): the client's word is not the person's.
    pub fn read(ask: &Ask, value: &Value) -> Option<Answer> {
        match ask.kind {
            InputKind::ElicitForm | InputKind::ElicitUrl => match value.get("action")?.as_str()? {
                "accept" => {
                    let content = value.get("content").and_then(Value::as_object).cloned().unwrap_or_default();
                    let schema = ask.request.pointer("/params/requestedSchema").unwrap_or(&Value::Null);
                    fits(&content, schema).then_some(Answer::Accept(content))
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
