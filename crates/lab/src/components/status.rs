//! The live region: every new verdict is announced in one sentence.

use super::Panel;
use mrtr_sim::scenarios::Answered;
use yew::prelude::*;

/// A `role="status"` sentence about the latest attempt.
#[component(Status)]
pub fn status(props: &Panel) -> Html {
    let sentence = match props.lab.latest() {
        None if props.lab.takes_moves() => {
            "The server handed back a ticket. Pick a move, or edit the ticket and send your own attempt.".to_owned()
        }
        None => "Scenario played: read the figures, the diagram and the raw lines.".to_owned(),
        Some(v) => {
            let verdict = match &v.answered {
                Answered::Accepted { text } => format!("accepted: {text}"),
                Answered::AskedAgain => "the server asked again instead of acting".to_owned(),
                Answered::Refused { check: Some(check), message, .. } => {
                    format!("refused by the {check} check: {message}")
                }
                Answered::Refused { code, message, .. } => format!("refused with error {code}: {message}"),
                Answered::NoResponse => "no response".to_owned(),
            };
            format!("{} at {}: {verdict}", v.title, mrtr_ticket::secs(v.at_ms))
        }
    };
    let class = match props.lab.latest().map(|v| &v.answered) {
        Some(Answered::Accepted { .. }) => "status status-pass",
        Some(Answered::Refused { .. }) => "status status-fail",
        _ => "status",
    };
    html! { <p class={class} role="status" aria-live="polite">{ sentence }</p> }
}
