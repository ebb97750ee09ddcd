//! The lab as a custom element's content: `web/element/mrtr-lab-element.js` defines
//! `<mrtr-lab>`, loads this module once for every element on the page, and calls
//! [`mount_lab`] with the element's attributes and a function that dispatches events.
//!
//! ```js
//! const mounted = glue.mountLab(container, { scenario: "misuse-ticket", moves: "tamper,alice",
//!   compact: true, activity: "https://course.example/mrtr", labPage: "https://lab.example/" },
//!   (name, detail) => host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true })));
//! mounted.play("alice");    // true: a move the lab knows
//! mounted.situation();      // "s=deploy&m=edit-payload,other-principal,other-principal&…"
//! mounted.unmount();
//! ```

use crate::class::Class;
use crate::host::{Host, LabEvent};
use crate::setup::Setup;
use crate::share;
use crate::state::{Action, Lab};
use crate::view::{LabView, Layout};
use mrtr_sim::moves::Move;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// What an element's lab shares with the script that mounted it: the way to send it actions,
/// and its latest state.
#[derive(Default)]
struct Shared {
    send: Option<Callback<Action>>,
    lab: Option<Rc<Lab>>,
}

/// A handle that compares by identity, so it can be a prop.
#[derive(Clone, Default)]
pub struct Outlet(Rc<RefCell<Shared>>);

impl PartialEq for Outlet {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Outlet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Outlet")
    }
}

/// Props of [`ElementLab`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The situation the attributes ask for.
    pub setup: Setup,
    /// Compact or full.
    pub layout: Layout,
    /// Offer the other scenarios (full layout only).
    pub picker: bool,
    /// Where events go and links point.
    pub host: Host,
    /// Shared with the [`MountedLab`].
    pub outlet: Outlet,
}

/// The lab inside one `<mrtr-lab>`.
#[component(ElementLab)]
pub fn element_lab(props: &Props) -> Html {
    let (setup, class) = (props.setup.clone(), props.host.class.clone());
    let (state, send) = crate::view::use_lab(move || class.open(setup.open(), setup.names_scenario()));
    {
        let mut shared = props.outlet.0.borrow_mut();
        // No moves for a lab the class does not offer: it is not shown.
        shared.send = props.host.class.offers(state.scenario).then(|| send.clone());
        shared.lab = Some(state.clone());
    }
    html! {
        <LabView lab={state} {send} layout={props.layout} picker={props.picker} host={props.host.clone()} />
    }
}

/// One mounted lab, for the element's script.
#[wasm_bindgen]
pub struct MountedLab {
    handle: Option<AppHandle<ElementLab>>,
    outlet: Outlet,
}

impl std::fmt::Debug for MountedLab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MountedLab").field("mounted", &self.handle.is_some()).finish()
    }
}

#[wasm_bindgen]
impl MountedLab {
    /// Plays a move (an id or an alias such as `tamper`, `alice`); false when there is no
    /// such move, the lab's scenario plays none, or its situation is full (`MAX_MOVES`).
    pub fn play(&self, by: &str) -> bool {
        let outlet = self.outlet.0.borrow();
        let can_play = outlet.lab.as_ref().is_some_and(|lab| lab.can_play_a_move());
        let (Some(by), Some(send), true) = (Move::from_id(by), outlet.send.clone(), can_play) else { return false };
        drop(outlet);
        send.emit(Action::Play(by));
        true
    }

    /// The situation now, as a share fragment (what the lab's "copy link" puts after `#`).
    pub fn situation(&self) -> String {
        self.outlet.0.borrow().lab.as_deref().map(share::to_fragment).unwrap_or_default()
    }

    /// Takes the lab out of the page.
    pub fn unmount(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
    }
}

fn text(options: &JsValue, name: &str) -> Option<String> {
    let value = js_sys::Reflect::get(options, &name.into()).ok()?;
    // A number property (`el.clock = 20`) reads as JavaScript's own String(n).
    value.as_string().or_else(|| js_sys::Number::from(value.as_f64()?).to_string_with_radix(10).ok().map(String::from))
}

/// Forgets the learner's progress in this browser (challenges met, Fix-It's pass and code):
/// the element's `reset()`, before it opens its labs again.
#[wasm_bindgen(js_name = resetProgress)]
pub fn reset_progress() {
    crate::progress::reset();
}

/// Mounts a lab inside `root` (an element in the custom element's shadow root). Options are
/// the element's attributes (`situation`, `scenario`, `moves`, `clock`, `record`, `signing`,
/// `reply`, `step`, `compact`, `picker`), what an instructor set (`hide`, `scenarios`, `class`:
/// [`Class`]), `activity` (the lesson's activity IRI, prefix of the xAPI object ids) and
/// `labPage` (the lab's own page, for links to it; with the class's settings as its query, so they
/// carry them). `emit(name, detail)` hears every event.
#[wasm_bindgen(js_name = mountLab)]
pub fn mount_lab(root: web_sys::Element, options: JsValue, emit: js_sys::Function) -> MountedLab {
    crate::panic::install_panic_hook();
    let flag = |name: &str| js_sys::Reflect::get(&options, &name.into()).is_ok_and(|c| c.is_truthy());
    let (compact, picker) = (flag("compact"), flag("picker"));
    let lab_page = text(&options, "labPage").unwrap_or_default();
    let activity = text(&options, "activity").unwrap_or_else(|| lab_page.clone());
    let class = Rc::new(Class::read(&mut |name| text(&options, name)));
    let code = class.code.clone();
    let host = Host {
        emit: Callback::from(move |event: LabEvent| {
            let _ = emit.call2(&JsValue::NULL, &event.name().into(), &event.detail_js(&activity, code.as_deref()));
        }),
        lab_page: lab_page.into(),
        owns_document: false,
        class,
    };
    let outlet = Outlet::default();
    let props = Props {
        setup: Setup::read(|name| text(&options, name)),
        layout: if compact { Layout::Compact } else { Layout::Full },
        picker,
        host,
        outlet: outlet.clone(),
    };
    let handle = yew::Renderer::<ElementLab>::with_root_and_props(root, props).render();
    MountedLab { handle: Some(handle), outlet }
}
