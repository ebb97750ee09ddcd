//! The questions of an `input_required` result, with the answers the lab's person gives them.

use mrtr_sim::person::{Person, Reply as PersonReply};
use mrtr_wire::Reply;
use serde_json::{Map, Value};

/// An `input_required` result: its ticket (if it is a string), its questions, and the lab
/// person's answers to them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Asked {
    pub(crate) ticket: Option<String>,
    pub(crate) keys: Vec<String>,
    pub(crate) answers: Map<String, Value>,
}

/// The `input_required` result of a reply, if it is one.
pub(crate) fn asked(reply: &Reply) -> Option<Asked> {
    let result = reply.body.as_ref().ok()?.get("result")?;
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return None;
    }
    let empty = Map::new();
    let requests = result.get("inputRequests").and_then(Value::as_object).unwrap_or(&empty);
    let person = Person { reply: PersonReply::Accept, think_ms: 0 };
    let answers = requests.iter().filter_map(|(key, request)| Some((key.clone(), person.answer(request)?))).collect();
    Some(Asked {
        ticket: result.get("requestState").and_then(Value::as_str).map(str::to_owned),
        keys: requests.keys().cloned().collect(),
        answers,
    })
}
