//! What the scenario teaches and the rule behind it.

use super::{copy, Panel};
use mrtr_sim::scenarios;
use yew::prelude::*;

/// The scenario's two or three sentences and its rule.
#[component(Intro)]
pub fn intro(props: &Panel) -> Html {
    let Some(scenario) = scenarios::find(props.lab.scenario) else {
        return html! {};
    };
    html! {
        <section class="intro" aria-labelledby="intro-title">
            <h2 id="intro-title">{ scenario.title }</h2>
            <p>{ scenario.teaches }</p>
            <p class="rule"><strong>{ "The rule: " }</strong>{ scenario.rule }</p>
            <button type="button" class="secondary" onclick={|_| copy(&web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default())}>
                { "Copy link to this situation" }
            </button>
            <super::session::Session lab={props.lab.clone()} send={props.send.clone()} />
        </section>
    }
}
