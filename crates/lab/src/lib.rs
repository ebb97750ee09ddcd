//! # mrtr-lab: the front end
//!
//! A Yew app that renders what `mrtr-sim` produces and holds no protocol logic: one state
//! ([`state::Lab`]) with an [`state::Action`] enum and a pure reducer that calls the
//! simulation; small components, one per file, taking data and `Callback` props; diagrams
//! as pure functions from the trace to SVG.
//!
//! ```
//! use mrtr_lab::state::{Action, Lab};
//! use mrtr_sim::moves::Move;
//! let lab = Lab::open("deploy").apply(Action::Play(Move::OtherPrincipal));
//! assert_eq!(lab.latest().unwrap().answered.word(), "principal");
//! ```
#![deny(missing_docs)]

pub mod components;
pub mod diagrams;
pub mod element;
pub mod embed;
pub mod host;
pub mod setup;
pub mod share;
pub mod state;
pub mod view;

use components::header::header;
use host::Host;
use view::{LabView, Layout};
use yew::prelude::*;

/// Where the browser keeps the page's theme. index.html's first script reads it, before
/// anything is drawn, into `<html data-theme>`; the lab reads it back from there.
const THEME_KEY: &str = "mrtr-lab-theme";
/// How long the address bar waits after the last change before it shows the new situation.
const LINK_DELAY_MS: u64 = 250;
/// A link to a place in the page scrolls there this many times before the address bar shows
/// the situation ([`page_anchor`]): the panels above it take their real heights meanwhile.
const ANCHOR_SCROLLS: usize = 5;
/// How long after each of those scrolls the next one comes, in milliseconds.
const ANCHOR_SETTLE_MS: u64 = 60;

/// Starts what the page asks for, after installing the panic hook: the iframe lab on
/// `embed.html`, the whole lab on a page whose body says `data-mrtr-lab="page"` (index.html),
/// and nothing on other pages: there `<mrtr-lab>` elements mount themselves ([`element`]).
pub fn start() {
    mark("mrtr-lab:start");
    install_panic_hook();
    if let Some(params) = embed::params() {
        yew::Renderer::<Embedded>::with_props(EmbeddedProps { params }).render();
        return;
    }
    let document = web_sys::window().and_then(|w| w.document());
    if document
        .and_then(|d| d.body())
        .is_some_and(|body| body.get_attribute("data-mrtr-lab").as_deref() == Some("page"))
    {
        yew::Renderer::<App>::new().render();
    }
}

/// A panic never blanks the page: the message is shown where a student can read it.
/// Installed once, however many labs a page mounts.
pub(crate) fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = format!("The lab hit a bug and stopped: {info}. Reload the page to start again.");
            web_sys::console::error_1(&message.clone().into());
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            if let (Ok(alert), Some(body)) = (document.create_element("div"), document.body()) {
                alert.set_class_name("panic");
                let _ = alert.set_attribute("role", "alert");
                alert.set_text_content(Some(&message));
                let _ = body.prepend_with_node_1(&alert);
            }
        }))
    });
}

/// A mark on the page's performance timeline: when the lab started, when its first lab was
/// open. The budget (scripts/budget.mjs) reads them to say where the start-up time goes, and
/// the page's offline script (web/offline.js) registers the service worker after the second.
pub(crate) fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// What the browser keeps for the lab under `key` (challenge progress).
pub(crate) fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key` in the browser, when it lets us.
pub(crate) fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// The page's address without its fragment.
fn page_address() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_owned()
}

fn root_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

fn apply_theme(theme: &str) {
    if let Some(root) = root_element() {
        let _ = root.set_attribute("data-theme", theme);
    }
}

/// The theme the page opened with: what index.html's first script put on `<html>` from the
/// learner's last choice, else `system`.
fn page_theme() -> String {
    root_element().and_then(|root| root.get_attribute("data-theme")).unwrap_or_else(|| "system".into())
}

fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// The place in the page a link names (`#quiz-title`: [`view::is_page_anchor`]), if it
/// names one. The lab opens there; the browser cannot, the place not being drawn when the
/// page loads.
fn page_anchor() -> Option<web_sys::Element> {
    let fragment = current_fragment();
    view::is_page_anchor(&fragment).then(|| web_sys::window()?.document()?.get_element_by_id(&fragment)).flatten()
}

