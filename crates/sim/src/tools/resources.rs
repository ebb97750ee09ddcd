//! A resource that asks before it is read: `resources/read` may return `input_required`.

use super::Step;
use crate::round::{Ask, Round};
use serde_json::json;
use serde_json::Value;

/// The one sensitive resource.
pub const SALARIES: &str = "lab://reports/salaries";

/// Every resource, as `resources/list` shows them.
pub fn list() -> Value {
    json!([{"uri": SALARIES, "name": "salaries", "title": "Salaries report", "mimeType": "text/plain"}])
}

/// True for a URI this server has.
pub fn exists(uri: &str) -> bool {
    uri == SALARIES
}

/// Reads a resource; `None` for an unknown URI.
pub fn read(uri: &str, round: &mut Round<'_>) -> Option<Step> {
    if !exists(uri) {
        return None;
    }
    let ask = Ask::confirm("This report lists everyone's salary. Open it?", "open");
    Some(match round.answer("open", &[ask]) {
        None => Step::Asked,
        Some(answer) if answer.flag("open") == Some(true) => Step::Done(contents("alice 5400\nbob 5100\n")),
        Some(_) => Step::Done(contents("(not opened: the person said no)")),
    })
}

fn contents(text: &str) -> Value {
    json!({"contents": [{"uri": SALARIES, "mimeType": "text/plain", "text": text}], "cacheScope": "private", "ttlMs": 0})
}
