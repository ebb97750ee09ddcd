//! Component tests in a real browser (headless Chromium through wasm-pack).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn mount() -> web_sys::Element {
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let root = document.create_element("div").expect("a div");
    document.body().expect("a body").append_child(&root).expect("appended");
    yew::Renderer::<mrtr_lab::App>::with_root(root.clone()).render();
    root
}

#[wasm_bindgen_test]
async fn the_page_shows_every_check_of_a_fresh_ticket() {
    let root = mount();
    yew::platform::time::sleep(Duration::from_millis(30)).await;
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("✓ Signature matches"), "{text}");
    assert!(text.contains("minted for bob, presented by bob"), "{text}");
}
