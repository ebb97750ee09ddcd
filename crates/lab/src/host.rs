//! What the page hosting the lab hears from it, and where its links point.
//!
//! The lab runs in three hosts: its own page, the iframe page (`embed.html`) and the
//! `<mrtr-lab>` custom element. Each hands a [`Host`] to the lab's view, which passes it, as
//! a prop, to the panels that send [`LabEvent`]s or build links (a Yew context would bring
//! its provider component and look-up hook into the wasm: 3.2 KB gzip). An event's
//! [`detail`](LabEvent::detail) is the one documented shape: the element dispatches it as a
//! `CustomEvent`'s `detail`, the iframe posts it to its parent.
//!
//! ```
//! use mrtr_lab::host::LabEvent;
//! let event = LabEvent::Quiz { score: 4, max: 5 };
//! let detail = event.detail("https://course.example/mrtr/lab-1");
//! assert_eq!(detail["type"], "mrtr-lab:quiz");
//! assert_eq!(detail["statement"]["verb"]["id"], "http://adlnet.gov/expapi/verbs/completed");
//! assert_eq!(detail["statement"]["object"]["id"], "https://course.example/mrtr/lab-1/quiz");
//! assert_eq!(detail["statement"]["result"]["score"]["scaled"], 0.8);
//! ```

use crate::class::Class;
use crate::state::Lab;
use mrtr_sim::scenarios::{Answered, Verdict};
use serde_json::json;
use serde_json::Value;
use std::rc::Rc;
use yew::Callback;

/// Something a lesson page may want to know.
#[derive(Debug, Clone, PartialEq)]
pub enum LabEvent {
    /// A move or an edit was answered by the server.
    Verdict {
        /// The scenario.
        scenario: &'static str,
        /// The attempt's verdict.
        verdict: Box<Verdict>,
    },
    /// The diagrams' cursor moved.
    Step {
        /// The scenario.
        scenario: &'static str,
        /// How many events are shown (from 1).
        shown: usize,
        /// How many events there are.
        total: usize,
        /// The last shown event, in a line.
        summary: String,
    },
    /// A challenge's success check passed.
    Challenge {
        /// The challenge's id.
        id: &'static str,
        /// What it asked for.
        goal: &'static str,
    },
    /// Every question of the quick check has an answer.
    Quiz {
        /// Right answers.
        score: usize,
        /// Questions.
        max: usize,
    },
}

pub use crate::xapi::CLASS_EXTENSION;
use crate::xapi::{statement, INTERACTION, VERB_ATTEMPTED, VERB_EXPERIENCED};

impl LabEvent {
    /// The event's name: `mrtr-lab:verdict`, `mrtr-lab:step`, `mrtr-lab:challenge` or
    /// `mrtr-lab:quiz`.
    pub fn name(&self) -> &'static str {
        match self {
            LabEvent::Verdict { .. } => "mrtr-lab:verdict",
            LabEvent::Step { .. } => "mrtr-lab:step",
            LabEvent::Challenge { .. } => "mrtr-lab:challenge",
            LabEvent::Quiz { .. } => "mrtr-lab:quiz",
        }
    }

    /// The documented detail: the event's own fields, plus `statement`, the verb, object and
    /// result of an xAPI statement (an LMS adds the actor and the timestamp). Activity ids
    /// start with `activity`, the lesson's IRI.
    pub fn detail(&self, activity: &str) -> Value {
        let activity = activity.trim_end_matches('/');
        let mut detail = match *self {
            LabEvent::Verdict { scenario, ref verdict } => {
                let (accepted, check, code, message) = match &verdict.answered {
                    Answered::Accepted { .. } => (true, None, None, None),
                    Answered::Refused { check, code, message } => {
                        (false, check.clone(), Some(*code), Some(message.clone()))
                    }
                    Answered::AskedAgain | Answered::ToolError { .. } | Answered::NoResponse => {
                        (false, None, None, None)
                    }
                };
                let outcome = verdict.answered.word();
                json!({
                    "scenario": scenario, "by": verdict.by.as_str(), "title": verdict.title.as_str(), "atMs": verdict.at_ms,
                    "bearer": verdict.bearer.as_str(), "ticket": verdict.ticket.as_deref(), "accepted": accepted,
                    "outcome": outcome.as_str(), "check": check,
                    "code": code, "message": message,
                    "statement": statement(
                        VERB_ATTEMPTED,
                        format!("{activity}/scenarios/{scenario}/moves/{}", verdict.by),
                        &verdict.title,
                        INTERACTION,
                        json!({ "success": accepted, "response": outcome }),
                    ),
                })
            }
            LabEvent::Step { scenario, shown, total, ref summary } => json!({
                "scenario": scenario, "shown": shown, "total": total, "summary": summary.as_str(),
                "statement": statement(
                    VERB_EXPERIENCED,
                    format!("{activity}/scenarios/{scenario}/sequence"),
                    "Sequence diagram",
                    INTERACTION,
                    json!({ "response": format!("{shown}/{total}") }),
                ),
            }),
            LabEvent::Challenge { id, goal } => json!({
                "id": id, "goal": goal, "statement": crate::xapi::passed(activity, id, goal),
            }),
            LabEvent::Quiz { score, max } => json!({
                "score": score, "max": max, "statement": crate::xapi::quiz(activity, score, max),
            }),
        };
        detail["type"] = self.name().into();
        detail
    }

    /// [`detail`](LabEvent::detail) in a class: with its code as `classCode`, and in the
    /// statement's context as the extension [`CLASS_EXTENSION`] (an LMS reports by it).
    pub fn detail_in(&self, activity: &str, class_code: Option<&str>) -> Value {
        let mut detail = self.detail(activity);
        if let Some(code) = class_code {
            detail["classCode"] = code.into();
            detail["statement"]["context"] = json!({ "extensions": { CLASS_EXTENSION: code } });
        }
        detail
    }

    /// [`detail_in`](LabEvent::detail_in) as a JavaScript object, for `CustomEvent` and `postMessage`.
    pub fn detail_js(&self, activity: &str, class_code: Option<&str>) -> wasm_bindgen::JsValue {
        js_sys::JSON::parse(&self.detail_in(activity, class_code).to_string()).unwrap_or(wasm_bindgen::JsValue::NULL)
    }

    /// The verdict of the lab's latest attempt.
    pub fn latest_verdict(lab: &Lab) -> Option<LabEvent> {
        lab.latest().map(|verdict| LabEvent::Verdict { scenario: lab.scenario, verdict: Box::new(verdict.clone()) })
    }
}

