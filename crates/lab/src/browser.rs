//! What the lab reads from and writes to the browser: the marks on the page's performance
//! timeline, what `localStorage` keeps, the page's address and fragment, the theme on
//! `<html>`. Each fails quietly where the browser says no (storage off, no window).

/// A mark on the page's performance timeline: when the lab started, when its first lab was
/// open. The budget (scripts/budget.mjs) reads them to say where the start-up time goes, and
/// the page's offline script (web/offline.js) registers the service worker after the second.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// What the browser keeps for the lab under `key` (challenge progress).
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key` in the browser, when it lets us.
pub fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// Removes what the browser keeps under `key`.
pub fn forget(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// The page's query as written (`?hide=hints&…`, or empty).
pub fn search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's query, to read by name.
pub fn query() -> Option<web_sys::UrlSearchParams> {
    web_sys::UrlSearchParams::new_with_str(&search()).ok()
}

/// The page's address without its fragment.
pub fn page_address() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_owned()
}

fn root_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// Puts `theme` (`light`, `dark` or `system`) on `<html data-theme>`, where the styles read it.
pub fn apply_theme(theme: &str) {
    if let Some(root) = root_element() {
        let _ = root.set_attribute("data-theme", theme);
    }
}

/// The theme the page opened with: what index.html's first script put on `<html>` from the
/// learner's last choice, else `system`.
pub fn page_theme() -> String {
    root_element().and_then(|root| root.get_attribute("data-theme")).unwrap_or_else(|| "system".into())
}

/// The address's fragment, without its `#`.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// Writes the situation into the address bar without adding a history entry.
pub fn show_fragment(fragment: &str) {
    if current_fragment() == fragment {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}
