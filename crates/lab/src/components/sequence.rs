//! The sequence diagram with back and forward, and its text twin.

use super::{region::heading, Panel};
use crate::diagrams::sequence;
use crate::state::Action;
use yew::prelude::*;

/// The diagram panel.
pub fn sequence_panel(props: &Panel) -> Html {
    let events = &props.lab.run.trace.events;
    let shown = props.lab.cursor.unwrap_or(events.len()).min(events.len());
    let act = |action: Action| {
        let send = props.send.clone();
        Callback::from(move |_: MouseEvent| send.emit(action.clone()))
    };
    let stepper = html! {
        <div class="stepper" role="group" aria-label="Step through the diagram">
            <button type="button" onclick={act(Action::Step(-1))} disabled={shown <= 1}>{ "◀ Back" }</button>
            <span class="step-count">{ format!("step {shown} of {}", events.len()) }</span>
            <button type="button" onclick={act(Action::Step(1))} disabled={shown >= events.len()}>{ "Forward ▶" }</button>
            <button type="button" class="secondary" onclick={act(Action::ShowAll)}>{ "Show all" }</button>
        </div>
    };
    html! {
        <section class="sequence-panel" aria-labelledby={props.host.owns_document.then_some("sequence-title")}>
            { heading("sequence-title", "Sequence", Some(stepper)) }
            { super::scrolls("Sequence diagram", sequence::diagram(&events[..shown])) }
            <details>
                <summary>{ "The diagram as text" }</summary>
                { sequence::text_twin(&events[..shown]) }
            </details>
        </section>
    }
}
