//! The server checks panel: each check ✓ / ✗ / – / ·, with the values it compared.

use super::{region::heading, Panel};
use mrtr_ticket::Status;
use yew::prelude::*;

/// The checks the last attempt went through.
pub fn checks(props: &Panel) -> Html {
    let Some(verdict) = props.lab.latest() else {
        return html! {};
    };
    let title = format!(
        "Server checks: {} at {}, on {}",
        verdict.title,
        mrtr_ticket::secs(verdict.at_ms),
        verdict.replica.map_or("no replica", |r| r.name())
    );
    let body = match &verdict.checks {
        None => html! { <p class="hint">{ "No ticket came with this request, so no ticket check ran." }</p> },
        Some(report) => {
            // The server's own check after the ticket's: did the answer come with it?
            let (state, mark, status, detail) = match &verdict.answers {
                Some(a) if a.passed => ("pass", "✓", "passed", a.detail.clone()),
                Some(a) => ("fail", "✗", "failed", a.detail.clone()),
                None => ("unreached", "–", "not reached", "not reached: the ticket was refused".to_owned()),
            };
            html! {
            <ol class="check-list">
                { for report.steps.iter().map(|step| {
                    let state = match step.status {
                        Status::Passed => "pass",
                        Status::Failed => "fail",
                        Status::NotReached => "unreached",
                        Status::Skipped => "skipped",
                    };
                    html! {
                        <li class="check" data-state={state} data-check={step.check.id()}>
                            <span class="mark" aria-hidden="true">{ step.mark }</span>
                            <span class="check-label">{ step.label }</span>
                            <span class="check-status">{ step.status.word() }</span>
                            <span class="check-detail">{ step.detail.clone() }</span>
                        </li>
                    }
                }) }
                <li class="check" data-state={state} data-check="answer">
                    <span class="mark" aria-hidden="true">{ mark }</span>
                    <span class="check-label">{ "Answer included" }</span>
                    <span class="check-status">{ status }</span>
                    <span class="check-detail">{ detail }</span>
                </li>
            </ol>
            }
        }
    };
    // On one column the moves are far above (a move scrolled down to its verdict): one tap
    // back up. Hidden on two columns, where they are beside the checks.
    let back_to_moves = props.lab.takes_moves().then(|| {
        let onclick = |event: MouseEvent| {
            if let Some(moves) = super::lab_of(&event).and_then(|lab| lab.query_selector(".moves").ok().flatten()) {
                moves.scroll_into_view();
            }
        };
        html! { <button type="button" class="secondary to-moves" {onclick}>{ "Back to the moves ↑" }</button> }
    });
    html! {
        <section class="checks" aria-labelledby={props.host.owns_document.then_some("checks-title")}>
            { heading("checks-title", title, None) }
            { body }
            { back_to_moves }
        </section>
    }
}
