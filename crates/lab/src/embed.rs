//! The iframe page (`embed.html?scenario=…&moves=…&step=…&theme=…&parent=…`): a compact
//! lab for pages that cannot run scripts of their own. It posts its height to the parent
//! after every render, and acts only on messages from the parent origin it was given.
//!
//! Messages it sends: `{type: "mrtr-lab:height", height}` (pixels), and every
//! [`LabEvent`](crate::host::LabEvent)'s detail (`{type: "mrtr-lab:verdict", by, check,
//! accepted, …, statement}` after each move, a step, a challenge, the quiz).
//! Messages it accepts, from `parent` only: `{type: "mrtr-lab:play", move}` (a move id).

use crate::browser::{apply_theme, page_address};
use crate::host::{self, Host};
use crate::setup::Setup;
use crate::state::Action;
use crate::view::{self, LabView, Layout};
use gloo::events::EventListener;
use mrtr_sim::moves::Move;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// What the iframe's URL asks for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EmbedParams {
    /// The situation: `scenario`, `moves`, `clock`, `record`, `signing`, `reply`, `step`,
    /// `situation`, read as a [`Setup`].
    pub setup: Setup,
    /// `light`, `dark` or `system`.
    pub theme: Option<String>,
    /// The only origin whose messages it acts on.
    pub parent: Option<String>,
    /// The lesson's activity IRI, the prefix of the ids in events' xAPI statements.
    pub activity: Option<String>,
}

/// The embed parameters, when this page is `embed.html`.
pub fn params() -> Option<EmbedParams> {
    let location = web_sys::window()?.location();
    if !location.pathname().ok()?.ends_with("/embed.html") {
        return None;
    }
    let search = location.search().ok().unwrap_or_default();
    let query = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    Some(EmbedParams {
        setup: Setup::read(|name| query.get(name)),
        theme: query.get("theme"),
        parent: query.get("parent").or_else(|| location.origin().ok()),
        activity: query.get("activity"),
    })
}

fn post(message: &JsValue) {
    if let Some(parent) = web_sys::window().and_then(|w| w.parent().ok().flatten()) {
        // Only a height or a verdict: nothing secret, so any parent may read it.
        let _ = parent.post_message(message, "*");
    }
}

/// Tells the parent how tall the page is now.
pub fn post_height() {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"mrtr-lab:height".into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &JsValue::from(root.scroll_height()));
    post(&message);
}

/// Tells the parent what happened: the event's documented detail.
pub fn post_event(event: &host::LabEvent, activity: &str) {
    post(&event.detail_js(activity));
}

/// The move a message asks for, if it comes from `parent` and has the documented shape.
pub fn accepted_move(origin: &str, parent: &str, data: &JsValue) -> Option<Move> {
    if origin != parent {
        return None;
    }
    let kind = js_sys::Reflect::get(data, &"type".into()).ok()?.as_string()?;
    if kind != "mrtr-lab:play" {
        return None;
    }
    Move::from_id(&js_sys::Reflect::get(data, &"move".into()).ok()?.as_string()?)
}

/// Listens for the parent's messages; the listener lives as long as the page.
pub fn listen(parent: String, send: Callback<Action>) {
    let Some(window) = web_sys::window() else { return };
    EventListener::new(&window, "message", move |event| {
        let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
        if let Some(by) = accepted_move(&event.origin(), &parent, &event.data()) {
            send.emit(Action::Play(by));
        }
    })
    .forget();
}

/// Props of [`Embedded`].
#[derive(Properties, PartialEq, Debug)]
pub struct EmbeddedProps {
    /// What the iframe URL asked for.
    pub params: EmbedParams,
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
                listen(parent, send);
            }
        });
    }
    let host = use_memo(props.params.activity.clone(), |activity| {
        let page = page_address();
        let lab_page = page.rsplit_once('/').map_or(page.clone(), |(dir, _)| format!("{dir}/"));
        let activity = activity.clone().unwrap_or_else(|| lab_page.clone());
        Host {
            emit: Callback::from(move |event: host::LabEvent| post_event(&event, &activity)),
            lab_page: lab_page.into(),
            owns_document: true,
        }
    });
    use_effect(post_height);
    html! {
        <LabView {lab} {send} layout={Layout::Compact} host={(*host).clone()} />
    }
}
