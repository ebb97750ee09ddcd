//! The live region: every new verdict is announced in one sentence.

use super::Panel;
use mrtr_sim::scenarios::Answered;
use yew::prelude::*;

/// What the server made of an attempt, in a clause: "refused by the signature check: …".
pub fn outcome(answered: &Answered) -> String {
    match answered {
        Answered::Accepted { text } => format!("accepted: {text}"),
        Answered::AskedAgain => "the server asked again instead of acting".to_owned(),
        Answered::ToolError { text } => format!("the tool refused its arguments: {text}"),
        Answered::Refused { check: Some(check), message, .. } => format!("refused by the {check} check: {message}"),
        Answered::Refused { code, message, .. } => format!("refused with error {code}: {message}"),
        Answered::NoResponse => "no response".to_owned(),
    }
}

/// The `data-state` that colours a verdict: `pass`, `fail`, or none.
pub fn outcome_state(answered: Option<&Answered>) -> Option<&'static str> {
    match answered {
        Some(Answered::Accepted { .. }) => Some("pass"),
        Some(Answered::Refused { .. } | Answered::ToolError { .. }) => Some("fail"),
        _ => None,
    }
}

/// A `role="status"` sentence about the latest attempt.
pub fn status(props: &Panel) -> Html {
    let sentence = match props.lab.latest() {
        None if props.lab.takes_moves() => {
            "The server handed back a ticket. Pick a move, or edit the ticket and send your own attempt.".to_owned()
        }
        None => "Scenario played: read the figures, the diagram and the raw lines.".to_owned(),
        Some(v) => format!("{} at {}: {}", v.title, mrtr_ticket::secs(v.at_ms), outcome(&v.answered)),
    };
    let state = outcome_state(props.lab.latest().map(|v| &v.answered));
    html! { <p class="status" data-state={state} role="status" aria-live="polite">{ sentence }</p> }
}
