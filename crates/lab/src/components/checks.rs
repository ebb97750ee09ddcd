//! The server checks panel: each check ✓ / ✗ / – / ·, with the values it compared.

use super::{region::Region, Panel};
use mrtr_ticket::Status;
use yew::prelude::*;

/// The checks the last attempt went through.
pub fn checks(props: &Panel) -> Html {
    let Some(verdict) = props.lab.latest() else {
        return html! {};
    };
    let heading = format!(
        "Server checks: {} at {}, on {}",
        verdict.title,
        mrtr_ticket::secs(verdict.at_ms),
        verdict.replica.map_or("no replica", |r| r.name())
    );
    let body = match &verdict.checks {
        None => html! { <p class="hint">{ "No ticket came with this request, so no ticket check ran." }</p> },
        Some(report) => {
            // The server's own check after the ticket's: did the answer come with it?
            let (class, mark, status, detail) = match &verdict.answers {
                Some(a) if a.passed => ("check check-pass", "✓", "passed", a.detail.clone()),
                Some(a) => ("check check-fail", "✗", "failed", a.detail.clone()),
                None => ("check check-unreached", "–", "not reached", "not reached: the ticket was refused".to_owned()),
            };
            html! {
            <ol class="check-list">
                { for report.steps.iter().map(|step| {
                    let class = match step.status {
                        Status::Passed => "check check-pass",
                        Status::Failed => "check check-fail",
                        Status::NotReached => "check check-unreached",
                        Status::Skipped => "check check-skipped",
                    };
                    html! {
                        <li class={class} data-check={step.check.id()}>
                            <span class="mark" aria-hidden="true">{ step.mark }</span>
                            <span class="check-label">{ step.label }</span>
                            <span class="check-status">{ step.status.word() }</span>
                            <span class="check-detail">{ step.detail.clone() }</span>
                        </li>
                    }
                }) }
                <li class={class} data-check="answer">
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
        <Region class="checks" heading="checks-title" title={heading}>
            { body }
            { back_to_moves }
        </Region>
    }
}
