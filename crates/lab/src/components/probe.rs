//! "Test your server" and "Fix-It": the lab's attacks on a server the learner names, and on
//! the lab's own server with a verifier the learner writes.
//!
//! Their work is in the codec's JS package (`ProbeRun`, `fixIt`: the probe's battery, built
//! from the lab's moves) and in `web/probe/elements.js`, whose `<mrtr-probe>` and
//! `<mrtr-fixit>` these panels place. The module is added when they come near the window
//! and the package loads on the first run, so neither weighs on a page's first visit
//! (parts.rs). A Fix-It pass reaches the host as the lab's challenge event.
//!
//! The page calls the learner's server from the browser, so the server must let this page's
//! origin call it (CORS) and, when the page comes from a public site and the server from
//! this machine, answer the browser's private-network preflight.

use super::region::heading;
use crate::host::Host;
use yew::prelude::*;

/// "Test your server": on the lab's own page only, where the learner's server can allow
/// its origin.
pub fn probe_panel() -> Html {
    html! {
        <section class="probe" aria-labelledby="probe-title">
            { heading("probe-title", "Test your server", None) }
            <p>{ "The lab's attacks on your own MCP server, each on a fresh flow, sent from this page: your server must allow its origin (CORS) and, from a public site to your machine, the private-network preflight. From a terminal: mrtr probe URL." }</p>
            <mrtr-probe></mrtr-probe>
        </section>
    }
}

/// Fix-It: wherever the lab shows every panel; its pass (`mrtr-fixit:passed`) is heard by
/// the parts' listener (parts.rs) and becomes the lab's challenge event.
pub fn fix_it_panel(host: &Host) -> Html {
    html! {
        <section class="probe" aria-labelledby={host.owns_document.then_some("fixit-title")}>
            { heading("fixit-title", "Fix-It: write the verifier", None) }
            <mrtr-fixit hide-hints={host.class.hide_hints.then_some("")}></mrtr-fixit>
        </section>
    }
}

/// "Read your own traffic": a transcript the learner pastes or drops, read in the page
/// (`<mrtr-transcript>`: its rounds, a sequence diagram of each operation, the tickets, what
/// breaks the MRTR page). On the lab's own page, beside "Test your server".
pub fn lint_panel() -> Html {
    html! {
        <section class="probe" aria-labelledby="lint-title">
            { heading("lint-title", "Read your own traffic", None) }
            <mrtr-transcript></mrtr-transcript>
        </section>
    }
}
