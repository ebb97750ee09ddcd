//! What the scenario teaches and the rule behind it.

use super::{copy, region::heading, Panel};
use mrtr_sim::scenarios;
use yew::prelude::*;

/// The scenario's two or three sentences and its rule, with the link and session tools (the
/// whole lab).
pub fn intro(props: &Panel) -> Html {
    intro_with(props, true)
}

/// The same with one link to open this situation in the whole lab instead of the tools (a
/// compact lab in a lesson).
pub fn intro_compact(props: &Panel) -> Html {
    intro_with(props, false)
}

fn intro_with(props: &Panel, tools: bool) -> Html {
    let Some(scenario) = scenarios::find(props.lab.scenario) else {
        return html! {};
    };
    // The copy button writes the link when clicked; the compact lab's link is on the page.
    let copy_link = {
        let (host, lab) = (props.host.clone(), props.lab.clone());
        move |_| copy(&host.link(&lab))
    };
    html! {
        <section class="intro" aria-labelledby={props.host.owns_document.then_some("intro-title")}>
            { heading("intro-title", scenario.title, None) }
            if !props.lab.ignored.is_empty() {
                <ul class="problems" aria-label="What the lab left out">
                    { for props.lab.ignored.iter().map(|sentence| html! { <li>{ format!("Left out: {sentence}") }</li> }) }
                </ul>
            }
            <p>{ scenario.teaches }</p>
            <p class="rule"><strong>{ "The rule: " }</strong>{ scenario.rule }</p>
            if tools {
                <div class="situation-tools">
                    <button type="button" class="secondary" onclick={copy_link}>
                        { "Copy link to this situation" }
                    </button>
                    <super::session::Session ..props.clone() />
                </div>
            } else {
                <a class="open-whole" href={props.host.link(&props.lab)} target="_blank" rel="noopener">{ "Open this situation in the whole lab ↗" }</a>
            }
        </section>
    }
}
