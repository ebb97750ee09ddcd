//! The panels below the lab, and the parts of them that load when first near.
//!
//! "Test your server", Fix-It, the quick check and the continue code are custom elements
//! (`<mrtr-probe>`, `<mrtr-fixit>`, `<mrtr-quiz>`, `<mrtr-progress>`) of one module beside
//! the lab's files, `web/probe/elements.js`, which the lab adds to the document when the area
//! below the lab comes within a screen of the window: none of it weighs on a page's first
//! visit. What they say comes back as events, heard here once for all of them:
//! `mrtr-fixit:passed` and `mrtr-quiz:answered` leave as the lab's challenge and quiz events,
//! `mrtr-lab:open` opens a situation in this lab, `mrtr-lab:progress` has the challenges read
//! their record again (crate::progress).

use super::{campaign::CampaignPanel, challenges::Challenges, probe, quiz::quiz};
use crate::host::{Host, LabEvent};
use crate::state::{Action, Lab};
use crate::xapi::{FIX_IT, FIX_IT_GOAL};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// The events the parts dispatch.
const EVENTS: [&str; 4] = ["mrtr-fixit:passed", "mrtr-quiz:answered", "mrtr-lab:open", crate::progress::CHANGED_EVENT];

/// Adds the parts' module, beside the lab's own files, to the document, once.
fn load_elements(lab_page: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if document.get_element_by_id("mrtr-probe-elements").is_some() {
        return;
    }
    // The lab page's directory: its address may end in a class's settings (`?class=a/b`).
    let base = lab_page.split('?').next().and_then(|page| page.rsplit_once('/')).map_or("", |(dir, _)| dir);
    if let Ok(script) = document.create_element("script") {
        let _ = script.set_attribute("type", "module");
        let _ = script.set_attribute("id", "mrtr-probe-elements");
        let _ = script.set_attribute("src", &format!("{base}/probe/elements.js"));
        if let Some(head) = document.head() {
            let _ = head.append_child(&script);
        }
    }
}

/// A member of an event's `detail`.
fn member(event: &Event, name: &str) -> JsValue {
    let detail = event.dyn_ref::<web_sys::CustomEvent>().map(|e| e.detail());
    detail.and_then(|d| js_sys::Reflect::get(&d, &name.into()).ok()).unwrap_or(JsValue::UNDEFINED)
}

/// What the parts' module needs alive while the area is on the page: the observer that loads
/// it when near, and the listener of the parts' events.
struct Watch {
    area: web_sys::Element,
    observer: Option<web_sys::IntersectionObserver>,
    _near: Closure<dyn FnMut(js_sys::Array)>,
    heard: Closure<dyn FnMut(Event)>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
        for name in EVENTS {
            let _ = self.area.remove_event_listener_with_callback(name, self.heard.as_ref().unchecked_ref());
        }
    }
}

/// Watches `area`: loads the parts when it comes within a screen of the window (at once where
/// the browser cannot tell), and hands each of their events to `hear`. The area itself is
/// watched: what is inside a panel is not laid out while it is off screen
/// (`content-visibility: auto`), so the browser could not tell when that comes near.
fn watch(area: web_sys::Element, lab_page: Rc<str>, hear: impl FnMut(Event) + 'static) -> Watch {
    let at_once = lab_page.clone();
    let near = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let seen = entries
            .iter()
            .any(|entry| entry.dyn_into::<web_sys::IntersectionObserverEntry>().is_ok_and(|e| e.is_intersecting()));
        if seen {
            load_elements(&lab_page);
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("100% 0px");
    let observer = web_sys::IntersectionObserver::new_with_options(near.as_ref().unchecked_ref(), &options).ok();
    match &observer {
        Some(observer) => observer.observe(&area),
        None => load_elements(&at_once),
    }
    let heard = Closure::<dyn FnMut(Event)>::new(hear);
    for name in EVENTS {
        let _ = area.add_event_listener_with_callback(name, heard.as_ref().unchecked_ref());
    }
    Watch { area, observer, _near: near, heard }
}

/// How many times the record of what is done was changed from outside.
#[derive(Default, PartialEq)]
struct Changes(u32);

impl Reducible for Changes {
    type Action = ();

    fn reduce(self: Rc<Self>, (): ()) -> Rc<Self> {
        Rc::new(Changes(self.0.wrapping_add(1)))
    }
}

/// Props of [`AfterLab`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The lab, settled (drawn a task after the verdict).
    pub lab: Rc<Lab>,
    /// Sends an action to the reducer.
    pub send: Callback<Action>,
    /// Where the lab runs.
    pub host: Host,
}

/// The area below the lab: the campaign (where the scenario takes moves), the challenges, the
/// quick check, "Test your server" (on the lab's own page) and Fix-It.
#[component(AfterLab)]
pub fn after_lab(props: &Props) -> Html {
    let (area, progress) = (use_node_ref(), use_reducer(Changes::default));
    {
        let (area, host, send) = (area.clone(), props.host.clone(), props.send.clone());
        let changed = progress.dispatcher();
        use_effect_with((), move |()| {
            let hear = move |event: Event| match event.type_().as_str() {
                "mrtr-fixit:passed" => host.emit.emit(LabEvent::Challenge { id: FIX_IT, goal: FIX_IT_GOAL }),
                "mrtr-quiz:answered" => {
                    let number = |name| member(&event, name).as_f64().unwrap_or(0.0) as usize;
                    host.emit.emit(LabEvent::Quiz { score: number("score"), max: number("max") });
                }
                "mrtr-lab:open" => {
                    if let Some(situation) = member(&event, "situation").as_string() {
                        send.emit(Action::Restore(Box::new(crate::share::read_fragment(&situation))));
                    }
                }
                _ => changed.dispatch(()),
            };
            let watching = area.cast::<web_sys::Element>().map(|element| watch(element, host.lab_page.clone(), hear));
            move || drop(watching)
        });
    }
    let (lab, send, host) = (&props.lab, &props.send, &props.host);
    html! {
        <div class="after-lab" ref={area}>
            if lab.takes_moves() {
                <CampaignPanel lab={lab.clone()} host={host.clone()} />
            }
            <Challenges lab={lab.clone()} send={send.clone()} host={host.clone()} progress={progress.0} />
            { quiz(host) }
            if host.owns_document {
                { probe::probe_panel() }
                { probe::lint_panel() }
            }
            { probe::fix_it_panel(host) }
        </div>
    }
}
