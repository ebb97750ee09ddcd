//! Reading a server's reply: what it amounts to, in a few words, and the questions of an
//! `input_required` result with the answers the lab's person gives them.

use mrtr_sim::person::{Person, Reply};
use mrtr_sim::scenarios::Answered;
use serde_json::{Map, Value};

/// The outcome of a reply in a few words, naming the check that refused when the server says
/// which (`data.check`, as the lab's servers do), as the lab's verdict line does:
/// `refused by the principal check: -32602 Invalid requestState: …`.
pub(crate) fn said(reply: Option<&Value>) -> (Answered, String) {
    let answered = Answered::of_response(reply);
    let words = match &answered {
        Answered::Accepted { text } => format!("accepted: {text}"),
        Answered::AskedAgain => "asked again (input_required)".to_owned(),
        Answered::ToolError { text } => format!("a tool error: {text}"),
        Answered::Refused { check: Some(check), code, message } => {
            format!("refused by the {check} check: {code} {message}")
        }
        Answered::Refused { code, message, .. } => format!("refused: {code} {message}"),
        Answered::NoResponse => "no response".to_owned(),
    };
    (answered, words)
}

/// An `input_required` result: its ticket, its questions, and the lab person's answers.
pub(crate) struct Asked<'a> {
    pub(crate) ticket: Option<&'a str>,
    pub(crate) requests: Map<String, Value>,
    pub(crate) answers: Map<String, Value>,
}

/// The `input_required` result of a reply, if it is one.
pub(crate) fn asked(reply: Option<&Value>) -> Option<Asked<'_>> {
    let result = reply?.get("result").filter(|r| r["resultType"] == "input_required")?;
    let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
    let person = Person { reply: Reply::Accept, think_ms: 0 };
    let answers = requests.iter().filter_map(|(key, request)| Some((key.clone(), person.answer(request)?))).collect();
    Some(Asked { ticket: result.get("requestState").and_then(Value::as_str), requests, answers })
}
