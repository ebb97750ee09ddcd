//! The person behind `mrtr call`, and what the client answers each kind of input request
//! with: a form asked in the terminal (or answered by `--reply`), a URL printed, a line of
//! text for sampling, the working directory for roots.

use serde_json::{json, Map, Value};
use std::io::{BufRead, IsTerminal, Write};

/// How the person answers forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Reply {
    /// Accepts, with a value for every field.
    Accept,
    /// Says no.
    Decline,
    /// Dismisses the question.
    Cancel,
}

/// The person: a fixed reply, or whoever sits at the terminal.
#[derive(Debug)]
pub struct Person {
    fixed: Option<Reply>,
    at_terminal: bool,
    /// The output is JSON lines: what the person is asked goes to stderr.
    json: bool,
}

/// A line for people: on stdout beside the arrows, on stderr beside JSON lines.
pub fn note(json: bool, text: &str) {
    if json {
        eprintln!("{text}");
    } else {
        println!("{text}");
    }
}

impl Person {
    /// Answers with `fixed`; without it, asks in the terminal when there is one, and accepts
    /// when there is not (a script, a test suite).
    pub fn new(fixed: Option<Reply>, json: bool) -> Self {
        Person { fixed, at_terminal: fixed.is_none() && std::io::stdin().is_terminal(), json }
    }

    /// The answer to one embedded request, or `None` for a kind the client does not know.
    pub fn answer(&self, key: &str, request: &Value) -> Option<Value> {
        let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
        match request.get("method").and_then(Value::as_str)? {
            "elicitation/create" => Some(self.elicit(key, &params)),
            "sampling/createMessage" => Some(json!({
                "role": "assistant",
                "content": {"type": "text", "text": self.line("the model's text", "Written by mrtr call: no model here.")},
                "model": "mrtr-call",
                "stopReason": "endTurn",
            })),
            "roots/list" => {
                let here = std::env::current_dir().unwrap_or_default();
                let name = here.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                Some(json!({"roots": [{"uri": format!("file://{}", here.display()), "name": name}]}))
            }
            _ => None,
        }
    }

    fn elicit(&self, key: &str, params: &Value) -> Value {
        let message = params.get("message").and_then(Value::as_str).unwrap_or(key);
        note(self.json, &format!("# the server asks ({key}): {message}"));
        if let Some(url) = params.get("url").and_then(Value::as_str) {
            note(self.json, &format!("# open {url}"));
        }
        let reply = self.fixed.unwrap_or_else(|| match self.at_terminal {
            false => Reply::Accept,
            true => match self.line("accept, decline or cancel", "accept").as_str() {
                "decline" | "d" | "no" | "n" => Reply::Decline,
                "cancel" | "c" => Reply::Cancel,
                _ => Reply::Accept,
            },
        });
        match reply {
            Reply::Decline => json!({"action": "decline"}),
            Reply::Cancel => json!({"action": "cancel"}),
            Reply::Accept => {
                let properties = params.pointer("/requestedSchema/properties").and_then(Value::as_object);
                let content: Map<String, Value> = properties
                    .into_iter()
                    .flatten()
                    .map(|(field, schema)| (field.clone(), self.field(field, schema)))
                    .collect();
                json!({"action": "accept", "content": content})
            }
        }
    }

    /// A value for one form field: what the terminal says, or what the lab's person would fill.
    fn field(&self, name: &str, schema: &Value) -> Value {
        let kind = schema.get("type").and_then(Value::as_str).unwrap_or("string");
        let default = mrtr_sim::person::fill(schema, true);
        if !self.at_terminal {
            return default;
        }
        let shown = default.as_str().map_or_else(|| default.to_string(), str::to_owned);
        let typed = self.line(&format!("{name} ({kind})"), &shown);
        match kind {
            "boolean" => Value::Bool(matches!(typed.as_str(), "true" | "yes" | "y")),
            "number" | "integer" => serde_json::from_str(&typed).unwrap_or(default),
            _ => typed.into(),
        }
    }

    /// A line from the terminal, or `default` when there is none or it is left empty.
    fn line(&self, prompt: &str, default: &str) -> String {
        if !self.at_terminal {
            return default.to_owned();
        }
        print!("? {prompt} [{default}]: ");
        let _ = std::io::stdout().flush();
        let mut typed = String::new();
        let _ = std::io::stdin().lock().read_line(&mut typed);
        match typed.trim() {
            "" => default.to_owned(),
            text => text.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_accepts_with_a_value_for_every_field() {
        let person = Person { fixed: Some(Reply::Accept), at_terminal: false, json: false };
        let form = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "Deploy?",
            "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"},
                "env": {"type": "string", "enum": ["prod", "staging"]}, "n": {"type": "integer", "minimum": 2}}}}});
        assert_eq!(
            person.answer("confirm", &form),
            Some(json!({"action": "accept", "content": {"confirm": true, "env": "prod", "n": 2}}))
        );
        let declining = Person { fixed: Some(Reply::Decline), at_terminal: false, json: false };
        assert_eq!(declining.answer("confirm", &form), Some(json!({"action": "decline"})));
        assert!(person
            .answer("x", &json!({"method": "sampling/createMessage"}))
            .is_some_and(|a| a["role"] == "assistant"));
        assert!(person.answer("x", &json!({"method": "roots/list"})).is_some_and(|a| a["roots"][0]["uri"].is_string()));
        assert_eq!(person.answer("x", &json!({"method": "tools/call"})), None);
    }
}
