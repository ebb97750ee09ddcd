//! What the scenario teaches and the rule behind it.

use super::{copy, region::heading};
use crate::host::Host;
use crate::state::{Action, Lab};
use mrtr_sim::scenarios;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`Intro`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The state to render.
    pub lab: Rc<Lab>,
    /// Sends an action to the reducer.
    pub send: Callback<Action>,
    /// Offer the link and session tools (the whole lab); otherwise one link to open this
    /// situation in the whole lab (a compact lab in a lesson).
    #[prop_or(true)]
    pub tools: bool,
    /// Where the lab runs: its links point there, and it says whether the panel is a region
    /// landmark (region.rs).
    pub host: Host,
}

/// The scenario's two or three sentences and its rule.
#[component(Intro)]
pub fn intro(props: &Props) -> Html {
    let Some(scenario) = scenarios::find(props.lab.scenario) else {
        return html! {};
    };
    let link = props.host.link(&props.lab);
    html! {
        <section class="intro" aria-labelledby={props.host.owns_document.then_some("intro-title")}>
            { heading("intro-title", scenario.title, None) }
            <p>{ scenario.teaches }</p>
            <p class="rule"><strong>{ "The rule: " }</strong>{ scenario.rule }</p>
            if props.tools {
                <div class="situation-tools">
                    <button type="button" class="secondary" onclick={move |_| copy(&link)}>
                        { "Copy link to this situation" }
                    </button>
                    <super::session::Session lab={props.lab.clone()} send={props.send.clone()} landmark={props.host.owns_document} />
                </div>
            } else {
                <a class="open-whole" href={link} target="_blank" rel="noopener">{ "Open this situation in the whole lab ↗" }</a>
            }
        </section>
    }
}
