//! Component tests in a real browser (headless Chromium through wasm-pack).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a fresh lab on the deploy scenario (tests share one page, and the lab keeps its
/// situation in the URL fragment, so each test starts from a known one).
async fn mount() -> web_sys::Element {
    let window = web_sys::window().expect("a window");
    window
        .history()
        .expect("history")
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#deploy"))
        .expect("replaced");
    let document = window.document().expect("a document");
    let root = document.create_element("div").expect("a div");
    document.body().expect("a body").append_child(&root).expect("appended");
    yew::Renderer::<mrtr_lab::page::App>::with_root(root.clone()).render();
    settle().await;
    root
}

/// Lets the lab draw: the verdict at once, the other panels a task later (slow in a debug build).
async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(300)).await;
}

fn button(root: &web_sys::Element, text: &str) -> web_sys::HtmlElement {
    let buttons = root.query_selector_all("button").expect("buttons");
    (0..buttons.length())
        .filter_map(|i| buttons.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .find(|b| b.text_content().unwrap_or_default().contains(text))
        .unwrap_or_else(|| panic!("no button says {text}"))
}

fn status(root: &web_sys::Element) -> String {
    root.query_selector("[role=status]").ok().flatten().and_then(|s| s.text_content()).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_move_updates_the_status_the_checks_and_the_ledger() {
    let root = mount().await;
    assert!(status(&root).contains("handed back a ticket"), "{}", status(&root));
    button(&root, "alice replays bob's ticket").click();
    settle().await;
    assert!(status(&root).contains("refused by the principal check"), "{}", status(&root));
    let failed = root
        .query_selector(r#".check[data-state="fail"]"#)
        .ok()
        .flatten()
        .and_then(|c| c.text_content())
        .unwrap_or_default();
    assert!(failed.contains("minted for bob, presented by alice"), "{failed}");
    button(&root, "Honest retry").click();
    settle().await;
    assert!(status(&root).contains("accepted: deployed to staging"), "{}", status(&root));
    assert!(root.text_content().unwrap_or_default().contains("Ledger: 1 side effect"));
}

#[wasm_bindgen_test]
async fn another_scenario_shows_its_figures() {
    let root = mount().await;
    button(&root, "Earlier era vs modern").click();
    settle().await;
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("timed out"), "{text}");
    assert!(text.contains("finished, ledger 1"), "{text}");
}
