//! What the client sent last and what the server answered, as exact JSON.

use super::{copy, region::heading, Panel};
use mrtr_sim::trace::Kind;
use yew::prelude::*;

fn pretty(line: &str) -> String {
    if line.len() > super::SHOWN_LINE {
        return super::shown_line(line);
    }
    super::laid_out(line).unwrap_or_else(|| line.to_owned())
}

/// The last request and response on the wire.
pub fn answer(props: &Panel) -> Html {
    let events = &props.lab.run.trace.events;
    let shown = props.lab.cursor.unwrap_or(events.len()).min(events.len());
    let last = |kind: Kind| events[..shown].iter().rev().find(|e| e.kind == kind && e.line.is_some());
    let block = |title: &'static str, kind: Kind| match last(kind).and_then(|e| e.line.clone()) {
        None => html! {},
        Some(line) => {
            let copy_line = {
                let line = line.clone();
                Callback::from(move |_: MouseEvent| copy(&line))
            };
            html! {
                <div class="wire">
                    <div class="wire-head">
                        <h3>{ title }</h3>
                        <button type="button" class="secondary" onclick={copy_line}>{ format!("Copy {}", title.to_ascii_lowercase()) }</button>
                    </div>
                    <pre tabindex="0">{ pretty(&line) }</pre>
                </div>
            }
        }
    };
    html! {
        <section class="answer" aria-labelledby={props.host.owns_document.then_some("answer-title")}>
            { heading("answer-title", "On the wire", None) }
            { block("Client sends", Kind::Request) }
            { block("Server answers", Kind::Response) }
        </section>
    }
}
