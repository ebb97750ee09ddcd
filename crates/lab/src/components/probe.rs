//! "Test your server" and "Fix-It": the lab's attacks on a server the learner names, and on
//! the lab's own server with a verifier the learner writes.
//!
//! Their work is in the codec's JS package (`ProbeRun`, `fixIt`: the probe's battery, built
//! from the lab's moves) and in `web/probe/elements.js`, whose `<mrtr-probe>` and
//! `<mrtr-fixit>` this panel places. The module is added after the page's first render and
//! the package loads on the first run, so neither weighs on the page's first load
//! (docs/ARCHITECTURE.md). A Fix-It pass reaches the host as the lab's challenge event.
//!
//! The page calls the learner's server from the browser, so the server must let this page's
//! origin call it (CORS) and, when the page comes from a public site and the server from
//! this machine, answer the browser's private-network preflight.

use super::region::heading;
use crate::host::{Host, LabEvent};
use yew::prelude::*;

/// What Fix-It asks: its goal, as the challenges' event reports it.
pub const FIX_IT_GOAL: &str = "Write a verifier that refuses every attack and lets the honest retry complete";

/// Props of [`ProbePanel`] and [`FixItPanel`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// Where the lab runs: where its files are, and who hears of a Fix-It pass.
    pub host: Host,
}

/// Adds the elements' module, beside the lab's own files, to the document, once.
fn load_elements(lab_page: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if document.get_element_by_id("mrtr-probe-elements").is_some() {
        return;
    }
    let base = lab_page.rsplit_once('/').map_or("", |(dir, _)| dir);
    if let Ok(script) = document.create_element("script") {
        let _ = script.set_attribute("type", "module");
        let _ = script.set_attribute("id", "mrtr-probe-elements");
        let _ = script.set_attribute("src", &format!("{base}/probe/elements.js"));
        if let Some(head) = document.head() {
            let _ = head.append_child(&script);
        }
    }
}

/// "Test your server": on the lab's own page only, where the learner's server can allow
/// its origin.
#[component(ProbePanel)]
pub fn probe_panel(props: &Props) -> Html {
    let lab_page = props.host.lab_page.clone();
    use_effect_with((), move |()| load_elements(&lab_page));
    html! {
        <section class="probe" aria-labelledby="probe-title">
            { heading("probe-title", "Test your server", None) }
            <p>{ "The lab's attacks on your own MCP server, each on a fresh flow, sent from this page: your server must allow its origin (CORS) and, from a public site to your machine, the private-network preflight. From a terminal: mrtr probe URL." }</p>
            <mrtr-probe></mrtr-probe>
        </section>
    }
}

/// Fix-It: wherever the lab shows every panel; a pass is the lab's challenge event.
#[component(FixItPanel)]
pub fn fix_it_panel(props: &Props) -> Html {
    let fixit = use_node_ref();
    {
        let (fixit, host) = (fixit.clone(), props.host.clone());
        use_effect_with((), move |()| {
            load_elements(&host.lab_page);
            let listener = fixit.get().map(|element| {
                gloo::events::EventListener::new(&element, "mrtr-fixit:passed", move |_| {
                    host.emit.emit(LabEvent::Challenge { id: "fix-it", goal: FIX_IT_GOAL });
                })
            });
            move || drop(listener)
        });
    }
    html! {
        <section class="probe" aria-labelledby={props.host.owns_document.then_some("fixit-title")}>
            { heading("fixit-title", "Fix-It: write the verifier", None) }
            <mrtr-fixit ref={fixit}></mrtr-fixit>
        </section>
    }
}
