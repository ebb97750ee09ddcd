//! Which xAPI statements a class keeps, and in what form.
//!
//! A statement that grades (a verb that passes, fails, completes or scores, or any `result`
//! with `success`, `completion` or `score`) leaves the class server only from its own
//! records: a claim it replayed, a quick check it graded (written by `mrtr_lab::xapi`, as the
//! lab writes them). A student's page may add only the statements the lab emits that grade
//! nothing, `attempted` (a move) and
//! `experienced` (the sequence diagram), on the class's own activities; the class server
//! writes each again from the parts it checked, so what it keeps is valid xAPI 1.0.3 whatever
//! a page sent.
//!
//! ```
//! use mrtr_class::xapi::student;
//! use serde_json::json;
//! let activity = "urn:mrtr-lab:class:CS-101";
//! let move_ = json!({
//!     "verb": {"id": "http://adlnet.gov/expapi/verbs/attempted"},
//!     "object": {"id": "urn:mrtr-lab:class:CS-101/scenarios/voucher/moves/send-twice",
//!                "definition": {"name": {"en-US": "Send it twice"}}},
//!     "result": {"response": "refused"},
//! });
//! assert_eq!(student(&move_, activity).unwrap()["result"], json!({"response": "refused"}));
//! let forged = json!({
//!     "verb": {"id": "http://adlnet.gov/expapi/verbs/completed"},
//!     "object": {"id": "urn:mrtr-lab:class:CS-101/quiz"},
//!     "result": {"score": {"scaled": 1.0}},
//! });
//! assert!(student(&forged, activity).is_err());
//! ```

use mrtr_lab::xapi::{VERB_ATTEMPTED as ATTEMPTED, VERB_EXPERIENCED as EXPERIENCED};
use serde_json::{json, Map, Value};

/// The members a page may send; the class server writes `actor`, `id`, `timestamp` and
/// `context` itself, whatever came.
const MEMBERS: [&str; 7] = ["verb", "object", "result", "actor", "id", "timestamp", "context"];
/// The longest name or response kept.
const MAX_TEXT: usize = 200;

/// Why a student's statement is not kept: one sentence, said back with 400.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refused(why: impl Into<String>) -> Refused {
    Refused(why.into())
}

/// The statement a student's page sent, checked and written again as the class keeps it
/// (without actor, id and timestamp, which the class server adds to every statement).
pub fn student(statement: &Value, activity: &str) -> Result<Value, Refused> {
    let statement = statement.as_object().ok_or_else(|| refused("a statement is one JSON object"))?;
    if let Some(other) = statement.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return Err(refused(format!(
            "a class keeps the statements its lab emits; they have no {other:?} member (the class server writes the rest)"
        )));
    }
    let verb = statement.get("verb").and_then(|v| v.get("id")).and_then(Value::as_str).unwrap_or_default();
    if verb != ATTEMPTED && verb != EXPERIENCED {
        return Err(refused(format!(
            "a page sends only the lab's attempted and experienced statements, not {:?}: statements that grade come \
             from the class server's own records (the claims it replayed, the quick checks it graded)",
            mrtr_sim::text::clip(verb.to_owned(), 80)
        )));
    }
    let result = statement.get("result").unwrap_or(&Value::Null);
    let result = match result {
        Value::Null => &Map::new(),
        Value::Object(result) => result,
        _ => return Err(refused("a statement's result is an object")),
    };
    if let Some(grading) = ["success", "completion", "score"].into_iter().find(|k| result.contains_key(*k)) {
        return Err(refused(format!(
            "a statement from a page carries no {grading:?}: in a class, only the class server grades"
        )));
    }
    if let Some(other) = result.keys().find(|k| k.as_str() != "response") {
        return Err(refused(format!("the lab's statements have no result member {other:?}")));
    }
    let response = text(result.get("response"), "result.response")?;
    let object = statement.get("object").ok_or_else(|| refused("a statement has an object"))?;
    let id = object.get("id").and_then(Value::as_str).ok_or_else(|| refused("the object has an id"))?;
    let name = text(object.pointer("/definition/name/en-US"), "the object's name")?;
    let (scenario, last) = activity_of(id, activity)?;
    let expected = if verb == ATTEMPTED { "a move" } else { "the sequence diagram" };
    let fits = if verb == ATTEMPTED { last.strip_prefix("moves/").is_some_and(is_label) } else { last == "sequence" };
    if !fits {
        return Err(refused(format!("an {} statement's object is {expected} of a scenario", word(verb))));
    }
    let mut kept = json!({
        "verb": {"id": verb, "display": {"en-US": word(verb)}},
        "object": {"objectType": "Activity", "id": format!("{activity}/scenarios/{scenario}/{last}"),
            "definition": {"type": "http://adlnet.gov/expapi/activities/interaction"}},
    });
    if let Some(name) = name {
        kept["object"]["definition"]["name"] = json!({"en-US": name});
    }
    if let Some(response) = response {
        kept["result"] = json!({"response": response});
    }
    Ok(kept)
}

/// The last word of a verb's IRI.
fn word(verb: &str) -> &str {
    verb.rsplit('/').next().unwrap_or(verb)
}

