//! The raw JSON-RPC transcript: the exact bytes, one message per line.

use super::{copy, region::heading, Panel};
use mrtr_sim::trace::Actor;
use yew::prelude::*;

/// Every wire line so far, with its direction and replica.
pub fn transcript(props: &Panel) -> Html {
    let events = &props.lab.run.trace.events;
    let shown = props.lab.cursor.unwrap_or(events.len()).min(events.len());
    let wire: Vec<(String, &str)> = events[..shown]
        .iter()
        .filter_map(|e| {
            let line = e.line.as_ref()?;
            let (arrow, who) = if e.from == Actor::Client { ("-->", e.to.name()) } else { ("<--", e.from.name()) };
            let era = if e.earlier_era { " (earlier era)" } else { "" };
            Some((format!("{arrow} [{} {who}{era}] ", mrtr_ticket::secs(e.at_ms)), line.as_str()))
        })
        .collect();
    let all = wire.iter().map(|(head, line)| format!("{head}{line}")).collect::<Vec<_>>().join("\n");
    let lines: Vec<String> = wire.iter().map(|(head, line)| format!("{head}{}", super::shown_line(line))).collect();
    let on_copy = Callback::from(move |_: MouseEvent| copy(&all));
    let copy_button =
        html! { <button type="button" class="secondary" onclick={on_copy}>{ "Copy transcript" }</button> };
    html! {
        <section class="transcript" aria-labelledby={props.host.owns_document.then_some("transcript-title")}>
            { heading("transcript-title", "Raw JSON-RPC", Some(copy_button)) }
            <pre class="raw-lines" tabindex="0" aria-label="Raw JSON-RPC lines">{ for lines.iter().map(|l| html! { <>{ l.clone() }{ "\n" }</> }) }</pre>
        </section>
    }
}
