//! The person at the client: answers each question, and may take a while.

use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::Value;

/// How the person answers.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Reply {
    /// Accepts, and says yes to every yes/no field.
    Accept,
    /// Accepts the form but ticks "no".
    AcceptNo,
    /// Declines: an explicit no. Do not ask again for the same thing.
    Decline,
    /// Dismisses the question without choosing. It may be asked again later.
    Cancel,
}

/// The person, with one way of answering and a time to think.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    /// How they answer.
    pub reply: Reply,
    /// How long they take per question, ms.
    pub think_ms: u64,
}

impl Default for Person {
    fn default() -> Self {
        Person { reply: Reply::Accept, think_ms: 4_000 }
    }
}

impl Person {
    /// The answer to one embedded request (`{"method", "params"}`); `None` when the host
    /// refuses to fulfil it (a declined sampling or roots request), so the client stops.
    pub fn answer(&self, request: &Value) -> Option<Value> {
        let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
        let params = request.get("params").cloned().unwrap_or(Value::Null);
        match (method, self.reply) {
            ("elicitation/create", Reply::Decline) => Some(json!({"action": "decline"})),
            ("elicitation/create", Reply::Cancel) => Some(json!({"action": "cancel"})),
            ("elicitation/create", reply) => {
                if params.get("mode").and_then(Value::as_str) == Some("url") {
                    return Some(json!({"action": "accept"}));
                }
                let mut content = serde_json::Map::new();
                let properties = params.pointer("/requestedSchema/properties").and_then(Value::as_object);
                for (name, schema) in properties.into_iter().flatten() {
                    content.insert(name.clone(), fill(schema, reply == Reply::Accept));
                }
                Some(json!({"action": "accept", "content": content}))
            }
            ("sampling/createMessage", Reply::Accept | Reply::AcceptNo) => Some(json!({
                "role": "assistant", "content": {"type": "text", "text": "Aurora"}, "model": "lab-model", "stopReason": "endTurn"
            })),
            ("roots/list", Reply::Accept | Reply::AcceptNo) => Some(json!({
                "roots": [{"uri": "file:///home/bob/project", "name": "project"}]
            })),
            _ => None,
        }
    }
}

/// A value for one field of a form (or of a tool's arguments) as a person fills it: `yes` or
/// no for a boolean, else the field's default, its first choice, its minimum (or 1) for a
/// number, a name for text. The lab's person, `mrtr call` and `mrtr probe` fill fields so.
///
/// ```
/// use mrtr_sim::person::fill;
/// use serde_json::json;
/// assert_eq!(fill(&json!({"type": "boolean"}), false), json!(false));
/// assert_eq!(fill(&json!({"type": "string", "enum": ["prod", "staging"]}), true), json!("prod"));
/// assert_eq!(fill(&json!({"type": "integer", "minimum": 3}), true), json!(3));
/// ```
pub fn fill(schema: &Value, yes: bool) -> Value {
    let kind = schema.get("type").and_then(Value::as_str);
    if kind == Some("boolean") {
        return Value::Bool(yes);
    }
    if let Some(given) = schema.get("default").or_else(|| schema.get("enum").and_then(|e| e.get(0))) {
        return given.clone();
    }
    match kind {
        Some("number" | "integer") => schema.get("minimum").cloned().unwrap_or_else(|| json!(1)),
        _ => json!("Aurora"),
    }
}
