//! An empty Yew page, built beside the lab only to measure it against (scripts/budget.mjs).

use yew::prelude::*;

#[component(Empty)]
fn empty() -> Html {
    html! { <main id="ready">{ "ready" }</main> }
}

fn main() {
    yew::Renderer::<Empty>::new().render();
}