/// Writes the situation into the address bar without adding a history entry.
fn show_fragment(fragment: &str) {
    if current_fragment() == fragment {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}

/// Restores the situation when someone pastes another link into the same tab.
fn on_hash_change(send: Callback<state::Action>) -> Option<wasm_bindgen::closure::Closure<dyn FnMut()>> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        let fragment = current_fragment();
        if share::is_situation(&fragment) {
            send.emit(state::Action::Restore(fragment));
        }
    });
    window
        .add_event_listener_with_callback("hashchange", wasm_bindgen::JsCast::unchecked_ref(closure.as_ref()))
        .ok()?;
    Some(closure)
}

/// Props of [`Embedded`].
#[derive(Properties, PartialEq, Debug)]
pub struct EmbeddedProps {
    /// What the iframe URL asked for.
    pub params: embed::EmbedParams,
}

/// The compact lab inside an iframe (`embed.html`).
#[component(Embedded)]
pub fn embedded(props: &EmbeddedProps) -> Html {
    let setup = props.params.setup.clone();
    let (lab, send) = view::use_lab(|| setup.open());
    {
        let (send, parent, theme) = (send.clone(), props.params.parent.clone(), props.params.theme.clone());
        use_effect_with((), move |_| {
            apply_theme(theme.as_deref().unwrap_or("system"));
            if let Some(parent) = parent {
                embed::listen(parent, send);
            }
        });
    }
    let host = use_memo(props.params.activity.clone(), |activity| {
        let page = page_address();
        let lab_page = page.rsplit_once('/').map_or(page.clone(), |(dir, _)| format!("{dir}/"));
        let activity = activity.clone().unwrap_or_else(|| lab_page.clone());
        Host {
            emit: Callback::from(move |event: host::LabEvent| embed::post_event(&event, &activity)),
            lab_page: lab_page.into(),
            owns_document: true,
        }
    });
    use_effect(embed::post_height);
    html! {
        <LabView {lab} {send} layout={Layout::Compact} host={(*host).clone()} />
    }
}

/// The whole lab.
#[component(App)]
pub fn app() -> Html {
    let (state, send) = view::use_lab(|| share::read_fragment(&current_fragment()));
    // The page is already in this theme (index.html's first script): it changes on a choice.
    let theme = use_state(page_theme);
    let on_theme = {
        let setter = theme.setter();
        Callback::from(move |t: String| {
            store(THEME_KEY, &t);
            apply_theme(&t);
            setter.set(t);
        })
    };
    {
        let send = send.clone();
        // The listener lives as long as the app: it is leaked on purpose.
        use_effect_with((), move |_| std::mem::forget(on_hash_change(send)));
    }
    {
        // The address bar follows the situation, a moment after the last change: writing
        // history costs a few milliseconds, too many for every keystroke, and the fragment
        // is worked out only for the state that stays.
        let generation = use_mut_ref(|| 0u64);
        let state = state.clone();
        use_effect(move || {
            *generation.borrow_mut() += 1;
            let mine = *generation.borrow();
            yew::platform::spawn_local(async move {
                yew::platform::time::sleep(std::time::Duration::from_millis(LINK_DELAY_MS)).await;
                // The page's first link may name a place in it: the panels below the first
                // window are drawn now (a task after the first render), so scroll there, and
                // again while the panels above it, drawn only as they come near the window
                // (`content-visibility`), take their real heights and move it; until the
                // learner's first action.
                if let Some(place) = (mine == 1).then(page_anchor).flatten() {
                    for _ in 0..ANCHOR_SCROLLS {
                        if *generation.borrow() != mine {
                            break;
                        }
                        place.scroll_into_view();
                        yew::platform::time::sleep(std::time::Duration::from_millis(ANCHOR_SETTLE_MS)).await;
                    }
                }
                if *generation.borrow() == mine {
                    show_fragment(&share::to_fragment(&state));
                }
            });
        });
    }
    let host = use_memo((), |_| Host::page(&page_address()));
    html! {
        <>
            // To the main landmark (`view::MAIN_ID`).
            <a class="skip" href="#lab-main">{ "Skip to the lab" }</a>
            { header(&theme, &on_theme) }
            <LabView lab={state} {send} layout={Layout::Full} host={(*host).clone()} />
            <footer class="site-footer">
                <p>{ "The server key in this lab is a lab key, printed in its source on purpose: nothing here is secret. Everything runs in your browser; nothing is sent anywhere." }</p>
            </footer>
        </>
    }
}
