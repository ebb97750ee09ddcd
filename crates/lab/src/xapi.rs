//! The xAPI statements of the lab, as verb, object and result (whoever keeps one adds the
//! actor, the time and an id): the lab's events carry them, and the class server writes the
//! grading ones, `passed` and the quick check's `completed`, with the same functions from its
//! own records.
//!
//! ```
//! use mrtr_lab::xapi::{passed, quiz};
//! let met = passed("urn:mrtr-lab:class:CS-101", "charge-less", "Pay less than quoted");
//! assert_eq!(met["verb"]["id"], "http://adlnet.gov/expapi/verbs/passed");
//! assert_eq!(met["object"]["id"], "urn:mrtr-lab:class:CS-101/challenges/charge-less");
//! assert_eq!(quiz("https://course.example/lab", 4, 5)["result"]["score"]["scaled"], 0.8);
//! ```

use serde_json::{json, Value};

/// Fix-It as a challenge: its id in the record of what is done (`progress.rs`) and in its
/// `passed` statement's object.
pub const FIX_IT: &str = "fix-it";
/// What Fix-It asks: its goal, as its challenge event and statement name it.
pub const FIX_IT_GOAL: &str = "Write a verifier that refuses every attack and lets the honest retry complete";

/// The xAPI context extension that carries a class code (docs/EMBEDDING.md, "For a class").
pub const CLASS_EXTENSION: &str = "urn:mrtr-lab:class-code";

/// A move tried.
pub const VERB_ATTEMPTED: &str = "http://adlnet.gov/expapi/verbs/attempted";
/// A step of the sequence diagram seen.
pub const VERB_EXPERIENCED: &str = "http://adlnet.gov/expapi/verbs/experienced";
/// A challenge met.
pub const VERB_PASSED: &str = "http://adlnet.gov/expapi/verbs/passed";
/// The quick check answered.
pub const VERB_COMPLETED: &str = "http://adlnet.gov/expapi/verbs/completed";
/// The activity type of a move and of the diagram.
pub const INTERACTION: &str = "http://adlnet.gov/expapi/activities/interaction";
/// The activity type of a challenge and of the quick check.
pub const ASSESSMENT: &str = "http://adlnet.gov/expapi/activities/assessment";

/// A statement's verb (its display, the IRI's last word), object and result.
pub fn statement(verb: &str, object: String, name: &str, kind: &str, result: Value) -> Value {
    let word = verb.rsplit('/').next().unwrap_or(verb);
    json!({
        "verb": { "id": verb, "display": { "en-US": word } },
        "object": { "objectType": "Activity", "id": object, "definition": { "name": { "en-US": name }, "type": kind } },
        "result": result,
    })
}

/// Challenge `id` met: `passed`, full marks, on `{activity}/challenges/{id}`.
pub fn passed(activity: &str, id: &str, goal: &str) -> Value {
    statement(
        VERB_PASSED,
        format!("{}/challenges/{id}", activity.trim_end_matches('/')),
        goal,
        ASSESSMENT,
        json!({ "success": true, "completion": true, "score": { "raw": 1, "min": 0, "max": 1, "scaled": 1.0 } }),
    )
}

/// The quick check answered, `score` of `max` right: `completed` on `{activity}/quiz`.
pub fn quiz(activity: &str, score: usize, max: usize) -> Value {
    statement(
        VERB_COMPLETED,
        format!("{}/quiz", activity.trim_end_matches('/')),
        "Quick check: multi round-trip requests",
        ASSESSMENT,
        json!({
            "success": score == max, "completion": true,
            "score": { "raw": score, "min": 0, "max": max, "scaled": score as f64 / max.max(1) as f64 },
        }),
    )
}
