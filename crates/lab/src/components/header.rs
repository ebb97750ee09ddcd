//! The page header: the name, what it is, and the theme switch.

use yew::prelude::*;

/// The page header; `theme` is `system`, `light` or `dark`, and `on_theme` picks another.
pub fn header(theme: &str, on_theme: &Callback<String>) -> Html {
    let on_change = {
        let on_theme = on_theme.clone();
        Callback::from(move |e: Event| on_theme.emit(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
    };
    html! {
        <header class="site-header">
            <div>
                <h1>{ "mrtr-lab" }</h1>
                <p class="tagline">{ "Multi round-trip requests (MCP 2026-07-28), hands on: play the client, honest or not, and see which check stops you." }</p>
            </div>
            <label class="theme-switch">
                { "Theme " }
                <select onchange={on_change}>
                    { for ["system", "light", "dark"].into_iter().map(|t| html! {
                        <option value={t} selected={theme == t}>{ t }</option>
                    }) }
                </select>
            </label>
        </header>
    }
}
