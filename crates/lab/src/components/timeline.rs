//! The clock timeline and the table of attempts.

use super::{region::heading, Panel};
use crate::diagrams::timeline;
use mrtr_sim::scenarios::Answered;
use yew::prelude::*;

/// The timeline panel, for scenarios built on one ticket.
pub fn timeline_panel(props: &Panel) -> Html {
    let verdicts = &props.lab.run.verdicts;
    if !props.lab.takes_moves() || verdicts.is_empty() {
        return html! {};
    }
    let minted_ms = props.lab.run.figure("mintedAtMs").as_u64().unwrap_or(0);
    html! {
        <section class="timeline-panel" aria-labelledby={props.host.owns_document.then_some("timeline-title")}>
            { heading("timeline-title", "Against the clock", None) }
            { super::scrolls("Timeline of the attempts", timeline::diagram(verdicts, minted_ms, 120_000)) }
            { super::scrolls("Attempts on the ticket", html! {
                <table class="attempts">
                    <caption>{ "Attempts on the ticket" }</caption>
                    { super::column_heads(&["Move", "Time", "Ticket", "Token", "Replica", "Verdict"]) }
                    <tbody>
                        { for verdicts.iter().map(|v| {
                            let passed = matches!(v.answered, Answered::Accepted { .. });
                            html! {
                                <tr>
                                    <td>{ v.title.clone() }</td>
                                    <td>{ mrtr_ticket::secs(v.at_ms) }</td>
                                    <td>{ v.ticket.as_deref().unwrap_or("none") }</td>
                                    <td>{ v.bearer.clone() }</td>
                                    <td>{ v.replica.map_or("–", |r| r.name()) }</td>
                                    <td class="verdict" data-state={if passed { "pass" } else { "fail" }}>
                                        { format!("{} {}", if passed { "✓" } else { "✗" }, v.answered.word()) }
                                    </td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }) }
        </section>
    }
}