/// Where the lab runs: each host passes one to the lab's view.
#[derive(Clone, PartialEq)]
pub struct Host {
    /// Hears every [`LabEvent`].
    pub emit: Callback<LabEvent>,
    /// The lab page's address without a fragment: share links are this + `#` + situation.
    pub lab_page: Rc<str>,
    /// Whether the lab is the whole document (its own page, the iframe), and so its `main`
    /// landmark; inside a lesson page it is a labelled region of someone else's page.
    pub owns_document: bool,
    /// What the instructor set: hidden hints and solutions, the scenarios offered.
    pub class: Rc<Class>,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host").field("lab_page", &self.lab_page).field("owns_document", &self.owns_document).finish()
    }
}

impl Host {
    /// A host that ignores events, for the lab's own page: `lab_page` is its address (with the
    /// query that carries `class`, so its links carry it too).
    pub fn page(lab_page: &str, class: Class) -> Host {
        Host { emit: Callback::noop(), lab_page: lab_page.into(), owns_document: true, class: class.into() }
    }

    /// The share link to this situation.
    pub fn link(&self, lab: &Lab) -> String {
        format!("{}#{}", self.lab_page, crate::share::to_fragment(lab))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use mrtr_sim::moves::Move;

    #[test]
    fn a_refused_move_names_its_check_in_the_detail_and_the_statement() {
        let lab = Lab::open("deploy").apply(Action::Play(Move::OtherPrincipal));
        let detail = LabEvent::latest_verdict(&lab).expect("a verdict").detail("https://l.example/a/");
        assert_eq!(detail["type"], "mrtr-lab:verdict");
        assert_eq!(detail["by"], "other-principal");
        assert_eq!(detail["check"], "principal");
        assert_eq!(detail["accepted"], false);
        assert_eq!(detail["code"], -32602);
        assert_eq!(detail["statement"]["object"]["id"], "https://l.example/a/scenarios/deploy/moves/other-principal");
        assert_eq!(detail["statement"]["result"], json!({"success": false, "response": "principal"}));
    }

    #[test]
    fn the_honest_retry_is_a_success() {
        let lab = Lab::open("deploy").apply(Action::Play(Move::Honest));
        let detail = LabEvent::latest_verdict(&lab).expect("a verdict").detail("urn:x");
        assert_eq!(detail["accepted"], true);
        assert_eq!(detail["check"], Value::Null);
        assert_eq!(detail["statement"]["verb"]["display"]["en-US"], "attempted");
    }

    #[test]
    fn a_class_code_is_in_the_detail_and_the_statement_context() {
        let event = LabEvent::Quiz { score: 3, max: 5 };
        let detail = event.detail_in("urn:x", Some("CS-101"));
        assert_eq!(detail["classCode"], "CS-101");
        assert_eq!(detail["statement"]["context"]["extensions"][CLASS_EXTENSION], "CS-101");
        assert_eq!(event.detail_in("urn:x", None), event.detail("urn:x"));
    }

    #[test]
    fn a_challenge_is_passed_with_full_score() {
        let detail = LabEvent::Challenge { id: "undercharge", goal: "g" }.detail("urn:x");
        assert_eq!(detail["statement"]["verb"]["id"], crate::xapi::VERB_PASSED);
        assert_eq!(detail["statement"]["result"]["score"]["scaled"], 1.0);
        assert_eq!(
            Host::page("http://h/", Class::default()).link(&Lab::open("voucher")),
            "http://h/#s=voucher&r=shared&p=signed&a=accept"
        );
    }
}
