//! The iframe page (`embed.html?scenario=…&moves=…&step=…&theme=…&parent=…`): a compact
//! lab for pages that cannot run scripts of their own. It posts its height to the parent
//! after every render, and acts only on messages from the parent origin it was given.
//!
//! Messages it sends: `{type: "mrtr-lab:ready", situation, classCode}` once it is drawn,
//! `{type: "mrtr-lab:height", height}` (pixels), and every
//! [`LabEvent`](crate::host::LabEvent)'s detail (`{type: "mrtr-lab:verdict", by, check,
//! accepted, …, statement}` after each move, a step, a challenge, the quiz).
//! Messages it accepts, from `parent` only: `{type: "mrtr-lab:play", move}` (a move id) and
//! `{type: "mrtr-lab:reset"}` (forget the learner's progress in this browser, and reload).

use crate::browser::{apply_theme, page_address};
use crate::class::Class;
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
    /// What the instructor set (`hide`, `scenarios`, `class`).
    pub class: std::rc::Rc<Class>,
}

/// The embed parameters, when this page is `embed.html`.
pub fn params() -> Option<EmbedParams> {
    let location = web_sys::window()?.location();
    if !location.pathname().ok()?.ends_with("/embed.html") {
        return None;
    }
    let query = crate::browser::query()?;
    Some(EmbedParams {
        setup: Setup::read(|name| query.get(name)),
        theme: query.get("theme"),
        parent: query.get("parent").or_else(|| location.origin().ok()),
        activity: query.get("activity"),
        class: Class::read(&mut |name| query.get(name)).into(),
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

/// Tells the parent the lab is ready: `{type: "mrtr-lab:ready", situation, classCode}` (the
/// class code or `null`), as the element's `mrtr-lab:ready` event says it.
pub fn post_ready(situation: &str, class_code: Option<&str>) {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"mrtr-lab:ready".into());
    let _ = js_sys::Reflect::set(&message, &"situation".into(), &situation.into());
    let _ = js_sys::Reflect::set(&message, &"classCode".into(), &class_code.map_or(JsValue::NULL, JsValue::from));
    post(&message);
}

/// Tells the parent what happened: the event's documented detail.
pub fn post_event(event: &host::LabEvent, activity: &str, class_code: Option<&str>) {
    post(&event.detail_js(activity, class_code));
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

/// Whether a message from `origin` is `parent`'s `{type: "mrtr-lab:reset"}`.
pub fn is_reset(origin: &str, parent: &str, data: &JsValue) -> bool {
    origin == parent
        && js_sys::Reflect::get(data, &"type".into()).ok().and_then(|t| t.as_string()).as_deref()
            == Some("mrtr-lab:reset")
}

/// Listens for the parent's messages; the listener lives as long as the page.
pub fn listen(parent: String, send: Callback<Action>) {
    let Some(window) = web_sys::window() else { return };
    EventListener::new(&window, "message", move |event| {
        let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
        if let Some(by) = accepted_move(&event.origin(), &parent, &event.data()) {
            send.emit(Action::Play(by));
        } else if is_reset(&event.origin(), &parent, &event.data()) {
            // Progress forgotten, and the page opened again without it.
            crate::progress::reset();
            if let Some(window) = web_sys::window() {
                let _ = window.location().reload();
            }
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
    let (setup, class) = (props.params.setup.clone(), props.params.class.clone());
    let (lab, send) = view::use_lab(|| class.open(setup.open(), setup.names_scenario()));
    {
        // No moves for a lab the class does not offer: it is not shown.
        let send = if class.offers(lab.scenario) { send.clone() } else { Callback::noop() };
        let (parent, theme) = (props.params.parent.clone(), props.params.theme.clone());
        use_effect_with((), move |_| {
            apply_theme(theme.as_deref().unwrap_or("system"));
            if let Some(parent) = parent {
                listen(parent, send);
            }
        });
    }
    let host = use_memo((props.params.activity.clone(), props.params.class.clone()), |(activity, class)| {
        // The lab's own page, beside this one (`…/embed.html?…` → `…/`), with this page's
        // query: links to the whole lab carry the class's settings, the only part of it the
        // whole lab reads.
        let (page, query) = (page_address(), crate::browser::search());
        let dir = page.strip_suffix(&query).unwrap_or(&page).rsplit_once('/').map_or("", |(dir, _)| dir);
        let lab_page = format!("{dir}/{query}");
        let activity = activity.clone().unwrap_or_else(|| format!("{dir}/"));
        let code = class.code.clone();
        Host {
            emit: Callback::from(move |event: host::LabEvent| post_event(&event, &activity, code.as_deref())),
            lab_page: lab_page.into(),
            owns_document: true,
            class: class.clone(),
        }
    });
    use_effect(post_height);
    {
        // Once, after the first render: the parent may now send moves (docs/EMBEDDING.md).
        let situation = crate::share::to_fragment(&lab);
        let code = props.params.class.code.clone();
        use_effect_with((), move |_| post_ready(&situation, code.as_deref()));
    }
    // The iframe is a document of its own: its heading names it (the compact layout has no
    // page header), for a screen reader's list of headings; the sighted see the lab's intro.
    let title = mrtr_sim::scenarios::find(lab.scenario).map_or("", |s| s.title);
    html! {
        <>
            <h1 class="skip">{ format!("mrtr-lab: {title}") }</h1>
            <LabView {lab} {send} layout={Layout::Compact} host={(*host).clone()} />
        </>
    }
}