/// A move's label as the lab writes it: letters, digits and dashes.
fn is_label(label: &str) -> bool {
    (1..=64).contains(&label.len()) && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// An optional text member, clipped to [`MAX_TEXT`] characters.
fn text(value: Option<&Value>, what: &str) -> Result<Option<String>, Refused> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(mrtr_sim::text::clip(text.clone(), MAX_TEXT))),
        Some(_) => Err(refused(format!("{what} is text"))),
    }
}

/// `{activity}/scenarios/{scenario}/{rest}` split into a scenario the lab has and the rest.
fn activity_of<'a>(id: &'a str, activity: &str) -> Result<(&'static str, &'a str), Refused> {
    let rest = id
        .strip_prefix(activity)
        .and_then(|rest| rest.strip_prefix("/scenarios/"))
        .ok_or_else(|| refused(format!("the object's id starts with this class's activity, {activity}/scenarios/")))?;
    let (scenario, last) = rest.split_once('/').ok_or_else(|| refused("the object's id names a scenario"))?;
    let scenario = mrtr_sim::scenarios::SCENARIOS
        .iter()
        .find(|s| s.id == scenario)
        .ok_or_else(|| refused("the object's id names no scenario of the lab"))?;
    Ok((scenario.id, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACTIVITY: &str = "urn:mrtr-lab:class:CS-101";

    fn statement(verb: &str, object: &str, result: Value) -> Value {
        json!({"verb": {"id": verb}, "object": {"objectType": "Activity", "id": object}, "result": result})
    }

    #[test]
    fn the_labs_own_statements_are_kept_as_the_class_writes_them() {
        let sequence = format!("{ACTIVITY}/scenarios/voucher/sequence");
        let mut lab_move = mrtr_lab::xapi::statement(
            EXPERIENCED,
            sequence,
            "Sequence diagram",
            mrtr_lab::xapi::INTERACTION,
            json!({ "response": "2/7" }),
        );
        lab_move["context"] = json!({ "extensions": { mrtr_lab::xapi::CLASS_EXTENSION: "CS-101" } });
        let kept = student(&lab_move, ACTIVITY).expect("a step is kept");
        assert_eq!(kept["object"]["id"], format!("{ACTIVITY}/scenarios/voucher/sequence"));
        assert_eq!(kept["result"]["response"], "2/7");
        let attempted = statement(ATTEMPTED, &format!("{ACTIVITY}/scenarios/deploy/moves/tamper-byte"), json!({}));
        assert!(student(&attempted, ACTIVITY).is_ok());
    }

    #[test]
    fn whatever_grades_or_leaves_the_class_is_refused() {
        let quiz = format!("{ACTIVITY}/quiz");
        let a_move = format!("{ACTIVITY}/scenarios/deploy/moves/honest");
        for (forged, why) in [
            (statement("http://adlnet.gov/expapi/verbs/completed", &quiz, json!({})), "class server's own"),
            (statement("http://adlnet.gov/expapi/verbs/passed", &a_move, json!({})), "class server's own"),
            (statement("http://adlnet.gov/expapi/verbs/scored", &a_move, json!({})), "class server's own"),
            (statement(ATTEMPTED, &a_move, json!({"success": true})), "only the class server grades"),
            (statement(ATTEMPTED, &a_move, json!({"score": {"scaled": 1}})), "only the class server grades"),
            (statement(ATTEMPTED, &a_move, json!({"completion": true})), "only the class server grades"),
            (statement(ATTEMPTED, &a_move, json!({"extensions": {}})), "no result member"),
            (statement(ATTEMPTED, &a_move, json!(7)), "result is an object"),
            (statement(ATTEMPTED, "urn:mrtr-lab:class:OTHER/scenarios/deploy/moves/honest", json!({})), "activity"),
            (statement(ATTEMPTED, &format!("{ACTIVITY}/scenarios/nope/moves/x"), json!({})), "no scenario"),
            (statement(ATTEMPTED, &format!("{ACTIVITY}/scenarios/deploy/sequence"), json!({})), "a move"),
            (statement(ATTEMPTED, &format!("{ACTIVITY}/scenarios/deploy/moves/a b"), json!({})), "a move"),
            (statement(EXPERIENCED, &a_move, json!({})), "sequence diagram"),
            (json!({"verb": {"id": ATTEMPTED}, "object": {"id": a_move}, "authority": {}}), "\"authority\""),
            (json!({"verb": {"id": ATTEMPTED}}), "has an object"),
            (json!([1]), "one JSON object"),
        ] {
            let refused = student(&forged, ACTIVITY).expect_err("refused");
            assert!(refused.0.contains(why), "{forged} → {refused}");
        }
    }

    #[test]
    fn the_server_writes_passed_as_the_lab_does() {
        let statement = mrtr_lab::xapi::passed(ACTIVITY, "charge-less", "Pay less");
        assert_eq!(statement["verb"]["id"], "http://adlnet.gov/expapi/verbs/passed");
        assert_eq!(statement["object"]["id"], format!("{ACTIVITY}/challenges/charge-less"));
        assert_eq!(statement["result"]["success"], true);
    }
}
