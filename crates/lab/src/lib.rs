//! # mrtr-lab: the front end
//!
//! A Yew app that renders what the simulation produces; it holds no protocol logic.
//! For now it proves the pipeline: it mints a ticket with the codec, opens it, and shows
//! each check.

use mrtr_ticket::{Codec, Expect, FixedNonces, Key, Mint, Mode, RequestDigest};
use yew::prelude::*;

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// The placeholder page: one ticket, minted and opened.
#[function_component(App)]
pub fn app() -> Html {
    let (ticket, steps) = demo();
    html! {
        <main>
            <h1>{ "mrtr-lab" }</h1>
            <p>{ "A ticket minted for bob's deploy to staging, opened at t = 8 s:" }</p>
            <pre id="ticket">{ ticket }</pre>
            <ul id="checks">
                { for steps.into_iter().map(|(mark, label, detail)| html! {
                    <li>{ format!("{mark} {label}: {detail}") }</li>
                }) }
            </ul>
        </main>
    }
}

fn demo() -> (String, Vec<(&'static str, &'static str, String)>) {
    let Ok(key) = Key::new(*b"mrtr-lab demo key, not a secret!") else {
        return (String::new(), Vec::new());
    };
    let codec = Codec::new(key, Mode::Signed);
    let params = serde_json::json!({"name": "deploy", "arguments": {"env": "staging"}});
    let request = RequestDigest::of("tools/call", &params);
    let mint = Mint {
        principal: "bob".into(),
        request: request.clone(),
        data: serde_json::json!({"env": "staging"}),
        now_ms: 0,
        ttl_ms: 120_000,
    };
    let ticket = codec.mint(&mint, &mut FixedNonces(vec![42]));
    let opened = codec.open(&ticket, &Expect { principal: "bob", request: &request, now_ms: 8_000 }, None);
    let steps = opened.steps().map(|(check, status)| (status.mark(), check.label(), opened.explain(check))).collect();
    (ticket, steps)
}
